// dnnl-isa: base avx2 avx512_core
// Row walk of pooling forward on ncsp f32 tensors with few channels, and
// global pooling on them (pooling_fast.hpp), compiled once per ISA listed
// above (cmake/isa_sources.cmake); the table is in pooling_fast.cpp.
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <immintrin.h>

#include "cpu/isa_unit.hpp"
#include "cpu/pooling/pooling_fast.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {
namespace {

// Output indices o in [lo, hi) whose input index o * stride - pad + koff
// lies in [0, in).
void valid_range(dim_t out, dim_t in, dim_t stride, dim_t pad, dim_t koff,
        dim_t &lo, dim_t &hi) {
    const dim_t a = pad - koff, b = in - 1 + pad - koff;
    lo = a <= 0 ? 0 : (a + stride - 1) / stride;
    hi = b < 0 ? 0 : b / stride + 1;
    if (hi > out) hi = out;
    if (lo > hi) lo = hi;
}

void store_ws(const fast_args_t &a, dim_t off, const int32_t *k, dim_t n) {
    if (a.wu8) {
        uint8_t *o = static_cast<uint8_t *>(a.ws) + a.W.off0 + off;
        for (dim_t i = 0; i < n; ++i) o[i] = (uint8_t)k[i];
    } else {
        int32_t *o = static_cast<int32_t *>(a.ws) + a.W.off0 + off;
        for (dim_t i = 0; i < n; ++i) o[i] = k[i];
    }
}

// Row updates o[ow] (op)= x[ow * sw] for ow in [l, h); restrict pointers
// let the compiler vectorise without run-time alias checks.
void row_add(float *__restrict o, const float *__restrict x, dim_t sw, dim_t l,
        dim_t h) {
    for (dim_t ow = l; ow < h; ++ow) o[ow] += x[ow * sw];
}
void row_max(float *__restrict o, const float *__restrict x, dim_t sw, dim_t l,
        dim_t h) {
    for (dim_t ow = l; ow < h; ++ow) {
        const float v = x[ow * sw];
        o[ow] = v > o[ow] ? v : o[ow];
    }
}
// The kernel index is kept as a float (exact below 2^24) so that the two
// selects have the same lane width and vectorise together.
void row_max_arg(float *__restrict o, float *__restrict arg,
        const float *__restrict x, dim_t sw, dim_t l, dim_t h, float k) {
    for (dim_t ow = l; ow < h; ++ow) {
        const float v = x[ow * sw];
        const bool gt = v > o[ow];
        o[ow] = gt ? v : o[ow];
        arg[ow] = gt ? k : arg[ow];
    }
}

// Global pooling (the window is the whole dense spatial block): one
// reduction over contiguous memory per (n, c).
bool fwd_global(const fast_args_t &a) {
    const geom_t &g = a.g;
    const strides5_t &S = a.S, &D = a.D, &W = a.W;
    const bool global = g.od == 1 && g.oh == 1 && g.ow == 1 && g.kd == g.id
                        && g.kh == g.ih && g.kw == g.iw && g.pd == 0
                        && g.ph == 0 && g.pw == 0 && (g.ih == 1 || S.h == g.iw)
                        && (g.id == 1 || S.d == g.ih * g.iw);
    if (!global) return false;
    const dim_t len = g.id * g.ih * g.iw;
    const bool is_max = a.alg == dnnl_pooling_max;
    parallel_chunks(a.nthr, g.mb * g.c, [&](int, dim_t u0, dim_t u1) {
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t n = u / g.c, c = u % g.c;
            const float *x = a.src + n * S.n + c * S.c;
            float *o = a.dst + n * D.n + c * D.c;
            if (!is_max) {
                float t = 0;
#pragma omp simd reduction(+ : t)
                for (dim_t i = 0; i < len; ++i) t += x[i];
                o[0] = t / (float)len;
            } else if (!a.ws) {
                float t = -FLT_MAX;
#pragma omp simd reduction(max : t)
                for (dim_t i = 0; i < len; ++i) t = x[i] > t ? x[i] : t;
                o[0] = t;
            } else {
                // The window index of the first maximum is its offset.
                float t = -FLT_MAX;
                int32_t k = 0;
                for (dim_t i = 0; i < len; ++i)
                    if (x[i] > t) {
                        t = x[i];
                        k = (int32_t)i;
                    }
                o[0] = t;
                store_ws(a, n * W.n + c * W.c, &k, 1);
            }
        }
    });
    return true;
}

