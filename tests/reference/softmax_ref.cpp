// Softmax reference; see softmax_ref.hpp.
#include "reference/softmax_ref.hpp"

#include <cmath>
#include <limits>

namespace softmax_ref {

namespace {
// The tensor as [outer][axis][inner].
void split_dims(const std::vector<int64_t> &dims, int axis, int64_t &outer, int64_t &n,
        int64_t &inner) {
    outer = inner = 1;
    for (int d = 0; d < axis; ++d)
        outer *= dims[d];
    n = dims[axis];
    for (size_t d = axis + 1; d < dims.size(); ++d)
        inner *= dims[d];
}
} // namespace

void forward(bool log_softmax, const std::vector<int64_t> &dims, int axis, const float *src,
        double *dst) {
    int64_t outer, n, inner;
    split_dims(dims, axis, outer, n, inner);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * n * inner + i;
            double mx = -std::numeric_limits<double>::infinity();
            for (int64_t a = 0; a < n; ++a)
                mx = std::fmax(mx, (double)src[base + a * inner]);
            double sum = 0;
            for (int64_t a = 0; a < n; ++a)
                sum += std::exp((double)src[base + a * inner] - mx);
            for (int64_t a = 0; a < n; ++a) {
                const double x = (double)src[base + a * inner] - mx;
                dst[base + a * inner] = log_softmax ? x - std::log(sum) : std::exp(x) / sum;
            }
        }
}

void backward(bool log_softmax, const std::vector<int64_t> &dims, int axis, const float *dst,
        const float *diff_dst, double *diff_src) {
    int64_t outer, n, inner;
    split_dims(dims, axis, outer, n, inner);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * n * inner + i;
            double sum = 0;
            for (int64_t a = 0; a < n; ++a) {
                const int64_t k = base + a * inner;
                sum += log_softmax ? (double)diff_dst[k] : (double)diff_dst[k] * dst[k];
            }
            for (int64_t a = 0; a < n; ++a) {
                const int64_t k = base + a * inner;
                diff_src[k] = log_softmax ? diff_dst[k] - std::exp((double)dst[k]) * sum
                                          : dst[k] * (diff_dst[k] - sum);
            }
        }
}

} // namespace softmax_ref
