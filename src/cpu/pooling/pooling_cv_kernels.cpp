// dnnl-isa: base avx2 avx512_core
// The channel-vector pooling walk (pooling_cv.hpp): row kernels of one
// output row of one channel group (V: the group width when known at
// compile time, 16 or 64, else 0), the transposes between up to 16
// channel rows of an ncsp tensor and a lane-contiguous buffer (8x8
// register transposes where __AVX2__ is defined, scalar loops otherwise),
// and the drivers (units of work, threads, per-thread buffers). Compiled
// once per ISA listed above (cmake/isa_sources.cmake); the table is in
// pooling_fast.cpp.
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <immintrin.h>

#include "cpu/isa_unit.hpp"
#include "cpu/simd_v16.hpp"
#include "cpu/pooling/pooling_fast.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {
namespace {

// Kernel taps [k0, k1) whose input index o * s - p + k * dil lies in [0, in).
inline void taps(dim_t o, dim_t s, dim_t p, dim_t dil, dim_t in, dim_t K,
        dim_t &k0, dim_t &k1) {
    const dim_t b = o * s - p;
    k0 = b >= 0 ? 0 : (-b + dil - 1) / dil;
    const dim_t last = in - 1 - b;
    k1 = last < 0 ? 0 : last / dil + 1;
    if (k1 > K) k1 = K;
    if (k0 > k1) k0 = k1;
}

// Modes of the walk: which reduction and what the workspace holds.
enum { m_max = 0, m_max_ws = 1, m_avg_p = 2, m_avg_np = 3 };
// Workspace element types of the row kernels.
enum { ws_none = 0, ws_u8 = 1, ws_s32 = 4 };

// One output row: input taps of (d, h) fixed for the row, w taps per
// column from kwlo / kwhi. Indices into `x` are xoff + id * xd + ih * xh +
// iw * xw (xoff lets `x` be a buffer holding only the rows in use).
struct cv_row_t {
    const float *x;
    dim_t xoff, xd, xh, xw;
    float *o; // output column ow at o + ow * os
    dim_t os;
    void *ws; // workspace column ow at ws + ow * wss (elements)
    dim_t wss;
    dim_t kd0, kd1, kh0, kh1; // valid d / h taps
    dim_t id0, ih0;           // input d / h of tap 0
    const dim_t *kwlo, *kwhi;
};

template <int V, int MODE, int WST>
void fwd_row(const cv_row_t &r, const geom_t &g, int w) {
    const int n = V ? V : w;
    const dim_t dil_d = g.dd + 1, dil_h = g.dh + 1, dil_w = g.dw + 1;
    const dim_t cdh = (r.kd1 - r.kd0) * (r.kh1 - r.kh0);
    const float fk = (float)(g.kd * g.kh * g.kw);
    for (dim_t ow = 0; ow < g.ow; ++ow) {
        const dim_t kw0 = r.kwlo[ow], kw1 = r.kwhi[ow];
        const dim_t iw0 = ow * g.sw - g.pw;
        float acc[64];
        int32_t arg[64];
#pragma omp simd
        for (int c = 0; c < n; ++c) {
            acc[c] = MODE <= m_max_ws ? -FLT_MAX : 0.f;
            arg[c] = 0;
        }
        for (dim_t kd = r.kd0; kd < r.kd1; ++kd)
            for (dim_t kh = r.kh0; kh < r.kh1; ++kh) {
                const float *xr = r.x
                        + (r.xoff + (r.id0 + kd * dil_d) * r.xd
                                + (r.ih0 + kh * dil_h) * r.xh);
                for (dim_t kw = kw0; kw < kw1; ++kw) {
                    const float *p = xr + (iw0 + kw * dil_w) * r.xw;
                    if (MODE == m_max) {
#pragma omp simd
                        for (int c = 0; c < n; ++c)
                            acc[c] = p[c] > acc[c] ? p[c] : acc[c];
                    } else if (MODE == m_max_ws) {
                        const int32_t k = (int32_t)((kd * g.kh + kh) * g.kw + kw);
#pragma omp simd
                        for (int c = 0; c < n; ++c) {
                            const bool gt = p[c] > acc[c];
                            acc[c] = gt ? p[c] : acc[c];
                            arg[c] = gt ? k : arg[c];
                        }
                    } else {
#pragma omp simd
                        for (int c = 0; c < n; ++c)
                            acc[c] += p[c];
                    }
                }
            }
        float *o = r.o + ow * r.os;
        if (MODE == m_avg_p) {
            // Divided, not multiplied by a reciprocal: the rounding of the
            // reference and of the generic implementation.
#pragma omp simd
            for (int c = 0; c < n; ++c)
                o[c] = acc[c] / fk;
        } else if (MODE == m_avg_np) {
            const dim_t cnt = cdh * (kw1 - kw0);
            const float fc = (float)cnt;
#pragma omp simd
            for (int c = 0; c < n; ++c)
                o[c] = cnt ? acc[c] / fc : 0.f;
        } else {
#pragma omp simd
            for (int c = 0; c < n; ++c)
                o[c] = acc[c];
        }
        if (WST == ws_u8) {
            uint8_t *wp = static_cast<uint8_t *>(r.ws) + ow * r.wss;
#pragma omp simd
            for (int c = 0; c < n; ++c)
                wp[c] = (uint8_t)arg[c];
        } else if (WST == ws_s32) {
            int32_t *wp = static_cast<int32_t *>(r.ws) + ow * r.wss;
#pragma omp simd
            for (int c = 0; c < n; ++c)
                wp[c] = arg[c];
        }
    }
}

// The same for whole groups of NV * 16 lanes, written with the sixteen-
// lane values of simd_v16.hpp so that the accumulators and kernel indices
// stay in registers and the selects stay selects (the array form above
// turns them into masked stores behind branches).
inline vi16_t ws_load(const void *ws, int wst, dim_t off) {
    vi16_t v;
    if (wst == ws_u8)
        widen_u8(v, static_cast<const uint8_t *>(ws) + off);
    else
        v = load16i(static_cast<const int32_t *>(ws) + off);
    return v;
}
inline void ws_store(void *ws, int wst, dim_t off, vi16_t v) {
    if (wst == ws_u8)
        narrow_u8(static_cast<uint8_t *>(ws) + off, v);
    else
        store16i(static_cast<int32_t *>(ws) + off, v);
}

template <int NV, int MODE, int WST>
void fwd_row_v(const cv_row_t &r, const geom_t &g, int) {
    const dim_t dil_d = g.dd + 1, dil_h = g.dh + 1, dil_w = g.dw + 1;
    const dim_t cdh = (r.kd1 - r.kd0) * (r.kh1 - r.kh0);
    const float fk = (float)(g.kd * g.kh * g.kw);
    for (dim_t ow = 0; ow < g.ow; ++ow) {
        const dim_t kw0 = r.kwlo[ow], kw1 = r.kwhi[ow];
        const dim_t iw0 = ow * g.sw - g.pw;
        v16_t acc[NV];
        vi16_t arg[NV];
        for (int v = 0; v < NV; ++v) {
            acc[v] = v16_t {} + (MODE <= m_max_ws ? -FLT_MAX : 0.f);
            arg[v] = vi16_t {};
        }
        for (dim_t kd = r.kd0; kd < r.kd1; ++kd)
            for (dim_t kh = r.kh0; kh < r.kh1; ++kh) {
                const float *xr = r.x
                        + (r.xoff + (r.id0 + kd * dil_d) * r.xd
                                + (r.ih0 + kh * dil_h) * r.xh);
                // The points this row tap needs eight columns on: the
                // streams of a few lines per point are too short for the
                // hardware prefetchers (nChw16c: one line per point).
                for (dim_t s = 0; s < g.sw; ++s)
                    for (int v = 0; v < NV; ++v)
                        __builtin_prefetch(
                                xr + (iw0 + 8 * g.sw + s) * r.xw + 16 * v, 0, 3);
                for (dim_t kw = kw0; kw < kw1; ++kw) {
                    const float *p = xr + (iw0 + kw * dil_w) * r.xw;
                    const int32_t k = (int32_t)((kd * g.kh + kh) * g.kw + kw);
                    for (int v = 0; v < NV; ++v) {
                        const v16_t x = load16(p + 16 * v);
                        if (MODE == m_max) {
                            acc[v] = select16(x > acc[v], x, acc[v]);
                        } else if (MODE == m_max_ws) {
                            const auto gt = x > acc[v];
                            acc[v] = select16(gt, x, acc[v]);
                            arg[v] = select16(gt, vi16_t {} + k, arg[v]);
                        } else {
                            acc[v] += x;
                        }
                    }
                }
            }
        float *o = r.o + ow * r.os;
        const float div = MODE == m_avg_p ? fk : (float)(cdh * (kw1 - kw0));
        for (int v = 0; v < NV; ++v) {
            v16_t res = acc[v];
            if (MODE == m_avg_p || MODE == m_avg_np)
                res = div != 0.f ? acc[v] / div : v16_t {};
            store16(o + 16 * v, res);
            if (WST != ws_none) ws_store(r.ws, WST, ow * r.wss + 16 * v, arg[v]);
        }
    }
}

using fwd_row_fn = void (*)(const cv_row_t &, const geom_t &, int);

// V = 0: the run-time width loops; 16 or 64: whole vectors.
template <int V, int MODE, int WST>
fwd_row_fn fwd_fn() {
    if constexpr (V == 0)
        return fwd_row<0, MODE, WST>;
    else
        return fwd_row_v<V / 16, MODE, WST>;
}

template <int V>
fwd_row_fn pick_fwd_row(int mode, int wst) {
    switch (mode) {
        case m_max: return fwd_fn<V, m_max, ws_none>();
        case m_max_ws:
            return wst == ws_u8 ? fwd_fn<V, m_max_ws, ws_u8>()
                                : fwd_fn<V, m_max_ws, ws_s32>();
        case m_avg_p: return fwd_fn<V, m_avg_p, ws_none>();
        default: return fwd_fn<V, m_avg_np, ws_none>();
    }
}

// Backward of one output row: its diff_dst column `dd + ow * dds` (and
// workspace column) spread over the input taps of `x` (the diff_src, as
// in cv_row_t; `o` unused).
struct cv_brow_t {
    cv_row_t t;
    const float *dd;
    dim_t dds;
    // Every input point gets exactly one contribution (global pooling):
    // stored instead of added, so diff_src needs no zeroing first.
    bool assign;
};

template <int V, int MODE, int WST>
void bwd_row(const cv_brow_t &b, const geom_t &g, int w) {
    const cv_row_t &r = b.t;
    const int n = V ? V : w;
    const dim_t dil_d = g.dd + 1, dil_h = g.dh + 1, dil_w = g.dw + 1;
    const dim_t cdh = (r.kd1 - r.kd0) * (r.kh1 - r.kh0);
    const float fk = (float)(g.kd * g.kh * g.kw);
    float *x = const_cast<float *>(r.x);
    for (dim_t ow = 0; ow < g.ow; ++ow) {
        const dim_t kw0 = r.kwlo[ow], kw1 = r.kwhi[ow];
        if (kw0 == kw1 || cdh == 0) continue;
        const dim_t iw0 = ow * g.sw - g.pw;
        const float *d = b.dd + ow * b.dds;
        float v[64];
        int32_t arg[64];
        if (MODE == m_max_ws) {
            if (WST == ws_u8) {
                const uint8_t *wp = static_cast<const uint8_t *>(r.ws) + ow * r.wss;
#pragma omp simd
                for (int c = 0; c < n; ++c)
                    arg[c] = wp[c];
            } else {
                const int32_t *wp = static_cast<const int32_t *>(r.ws) + ow * r.wss;
#pragma omp simd
                for (int c = 0; c < n; ++c)
                    arg[c] = wp[c];
            }
        } else {
            const float div = MODE == m_avg_p ? fk : (float)(cdh * (kw1 - kw0));
#pragma omp simd
            for (int c = 0; c < n; ++c)
                v[c] = d[c] / div;
        }
        for (dim_t kd = r.kd0; kd < r.kd1; ++kd)
            for (dim_t kh = r.kh0; kh < r.kh1; ++kh) {
                float *xr = x
                        + (r.xoff + (r.id0 + kd * dil_d) * r.xd
                                + (r.ih0 + kh * dil_h) * r.xh);
                for (dim_t kw = kw0; kw < kw1; ++kw) {
                    float *p = xr + (iw0 + kw * dil_w) * r.xw;
                    if (b.assign)
                        for (int c = 0; c < n; ++c)
                            p[c] = 0.f;
                    if (MODE == m_max_ws) {
                        const int32_t k = (int32_t)((kd * g.kh + kh) * g.kw + kw);
#pragma omp simd
                        for (int c = 0; c < n; ++c)
                            p[c] += arg[c] == k ? d[c] : 0.f;
                    } else {
#pragma omp simd
                        for (int c = 0; c < n; ++c)
                            p[c] += v[c];
                    }
                }
            }
    }
}

template <int NV, int MODE, int WST>
void bwd_row_v(const cv_brow_t &b, const geom_t &g, int) {
    const cv_row_t &r = b.t;
    const dim_t dil_d = g.dd + 1, dil_h = g.dh + 1, dil_w = g.dw + 1;
    const dim_t cdh = (r.kd1 - r.kd0) * (r.kh1 - r.kh0);
    const float fk = (float)(g.kd * g.kh * g.kw);
    float *x = const_cast<float *>(r.x);
    for (dim_t ow = 0; ow < g.ow; ++ow) {
        const dim_t kw0 = r.kwlo[ow], kw1 = r.kwhi[ow];
        if (kw0 == kw1 || cdh == 0) continue;
        const dim_t iw0 = ow * g.sw - g.pw;
        v16_t d[NV];
        vi16_t arg[NV];
        const float div = MODE == m_avg_p ? fk : (float)(cdh * (kw1 - kw0));
        for (int v = 0; v < NV; ++v) {
            // diff_dst and workspace eight columns on (see fwd_row_v).
            __builtin_prefetch(b.dd + (ow + 8) * b.dds + 16 * v, 0, 3);
            if (MODE == m_max_ws && WST == ws_s32)
                __builtin_prefetch(static_cast<const int32_t *>(r.ws)
                                + (ow + 8) * r.wss + 16 * v,
                        0, 3);
            d[v] = load16(b.dd + ow * b.dds + 16 * v);
            if (MODE == m_max_ws)
                arg[v] = ws_load(r.ws, WST, ow * r.wss + 16 * v);
            else
                d[v] = d[v] / div;
        }
        for (dim_t kd = r.kd0; kd < r.kd1; ++kd)
            for (dim_t kh = r.kh0; kh < r.kh1; ++kh) {
                float *xr = x
                        + (r.xoff + (r.id0 + kd * dil_d) * r.xd
                                + (r.ih0 + kh * dil_h) * r.xh);
                for (dim_t kw = kw0; kw < kw1; ++kw) {
                    float *p = xr + (iw0 + kw * dil_w) * r.xw;
                    const int32_t k = (int32_t)((kd * g.kh + kh) * g.kw + kw);
                    for (int v = 0; v < NV; ++v) {
                        v16_t s = b.assign ? v16_t {} : load16(p + 16 * v);
                        if (MODE == m_max_ws)
                            s += select16(arg[v] == k, d[v], v16_t {});
                        else
                            s += d[v];
                        store16(p + 16 * v, s);
                    }
                }
            }
    }
}

using bwd_row_fn = void (*)(const cv_brow_t &, const geom_t &, int);

template <int V, int MODE, int WST>
bwd_row_fn bwd_fn() {
    if constexpr (V == 0)
        return bwd_row<0, MODE, WST>;
    else
        return bwd_row_v<V / 16, MODE, WST>;
}

template <int V>
bwd_row_fn pick_bwd_row(int mode, int wst) {
    switch (mode) {
        case m_max_ws:
            return wst == ws_u8 ? bwd_fn<V, m_max_ws, ws_u8>()
                                : bwd_fn<V, m_max_ws, ws_s32>();
        case m_avg_p: return bwd_fn<V, m_avg_p, ws_none>();
        default: return bwd_fn<V, m_avg_np, ws_none>();
    }
}

#if defined(__AVX2__)
// Rows r[i] = a[i][0..7] become columns: r[j] = a[0..7][j].
inline void tr8x8(__m256 r[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]),
                 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]),
                 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]),
                 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
                 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
                 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
                 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}
