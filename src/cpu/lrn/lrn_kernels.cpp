// dnnl-isa: base avx2 avx512_core
// LRN kernels (across channels on tiles, within channel on planes),
// compiled once per ISA listed above (cmake/isa_sources.cmake); the
// table is lrn_kernel_table.cpp.

#include <cmath>

#include "common/math/eltwise_math.hpp"
#include "cpu/lrn/lrn_kernels.hpp"
#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {
namespace {

inline dim_t min_d(dim_t a, dim_t b) {
    return a < b ? a : b;
}
inline dim_t max_d(dim_t a, dim_t b) {
    return a > b ? a : b;
}

// N^-beta; the shortcuts are exact rewrites (N^-0.75 = 1 / sqrt(N sqrt(N))).
template <pow_kind_t K>
DNNL_ALWAYS_INLINE float pw(float n, float beta) {
    if (K == pow_kind_t::b075) return 1.f / sqrtf(n * sqrtf(n));
    if (K == pow_kind_t::b1) return 1.f / n;
    if (K == pow_kind_t::b05) return 1.f / sqrtf(n);
    return math::exp_f(-beta * math::log_f(n));
}

// Points of a cp tile processed together (the accumulators stay in L1).
constexpr dim_t cp_chunk = 256;

template <pow_kind_t K>
void across_fwd_cp_k(const params_t &p, const float *x, dim_t ldx, float *dst,
        dim_t ldd, float *ws, dim_t ldw, dim_t C, dim_t P) {
    const float k = p.k, a = p.a, beta = p.beta;
    // W points at a time with their window sums in registers, the window's
    // rows read from L1 (a sum kept in memory across the rows, as before,
    // cost a load and a store per row and point: 1.6x the time).
    constexpr dim_t W = 16;
    for (dim_t c = 0; c < C; ++c) {
        const dim_t c0 = max_d(c - p.lo, 0), c1 = min_d(c + p.hi, C - 1);
        const float *xr = x + c * ldx;
        float *dr = dst + c * ldd;
        float *wr = ws ? ws + c * ldw : nullptr;
        for (dim_t i0 = 0; i0 < P; i0 += W) {
            const dim_t np = min_d(W, P - i0);
            float n[W];
            if (np == W) {
                float acc[W] = {};
                for (dim_t cc = c0; cc <= c1; ++cc) {
                    const float *r = x + cc * ldx + i0;
                    for (dim_t j = 0; j < W; ++j) acc[j] += r[j] * r[j];
                }
                for (dim_t j = 0; j < W; ++j) n[j] = k + a * acc[j];
            } else {
                // The rows outside, as above (a point at a time, the
                // compiler kept the row pointer on the stack: a tail point
                // of 7x7 planes cost as much as a block of 16).
                float acc[W] = {};
                for (dim_t cc = c0; cc <= c1; ++cc) {
                    const float *r = x + cc * ldx + i0;
                    for (dim_t j = 0; j < np; ++j) acc[j] += r[j] * r[j];
                }
                for (dim_t j = 0; j < np; ++j) n[j] = k + a * acc[j];
            }
            // (ws written in the same loop: alone, its 64-byte copy became
            // a `rep movsq`, a quarter of the training pass.)
            if (wr)
                for (dim_t j = 0; j < np; ++j) {
                    wr[i0 + j] = n[j];
                    dr[i0 + j] = xr[i0 + j] * pw<K>(n[j], beta);
                }
            else
                for (dim_t j = 0; j < np; ++j)
                    dr[i0 + j] = xr[i0 + j] * pw<K>(n[j], beta);
        }
    }
}

// scratch: 2 * C * min(P, cp_chunk) floats (q = N^-beta and t per element).
template <pow_kind_t K>
void across_bwd_cp_k(const params_t &p, const float *x, dim_t ldx,
        const float *dd, dim_t lddd, const float *ws, dim_t ldw, float *ds,
        dim_t ldds, dim_t C, dim_t P, float *scratch) {
    const float k = p.k, a = p.a, beta = p.beta, c2 = p.c2;
    const dim_t ldt = min_d(P, cp_chunk);
    float *Q = scratch, *T = scratch + C * ldt;
    alignas(64) float acc[cp_chunk];
    for (dim_t p0 = 0; p0 < P; p0 += cp_chunk) {
        const dim_t np = min_d(cp_chunk, P - p0);
        for (dim_t c = 0; c < C; ++c) {
            const float *xr = x + c * ldx + p0, *dr = dd + c * lddd + p0;
            float *q = Q + c * ldt, *t = T + c * ldt;
            if (ws) {
                const float *nr = ws + c * ldw + p0;
                for (dim_t i = 0; i < np; ++i) {
                    const float n = nr[i], qi = pw<K>(n, beta);
                    q[i] = qi;
                    t[i] = dr[i] * xr[i] * qi / n;
                }
                continue;
            }
            for (dim_t i = 0; i < np; ++i) acc[i] = 0.f;
            const dim_t c1 = min_d(c + p.hi, C - 1);
            for (dim_t cc = max_d(c - p.lo, 0); cc <= c1; ++cc) {
                const float *r = x + cc * ldx + p0;
                for (dim_t i = 0; i < np; ++i) acc[i] += r[i] * r[i];
            }
            for (dim_t i = 0; i < np; ++i) {
                const float n = k + a * acc[i], qi = pw<K>(n, beta);
                q[i] = qi;
                t[i] = dr[i] * xr[i] * qi / n;
            }
        }
        // Element m receives t of every i whose window holds m: i in
        // [m - hi, m + lo].
        for (dim_t c = 0; c < C; ++c) {
            for (dim_t i = 0; i < np; ++i) acc[i] = 0.f;
            const dim_t c1 = min_d(c + p.lo, C - 1);
            for (dim_t cc = max_d(c - p.hi, 0); cc <= c1; ++cc) {
                const float *t = T + cc * ldt;
                for (dim_t i = 0; i < np; ++i) acc[i] += t[i];
            }
            const float *xr = x + c * ldx + p0, *dr = dd + c * lddd + p0;
            const float *q = Q + c * ldt;
            float *sr = ds + c * ldds + p0;
            for (dim_t i = 0; i < np; ++i)
                sr[i] = dr[i] * q[i] + c2 * xr[i] * acc[i];
        }
    }
}

// Sliding sum over a zero-padded row: out[i] = sum_{j <= w} pad[i + j].
// Small windows (the usual sizes 3 to 9) take one pass of W + 1 shifted
// loads; wider ones add one shifted row at a time.
template <int W>
void window_sum_w(const float *pad, float *out, dim_t n) {
    for (dim_t i = 0; i < n; ++i) {
        float s = pad[i];
        for (int j = 1; j <= W; ++j) s += pad[i + j];
        out[i] = s;
    }
}

void window_sum(const float *pad, float *out, dim_t n, dim_t w) {
    switch (w) {
    case 0:
        return window_sum_w<0>(pad, out, n);
    case 1:
        return window_sum_w<1>(pad, out, n);
    case 2:
        return window_sum_w<2>(pad, out, n);
    case 3:
        return window_sum_w<3>(pad, out, n);
    case 4:
        return window_sum_w<4>(pad, out, n);
    case 5:
        return window_sum_w<5>(pad, out, n);
    case 6:
        return window_sum_w<6>(pad, out, n);
    case 7:
        return window_sum_w<7>(pad, out, n);
    case 8:
        return window_sum_w<8>(pad, out, n);
    default:
        break;
    }
    for (dim_t i = 0; i < n; ++i) out[i] = pad[i];
    for (dim_t j = 1; j <= w; ++j) {
        const float *s = pad + j;
        for (dim_t i = 0; i < n; ++i) out[i] += s[i];
    }
}

// Calls f(s, c0, len) for the channel segments [c0, c0 + len) of one point:
// full segments with len = SEG as a compile-time constant (so that a
// segment of 16 is one AVX-512 vector, with no loop around it), then the
// short last one. SEG = 0: segments of the run-time length S.
template <int SEG, typename F>
DNNL_ALWAYS_INLINE void for_segs(dim_t C, dim_t S, const F &f) {
    const dim_t len = SEG ? SEG : S;
    dim_t s = 0, c0 = 0;
    for (; c0 + len <= C; ++s, c0 += len) {
        if constexpr (SEG != 0)
            f(s, c0, std::integral_constant<dim_t, SEG>());
        else
            f(s, c0, len);
    }
    if (c0 < C) f(s, c0, C - c0);
}

// Window sum at channel j of a zero-padded row: W + 1 taps from pad[j]
// (W < 0: precomputed in acc[j]).
template <int W>
DNNL_ALWAYS_INLINE float window_at(
        const float *pad, const float *acc, dim_t j) {
    if (W < 0) return acc[j];
    float sum = pad[j];
    for (int i = 1; i <= W; ++i) sum += pad[j + i];
    return sum;
}

// Points ahead whose segments the pc kernels prefetch: blocked tensors
// are read in C / 16 streams each, more than the hardware follows.
// Channels-last rows are one stream and need no help.
constexpr dim_t pf_dist = 4;
template <typename T>
DNNL_ALWAYS_INLINE void prefetch_seg(const pc_view_t<T> &v, dim_t C, dim_t pt,
        dim_t s, dim_t P, bool write = false) {
    if (v.ld >= C || pt + pf_dist >= P) return;
    if (write)
        __builtin_prefetch(v.seg(pt + pf_dist, s), 1);
    else
        __builtin_prefetch(v.seg(pt + pf_dist, s));
}

// Squares of a segment into the scratch row (restrict: scratch never
// aliases a tensor, so the short loops vectorise without checks).
template <typename L>
DNNL_ALWAYS_INLINE void squares(
        const float *__restrict x, float *__restrict q, L len) {
    for (dim_t j = 0; j < len; ++j) q[j] = x[j] * x[j];
}

// Backward terms of a segment: q = N^-beta and t = dd * x * q / N, both
// into scratch.
template <pow_kind_t K, typename L>
DNNL_ALWAYS_INLINE void bwd_terms(const float *__restrict x,
        const float *__restrict dd, const float *__restrict n,
        float *__restrict q, float *__restrict t, float beta, L len) {
    for (dim_t j = 0; j < len; ++j) {
        const float qi = pw<K>(n[j], beta);
        q[j] = qi;
        t[j] = dd[j] * x[j] * qi / n[j];
    }
}

// The pc kernels work in chunks of points, one pass per step over the
// whole chunk: the window loads then read rows stored a while ago (loads
// that straddle two recent stores cannot be forwarded and stall), while
// the chunk's rows and scratch stay in L1 (backward keeps five scratch
// rows per point, hence its shorter chunk). Row stride pc_row().

// Zero-padded scratch rows: `before` zeros, C values, `after` zeros.
inline void pad_rows(
        float *rows, dim_t n, dim_t R, dim_t C, dim_t before, dim_t after) {
    for (dim_t r = 0; r < n; ++r) {
        float *row = rows + r * R;
        for (dim_t i = 0; i < before; ++i) row[i] = 0.f;
        for (dim_t i = 0; i < after; ++i) row[before + C + i] = 0.f;
    }
}

// scratch: across_pc_scratch floats.
template <pow_kind_t K, int W, int SEG>
void across_fwd_pc_k(const params_t &p, const pc_in_t &x, const pc_out_t &y,
        const pc_out_t *ws, dim_t C, dim_t S, dim_t P, float *scratch) {
    const dim_t lo = p.lo, hi = p.hi, w = lo + hi, R = pc_row(p, C);
    const float k = p.k, a = p.a, beta = p.beta;
    float *pad = scratch, *acc = scratch + pc_chunk_fwd * R;
    pad_rows(pad, pc_chunk_fwd, R, C, lo, hi);
    for (dim_t p0 = 0; p0 < P; p0 += pc_chunk_fwd) {
        const dim_t p1 = min_d(P, p0 + pc_chunk_fwd);
        // Every square of the chunk is taken before any of its outputs is
        // written, so in-place execution is safe.
        for (dim_t pt = p0; pt < p1; ++pt) {
            float *row = pad + (pt - p0) * R + lo;
            for_segs<SEG>(C, S, [&](dim_t s, dim_t c0, auto len) {
                prefetch_seg(x, C, pt, s, P);
                prefetch_seg(y, C, pt, s, P, true);
                squares(x.seg(pt, s), row + c0, len);
            });
            if (W < 0) window_sum(row - lo, acc + (pt - p0) * R, C, w);
        }
        for (dim_t pt = p0; pt < p1; ++pt) {
            const float *prow = pad + (pt - p0) * R,
                        *arow = acc + (pt - p0) * R;
            for_segs<SEG>(C, S, [&](dim_t s, dim_t c0, auto len) {
                const float *xs = x.seg(pt, s), *ps = prow + c0,
                            *as = arow + c0;
                float *ys = y.seg(pt, s);
                if (ws) {
                    float *wr = ws->seg(pt, s);
                    for (dim_t j = 0; j < len; ++j) {
                        const float n = k + a * window_at<W>(ps, as, j);
                        wr[j] = n;
                        ys[j] = xs[j] * pw<K>(n, beta);
                    }
                } else {
                    for (dim_t j = 0; j < len; ++j)
                        ys[j] = xs[j]
                                * pw<K>(k + a * window_at<W>(ps, as, j), beta);
                }
            });
        }
    }
}

// The same walk backward: N (from ws or recomputed as forward does), then
// t = dd * x * N^(-beta-1) into rows padded with `hi` zeros first (the
// mirrored window), then ds.
template <pow_kind_t K, int W, int SEG>
void across_bwd_pc_k(const params_t &p, const pc_in_t &x, const pc_in_t &dd,
        const pc_in_t *ws, const pc_out_t &ds, dim_t C, dim_t S, dim_t P,
        float *scratch) {
    const float k = p.k, a = p.a, beta = p.beta, c2 = p.c2;
    const dim_t lo = p.lo, hi = p.hi, w = lo + hi, R = pc_row(p, C);
    const dim_t T = pc_chunk_bwd * R;
    float *padf = scratch, *padb = padf + T, *acc = padb + T, *nb = acc + T,
          *q = nb + T;
    pad_rows(padf, pc_chunk_bwd, R, C, lo, hi);
    pad_rows(padb, pc_chunk_bwd, R, C, hi, lo);
    for (dim_t p0 = 0; p0 < P; p0 += pc_chunk_bwd) {
        const dim_t p1 = min_d(P, p0 + pc_chunk_bwd);
        if (!ws) {
            for (dim_t pt = p0; pt < p1; ++pt) {
                float *row = padf + (pt - p0) * R + lo;
                for_segs<SEG>(C, S, [&](dim_t s, dim_t c0, auto len) {
                    squares(x.seg(pt, s), row + c0, len);
                });
                if (W < 0) window_sum(row - lo, acc + (pt - p0) * R, C, w);
            }
            for (dim_t pt = p0; pt < p1; ++pt) {
                const float *prow = padf + (pt - p0) * R,
                            *arow = acc + (pt - p0) * R;
                float *nrow = nb + (pt - p0) * R;
                for (dim_t c = 0; c < C; ++c)
                    nrow[c] = k + a * window_at<W>(prow, arow, c);
            }
        }
        for (dim_t pt = p0; pt < p1; ++pt) {
            float *qrow = q + (pt - p0) * R, *trow = padb + (pt - p0) * R + hi;
            const float *nrow = nb + (pt - p0) * R;
            for_segs<SEG>(C, S, [&](dim_t s, dim_t c0, auto len) {
                prefetch_seg(x, C, pt, s, P);
                prefetch_seg(dd, C, pt, s, P);
                prefetch_seg(ds, C, pt, s, P, true);
                if (ws) prefetch_seg(*ws, C, pt, s, P);
                bwd_terms<K>(x.seg(pt, s), dd.seg(pt, s),
                        ws ? ws->seg(pt, s) : nrow + c0, qrow + c0, trow + c0,
                        beta, len);
            });
            if (W < 0) window_sum(trow - hi, acc + (pt - p0) * R, C, w);
        }
        // dd is read before ds is written, element by element: in place is
        // safe.
        for (dim_t pt = p0; pt < p1; ++pt) {
            const float *qrow = q + (pt - p0) * R, *prow = padb + (pt - p0) * R,
                        *arow = acc + (pt - p0) * R;
            for_segs<SEG>(C, S, [&](dim_t s, dim_t c0, auto len) {
                const float *xs = x.seg(pt, s), *ds_ = dd.seg(pt, s);
                const float *qs = qrow + c0, *ps = prow + c0, *as = arow + c0;
                float *out = ds.seg(pt, s);
                for (dim_t j = 0; j < len; ++j)
                    out[j] = ds_[j] * qs[j]
                             + c2 * xs[j] * window_at<W>(ps, as, j);
            });
        }
    }
}

// The usual local sizes 3 and 5 fuse their window into the loops; segments
// of 16 channels (nChw16c, or channels-last) are unrolled.
template <pow_kind_t K, typename... A>
void across_fwd_pc_w(const params_t &p, dim_t S, A... args) {
    const dim_t w = p.lo + p.hi;
    const bool s16 = S == 16;
    if (w == 4)
        return s16 ? across_fwd_pc_k<K, 4, 16>(p, args...)
                   : across_fwd_pc_k<K, 4, 0>(p, args...);
    if (w == 2)
        return s16 ? across_fwd_pc_k<K, 2, 16>(p, args...)
                   : across_fwd_pc_k<K, 2, 0>(p, args...);
    return s16 ? across_fwd_pc_k<K, -1, 16>(p, args...)
               : across_fwd_pc_k<K, -1, 0>(p, args...);
}
template <pow_kind_t K, typename... A>
void across_bwd_pc_w(const params_t &p, dim_t S, A... args) {
    const dim_t w = p.lo + p.hi;
    const bool s16 = S == 16;
    if (w == 4)
        return s16 ? across_bwd_pc_k<K, 4, 16>(p, args...)
                   : across_bwd_pc_k<K, 4, 0>(p, args...);
    if (w == 2)
        return s16 ? across_bwd_pc_k<K, 2, 16>(p, args...)
                   : across_bwd_pc_k<K, 2, 0>(p, args...);
    return s16 ? across_bwd_pc_k<K, -1, 16>(p, args...)
               : across_bwd_pc_k<K, -1, 0>(p, args...);
}

// Box sum over a dense d x h x w plane with the window [i - lo, i + hi]
// in every dim; a dim of size 1 adds nothing. a, b: n floats each; pad:
// max(dim) + lo + hi floats.
void box_sum(const float *in, float *out, float *a, float *b, float *pad,
        const dim_t *sp, dim_t lo, dim_t hi) {
    const dim_t D = sp[0], H = sp[1], W = sp[2], HW = H * W;
    const float *cur = in;
    if (W > 1) {
        float *to = (H > 1 || D > 1) ? a : out;
        const dim_t l = min_d(lo, W - 1), h = min_d(hi, W - 1);
        for (dim_t i = 0; i < l; ++i) pad[i] = 0.f;
        for (dim_t i = 0; i < h; ++i) pad[l + W + i] = 0.f;
        for (dim_t r = 0; r < D * H; ++r) {
            const float *s = cur + r * W;
            for (dim_t i = 0; i < W; ++i) pad[l + i] = s[i];
            window_sum(pad, to + r * W, W, l + h);
        }
        cur = to;
    }
    if (H > 1) {
        float *to = D > 1 ? (cur == a ? b : a) : out;
        for (dim_t d = 0; d < D; ++d)
            for (dim_t y = 0; y < H; ++y) {
                float *o = to + d * HW + y * W;
                const dim_t y1 = min_d(y + hi, H - 1);
                dim_t yy = max_d(y - lo, 0);
                const float *s = cur + d * HW + yy * W;
                for (dim_t i = 0; i < W; ++i) o[i] = s[i];
                for (++yy; yy <= y1; ++yy) {
                    s = cur + d * HW + yy * W;
                    for (dim_t i = 0; i < W; ++i) o[i] += s[i];
                }
            }
        cur = to;
    }
    if (D > 1) {
        for (dim_t d = 0; d < D; ++d) {
            float *o = out + d * HW;
            const dim_t d1 = min_d(d + hi, D - 1);
            dim_t dd = max_d(d - lo, 0);
            const float *s = cur + dd * HW;
            for (dim_t i = 0; i < HW; ++i) o[i] = s[i];
            for (++dd; dd <= d1; ++dd) {
                s = cur + dd * HW;
                for (dim_t i = 0; i < HW; ++i) o[i] += s[i];
            }
        }
        cur = out;
    }
    if (cur != out)
        for (dim_t i = 0; i < D * HW; ++i) out[i] = cur[i];
}

// scratch: within_scratch floats.
template <pow_kind_t K>
void within_fwd_k(const params_t &p, const float *x, float *dst, float *ws,
        const dim_t *sp, float *scratch) {
    const dim_t n = sp[0] * sp[1] * sp[2];
    float *sq = scratch, *sum = sq + n, *a = sum + n, *b = a + n, *pad = b + n;
    for (dim_t i = 0; i < n; ++i) sq[i] = x[i] * x[i];
    box_sum(sq, sum, a, b, pad, sp, p.lo, p.hi);
    const float k = p.k, al = p.a, beta = p.beta;
    if (ws) {
        for (dim_t i = 0; i < n; ++i) {
            const float v = k + al * sum[i];
            ws[i] = v;
            dst[i] = x[i] * pw<K>(v, beta);
        }
    } else {
        for (dim_t i = 0; i < n; ++i)
            dst[i] = x[i] * pw<K>(k + al * sum[i], beta);
    }
}

template <pow_kind_t K>
void within_bwd_k(const params_t &p, const float *x, const float *dd,
        const float *ws, float *ds, const dim_t *sp, float *scratch) {
    const dim_t n = sp[0] * sp[1] * sp[2];
    float *nb = scratch, *t = nb + n, *ts = t + n, *a = ts + n, *b = a + n,
          *pad = b + n;
    const float k = p.k, al = p.a, beta = p.beta, c2 = p.c2;
    const float *nv = ws;
    if (!ws) {
        for (dim_t i = 0; i < n; ++i) t[i] = x[i] * x[i];
        box_sum(t, ts, a, b, pad, sp, p.lo, p.hi);
        for (dim_t i = 0; i < n; ++i) nb[i] = k + al * ts[i];
        nv = nb;
    }
    // nb ends up holding q = N^-beta (in place when N was computed here).
    for (dim_t i = 0; i < n; ++i) {
        const float v = nv[i], q = pw<K>(v, beta);
        t[i] = dd[i] * x[i] * q / v;
        nb[i] = q;
    }
    box_sum(t, ts, a, b, pad, sp, p.hi, p.lo);
    for (dim_t i = 0; i < n; ++i) ds[i] = dd[i] * nb[i] + c2 * x[i] * ts[i];
}

// Dispatch on the power shortcut once per call, outside the loops.
#define LRN_DISPATCH(fn, ...)                                                  \
    switch (p.pw) {                                                            \
    case pow_kind_t::b075:                                                     \
        return fn<pow_kind_t::b075>(__VA_ARGS__);                              \
    case pow_kind_t::b1:                                                       \
        return fn<pow_kind_t::b1>(__VA_ARGS__);                                \
    case pow_kind_t::b05:                                                      \
        return fn<pow_kind_t::b05>(__VA_ARGS__);                               \
    default:                                                                   \
        return fn<pow_kind_t::general>(__VA_ARGS__);                           \
    }

void across_fwd_cp(const params_t &p, const float *x, dim_t ldx, float *dst,
        dim_t ldd, float *ws, dim_t ldw, dim_t C, dim_t P) {
    LRN_DISPATCH(across_fwd_cp_k, p, x, ldx, dst, ldd, ws, ldw, C, P)
}
void across_fwd_pc(const params_t &p, const pc_in_t &x, const pc_out_t &dst,
        const pc_out_t *ws, dim_t C, dim_t S, dim_t P, float *scratch) {
    LRN_DISPATCH(across_fwd_pc_w, p, S, x, dst, ws, C, S, P, scratch)
}
void across_bwd_cp(const params_t &p, const float *x, dim_t ldx,
        const float *dd, dim_t lddd, const float *ws, dim_t ldw, float *ds,
        dim_t ldds, dim_t C, dim_t P, float *scratch) {
    LRN_DISPATCH(across_bwd_cp_k, p, x, ldx, dd, lddd, ws, ldw, ds, ldds, C, P,
            scratch)
}
void across_bwd_pc(const params_t &p, const pc_in_t &x, const pc_in_t &dd,
        const pc_in_t *ws, const pc_out_t &ds, dim_t C, dim_t S, dim_t P,
        float *scratch) {
    LRN_DISPATCH(across_bwd_pc_w, p, S, x, dd, ws, ds, C, S, P, scratch)
}
void within_fwd(const params_t &p, const float *x, float *dst, float *ws,
        const dim_t *sp, float *scratch) {
    LRN_DISPATCH(within_fwd_k, p, x, dst, ws, sp, scratch)
}
void within_bwd(const params_t &p, const float *x, const float *dd,
        const float *ws, float *ds, const dim_t *sp, float *scratch) {
    LRN_DISPATCH(within_bwd_k, p, x, dd, ws, ds, sp, scratch)
}
#undef LRN_DISPATCH

} // namespace

const kernel_table_t &DNNL_ISA_NAME(kernels)() {
    static const kernel_table_t table {isa_unit::this_isa_name, across_fwd_cp, across_fwd_pc,
            across_bwd_cp, across_bwd_pc, within_fwd, within_bwd};
    return table;
}

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl
