// Naive reference of the pooling primitive (max, average including or
// excluding padding; forward and backward) on dense N x C x spatial tensors
// with 1 to 3 spatial dims, strides, padding and dilation, in double
// precision. Written without library code.
#pragma once

#include <cstdint>

#include "oneapi/dnnl/dnnl_types.h"

namespace pool_ref {

struct desc_t {
    dnnl_alg_kind_t alg = dnnl_pooling_max;
    int64_t mb = 1, c = 1;
    int nsp = 2; // spatial dims, in order (d, h, w) trimmed to nsp
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    int64_t k[3] = {1, 1, 1}, stride[3] = {1, 1, 1};
    int64_t pad[3] = {0, 0, 0}; // left padding
    int64_t dil[3] = {0, 0, 0}; // oneDNN convention: 0 = no dilation
};

// Max pooling ignores padded positions; avg_include_padding divides by the
// kernel size, avg_exclude_padding by the number of positions inside.
void forward(const desc_t &d, const float *src, double *dst);

// Max: the gradient goes to the first maximum in kernel order.
void backward(const desc_t &d, const float *src, const float *diff_dst, double *diff_src);

} // namespace pool_ref
