// Naive concat reference (see concat_ref.hpp).
#include "reference/concat_ref.hpp"

#include <cstddef>

namespace concat_ref {

std::vector<double> compute(const std::vector<std::vector<double>> &srcs,
        const std::vector<std::vector<int64_t>> &dims, int axis,
        const std::vector<double> &scales) {
    // outer (dims before axis) x [axis slice of each source] x inner
    const std::vector<int64_t> &d0 = dims[0];
    int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k) outer *= d0[k];
    for (size_t k = axis + 1; k < d0.size(); ++k) inner *= d0[k];
    std::vector<double> dst;
    for (int64_t o = 0; o < outer; ++o)
        for (size_t i = 0; i < srcs.size(); ++i) {
            const int64_t slice = dims[i][axis] * inner;
            for (int64_t j = 0; j < slice; ++j)
                dst.push_back(scales[i] * srcs[i][o * slice + j]);
        }
    return dst;
}

} // namespace concat_ref