#endif

// Element loads / stores of the workspace in either type, as int32.
inline int32_t ws_get(const void *p, bool u8, dim_t i) {
    return u8 ? (int32_t) static_cast<const uint8_t *>(p)[i]
              : static_cast<const int32_t *>(p)[i];
}
inline void ws_put(void *p, bool u8, dim_t i, int32_t v) {
    if (u8)
        static_cast<uint8_t *>(p)[i] = (uint8_t)v;
    else
        static_cast<int32_t *>(p)[i] = v;
}

// buf[p * 16 + c] = src[c * cs + p] for c < w, p < L; lanes w..15 zeroed.
// With is_ws the rows are a u8 or s32 workspace and the buffer is int32.
void t_in(const void *src, dim_t cs, int w, dim_t L, void *buf, bool is_ws,
        bool u8) {
    dim_t pv = 0;
    int nfull = 0;
#if defined(__AVX2__)
    nfull = w / 8;
    pv = L / 8 * 8;
    for (dim_t p = 0; p < pv; p += 8)
        for (int o = 0; o < nfull; ++o) {
            __m256 r[8];
            for (int i = 0; i < 8; ++i) {
                const dim_t at = (o * 8 + i) * cs + p;
                if (!is_ws)
                    r[i] = _mm256_loadu_ps(static_cast<const float *>(src) + at);
                else if (u8)
                    r[i] = _mm256_castsi256_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(
                            (const __m128i *)(static_cast<const uint8_t *>(src) + at))));
                else
                    r[i] = _mm256_castsi256_ps(_mm256_loadu_si256(
                            (const __m256i *)(static_cast<const int32_t *>(src) + at)));
            }
            tr8x8(r);
            float *b = static_cast<float *>(buf) + p * 16 + o * 8;
            for (int i = 0; i < 8; ++i)
                _mm256_storeu_ps(b + i * 16, r[i]);
        }
