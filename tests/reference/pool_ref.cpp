// Pooling reference; see pool_ref.hpp.
#include "reference/pool_ref.hpp"

#include <limits>
#include <vector>

namespace pool_ref {

namespace {

int64_t sp_size(const int64_t *v, int nsp) {
    int64_t n = 1;
    for (int i = 0; i < nsp; ++i)
        n *= v[i];
    return n;
}

// Calls f(src_spatial_offset) for every kernel position of output point
// `o` that falls inside the source; returns the number of such positions.
template <typename F>
int64_t for_kernel(const desc_t &d, const int64_t *o, F f) {
    int64_t kpos[3] = {0, 0, 0}, cnt = 0;
    const int64_t ktotal = sp_size(d.k, d.nsp);
    for (int64_t kk = 0; kk < ktotal; ++kk) {
        int64_t off = 0;
        bool inside = true;
        for (int s = 0; s < d.nsp; ++s) {
            const int64_t i = o[s] * d.stride[s] - d.pad[s] + kpos[s] * (d.dil[s] + 1);
            if (i < 0 || i >= d.in[s]) inside = false;
            off = off * d.in[s] + i;
        }
        if (inside) {
            f(off);
            ++cnt;
        }
        for (int s = d.nsp - 1; s >= 0; --s) {
            if (++kpos[s] < d.k[s]) break;
            kpos[s] = 0;
        }
    }
    return cnt;
}

template <typename F>
void for_each_out(const desc_t &d, F f) {
    const int64_t osp = sp_size(d.out, d.nsp);
    int64_t o[3] = {0, 0, 0};
    for (int64_t i = 0; i < osp; ++i) {
        f(i, o);
        for (int s = d.nsp - 1; s >= 0; --s) {
            if (++o[s] < d.out[s]) break;
            o[s] = 0;
        }
    }
}

} // namespace

void forward(const desc_t &d, const float *src, double *dst) {
    const int64_t isp = sp_size(d.in, d.nsp), osp = sp_size(d.out, d.nsp);
    const int64_t ksz = sp_size(d.k, d.nsp);
    for (int64_t nc = 0; nc < d.mb * d.c; ++nc) {
        const float *s = src + nc * isp;
        double *t = dst + nc * osp;
        for_each_out(d, [&](int64_t oi, const int64_t *o) {
            if (d.alg == dnnl_pooling_max) {
                double m = -std::numeric_limits<double>::infinity();
                bool any = false;
                for_kernel(d, o, [&](int64_t off) {
                    if (!any || s[off] > m) m = s[off];
                    any = true;
                });
                // A window entirely in the padding gives the lowest value
                // the library can represent; report it as such.
                t[oi] = any ? m : -std::numeric_limits<double>::max();
            } else {
                double sum = 0;
                const int64_t cnt = for_kernel(d, o, [&](int64_t off) { sum += s[off]; });
                const int64_t div = d.alg == dnnl_pooling_avg_include_padding ? ksz : cnt;
                t[oi] = div ? sum / div : 0.0;
            }
        });
    }
}

void backward(const desc_t &d, const float *src, const float *diff_dst, double *diff_src) {
    const int64_t isp = sp_size(d.in, d.nsp), osp = sp_size(d.out, d.nsp);
    const int64_t ksz = sp_size(d.k, d.nsp);
    for (int64_t i = 0; i < d.mb * d.c * isp; ++i)
        diff_src[i] = 0;
    for (int64_t nc = 0; nc < d.mb * d.c; ++nc) {
        const float *s = src ? src + nc * isp : nullptr;
        const float *dd = diff_dst + nc * osp;
        double *ds = diff_src + nc * isp;
        for_each_out(d, [&](int64_t oi, const int64_t *o) {
            if (d.alg == dnnl_pooling_max) {
                int64_t arg = -1;
                double m = 0;
                for_kernel(d, o, [&](int64_t off) {
                    if (arg < 0 || s[off] > m) m = s[off], arg = off;
                });
                if (arg >= 0) ds[arg] += dd[oi];
            } else {
                const int64_t cnt = for_kernel(d, o, [](int64_t) {});
                const int64_t div = d.alg == dnnl_pooling_avg_include_padding ? ksz : cnt;
                if (!div) return;
                for_kernel(d, o, [&](int64_t off) { ds[off] += (double)dd[oi] / div; });
            }
        });
    }
}

} // namespace pool_ref
