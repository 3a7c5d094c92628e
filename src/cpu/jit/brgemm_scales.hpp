// The int8 quantization of the primitives on the u8 x s8 BRGEMM kernels.
// Scales: the source's (one value) times the weights' (one, or one per
// output column) multiply the converted sums (one factor or one per
// column); the destination's (one value, a divisor) and the destination
// zero point (one value) apply after the bias and the post-ops, as in
// oneDNN (brgemm_config_t::dst_scale / dst_zp).
#pragma once

#include <cstdint>

#include "common/c_types.hpp"
#include "common/exec_ctx.hpp"
#include "common/primitive_attr.hpp"
#include "cpu/jit/brgemm_kernel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

// Whether the kernel can apply `attr`'s scales; `per_n_mask` is the
// weights' mask of per-output-column scales. Sets `kind` (source and
// weights) and `dst` (a destination scale).
bool brgemm_scales_ok(const primitive_attr_t &attr, int per_n_mask,
        brgemm_scale_t &kind, bool &dst);

// The combined source and weights scales of an execution: `common` (kind
// common) or `per_n` (kind per_n: N floats the caller provides) filled,
// `out` pointing at the one the kernel reads. invalid_arguments where a
// buffer is missing.
status_t brgemm_combine_scales(const exec_ctx_t &ctx,
        const primitive_attr_t &attr, brgemm_scale_t kind, dim_t N,
        float &common, float *per_n, const float *&out);

// s8 sources and source zero points: the kernels read an s8 source as
// u8 plus 128 (brgemm_config_t::a_s8) and subtract shift x (column sum of
// the weights) per column (brgemm_config_t::comp). Whether `attr`'s zero
// points are ones this takes (the source's and the destination's, one
// s32 value each); sets `src_zp` and `dst_zp`.
bool brgemm_zero_points_ok(
        const primitive_attr_t &attr, bool &src_zp, bool &dst_zp);

// The execution's shift: 128 for an s8 source, plus the source zero point.
status_t brgemm_src_shift(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        bool a_s8, int32_t &shift);

// The destination's quantization for the kernel's arguments: 1 / scale
// (1 without one) and the zero point as a float (0 without one).
status_t brgemm_dst_quant(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        float &inv_scale, float &zp);

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
