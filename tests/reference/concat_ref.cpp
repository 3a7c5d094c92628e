// Concat reference; see concat_ref.hpp.
#include "reference/concat_ref.hpp"

namespace concat_ref {

void compute(const std::vector<std::vector<int64_t>> &src_dims,
        const std::vector<const float *> &srcs, int axis, double *dst,
        const std::vector<double> &scales) {
    if (srcs.empty()) return;
    const auto &d0 = src_dims[0];
    int64_t outer = 1, inner = 1, total_axis = 0;
    for (int d = 0; d < axis; ++d)
        outer *= d0[d];
    for (size_t d = axis + 1; d < d0.size(); ++d)
        inner *= d0[d];
    for (const auto &d : src_dims)
        total_axis += d[axis];
    int64_t start = 0;
    for (size_t s = 0; s < srcs.size(); ++s) {
        const int64_t a = src_dims[s][axis];
        const double sc = scales.empty() ? 1.0 : scales[s];
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < a * inner; ++i)
                dst[(o * total_axis + start) * inner + i] = sc * srcs[s][o * a * inner + i];
        start += a;
    }
}

} // namespace concat_ref
