// Inner product on the gpu engine, on the OpenCL GEMM kernels
// (gpu/ocl/gemm), all three propagation kinds:
//   forward:          dst = src . weights^T (+ scales, bias, post-ops),
//                     f32 / bf16 / f16 and u8/s8 x s8;
//   backward data:    diff_src = diff_dst . weights;
//   backward weights: diff_weights = diff_dst^T . src, and diff_bias as
//                     column sums of diff_dst (ip_bias.cl).
// Sources of 2 to 5 dims are flattened in their memory order, which must
// be dense over IC and spatial dims and shared by the weights.
#pragma once

#include "common/inner_product_pd.hpp"
#include "gpu/ocl/gemm/gemm_kernel.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_inner_product_t : public primitive_t {
    struct pd_t : public ocl_pd_t<inner_product_pd_t, ocl_inner_product_t> {
        pd_t(const inner_product_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : ocl_pd_t(d, attr) {}
        status_t init(engine_t *engine);
        const char *name() const override { return plan.name.c_str(); }

        gemm_conf_t conf;
        gemm_plan_t plan;

    private:
        bool data_types_ok() const;
        bool attr_ok() const;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    gemm_kernels_t kernels_;
    ocl_kernel_t bias_kernel_; // backward weights with diff_bias
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
