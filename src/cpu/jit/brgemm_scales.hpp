// The int8 quantization of the primitives on the u8 x s8 BRGEMM kernels,
// decided once per descriptor (brgemm_quant_t) and evaluated once per
// execution (brgemm_quant_values_t):
// - the source's scale (one value) times the weights' (one, or one per
//   output column) multiply the converted sums;
// - the destination's scale (one value, a divisor) and zero point (one
//   value) apply after the bias and the post-ops, as in oneDNN; with
//   neither a bias nor post-ops the scale is folded into the sums'
//   scales instead (one multiplication less per vector);
// - an s8 source is read as u8 plus 128 (brgemm_config_t::a_s8) by the
//   VNNI kernels, and the sums are corrected by -shift x the weights'
//   column sums, shift = 128 (s8) + the source zero point
//   (brgemm_config_t::comp); the primitive makes the corrections, which
//   depend on its weight layout. The AMX kernels multiply s8 by s8
//   exactly (exact_s8): shift is the zero point alone.
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

struct brgemm_quant_t {
    brgemm_scale_t scale = brgemm_scale_t::none; // of the sums
    bool fold_dst = false;  // the dst scale divides the sums' scales
    bool dst_scale = false; // the dst scale applied last, by the kernel
    bool dst_zp = false;
    bool src_zp = false;
    bool a_s8 = false;
    // The kernels take s8 sources as they are (AMX); set by the primitive
    // once it has its target, before configure().
    bool exact_s8 = false;
    bool comp() const { return (a_s8 && !exact_s8) || src_zp; }

    // Whether the kernels take `attr`'s scales and zero points (f32
    // scales: source and destination common, weights common or with
    // `per_n_mask`; s32 zero points: source and destination common).
    // `epilogue`: a bias or post-ops follow the scaling. Fills *this.
    bool init(const primitive_attr_t &attr, int per_n_mask, bool epilogue,
            bool s8_source);
    // Sets the kernel configuration's quantization fields.
    void configure(brgemm_config_t &cfg) const;
};

// One execution's values. `scales` points at `common` or at the caller's
// per-column buffer: use the object where it was filled.
struct brgemm_quant_values_t {
    float common = 1.f;
    const float *scales = nullptr;
    float dst_inv_scale = 1.f, dst_zp = 0.f;
    int32_t shift = 0;

    // `per_n`: N floats for per-column scales (unused otherwise).
    // invalid_arguments where a scale or zero point buffer is missing.
    status_t init(const exec_ctx_t &ctx, const primitive_attr_t &attr,
            const brgemm_quant_t &q, dim_t N, float *per_n);
    // The arguments of a tile whose first column is n0.
    void set_args(brgemm_args_t &a, const brgemm_quant_t &q, dim_t n0) const;
};

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
