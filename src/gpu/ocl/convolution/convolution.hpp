// Convolution on the gpu engine: forward (bias, scales, zero points,
// post-ops), backward data and backward weights (with diff bias), 1D to
// 3D, groups, any blocked layouts, f32 / f16 / bf16 / int8, all through
// the implicit-GEMM kernels of conv_gemm.hpp.
#pragma once

#include "common/convolution_pd.hpp"
#include "gpu/ocl/convolution/conv_gemm.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_convolution_t : public primitive_t {
    struct pd_t : public ocl_pd_t<convolution_pd_t, ocl_convolution_t> {
        using ocl_pd_t<convolution_pd_t, ocl_convolution_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return conf.dw_direct ? "ocl:dw:direct" : "ocl:igemm";
        }

        conv_gemm_conf_t conf;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    conv_gemm_t gemm_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