#endif
    for (dim_t p = 0; p < L; ++p) {
        const int c0 = p < pv ? nfull * 8 : 0;
        if (!is_ws) {
            float *b = static_cast<float *>(buf) + p * 16;
            const float *s = static_cast<const float *>(src);
            for (int c = c0; c < w; ++c)
                b[c] = s[c * cs + p];
            for (int c = w; c < 16; ++c)
                b[c] = 0.f;
        } else {
            int32_t *b = static_cast<int32_t *>(buf) + p * 16;
            for (int c = c0; c < w; ++c)
                b[c] = ws_get(src, u8, c * cs + p);
            for (int c = w; c < 16; ++c)
                b[c] = 0;
        }
    }
}

// dst[c * cs + p] = buf[p * 16 + c] for c < w, p < L (the inverse of t_in).
void t_out(const void *buf, int w, dim_t L, void *dst, dim_t cs, bool is_ws,
        bool u8) {
    dim_t pv = 0;
    int nfull = 0;
#if defined(__AVX2__)
    nfull = w / 8;
    pv = L / 8 * 8;
    for (dim_t p = 0; p < pv; p += 8)
        for (int o = 0; o < nfull; ++o) {
            __m256 r[8];
            const float *b = static_cast<const float *>(buf) + p * 16 + o * 8;
            for (int i = 0; i < 8; ++i)
                r[i] = _mm256_loadu_ps(b + i * 16);
            tr8x8(r);
            for (int i = 0; i < 8; ++i) {
                const dim_t at = (o * 8 + i) * cs + p;
                if (!is_ws) {
                    _mm256_storeu_ps(static_cast<float *>(dst) + at, r[i]);
                } else if (!u8) {
                    _mm256_storeu_si256((__m256i *)(static_cast<int32_t *>(dst) + at),
                            _mm256_castps_si256(r[i]));
                } else {
                    // Kernel indices are below 256: keep the low byte of
                    // each lane.
                    alignas(32) int32_t t[8];
                    _mm256_store_si256((__m256i *)t, _mm256_castps_si256(r[i]));
                    uint8_t *d = static_cast<uint8_t *>(dst) + at;
                    for (int j = 0; j < 8; ++j)
                        d[j] = (uint8_t)t[j];
                }
            }
        }
#endif
    for (dim_t p = 0; p < L; ++p) {
        const int c0 = p < pv ? nfull * 8 : 0;
        if (!is_ws) {
            const float *b = static_cast<const float *>(buf) + p * 16;
            float *d = static_cast<float *>(dst);
            for (int c = c0; c < w; ++c)
                d[c * cs + p] = b[c];
        } else {
            const int32_t *b = static_cast<const int32_t *>(buf) + p * 16;
            for (int c = c0; c < w; ++c)
                ws_put(dst, u8, c * cs + p, b[c]);
        }
    }
}

