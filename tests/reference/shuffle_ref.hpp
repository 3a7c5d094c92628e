// Naive reference of the shuffle primitive on logical tensors (row-major
// doubles): the axis of size C seen as a (C / G) x G matrix is transposed,
// dst(.., u + v * C/G, ..) = src(.., u * G + v, ..). The backward pass is
// the same operation with G replaced by C / G.
#pragma once

#include <cstdint>
#include <vector>

namespace shuffle_ref {

std::vector<double> compute(const std::vector<double> &src,
        const std::vector<int64_t> &dims, int axis, int64_t group);

} // namespace shuffle_ref
