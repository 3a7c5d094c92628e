// The convolution driver: completes a plan (canonical layouts, arithmetic,
// work split, scratchpad) and executes it. It sees only convolution roles;
// the convolution and deconvolution primitives translate their arguments.
//
// Kernels (one file each):
//   conv_fwd_igemm.cpp forward on f32/bf16/f16 data: implicit GEMM on the
//                      GEMM core's microkernels
//   conv_fwd.cpp       forward on int8 data: im2col (or the source) x
//                      weights through the GEMM core's s32 / f32 entry
//                      points, epilogue fused per block
//   conv_fwd_dw.cpp    forward depthwise: direct kernel
//   conv_bwd_data.cpp  backward data: weights^T x diff_dst, col2im
//   conv_bwd_weights.cpp backward weights: diff_dst x im2col^T, per-thread
//                      partial sums reduced at the end, diff bias
#pragma once

#include "common/primitive_attr.hpp"
#include "cpu/convolution/conv_epilogue.hpp"
#include "cpu/convolution/conv_plan.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

// The pointers of one execution, in convolution roles (user memory).
struct conv_io_t {
    const void *src = nullptr; // fwd, bwd_w
    void *diff_src = nullptr; // bwd_d
    const void *wei = nullptr; // fwd, bwd_d
    void *diff_wei = nullptr; // bwd_w
    void *diff_bias = nullptr; // bwd_w
    const void *diff_dst = nullptr; // bwd_d, bwd_w
    void *dst = nullptr; // fwd
    // Zero points of the activation the GEMM reads (fwd: src, bwd_d:
    // diff_dst); null when none.
    const int32_t *in_zp = nullptr;
};

// Fills what the descriptor left to the driver. Before the call the
// descriptor sets kind, c, layout, the user mds (resolved), with_bias,
// bias_from_src and depthwise_direct, and initialises `epi` for fwd and
// bwd_d. `in_zp_per_c` tells whether the input zero points vary by channel.
status_t plan_finalize(conv_plan_t &p, bool has_in_zp, bool in_zp_per_c);

status_t plan_execute(const conv_plan_t &p, const conv_io_t &io,
        const epilogue_args_t &ea, void *scratchpad);

// Kernels on canonical tensors (called by plan_execute).
struct conv_canon_t {
    const void *src = nullptr;
    void *diff_src = nullptr;
    const void *wei = nullptr; // kernel layout
    float *diff_wei = nullptr; // kernel layout, f32
    float *diff_bias = nullptr; // f32
    const void *diff_dst = nullptr;
    void *dst = nullptr;
    const int32_t *in_zp = nullptr;
    bool zp_shift = false; // math is shifted_f32 for this execution
};
void conv_fwd_gemm(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad);
void conv_fwd_igemm(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad);
void conv_fwd_depthwise(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad);
void conv_bwd_data_gemm(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad);
void conv_bwd_weights_gemm(
        const conv_plan_t &p, const conv_canon_t &t, void *scratchpad);
void conv_bwd_data_depthwise(
        const conv_plan_t &p, const conv_canon_t &t, void *scratchpad);
void conv_bwd_weights_depthwise(
        const conv_plan_t &p, const conv_canon_t &t, void *scratchpad);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
