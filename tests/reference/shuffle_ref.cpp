// Shuffle reference; see shuffle_ref.hpp.
#include "reference/shuffle_ref.hpp"

namespace shuffle_ref {

int64_t src_index(int64_t i, int64_t c, int64_t group) {
    const int64_t rows = c / group;
    return (i % rows) * group + i / rows;
}

void forward(const std::vector<int64_t> &dims, int axis, int64_t group, const float *src,
        double *dst) {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d)
        outer *= dims[d];
    for (size_t d = axis + 1; d < dims.size(); ++d)
        inner *= dims[d];
    const int64_t c = dims[axis];
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < c; ++i) {
            const int64_t si = src_index(i, c, group);
            for (int64_t k = 0; k < inner; ++k)
                dst[(o * c + i) * inner + k] = src[(o * c + si) * inner + k];
        }
}

} // namespace shuffle_ref