inline int cv_mode(const cv_args_t &a) {
    if (a.alg == dnnl_pooling_max) return a.ws ? m_max_ws : m_max;
    return a.alg == dnnl_pooling_avg_include_padding ? m_avg_p : m_avg_np;
}

inline void *ws_at(void *ws, bool u8, dim_t off) {
    return u8 ? (void *)(static_cast<uint8_t *>(ws) + off)
              : (void *)(static_cast<int32_t *>(ws) + off);
}

// Allocation without the zero fill of std::vector (the buffers are
// written before they are read).
template <typename T>
std::unique_ptr<T[]> scratch(dim_t n) {
    return std::unique_ptr<T[]>(new T[(size_t)(n > 0 ? n : 1)]);
}

// w taps of every output column.
struct kw_taps_t {
    std::vector<dim_t> lo, hi;
    explicit kw_taps_t(const geom_t &g) : lo((size_t)g.ow), hi((size_t)g.ow) {
        for (dim_t ow = 0; ow < g.ow; ++ow)
            taps(ow, g.sw, g.pw, g.dw + 1, g.iw, g.kw, lo[ow], hi[ow]);
    }
};

// The d / h taps of output row (od, oh).
inline void row_taps(const geom_t &g, dim_t od, dim_t oh, cv_row_t &r) {
    taps(od, g.sd, g.pd, g.dd + 1, g.id, g.kd, r.kd0, r.kd1);
    taps(oh, g.sh, g.ph, g.dh + 1, g.ih, g.kh, r.kh0, r.kh1);
    r.id0 = od * g.sd - g.pd;
    r.ih0 = oh * g.sh - g.ph;
}

