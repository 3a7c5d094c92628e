// Naive sum reference (see sum_ref.hpp).
#include "reference/sum_ref.hpp"

#include <cstddef>

namespace sum_ref {

std::vector<double> compute(const std::vector<std::vector<double>> &srcs,
        const std::vector<double> &scales) {
    std::vector<double> dst(srcs.empty() ? 0 : srcs[0].size(), 0.0);
    for (size_t i = 0; i < srcs.size(); ++i)
        for (size_t j = 0; j < dst.size(); ++j)
            dst[j] += scales[i] * srcs[i][j];
    return dst;
}

} // namespace sum_ref
