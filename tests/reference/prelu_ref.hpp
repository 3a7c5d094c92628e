// Naive reference of the PReLU primitive: dst = src > 0 ? src : w * src,
// with the weights broadcast against the source (each weights dim equals
// the source's or is 1); backward also reduces diff_weights over the
// broadcast dims. Dense row-major tensors, double precision, no library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace prelu_ref {

void forward(const std::vector<int64_t> &dims, const float *src,
        const std::vector<int64_t> &wei_dims, const float *wei, double *dst);

void backward(const std::vector<int64_t> &dims, const float *src,
        const std::vector<int64_t> &wei_dims, const float *wei, const float *diff_dst,
        double *diff_src, double *diff_wei);

} // namespace prelu_ref
