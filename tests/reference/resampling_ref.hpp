// Naive reference of the resampling primitive (nearest and linear, forward
// and backward) on dense N x C x spatial tensors with 1 to 3 spatial dims.
// For each spatial dim with input size I and output size O, output point o
// maps to x = (o + 0.5) * I / O - 0.5: nearest takes the source at round(x),
// linear blends floor(x) and ceil(x) with weights (1 - w, w), w = x - floor(x);
// indices are clamped to [0, I - 1]. Double precision, no library code.
#pragma once

#include <cstdint>

#include "oneapi/dnnl/dnnl_types.h"

namespace resampling_ref {

struct desc_t {
    dnnl_alg_kind_t alg = dnnl_resampling_nearest;
    int64_t mb = 1, c = 1;
    int nsp = 2;
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
};

void forward(const desc_t &d, const float *src, double *dst);
// diff_src accumulates every diff_dst value with the forward weights.
void backward(const desc_t &d, const float *diff_dst, double *diff_src);

} // namespace resampling_ref
