// Matmul on the gpu engine, on the OpenCL GEMM kernels (gpu/ocl/gemm):
// f32 / bf16 / f16 (computed in f32) and u8/s8 x s8/u8 (s32 accumulation
// with zero points), batched with broadcast, any plain strides, runtime
// dims, bias of any broadcast, scales (per tensor, per N for weights and
// dst), dst zero points, fused eltwise / sum / binary post-ops, the
// dropout attribute and stochastic rounding of dst; weight decompression
// (integer weights) fused into the GEMV kernel for a few rows (otherwise
// ocl:decompress, decompress_matmul.hpp).
#pragma once

#include "common/matmul_pd.hpp"
#include "gpu/ocl/gemm/gemm_kernel.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_matmul_t : public primitive_t {
    struct pd_t : public ocl_pd_t<matmul_pd_t, ocl_matmul_t> {
        pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : ocl_pd_t(d, attr) {}
        status_t init(engine_t *engine);
        const char *name() const override { return plan.name.c_str(); }
        // In the GEMM epilogue (gemm_conf_t::dropout).
        bool handles_dropout() const override { return true; }

        gemm_conf_t conf;
        gemm_plan_t plan;
        // Weight decompression: groups and strides of gemm_exec_t::bq_*.
        dim_t bq_groups[4] = {1, 1, 1, 1}, bq_strides[4] = {0, 0, 0, 0};
        dim_t bq_counts[2] = {0, 0}; // elements of the scale, zero point

    private:
        bool decompresses() const; // integer weights, floating-point src
        bool data_types_ok() const;
        bool attr_ok() const;
        status_t init_decompression();
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    gemm_kernels_t kernels_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
