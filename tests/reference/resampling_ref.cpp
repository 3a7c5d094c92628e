// Resampling reference; see resampling_ref.hpp.
#include "reference/resampling_ref.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace resampling_ref {

namespace {

struct taps_t {
    int64_t idx[2];
    double w[2];
    int n;
};

taps_t taps(const desc_t &d, int s, int64_t o) {
    const int64_t I = d.in[s], O = d.out[s];
    const float x = ((float)o + 0.5f) * (float)I / (float)O - 0.5f;
    auto clamp = [&](int64_t i) { return std::min<int64_t>(std::max<int64_t>(i, 0), I - 1); };
    taps_t t;
    if (d.alg == dnnl_resampling_nearest) {
        t.n = 1;
        t.idx[0] = clamp((int64_t)std::round(x));
        t.w[0] = 1;
    } else {
        t.n = 2;
        const double f = std::floor((double)x);
        t.idx[0] = clamp((int64_t)f);
        t.idx[1] = clamp((int64_t)std::ceil((double)x));
        t.w[1] = (double)x - f;
        t.w[0] = 1 - t.w[1];
    }
    return t;
}

// Calls f(src_spatial_offset, weight) for the taps of output point `o`.
template <typename F>
void for_taps(const desc_t &d, const int64_t *o, F f) {
    taps_t t[3];
    for (int s = 0; s < d.nsp; ++s)
        t[s] = taps(d, s, o[s]);
    int k[3] = {0, 0, 0};
    for (;;) {
        int64_t off = 0;
        double w = 1;
        for (int s = 0; s < d.nsp; ++s) {
            off = off * d.in[s] + t[s].idx[k[s]];
            w *= t[s].w[k[s]];
        }
        f(off, w);
        int s = d.nsp - 1;
        for (; s >= 0; --s) {
            if (++k[s] < t[s].n) break;
            k[s] = 0;
        }
        if (s < 0) break;
    }
}

template <typename F>
void for_each_out(const desc_t &d, F f) {
    int64_t osp = 1;
    for (int s = 0; s < d.nsp; ++s)
        osp *= d.out[s];
    int64_t o[3] = {0, 0, 0};
    for (int64_t i = 0; i < osp; ++i) {
        f(i, o);
        for (int s = d.nsp - 1; s >= 0; --s) {
            if (++o[s] < d.out[s]) break;
            o[s] = 0;
        }
    }
}

int64_t size(const int64_t *v, int n) {
    int64_t r = 1;
    for (int i = 0; i < n; ++i)
        r *= v[i];
    return r;
}

} // namespace

void forward(const desc_t &d, const float *src, double *dst) {
    const int64_t isp = size(d.in, d.nsp), osp = size(d.out, d.nsp);
    for (int64_t nc = 0; nc < d.mb * d.c; ++nc)
        for_each_out(d, [&](int64_t oi, const int64_t *o) {
            double v = 0;
            for_taps(d, o, [&](int64_t off, double w) { v += w * src[nc * isp + off]; });
            dst[nc * osp + oi] = v;
        });
}

void backward(const desc_t &d, const float *diff_dst, double *diff_src) {
    const int64_t isp = size(d.in, d.nsp), osp = size(d.out, d.nsp);
    std::fill(diff_src, diff_src + d.mb * d.c * isp, 0.0);
    for (int64_t nc = 0; nc < d.mb * d.c; ++nc)
        for_each_out(d, [&](int64_t oi, const int64_t *o) {
            for_taps(d, o, [&](int64_t off, double w) {
                diff_src[nc * isp + off] += w * diff_dst[nc * osp + oi];
            });
        });
}

} // namespace resampling_ref
