// Overflow-checked arithmetic on dims for argument validation: sizes come
// from callers and may be anything a dim_t holds, so every product or sum
// a check computes is checked itself (false: it does not fit in dim_t).
#pragma once

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {

inline bool dim_mul(dim_t a, dim_t b, dim_t &r) {
    return !__builtin_mul_overflow(a, b, &r);
}

inline bool dim_add(dim_t a, dim_t b, dim_t &r) {
    return !__builtin_add_overflow(a, b, &r);
}

// Output length of a sliding window (convolution, deconvolution in
// reverse, pooling): (in + pad_l + pad_r - ext) / stride + 1, where the
// kernel covers ext = (kernel - 1) * (dilation + 1) + 1 points. Strides
// must be positive; false when a step overflows. `slack` (when given)
// receives in + pad_l + pad_r - ext: negative when the window is longer
// than the padded input.
inline bool window_out(dim_t in, dim_t kernel, dim_t dilation, dim_t pad_l,
        dim_t pad_r, dim_t stride, dim_t &out, dim_t *slack = nullptr) {
    dim_t dil1, ext, span, lr;
    if (stride <= 0 || !dim_add(dilation, 1, dil1)
            || !dim_mul(kernel - 1, dil1, ext) || !dim_add(ext, 1, ext)
            || !dim_add(pad_l, pad_r, lr) || !dim_add(in, lr, span)
            || !dim_add(span, -ext, span))
        return false;
    out = span / stride + 1;
    if (slack) *slack = span;
    return true;
}

} // namespace impl
} // namespace dnnl