// Zeroes lanes [l0, l1) of `cnt` points at p + i * ps (blocked padding).
template <typename T>
void zero_lanes(T *p, dim_t ps, dim_t cnt, int l0, int l1) {
    for (dim_t i = 0; i < cnt; ++i)
        for (int c = l0; c < l1; ++c)
            p[i * ps + c] = 0;
}

void cv_fwd_direct(const cv_args_t &a, const kw_taps_t &kt) {
    const geom_t &g = a.g;
    const int mode = cv_mode(a);
    const int wst = mode == m_max_ws ? (a.wu8 ? ws_u8 : ws_s32) : ws_none;
    const fwd_row_fn full = a.gw == 64 ? pick_fwd_row<64>(mode, wst)
            : a.gw == 16               ? pick_fwd_row<16>(mode, wst)
                                       : pick_fwd_row<0>(mode, wst);
    const fwd_row_fn part = pick_fwd_row<0>(mode, wst);
    const cv_view_t &I = a.I, &O = a.O, &W = a.W;
    // Channels-last: the groups of one point are neighbours, so they are
    // the innermost unit; blocked: whole planes of one group.
    const bool ginner = I.g < I.w;
    const dim_t G = a.ngroups, units = g.mb * G * g.od * g.oh;
    parallel_chunks(a.nthr, units, [&](int, dim_t u0, dim_t u1) {
        for (dim_t u = u0; u < u1; ++u) {
            dim_t n, j, od, oh, t = u;
            if (ginner) {
                j = t % G, t /= G;
                oh = t % g.oh, t /= g.oh;
                od = t % g.od, n = t / g.od;
            } else {
                oh = t % g.oh, t /= g.oh;
                od = t % g.od, t /= g.od;
                j = t % G, n = t / G;
            }
            const int w = j == G - 1 ? a.tail : a.gw;
            cv_row_t r;
            r.x = a.in + n * I.n + j * I.g;
            r.xoff = 0;
            r.xd = I.d, r.xh = I.h, r.xw = I.w;
            r.o = a.out + n * O.n + j * O.g + od * O.d + oh * O.h;
            r.os = O.w;
            const dim_t woff = n * W.n + j * W.g + od * W.d + oh * W.h;
            r.ws = a.ws ? ws_at(a.ws, a.wu8, woff) : nullptr;
            r.wss = W.w;
            r.kwlo = kt.lo.data(), r.kwhi = kt.hi.data();
            row_taps(g, od, oh, r);
            (w == a.gw ? full : part)(r, g, w);
            if (w == a.gw) continue;
            if (a.out_padded) zero_lanes(r.o, O.w, g.ow, w, a.gw);
            if (!a.ws || !a.ws_padded) continue;
            if (a.wu8)
                zero_lanes(static_cast<uint8_t *>(r.ws), W.w, g.ow, w, a.gw);
            else
                zero_lanes(static_cast<int32_t *>(r.ws), W.w, g.ow, w, a.gw);
        }
    });
}

