// Sum reference; see sum_ref.hpp.
#include "reference/sum_ref.hpp"

namespace sum_ref {

void compute(int64_t n, const std::vector<const float *> &srcs, const std::vector<double> &scales,
        double *dst) {
    for (int64_t i = 0; i < n; ++i) {
        double v = 0;
        for (size_t s = 0; s < srcs.size(); ++s)
            v += scales[s] * srcs[s][i];
        dst[i] = v;
    }
}

} // namespace sum_ref
