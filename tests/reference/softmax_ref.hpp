// Naive references of softmax on logical tensors (row-major doubles):
//   forward:  softmax: exp(x - max) / sum exp(x - max) along `axis`;
//             logsoftmax: x - max - log(sum exp(x - max));
//   backward: softmax: diff_src = dst * (diff_dst - sum(diff_dst * dst));
//             logsoftmax: diff_src = diff_dst - exp(dst) * sum(diff_dst).
#pragma once

#include <cstdint>
#include <vector>

namespace softmax_ref {

std::vector<double> forward(const std::vector<double> &src,
        const std::vector<int64_t> &dims, int axis, bool log);
std::vector<double> backward(const std::vector<double> &dst,
        const std::vector<double> &diff_dst, const std::vector<int64_t> &dims,
        int axis, bool log);

} // namespace softmax_ref
