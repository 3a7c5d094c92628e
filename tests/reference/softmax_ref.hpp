// Naive reference of the softmax primitive (softmax and logsoftmax, forward
// and backward) along one axis of a dense row-major tensor, in double
// precision. Written without library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace softmax_ref {

// dst = exp(src - max) / sum(exp(src - max)), or for logsoftmax
// dst = src - max - log(sum(exp(src - max))), along `axis`.
void forward(bool log_softmax, const std::vector<int64_t> &dims, int axis, const float *src,
        double *dst);

// softmax:    diff_src = dst * (diff_dst - sum(diff_dst * dst))
// logsoftmax: diff_src = diff_dst - exp(dst) * sum(diff_dst)
void backward(bool log_softmax, const std::vector<int64_t> &dims, int axis, const float *dst,
        const float *diff_dst, double *diff_src);

} // namespace softmax_ref
