// The int8 quantization of the primitives on the u8 x s8 BRGEMM kernels.
// Scales: the
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

// s8 sources and source zero points: the kernels read an s8 source as
// u8 plus 128 (brgemm_config_t::a_s8) and subtract shift x (column sum of
// the weights) per column (brgemm_config_t::comp). Whether `attr`'s zero
// points are ones this takes (the source's, one s32 value); sets
// `src_zp`.
bool brgemm_zero_points_ok(const primitive_attr_t &attr, bool &src_zp);

// The execution's shift: 128 for an s8 source, plus the source zero point.
status_t brgemm_src_shift(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        bool a_s8, int32_t &shift);

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
