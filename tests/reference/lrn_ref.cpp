// LRN reference; see lrn_ref.hpp.
#include "reference/lrn_ref.hpp"

#include <cmath>
#include <vector>

namespace lrn_ref {

namespace {

struct geom_t {
    int64_t c, sp_total;
    int nsp;
    int64_t sp[3];
};

// Calls f(offset) for every element in the window of element (n, c, s).
template <typename F>
void for_window(const desc_t &d, const geom_t &g, int64_t n, int64_t c, const int64_t *s, F f) {
    const int64_t lo = (d.size - 1) / 2, hi = (d.size + 1) / 2 - 1;
    if (d.alg == dnnl_lrn_across_channels) {
        int64_t soff = 0;
        for (int i = 0; i < g.nsp; ++i)
            soff = soff * g.sp[i] + s[i];
        for (int64_t cc = c - lo; cc <= c + hi; ++cc)
            if (cc >= 0 && cc < g.c) f((n * g.c + cc) * g.sp_total + soff);
        return;
    }
    const int64_t wsz = lo + hi + 1; // window extent per spatial dim
    int64_t w[3] = {0, 0, 0};
    int64_t wn = 1;
    for (int i = 0; i < g.nsp; ++i)
        wn *= wsz;
    for (int64_t k = 0; k < wn; ++k) {
        bool inside = true;
        int64_t soff = 0;
        for (int i = 0; i < g.nsp; ++i) {
            const int64_t p = s[i] - lo + w[i];
            if (p < 0 || p >= g.sp[i]) inside = false;
            soff = soff * g.sp[i] + p;
        }
        if (inside) f((n * g.c + c) * g.sp_total + soff);
        for (int i = g.nsp - 1; i >= 0; --i) {
            if (++w[i] < wsz) break;
            w[i] = 0;
        }
    }
}

template <typename F>
void for_each(const desc_t &d, const geom_t &g, F f) {
    for (int64_t n = 0; n < d.mb; ++n)
        for (int64_t c = 0; c < g.c; ++c) {
            int64_t s[3] = {0, 0, 0};
            for (int64_t so = 0; so < g.sp_total; ++so) {
                f(n, c, s, (n * g.c + c) * g.sp_total + so);
                for (int i = g.nsp - 1; i >= 0; --i) {
                    if (++s[i] < g.sp[i]) break;
                    s[i] = 0;
                }
            }
        }
}

geom_t geom(const desc_t &d) {
    geom_t g;
    g.c = d.c;
    g.nsp = d.nsp;
    g.sp_total = 1;
    for (int i = 0; i < 3; ++i)
        g.sp[i] = i < d.nsp ? d.sp[i] : 1;
    for (int i = 0; i < d.nsp; ++i)
        g.sp_total *= d.sp[i];
    return g;
}

double summands(const desc_t &d) {
    return d.alg == dnnl_lrn_across_channels ? (double)d.size : std::pow((double)d.size, d.nsp);
}

} // namespace

void forward(const desc_t &d, const float *src, double *dst) {
    const geom_t g = geom(d);
    const double a = d.alpha / summands(d);
    for_each(d, g, [&](int64_t n, int64_t c, const int64_t *s, int64_t off) {
        double sum = 0;
        for_window(d, g, n, c, s, [&](int64_t o) { sum += (double)src[o] * src[o]; });
        dst[off] = src[off] * std::pow(d.k + a * sum, -d.beta);
    });
}

void backward(const desc_t &d, const float *src, const float *diff_dst, double *diff_src) {
    const geom_t g = geom(d);
    const double a = d.alpha / summands(d);
    const int64_t total = d.mb * g.c * g.sp_total;
    for (int64_t i = 0; i < total; ++i)
        diff_src[i] = 0;
    // dst_i = x_i * N_i^-beta with N_i = k + a * sum_{m in W(i)} x_m^2:
    // d dst_i / d x_m = [m == i] N_i^-beta - 2 a beta x_i x_m N_i^(-beta-1).
    for_each(d, g, [&](int64_t n, int64_t c, const int64_t *s, int64_t off) {
        double sum = 0;
        for_window(d, g, n, c, s, [&](int64_t o) { sum += (double)src[o] * src[o]; });
        const double N = d.k + a * sum;
        diff_src[off] += diff_dst[off] * std::pow(N, -d.beta);
        const double t = -2 * a * d.beta * diff_dst[off] * src[off] * std::pow(N, -d.beta - 1);
        for_window(d, g, n, c, s, [&](int64_t o) { diff_src[o] += t * src[o]; });
    });
}

} // namespace lrn_ref
