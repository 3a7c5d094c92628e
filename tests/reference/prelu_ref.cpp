// Naive PReLU references (see prelu_ref.hpp).
#include "reference/prelu_ref.hpp"

#include <cstddef>

namespace prelu_ref {

namespace {
int64_t volume(const dims_t &d) {
    int64_t n = 1;
    for (int64_t v : d) n *= v;
    return n;
}
int64_t bcast(const dims_t &d, const std::vector<int64_t> &pos) {
    int64_t idx = 0;
    for (size_t k = 0; k < d.size(); ++k)
        idx = idx * d[k] + (d[k] == 1 ? 0 : pos[k]);
    return idx;
}
template <typename F>
void each(const dims_t &d, F f) {
    std::vector<int64_t> pos(d.size(), 0);
    const int64_t n = volume(d);
    for (int64_t i = 0; i < n; ++i) {
        f(i, pos);
        for (int k = (int)d.size() - 1; k >= 0; --k) {
            if (++pos[k] < d[k]) break;
            pos[k] = 0;
        }
    }
}
} // namespace

std::vector<double> forward(const std::vector<double> &src, const dims_t &dims,
        const std::vector<double> &w, const dims_t &wdims) {
    std::vector<double> dst(src.size());
    each(dims, [&](int64_t i, const std::vector<int64_t> &pos) {
        const double x = src[i];
        dst[i] = x > 0 ? x : w[bcast(wdims, pos)] * x;
    });
    return dst;
}

void backward(const std::vector<double> &src, const dims_t &dims,
        const std::vector<double> &w, const dims_t &wdims,
        const std::vector<double> &diff_dst, const dims_t &dwdims,
        std::vector<double> &diff_src, std::vector<double> &diff_w) {
    diff_src.assign(src.size(), 0);
    diff_w.assign(volume(dwdims), 0);
    each(dims, [&](int64_t i, const std::vector<int64_t> &pos) {
        const double x = src[i], dd = diff_dst[i];
        diff_src[i] = x > 0 ? dd : w[bcast(wdims, pos)] * dd;
        diff_w[bcast(dwdims, pos)] += x > 0 ? 0 : x * dd;
    });
}

} // namespace prelu_ref
