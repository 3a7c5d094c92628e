// Naive reference of local response normalization (across and within
// channels, forward and backward) on dense N x C x spatial tensors:
//   dst = src * (k + alpha / S * sum over the window of src^2)^-beta
// with the window [i - (n-1)/2, i + (n+1)/2 - 1] (n - 1 wide for even n)
// clipped to the tensor, along the channels (S = n) or along every spatial
// dim (S = n^spatial dims).
// Double precision, written without library code.
#pragma once

#include <cstdint>

#include "oneapi/dnnl/dnnl_types.h"

namespace lrn_ref {

struct desc_t {
    dnnl_alg_kind_t alg = dnnl_lrn_across_channels;
    int64_t mb = 1, c = 1;
    int nsp = 2;
    int64_t sp[3] = {1, 1, 1}; // spatial dims in order, nsp of them
    int64_t size = 5;
    double alpha = 1e-4, beta = 0.75, k = 1;
};

void forward(const desc_t &d, const float *src, double *dst);
void backward(const desc_t &d, const float *src, const float *diff_dst, double *diff_src);

} // namespace lrn_ref
