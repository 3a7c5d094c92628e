// Deconvolution on the gpu engine through the convolution kernels
// (conv_gemm.hpp) with the tensors' roles exchanged: a deconvolution is the
// transpose of the convolution whose source is the deconvolution's
// destination, so
//   deconvolution forward          = convolution backward data (with bias,
//                                    scales, zero points and post-ops)
//   deconvolution backward data    = convolution forward
//   deconvolution backward weights = convolution backward weights with
//                                    source and diff_dst exchanged (the
//                                    diff bias sums the diff_dst)
// and the weights seen with their two channel axes swapped.
#pragma once

#include "common/deconvolution_pd.hpp"
#include "gpu/ocl/convolution/conv_gemm.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_deconvolution_t : public primitive_t {
    struct pd_t : public ocl_pd_t<deconvolution_pd_t, ocl_deconvolution_t> {
        using ocl_pd_t<deconvolution_pd_t, ocl_deconvolution_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return "ocl:conv:igemm"; }

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
