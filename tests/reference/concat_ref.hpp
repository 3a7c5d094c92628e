// Naive reference of the concat primitive on logical tensors (row-major
// doubles): the sources one after the other along `axis`, each multiplied
// by its scale.
#pragma once

#include <cstdint>
#include <vector>

namespace concat_ref {

std::vector<double> compute(const std::vector<std::vector<double>> &srcs,
        const std::vector<std::vector<int64_t>> &dims, int axis,
        const std::vector<double> &scales);

} // namespace concat_ref