// The input rows of one band of the ncsp walk: planes [id0, id0 + npl) and
// rows [ih_lo, ih_hi) of 16 channels at `x`.
struct band_t {
    dim_t n, j, od, oh0, oh1, id0, npl, ih_lo, ih_hi;
    const float *x;
};

void cv_fwd_ncsp(const cv_args_t &a, const kw_taps_t &kt) {
    const geom_t &g = a.g;
    const int mode = cv_mode(a);
    const fwd_row_fn fn = pick_fwd_row<16>(mode, mode == m_max_ws ? ws_s32 : ws_none);
    const cv_view_t &I = a.I, &O = a.O, &W = a.W;
    const dim_t dil_d = g.dd + 1, exth = (g.kh - 1) * (g.dh + 1) + 1;
    const dim_t extd = (g.kd - 1) * dil_d + 1;
    const dim_t planes = extd < g.id ? extd : g.id;
    // Output rows per band: the transposed input rows of a band should
    // stay in the L2 cache (about 96 KiB).
    dim_t rows = 98304 / (g.iw * 64 * planes);
    if (rows < exth) rows = exth;
    dim_t R = (rows - exth) / g.sh + 1;
    if (R > g.oh) R = g.oh;
    const dim_t G = a.ngroups;
    while (R > 1 && g.mb * G * g.od * ((g.oh + R - 1) / R) < 4 * (dim_t)a.nthr)
        R = (R + 1) / 2;
    const dim_t nb = (g.oh + R - 1) / R;
    dim_t band_rows = (R - 1) * g.sh + exth;
    if (band_rows > g.ih) band_rows = g.ih;
    const dim_t orow = g.ow * 16;
    auto band_of = [&](dim_t u, band_t &B) {
        const dim_t b = u % nb;
        u /= nb;
        B.od = u % g.od;
        u /= g.od;
        B.j = u % G, B.n = u / G;
        B.oh0 = b * R;
        B.oh1 = B.oh0 + R < g.oh ? B.oh0 + R : g.oh;
        cv_row_t r;
        row_taps(g, B.od, B.oh0, r);
        B.id0 = r.kd1 > r.kd0 ? r.id0 + r.kd0 * dil_d : 0;
        B.npl = r.kd1 > r.kd0 ? (r.kd1 - 1 - r.kd0) * dil_d + 1 : 0;
        B.ih_lo = B.oh0 * g.sh - g.ph;
        B.ih_hi = (B.oh1 - 1) * g.sh - g.ph + exth;
        if (B.ih_lo < 0) B.ih_lo = 0;
        if (B.ih_hi > g.ih) B.ih_hi = g.ih;
        if (B.ih_hi < B.ih_lo) B.ih_hi = B.ih_lo;
        B.x = a.in + B.n * I.n + B.j * I.g;
    };
    // Each channel row of a band is short, so the hardware prefetchers
    // barely start on it: the next band's lines are requested while this
    // one is pooled.
    auto prefetch = [&](const band_t &B) {
        const int w = B.j == G - 1 ? a.tail : 16;
        for (int c = 0; c < w; ++c)
            for (dim_t pl = 0; pl < B.npl; ++pl)
                for (dim_t ih = B.ih_lo; ih < B.ih_hi; ++ih) {
                    const float *s = B.x + c * I.c + (B.id0 + pl) * I.d + ih * I.h;
                    for (dim_t p = 0; p < g.iw; p += 16)
                        __builtin_prefetch(s + p, 0, 2);
                }
    };
    parallel_chunks(a.nthr, g.mb * G * g.od * nb, [&](int, dim_t u0, dim_t u1) {
        auto ibuf = scratch<float>(planes * band_rows * g.iw * 16);
        auto obuf = scratch<float>(R * orow);
        auto wbuf = scratch<int32_t>(a.ws ? R * orow : 0);
        band_t B {}, next {};
        band_of(u0, B);
        prefetch(B);
        for (dim_t u = u0; u < u1; ++u) {
            if (u + 1 < u1) {
                band_of(u + 1, next);
                prefetch(next);
            }
            const int w = B.j == G - 1 ? a.tail : 16;
            const dim_t nrows = B.ih_hi - B.ih_lo;
            for (dim_t pl = 0; pl < B.npl; ++pl)
                for (dim_t ih = B.ih_lo; ih < B.ih_hi; ++ih)
                    t_in(B.x + (B.id0 + pl) * I.d + ih * I.h, I.c, w, g.iw,
                            ibuf.get() + (pl * nrows + ih - B.ih_lo) * g.iw * 16,
                            false, false);
            cv_row_t r;
            r.x = ibuf.get();
            r.xh = g.iw * 16, r.xd = nrows * r.xh, r.xw = 16;
            r.xoff = -(B.id0 * r.xd + B.ih_lo * r.xh);
            r.os = 16, r.wss = 16;
            r.kwlo = kt.lo.data(), r.kwhi = kt.hi.data();
            const dim_t n = B.n, j = B.j, od = B.od;
            for (dim_t oh = B.oh0; oh < B.oh1; ++oh) {
                row_taps(g, od, oh, r);
                r.o = obuf.get() + (oh - B.oh0) * orow;
                r.ws = a.ws ? wbuf.get() + (oh - B.oh0) * orow : nullptr;
                fn(r, g, 16);
                const dim_t ooff = n * O.n + j * O.g + od * O.d + oh * O.h;
                t_out(r.o, w, g.ow, a.out + ooff, O.c, false, false);
                if (!a.ws) continue;
                const dim_t woff = n * W.n + j * W.g + od * W.d + oh * W.h;
                t_out(r.ws, w, g.ow, ws_at(a.ws, a.wu8, woff), W.c, true, a.wu8);
            }
            B = next;
        }
    });
}

