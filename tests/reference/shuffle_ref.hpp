// Naive reference of the shuffle primitive: along `axis` (size C) the
// elements are seen as a (C/G) x G matrix (G = group size) and transposed:
//   dst[..., i, ...] = src[..., (i mod (C/G)) * G + i div (C/G), ...]
// Backward is the same permutation with G replaced by C/G. Dense row-major
// tensors, written without library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shuffle_ref {

// Source index along the axis for destination index `i`.
int64_t src_index(int64_t i, int64_t axis_size, int64_t group);

void forward(const std::vector<int64_t> &dims, int axis, int64_t group, const float *src,
        double *dst);

} // namespace shuffle_ref