void fwd_ncsp(const fast_args_t &a) {
    if (fwd_global(a)) return;
    const geom_t &g = a.g;
    const strides5_t &S = a.S, &D = a.D, &W = a.W;
    const float *src = a.src;
    float *dst = a.dst;
    const bool is_max = a.alg == dnnl_pooling_max, ws = a.ws != nullptr;
    const alg_kind_t alg = a.alg;
    const dim_t ksize = g.kd * g.kh * g.kw;
    const dim_t kdil_d = g.dd + 1, kdil_h = g.dh + 1, kdil_w = g.dw + 1;
    const int nthr = a.nthr;
    // Rows (n, c, od, oh) of ow points.
    std::vector<dim_t> lo((size_t)g.kw), hi((size_t)g.kw),
            cntw((size_t)g.ow, 0);
    for (dim_t kw = 0; kw < g.kw; ++kw) {
        valid_range(g.ow, g.iw, g.sw, g.pw, kw * kdil_w, lo[kw], hi[kw]);
        for (dim_t ow = lo[kw]; ow < hi[kw]; ++ow) ++cntw[ow];
    }
    const bool by_window = g.dw == 0 && g.kw > g.ow && !(is_max && ws);
    const dim_t units = g.mb * g.c * g.od * g.oh;
    parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
        std::vector<int32_t> arg(ws ? (size_t)g.ow : 0);
        std::vector<float> argf(ws ? (size_t)g.ow : 0);
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t oh = u % g.oh, od = (u / g.oh) % g.od,
                        c = (u / (g.oh * g.od)) % g.c,
                        n = u / (g.oh * g.od * g.c);
            float *o = dst + n * D.n + c * D.c + od * D.d + oh * D.h;
            const float init = is_max ? -FLT_MAX : 0.f;
            for (dim_t ow = 0; ow < g.ow; ++ow) o[ow] = init;
            if (ws)
                for (dim_t ow = 0; ow < g.ow; ++ow) argf[ow] = 0.f;
            dim_t cdh = 0;
            const float *xb = src + n * S.n + c * S.c;
            for (dim_t kd = 0; kd < g.kd; ++kd) {
                const dim_t id = od * g.sd - g.pd + kd * kdil_d;
                if (id < 0 || id >= g.id) continue;
                for (dim_t kh = 0; kh < g.kh; ++kh) {
                    const dim_t ih = oh * g.sh - g.ph + kh * kdil_h;
                    if (ih < 0 || ih >= g.ih) continue;
                    ++cdh;
                    const float *row = xb + id * S.d + ih * S.h;
                    if (by_window) {
                        // Few outputs, wide kernel: each output reduces its
                        // contiguous window run.
                        for (dim_t ow = 0; ow < g.ow; ++ow) {
                            dim_t b = ow * g.sw - g.pw, e = b + g.kw;
                            if (b < 0) b = 0;
                            if (e > g.iw) e = g.iw;
                            float t = o[ow];
                            if (is_max) {
#pragma omp simd reduction(max : t)
                                for (dim_t iw = b; iw < e; ++iw)
                                    t = row[iw] > t ? row[iw] : t;
                            } else {
#pragma omp simd reduction(+ : t)
                                for (dim_t iw = b; iw < e; ++iw) t += row[iw];
                            }
                            o[ow] = t;
                        }
                        continue;
                    }
                    for (dim_t kw = 0; kw < g.kw; ++kw) {
                        // x[ow] = row[ow * sw - pw + kw * dil] for ow in [lo,
                        // hi).
                        const float *x = row - g.pw + kw * kdil_w;
                        const dim_t sw = g.sw, l = lo[kw], h = hi[kw];
                        if (!is_max)
                            row_add(o, x, sw, l, h);
                        else if (ws)
                            row_max_arg(o, argf.data(), x, sw, l, h,
                                    (float)((kd * g.kh + kh) * g.kw + kw));
                        else
                            row_max(o, x, sw, l, h);
                    }
                }
            }
            if (!is_max) {
                if (alg == dnnl_pooling_avg_include_padding) {
                    const float fk = (float)ksize;
                    for (dim_t ow = 0; ow < g.ow; ++ow) o[ow] /= fk;
                } else {
                    for (dim_t ow = 0; ow < g.ow; ++ow) {
                        const dim_t k = cdh * cntw[ow];
                        o[ow] = k ? o[ow] / (float)k : 0.f;
                    }
                }
            }
            if (ws) {
                for (dim_t ow = 0; ow < g.ow; ++ow) arg[ow] = (int32_t)argf[ow];
                store_ws(a, n * W.n + c * W.c + od * W.d + oh * W.h, arg.data(),
                        g.ow);
            }
        }
    });
}

} // namespace

void DNNL_ISA_NAME(fwd_ncsp)(const fast_args_t &a) {
    fwd_ncsp(a);
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