void cv_fwd(const cv_args_t &a) {
    const kw_taps_t kt(a.g);
    if (a.kind == cv_kind_t::direct)
        cv_fwd_direct(a, kt);
    else
        cv_fwd_ncsp(a, kt);
}

// Backward of one (image, group) plane: diff_src `ds` (strides xd, xh,
// xw, lanes [0, zw) zeroed here) receives every output row of diff_dst
// `dd` (with workspace `ws`, element type by `wu8`). In 1D / 2D the input
// rows are zeroed just before the first output row that reaches them, so
// each is still in cache when its sums arrive.
struct bwd_plane_t {
    float *ds;
    dim_t xd, xh, xw;
    int zw;
    const float *dd;
    dim_t dd_d, dd_h, dd_w;
    void *ws;
    bool wu8;
    dim_t w_d, w_h, w_w;
};

void zero_rows(const geom_t &g, const bwd_plane_t &p, dim_t id, dim_t h0, dim_t h1) {
    const size_t pt = sizeof(float) * (size_t)p.zw;
    for (dim_t ih = h0; ih < h1; ++ih) {
        float *q = p.ds + id * p.xd + ih * p.xh;
        if (p.xw == p.zw) {
            // The lanes of consecutive points are contiguous: one span.
            std::memset(q, 0, pt * (size_t)g.iw);
            continue;
        }
        if (p.zw % 16 == 0) {
            // Whole vectors per point, without a call each.
            for (dim_t iw = 0; iw < g.iw; ++iw)
                for (int v = 0; v < p.zw / 16; ++v)
                    store16(q + iw * p.xw + 16 * v, v16_t {});
            continue;
        }
        for (dim_t iw = 0; iw < g.iw; ++iw)
            std::memset(q + iw * p.xw, 0, pt);
    }
}

void bwd_plane(const geom_t &g, const bwd_plane_t &p, int w, bwd_row_fn fn,
        const kw_taps_t &kt) {
    const bool global = g.od == 1 && g.oh == 1 && g.ow == 1 && g.kd == g.id
            && g.kh == g.ih && g.kw == g.iw && g.pd == 0 && g.ph == 0
            && g.pw == 0 && p.zw == w;
    const bool jit_zero = g.id == 1 && !global;
    const dim_t exth = (g.kh - 1) * (g.dh + 1) + 1;
    if (!jit_zero && !global)
        for (dim_t id = 0; id < g.id; ++id)
            zero_rows(g, p, id, 0, g.ih);
    dim_t z = 0;
    cv_brow_t b;
    cv_row_t &r = b.t;
    r.x = p.ds;
    r.xoff = 0, r.xd = p.xd, r.xh = p.xh, r.xw = p.xw;
    r.o = nullptr, r.os = 0;
    r.wss = p.w_w;
    r.kwlo = kt.lo.data(), r.kwhi = kt.hi.data();
    b.dds = p.dd_w;
    b.assign = global;
    for (dim_t od = 0; od < g.od; ++od)
        for (dim_t oh = 0; oh < g.oh; ++oh) {
            if (jit_zero) {
                dim_t need = oh * g.sh - g.ph + exth;
                if (need > g.ih) need = g.ih;
                if (need > z) zero_rows(g, p, 0, z, need), z = need;
            }
            row_taps(g, od, oh, r);
            b.dd = p.dd + od * p.dd_d + oh * p.dd_h;
            r.ws = p.ws ? ws_at(p.ws, p.wu8, od * p.w_d + oh * p.w_h) : nullptr;
            fn(b, g, w);
        }
    if (jit_zero && z < g.ih) zero_rows(g, p, 0, z, g.ih);
}

