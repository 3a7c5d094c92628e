// PReLU reference; see prelu_ref.hpp.
#include "reference/prelu_ref.hpp"

namespace prelu_ref {

namespace {
template <typename F>
void for_each(const std::vector<int64_t> &dims, const std::vector<int64_t> &wdims, F f) {
    int64_t n = 1;
    for (auto v : dims)
        n *= v;
    std::vector<int64_t> pos(dims.size(), 0);
    for (int64_t i = 0; i < n; ++i) {
        int64_t w = 0;
        for (size_t d = 0; d < dims.size(); ++d)
            w = w * wdims[d] + (wdims[d] == 1 ? 0 : pos[d]);
        f(i, w);
        for (int d = (int)dims.size() - 1; d >= 0; --d) {
            if (++pos[d] < dims[d]) break;
            pos[d] = 0;
        }
    }
}
} // namespace

void forward(const std::vector<int64_t> &dims, const float *src,
        const std::vector<int64_t> &wei_dims, const float *wei, double *dst) {
    for_each(dims, wei_dims, [&](int64_t i, int64_t w) {
        dst[i] = src[i] > 0 ? (double)src[i] : (double)wei[w] * src[i];
    });
}

void backward(const std::vector<int64_t> &dims, const float *src,
        const std::vector<int64_t> &wei_dims, const float *wei, const float *diff_dst,
        double *diff_src, double *diff_wei) {
    int64_t nw = 1;
    for (auto v : wei_dims)
        nw *= v;
    for (int64_t i = 0; i < nw; ++i)
        diff_wei[i] = 0;
    for_each(dims, wei_dims, [&](int64_t i, int64_t w) {
        diff_src[i] = src[i] > 0 ? (double)diff_dst[i] : (double)wei[w] * diff_dst[i];
        diff_wei[w] += src[i] > 0 ? 0.0 : (double)src[i] * diff_dst[i];
    });
}

} // namespace prelu_ref
