// The channel-vector pooling walk, forward and backward, for f32 tensors
// whose channels can be cut into groups of up to 16 that are worked on as
// a few vectors:
//  direct: the lanes of a group are contiguous in memory (nhwc and the other
//          channels-last tags: groups of 64 channels; nChw16c / nChw8c: one
//          block per group);
//  ncsp:   w is the innermost dim (nchw, ...): 16 channel rows at a time are
//          transposed into a small lane-contiguous buffer, pooled there and
//          transposed back.
// Windows are clipped once per output row (d and h taps) and once per
// output column (w taps, precomputed), so the innermost loops are plain
// vector operations over the lanes of a group with no padding test.
#pragma once

#include "cpu/pooling/pooling.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

// Element strides of one tensor in the walk. Lane l of channel group j at
// spatial point (d, h, w) of image n is at
//   n * n_ + j * g + l * c + d * d_ + h * h_ + w * w_.
struct cv_view_t {
    dim_t n = 0, g = 0, c = 0, d = 0, h = 0, w = 0;
};

enum class cv_kind_t { direct, ncsp };

// Reads `md` as a channel-vector view of the given kind (group width,
// strides, and whether the last group has padded lanes in memory). False
// when the layout does not fit that kind.
bool cv_view_of(const memory_desc_t &md, cv_kind_t kind, int &gw, cv_view_t &v,
        bool &padded);

// One execution. Forward: in = src, out = dst (ws written for max
// training). Backward: in = diff_dst, out = diff_src (ws read for max).
struct cv_args_t {
    geom_t g;
    alg_kind_t alg;
    cv_kind_t kind;
    int gw;         // channels per group (64 channels-last, 16 or 8 blocked,
                    // 16 ncsp)
    dim_t ngroups;  // ceil(C / gw)
    int tail;       // channels in the last group, 1..gw
    bool out_padded; // the last group of out has padded lanes to zero
    bool ws_padded;  // the same for a forward workspace
    const float *in; // at offset0
    float *out;      // at offset0
    void *ws;        // at offset0 of its type; null without workspace
    bool wu8;        // u8 (else s32) workspace
    cv_view_t I, O, W;
    int nthr;
};

// Per-ISA entry points (pooling_cv_kernels.cpp).
struct cv_kernels_t {
    void (*fwd)(const cv_args_t &a);
    void (*bwd)(const cv_args_t &a);
};

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