void cv_bwd(const cv_args_t &a) {
    const geom_t &g = a.g;
    const kw_taps_t kt(g);
    const int mode = cv_mode(a);
    const cv_view_t &I = a.I, &O = a.O, &W = a.W;
    const dim_t G = a.ngroups;
    if (a.kind == cv_kind_t::direct) {
        const int wst = mode == m_max_ws ? (a.wu8 ? ws_u8 : ws_s32) : ws_none;
        const bwd_row_fn full = a.gw == 64 ? pick_bwd_row<64>(mode, wst)
                : a.gw == 16               ? pick_bwd_row<16>(mode, wst)
                                           : pick_bwd_row<0>(mode, wst);
        const bwd_row_fn part = pick_bwd_row<0>(mode, wst);
        parallel_chunks(a.nthr, g.mb * G, [&](int, dim_t u0, dim_t u1) {
            for (dim_t u = u0; u < u1; ++u) {
                const dim_t n = u / G, j = u % G;
                const int w = j == G - 1 ? a.tail : a.gw;
                bwd_plane_t p;
                p.ds = a.out + n * O.n + j * O.g;
                p.xd = O.d, p.xh = O.h, p.xw = O.w;
                p.zw = a.out_padded ? a.gw : w;
                p.dd = a.in + n * I.n + j * I.g;
                p.dd_d = I.d, p.dd_h = I.h, p.dd_w = I.w;
                p.ws = a.ws ? ws_at(a.ws, a.wu8, n * W.n + j * W.g) : nullptr;
                p.wu8 = a.wu8;
                p.w_d = W.d, p.w_h = W.h, p.w_w = W.w;
                bwd_plane(g, p, w, w == a.gw ? full : part, kt);
            }
        });
        return;
    }
    // ncsp: whole planes of 16 channels through buffers.
    const bwd_row_fn fn = pick_bwd_row<16>(mode, mode == m_max_ws ? ws_s32 : ws_none);
    const dim_t isz = g.id * g.ih * g.iw * 16, osz = g.od * g.oh * g.ow * 16;
    parallel_chunks(a.nthr, g.mb * G, [&](int, dim_t u0, dim_t u1) {
        auto dsb = scratch<float>(isz);
        auto ddb = scratch<float>(osz);
        auto wb = scratch<int32_t>(a.ws ? osz : 0);
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t n = u / G, j = u % G;
            const int w = j == G - 1 ? a.tail : 16;
            for (dim_t od = 0; od < g.od; ++od)
                for (dim_t oh = 0; oh < g.oh; ++oh) {
                    const dim_t bo = (od * g.oh + oh) * g.ow * 16;
                    t_in(a.in + n * I.n + j * I.g + od * I.d + oh * I.h, I.c, w, g.ow,
                            ddb.get() + bo, false, false);
                    if (!a.ws) continue;
                    const dim_t woff = n * W.n + j * W.g + od * W.d + oh * W.h;
                    t_in(ws_at(a.ws, a.wu8, woff), W.c, w, g.ow, wb.get() + bo, true,
                            a.wu8);
                }
            bwd_plane_t p;
            p.ds = dsb.get();
            p.xw = 16, p.xh = g.iw * 16, p.xd = g.ih * g.iw * 16;
            p.zw = 16;
            p.dd = ddb.get();
            p.dd_w = 16, p.dd_h = g.ow * 16, p.dd_d = g.oh * g.ow * 16;
            p.ws = a.ws ? wb.get() : nullptr;
            p.wu8 = false;
            p.w_w = p.dd_w, p.w_h = p.dd_h, p.w_d = p.dd_d;
            bwd_plane(g, p, 16, fn, kt);
            for (dim_t id = 0; id < g.id; ++id)
                for (dim_t ih = 0; ih < g.ih; ++ih)
                    t_out(dsb.get() + (id * g.ih + ih) * g.iw * 16, w, g.iw,
                            a.out + n * O.n + j * O.g + id * O.d + ih * O.h, O.c, false,
                            false);
        }
    });
}


} // namespace

void DNNL_ISA_NAME(cv_fwd)(const cv_args_t &a) {
    cv_fwd(a);
}

void DNNL_ISA_NAME(cv_bwd)(const cv_args_t &a) {
    cv_bwd(a);
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
