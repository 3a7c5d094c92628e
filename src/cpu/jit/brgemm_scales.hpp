// The int8 scales of the primitives on the u8 x s8 BRGEMM kernels: the
// source's (one value), the weights' (one, or one per output column) and
// the destination's (one value, a divisor), combined into what the
// kernel multiplies its converted sums by: one factor or one per column.
// The destination's divides the sums before the bias and the post-ops
// are applied, so it is taken only where there are none (oneDNN applies
// it last).
#pragma once

#include "common/c_types.hpp"
#include "common/exec_ctx.hpp"
#include "common/primitive_attr.hpp"
#include "cpu/jit/brgemm_kernel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

// Whether the kernel can apply `attr`'s scales; `per_n_mask` is the
// weights' mask of per-output-column scales, `epilogue` whether a bias
// or post-ops follow the scaling. Sets `kind`.
bool brgemm_scales_ok(const primitive_attr_t &attr, int per_n_mask,
        bool epilogue, brgemm_scale_t &kind);

// The combined scales of an execution: `common` (kind common) or `per_n`
// (kind per_n: N floats the caller provides) filled, `out` pointing at
// the one the kernel reads. invalid_arguments where a buffer is missing.
status_t brgemm_combine_scales(const exec_ctx_t &ctx,
        const primitive_attr_t &attr, brgemm_scale_t kind, dim_t N,
        float &common, float *per_n, const float *&out);

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
