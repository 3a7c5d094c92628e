// Naive reference of the sum primitive on logical tensors (row-major
// doubles of equal dims): dst = sum_i scale_i * src_i.
#pragma once

#include <vector>

namespace sum_ref {

std::vector<double> compute(const std::vector<std::vector<double>> &srcs,
        const std::vector<double> &scales);

} // namespace sum_ref
