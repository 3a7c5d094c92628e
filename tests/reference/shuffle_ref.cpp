// Naive shuffle reference (see shuffle_ref.hpp).
#include "reference/shuffle_ref.hpp"

#include <cstddef>

namespace shuffle_ref {

std::vector<double> compute(const std::vector<double> &src,
        const std::vector<int64_t> &dims, int axis, int64_t group) {
    int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k) outer *= dims[k];
    for (size_t k = axis + 1; k < dims.size(); ++k) inner *= dims[k];
    const int64_t C = dims[axis], rows = C / group;
    std::vector<double> dst(src.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t u = 0; u < rows; ++u)
            for (int64_t v = 0; v < group; ++v)
                for (int64_t i = 0; i < inner; ++i)
                    dst[(o * C + u + v * rows) * inner + i] =
                            src[(o * C + u * group + v) * inner + i];
    return dst;
}

} // namespace shuffle_ref
