// Naive softmax references (see softmax_ref.hpp).
#include "reference/softmax_ref.hpp"

#include <cmath>

namespace softmax_ref {

namespace {
void split(const std::vector<int64_t> &dims, int axis, int64_t &outer,
        int64_t &C, int64_t &inner) {
    outer = inner = 1;
    for (int k = 0; k < axis; ++k) outer *= dims[k];
    C = dims[axis];
    for (size_t k = axis + 1; k < dims.size(); ++k) inner *= dims[k];
}
} // namespace

std::vector<double> forward(const std::vector<double> &src,
        const std::vector<int64_t> &dims, int axis, bool log) {
    int64_t outer, C, inner;
    split(dims, axis, outer, C, inner);
    std::vector<double> dst(src.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            auto at = [&](int64_t c) { return (o * C + c) * inner + i; };
            double m = -INFINITY;
            for (int64_t c = 0; c < C; ++c) m = std::fmax(m, src[at(c)]);
            double s = 0;
            for (int64_t c = 0; c < C; ++c) s += std::exp(src[at(c)] - m);
            for (int64_t c = 0; c < C; ++c)
                dst[at(c)] = log ? src[at(c)] - m - std::log(s)
                                 : std::exp(src[at(c)] - m) / s;
        }
    return dst;
}

std::vector<double> backward(const std::vector<double> &dst,
        const std::vector<double> &diff_dst, const std::vector<int64_t> &dims,
        int axis, bool log) {
    int64_t outer, C, inner;
    split(dims, axis, outer, C, inner);
    std::vector<double> ds(dst.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            auto at = [&](int64_t c) { return (o * C + c) * inner + i; };
            double s = 0;
            for (int64_t c = 0; c < C; ++c)
                s += log ? diff_dst[at(c)] : diff_dst[at(c)] * dst[at(c)];
            for (int64_t c = 0; c < C; ++c)
                ds[at(c)] = log ? diff_dst[at(c)] - std::exp(dst[at(c)]) * s
                                : dst[at(c)] * (diff_dst[at(c)] - s);
        }
    return ds;
}

} // namespace softmax_ref
