// Naive references of PReLU on logical tensors (row-major doubles); the
// weights (and diff_weights) broadcast along their dims of size 1:
//   forward:  dst = src > 0 ? src : w * src;
//   backward: diff_src = src > 0 ? diff_dst : w * diff_dst,
//             diff_w = sum over the broadcast positions of
//                      (src > 0 ? 0 : src * diff_dst).
#pragma once

#include <cstdint>
#include <vector>

namespace prelu_ref {

using dims_t = std::vector<int64_t>;

std::vector<double> forward(const std::vector<double> &src, const dims_t &dims,
        const std::vector<double> &w, const dims_t &wdims);
void backward(const std::vector<double> &src, const dims_t &dims,
        const std::vector<double> &w, const dims_t &wdims,
        const std::vector<double> &diff_dst, const dims_t &dwdims,
        std::vector<double> &diff_src, std::vector<double> &diff_w);

} // namespace prelu_ref
