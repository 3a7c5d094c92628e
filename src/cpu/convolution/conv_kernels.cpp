// dnnl-isa: base avx2 avx512_core
// The convolution's hot inner loops, compiled once per ISA listed above
// (cmake/isa_sources.cmake); the table is conv_kernel_table.cpp:
//  - depthwise rows: nspc, register accumulators for 8 output points by
//    16 channels walking the kernel taps (a tap's weights loaded once
//    for the 8 points); ncsp, output rows accumulating shifted input
//    rows (vectorised over the width);
//  - the implicit GEMM's B-panel packing: the source gathered straight
//    into microkernel panels (im2col fused with packing); the AVX-512 set
//    also carries the masked-load gathering of conv_igemm_pack_avx512.cpp.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "common/float_convert.hpp"
#include "cpu/convolution/conv_kernels.hpp"
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/isa_unit.hpp"
#include "cpu/simd_v16.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {
namespace {
using gemm::to_f32_t;

// The walk of one row of depthwise points over the row's kernel taps,
// channels last (G channels per point): the input of point x and tap kw
// of kernel row r is rows[r][first + x * pstep + kw * tstep] when it
// exists. Forward: points are output columns ow, first = -pl * G,
// pstep = sw * G, tstep = dwl * G. Backward data with unit stride:
// points are input columns iw reading diff_dst columns iw + pl - kw * dwl
// (first = pl * G, pstep = G, tstep = -dwl * G).
struct dw_walk_t {
    const float *const *rows;
    const dim_t *taps; // kernel row (a (kd, kh) index) of rows[r]
    int nrows;
    const float *w; // [kd][kh][kw][G]
    dim_t G, kw;
    dim_t first, pstep, tstep;
    // The row the previous row of points did not read (coming from
    // memory): forward the last kernel row, backward data the first
    // (rows come in rising kernel row order, so falling diff_dst rows).
    int fresh;
};

// Tuning by ISA, each measured where it runs:
//  - dw_points_max: the most points dw_points16 takes at a time, their
//    accumulators and a tap's weights filling the vector registers
//    (AVX-512: 8 + 1 of 32 zmm; 16 ymm elsewhere: 6 x 2 + 2, as 8 points
//    spilled accumulators to the stack in the inner loop);
//  - dw_prefetch_points: how far ahead dw_points16 prefetches (0: not);
//  - dw_column_blocks: backward weights walks rows in column blocks.
// The prefetches and column blocks made MobileNet's layers 1.2-1.6x
// faster on a 2-core AVX2 host and 10-25% slower on a 16-core AVX-512
// Xeon (whose cores each hold fewer rows, in larger caches), so the
// AVX-512 build keeps whole rows without prefetches.
#if defined(__AVX512F__)
constexpr int dw_points_max = 8;
constexpr int dw_prefetch_points = 0;
constexpr bool dw_column_blocks = false;
#else
constexpr int dw_points_max = 6;
constexpr int dw_prefetch_points = 24;
constexpr bool dw_column_blocks = true;
#endif

// P points from x on whose taps all exist, 16 channels from cb: a tap's
// weights are loaded once for the P points.
template <int P>
inline void dw_points16(
        const dw_walk_t &k, dim_t x, dim_t cb, float *out, dim_t ldo)
{
    v16_t a[P];
    for (int p = 0; p < P; ++p)
        a[p] = v16_t {};
    // Lines ahead for the hardware: the fresh row's input and the output
    // lines this block will write (read for ownership otherwise, on the
    // critical path); on AVX2 24 points ahead measured best of 6, 12 and
    // 24. (No kernel row reaches the input in rows of the padding only.)
    if (dw_prefetch_points > 0 && k.nrows > 0) {
        const float *ahead = k.rows[k.fresh] + k.first
                + (x + dw_prefetch_points) * k.pstep + cb;
        for (int p = 0; p < P; ++p) {
            __builtin_prefetch(ahead + p * k.pstep, 0, 3);
            __builtin_prefetch(
                    out + (dw_prefetch_points + p) * ldo + cb, 1, 3);
        }
    }
    for (int r = 0; r < k.nrows; ++r) {
        const float *wk = k.w + k.taps[r] * k.kw * k.G + cb;
        const float *s0 = k.rows[r] + k.first + x * k.pstep + cb;
        for (dim_t kw = 0; kw < k.kw; ++kw) {
            const v16_t wv = load16(wk + kw * k.G);
            const float *s = s0 + kw * k.tstep;
            for (int p = 0; p < P; ++p)
                a[p] += load16(s + p * k.pstep) * wv;
        }
    }
    for (int p = 0; p < P; ++p)
        store16(out + p * ldo + cb, a[p]);
}

// Points [lo, hi) of a row, channels [c0, c0 + nc), through dw_points16
// (8, 4, then 1 at a time), every block of 16 channels of a run of
// points before the next run (the runs' inputs stay in L1); the channel
// tail goes to `point`.
template <typename F>
inline void dw_inner(const dw_walk_t &k, dim_t lo, dim_t hi, dim_t c0,
        dim_t nc, float *out, dim_t ldo, F point)
{
    const dim_t c16 = c0 + nc / 16 * 16;
    dim_t x = lo;
    for (; x + dw_points_max <= hi; x += dw_points_max)
        for (dim_t cb = c0; cb < c16; cb += 16)
            dw_points16<dw_points_max>(k, x, cb, out + x * ldo, ldo);
    for (; x + 4 <= hi; x += 4)
        for (dim_t cb = c0; cb < c16; cb += 16)
            dw_points16<4>(k, x, cb, out + x * ldo, ldo);
    for (; x < hi; ++x)
        for (dim_t cb = c0; cb < c16; cb += 16)
            dw_points16<1>(k, x, cb, out + x * ldo, ldo);
    if (c16 < c0 + nc)
        for (x = lo; x < hi; ++x)
            point(x, c16, c0 + nc - c16);
}

// out[q] += s[q] * w[q] for q < len.
inline void dw_fma(float *out, const float *s, const float *w, dim_t len)
{
    for (dim_t q = 0; q < len; ++q)
        out[q] += s[q] * w[q];
}

// One output row, channels last, channels [c0, c0 + nc). rows[r] is the
// input row of kernel row taps[r] (a (kd, kh) index); w is
// [kd][kh][kw][G]; out is [OW][ldo]. Points whose taps all fall inside
// the row go 8, 4 or 1 at a time per 16 channels; border points and
// channel tails tap by tap.
void dw_row_nspc(const conv_conf_t &c, const float *const *rows,
        const dim_t *taps, int nrows, const float *w, float *out, dim_t ldo,
        dim_t c0, dim_t nc)
{
    const dim_t G = c.g;
    const dw_walk_t k {rows, taps, nrows, w, G, c.kw, -c.pl * G, c.sw * G,
            c.dwl * G, nrows - 1};
    auto point = [&](dim_t ow, dim_t cb, dim_t len) {
        float *o = out + ow * ldo + cb;
        for (dim_t q = 0; q < len; ++q)
            o[q] = 0.f;
        for (int r = 0; r < nrows; ++r)
            for (dim_t kw = 0; kw < c.kw; ++kw) {
                const dim_t iw = ow * c.sw - c.pl + kw * c.dwl;
                if (iw < 0 || iw >= c.iw) continue;
                dw_fma(o, rows[r] + iw * G + cb,
                        w + (taps[r] * c.kw + kw) * G + cb, len);
            }
    };
    // Inner points: ow * sw - pl >= 0 and the last tap below iw.
    const dim_t span = (c.kw - 1) * c.dwl;
    dim_t lo = (c.pl + c.sw - 1) / c.sw;
    dim_t hi = c.iw - 1 - span + c.pl < 0
            ? 0
            : (c.iw - 1 - span + c.pl) / c.sw + 1;
    lo = std::min(lo, c.ow);
    hi = std::max(lo, std::min(hi, c.ow));
    for (dim_t ow = 0; ow < lo; ++ow)
        point(ow, c0, nc);
    for (dim_t ow = hi; ow < c.ow; ++ow)
        point(ow, c0, nc);
    dw_inner(k, lo, hi, c0, nc, out, ldo, point);
}

// Backward data, one diff_src row, channels last: rows[r] is the
// diff_dst row of kernel row taps[r]; out is [IW][ldo]. Column iw takes
// tap kw from diff_dst column ow = (iw + pl - kw * dwl) / sw where the
// division is exact and ow in [0, OW). With unit stride the columns
// whose taps all exist go 8 at a time per 16 channels.
void dw_bwd_d_row_nspc(const conv_conf_t &c, const float *const *rows,
        const dim_t *taps, int nrows, const float *w, float *out, dim_t ldo)
{
    const dim_t G = c.g;
    auto point = [&](dim_t iw, dim_t cb, dim_t len) {
        float *o = out + iw * ldo + cb;
        for (dim_t q = 0; q < len; ++q)
            o[q] = 0.f;
        for (int r = 0; r < nrows; ++r)
            for (dim_t kw = 0; kw < c.kw; ++kw) {
                const dim_t num = iw + c.pl - kw * c.dwl;
                if (num < 0 || num % c.sw) continue;
                const dim_t ow = num / c.sw;
                if (ow >= c.ow) continue;
                dw_fma(o, rows[r] + ow * G + cb,
                        w + (taps[r] * c.kw + kw) * G + cb, len);
            }
    };
    dim_t lo = c.iw, hi = c.iw;
    if (c.sw == 1) {
        // Every tap exists: iw + pl - span >= 0 and iw + pl < OW.
        const dim_t span = (c.kw - 1) * c.dwl;
        lo = std::min(c.iw, std::max<dim_t>(0, span - c.pl));
        hi = std::max(lo, std::min(c.iw, c.ow - c.pl));
    }
    for (dim_t iw = 0; iw < lo; ++iw)
        point(iw, 0, G);
    for (dim_t iw = hi; iw < c.iw; ++iw)
        point(iw, 0, G);
    const dw_walk_t k {
            rows, taps, nrows, w, G, c.kw, c.pl * G, G, -c.dwl * G, 0};
    dw_inner(k, lo, hi, 0, G, out, ldo, point);
}

// NK consecutive taps of 16 channels from cb over columns [lo, hi) of
// one row, all of whose inputs exist: a diff_dst load serves the NK
// taps; two columns at a time in separate sums (twice the chains for the
// FMA latency). s is the row at tap 0 (column ow at s + ow * step).
template <int NK>
inline void dw_bwd_w_taps16(const float *s, dim_t step, dim_t tstep,
        const float *dd, dim_t G, dim_t lo, dim_t hi, dim_t cb, float *a)
{
    v16_t t0[NK], t1[NK];
    for (int j = 0; j < NK; ++j)
        t0[j] = t1[j] = v16_t {};
    dim_t ow = lo;
    for (; ow + 2 <= hi; ow += 2) {
        const v16_t d0 = load16(dd + ow * G + cb),
                    d1 = load16(dd + (ow + 1) * G + cb);
        const float *p0 = s + ow * step + cb, *p1 = p0 + step;
        for (int j = 0; j < NK; ++j) {
            t0[j] += load16(p0 + j * tstep) * d0;
            t1[j] += load16(p1 + j * tstep) * d1;
        }
    }
    if (ow < hi) {
        const v16_t d0 = load16(dd + ow * G + cb);
        const float *p0 = s + ow * step + cb;
        for (int j = 0; j < NK; ++j)
            t0[j] += load16(p0 + j * tstep) * d0;
    }
    for (int j = 0; j < NK; ++j)
        store16(a + j * G + cb, load16(a + j * G + cb) + (t0[j] + t1[j]));
}

// Backward weights, one diff_dst row dd ([OW][G]), channels last: adds
// sum over ow of src x diff_dst to acc[taps[r]][kw][G] for every kernel
// row r (rows[r] its source row) and kw, and the row's column sums to
// bias when given. Taps go up to four at a time over the columns where
// all of them have inputs; the columns where only some do, and the
// channel tail, tap by tap.
void dw_bwd_w_row_nspc(const conv_conf_t &c, const float *const *rows,
        const dim_t *taps, int nrows, const float *dd, float *acc,
        float *bias)
{
    const dim_t G = c.g, G16 = G / 16 * 16, step = c.sw * G;
    // Columns ow whose input iw = ow * sw - pl + kw * dwl exists.
    auto range = [&](dim_t kw, dim_t &lo, dim_t &hi) {
        const dim_t off = kw * c.dwl - c.pl;
        lo = off >= 0 ? 0 : (-off + c.sw - 1) / c.sw;
        hi = c.iw - 1 - off < 0 ? 0
                                : std::min(c.ow, (c.iw - 1 - off) / c.sw + 1);
        lo = std::min(lo, hi);
    };
    // Every 16-channel pass walks columns G floats apart; over a whole
    // row of many channels those lines (power-of-two strides for the
    // usual G) crowd a few L1 sets and miss on every pass. Passes over
    // blocks of at least 16 columns and 16 KB of a row keep the block's
    // lines in L1 for all channel blocks (measured against whole rows
    // and blocks of 4 and 8 columns).
    const dim_t dw_bwd_cols
            = dw_column_blocks ? std::max<dim_t>(16, 4096 / G) : c.ow;
    if (bias) {
        for (dim_t b0 = 0; b0 < c.ow; b0 += dw_bwd_cols) {
            const dim_t b1 = std::min(c.ow, b0 + dw_bwd_cols);
            for (dim_t cb = 0; cb < G16; cb += 16) {
                v16_t s0 {}, s1 {};
                dim_t ow = b0;
                for (; ow + 2 <= b1; ow += 2) {
                    s0 += load16(dd + ow * G + cb);
                    s1 += load16(dd + (ow + 1) * G + cb);
                }
                if (ow < b1) s0 += load16(dd + ow * G + cb);
                store16(bias + cb, load16(bias + cb) + (s0 + s1));
            }
        }
        for (dim_t ow = 0; ow < c.ow; ++ow)
            for (dim_t g = G16; g < G; ++g)
                bias[g] += dd[ow * G + g];
    }
    for (int r = 0; r < nrows; ++r) {
        float *ar = acc + taps[r] * c.kw * G;
        // One tap over columns [lo, hi), every channel.
        auto one_tap = [&](dim_t kw, dim_t lo, dim_t hi) {
            const float *s = rows[r] + (kw * c.dwl - c.pl) * G;
            for (dim_t ow = lo; ow < hi; ++ow)
                dw_fma(ar + kw * G, s + ow * step, dd + ow * G, G);
        };
        for (dim_t k0 = 0; k0 < c.kw; k0 += 4) {
            const int nk = (int)std::min<dim_t>(4, c.kw - k0);
            // The group's common columns: the first tap's right end, the
            // last tap's left end.
            dim_t lo_f, hi_f, lo_l, hi_l;
            range(k0, lo_f, hi_f);
            range(k0 + nk - 1, lo_l, hi_l);
            const dim_t lo = std::max(lo_f, lo_l), hi = std::min(hi_f, hi_l);
            if (lo < hi) {
                const float *s = rows[r] + (k0 * c.dwl - c.pl) * G;
                float *a = ar + k0 * G;
                const dim_t ts = c.dwl * G;
                for (dim_t b0 = lo; b0 < hi; b0 += dw_bwd_cols) {
                    const dim_t b1 = std::min(hi, b0 + dw_bwd_cols);
                    for (dim_t cb = 0; cb < G16; cb += 16) switch (nk) {
                            case 4: dw_bwd_w_taps16<4>(s, step, ts, dd, G, b0, b1, cb, a); break;
                            case 3: dw_bwd_w_taps16<3>(s, step, ts, dd, G, b0, b1, cb, a); break;
                            case 2: dw_bwd_w_taps16<2>(s, step, ts, dd, G, b0, b1, cb, a); break;
                            default: dw_bwd_w_taps16<1>(s, step, ts, dd, G, b0, b1, cb, a);
                        }
                }
                if (G16 < G)
                    for (int j = 0; j < nk; ++j)
                        for (dim_t ow = lo; ow < hi; ++ow)
                            dw_fma(a + j * G + G16,
                                    s + j * ts + ow * step + G16,
                                    dd + ow * G + G16, G - G16);
            }
            // Each tap's own columns outside the common ones.
            for (int j = 0; j < nk; ++j) {
                dim_t tl, th;
                range(k0 + j, tl, th);
                if (lo >= hi) {
                    one_tap(k0 + j, tl, th);
                    continue;
                }
                one_tap(k0 + j, tl, std::min(th, lo));
                one_tap(k0 + j, std::max(tl, hi), th);
            }
        }
    }
}

// One output row of one channel plane: acc[ow] = sum over taps.
void dw_row_ncsp(const conv_conf_t &c, const float *in,
        const float *wg, dim_t od, dim_t oh, float *acc)
{
    for (dim_t ow = 0; ow < c.ow; ++ow)
        acc[ow] = 0.f;
    for_each_input_row(c, od, oh, [&](dim_t kd, dim_t kh, dim_t id, dim_t ih) {
        const float *srow = in + (id * c.ih + ih) * c.iw;
        for (dim_t kw = 0; kw < c.kw; ++kw) {
            const float wv = wg[(kd * c.kh + kh) * c.kw + kw];
            const dim_t off = kw * c.dwl - c.pl;
            // ow range with 0 <= ow * sw + off < iw
            const dim_t lo = off >= 0 ? 0 : (-off + c.sw - 1) / c.sw;
            const dim_t hi = c.iw - 1 - off < 0
                    ? 0
                    : std::min(c.ow, (c.iw - 1 - off) / c.sw + 1);
            if (c.sw == 1) {
                const float *s = srow + off;
                for (dim_t ow = lo; ow < hi; ++ow)
                    acc[ow] += s[ow] * wv;
            } else {
                for (dim_t ow = lo; ow < hi; ++ow)
                    acc[ow] += srow[ow * c.sw + off] * wv;
            }
        }
    });
}

#define CONV_INLINE inline __attribute__((always_inline))

// A position in B panels: row pointer `d` of the current panel and its
// lane. Moving on by n points crosses panels kcNR floats apart.
struct lane_pos_t {
    float *d;
    dim_t lane;
    // Run r's first point in row `row` (lane 0 of panel 0).
    CONV_INLINE lane_pos_t(float *row, dim_t kcNR, const run_t &r)
        : d(row + r.jp * kcNR), lane(r.jl) {}
    // Lane 0 of the first panel.
    CONV_INLINE explicit lane_pos_t(float *row) : d(row), lane(0) {}
    CONV_INLINE void advance(dim_t n, dim_t kcNR, int NR) {
        lane += n;
        while (lane >= NR) {
            lane -= NR;
            d += kcNR;
        }
    }
};

// Writes `n` values v(t), t < n, into B panel lanes from position `at`.
template <typename F>
CONV_INLINE void put_lanes(lane_pos_t at, dim_t kcNR, int NR, dim_t n, F v)
{
    dim_t lane = at.lane;
    float *d = at.d;
    for (dim_t t = 0; t < n;) {
        const dim_t cnt = std::min<dim_t>(n - t, NR - lane);
        for (dim_t q = 0; q < cnt; ++q)
            d[lane + q] = v(t + q);
        t += cnt;
        lane = 0;
        d += kcNR;
    }
}

template <typename T>
CONV_INLINE void put_src(lane_pos_t at, dim_t kcNR, int NR, dim_t n,
        const T *s, dim_t stride)
{
    if (std::is_same<T, float>::value && stride == 1) {
        const float *f = reinterpret_cast<const float *>(s);
        put_lanes(at, kcNR, NR, n, [&](dim_t t) { return f[t]; });
        return;
    }
    put_lanes(at, kcNR, NR, n,
            [&](dim_t t) { return to_f32_t<T>::cvt(s[t * stride]); });
}

// Output rows shorter than this take the table below: their runs are a
// few points each, and walking them cost more than the copies (a grouped
// 3x3 stride-2 layer of 4 x 4 outputs: 4.6 of its 6.6 us in the pack).
constexpr dim_t short_rows = 16;

// Channels-first B panels through a table of source offsets: every
// (kernel tap, chunk point) once per call (-1 in the padding), then each
// K row is one pass over its tap's entries with no run logic.
template <typename T>
CONV_INLINE void pack_b_ncsp_short(const conv_conf_t &c, const T *src,
        const std::vector<run_t> &runs, dim_t pc, dim_t kc, dim_t nsp, int NR,
        float *bp)
{
    const dim_t ksp = c.ksp(), isp = c.isp(), kcNR = kc * NR;
    std::vector<dim_t> tab((size_t)(ksp * nsp));
    for (dim_t tap = 0; tap < ksp; ++tap) {
        const dim_t kw = tap % c.kw, kh = (tap / c.kw) % c.kh,
                    kd = tap / (c.kw * c.kh);
        dim_t *t = tab.data() + tap * nsp;
        for (const run_t &r : runs) {
            const dim_t id = r.id0 + kd * c.ddl, ih = r.ih0 + kh * c.dhl;
            const bool row_ok = id >= 0 && id < c.id && ih >= 0 && ih < c.ih;
            for (dim_t q = 0; q < r.len; ++q) {
                const dim_t iw = (r.ow0 + q) * c.sw - c.pl + kw * c.dwl;
                t[r.j + q] = row_ok && iw >= 0 && iw < c.iw
                        ? (id * c.ih + ih) * c.iw + iw
                        : -1;
            }
        }
    }
    dim_t ic = pc / ksp, tap = pc % ksp;
    for (dim_t p = 0; p < kc; ++p) {
        const T *plane = src + ic * isp;
        const dim_t *t = tab.data() + tap * nsp;
        float *row = bp + p * NR;
        for (dim_t j0 = 0; j0 < nsp; j0 += NR) {
            const dim_t n = std::min<dim_t>(NR, nsp - j0);
            float *d = row + (j0 / NR) * kcNR;
            // Branch-free: a padding entry reads the plane's first value
            // and keeps 0 (the taps' padding patterns defeat prediction).
            for (dim_t l = 0; l < n; ++l) {
                const dim_t o = t[j0 + l];
                const float v = to_f32_t<T>::cvt(plane[o < 0 ? 0 : o]);
                d[l] = o < 0 ? 0.f : v;
            }
        }
        if (++tap == ksp) {
            tap = 0;
            ++ic;
        }
    }
}

// B panels of K rows [pc, pc + kc) and the chunk's output points:
// bp[j / NR][p][j % NR] = col(pc + p, j), zero outside the source.
template <typename T>
CONV_INLINE void pack_b(const conv_conf_t &c, bool ncsp, const T *src,
        const std::vector<run_t> &runs, dim_t pc, dim_t kc, dim_t sp0,
        dim_t nsp, int NR, float *bp)
{
    // Element (ic, point) at src[ic * cs + point * ps].
    const dim_t cs = ncsp ? c.isp() : 1, ps = ncsp ? 1 : c.ic();
    const dim_t npanels = (nsp + NR - 1) / NR;
    const dim_t ksp = c.ksp();
    const dim_t kcNR = kc * NR;
    // Zero the lanes past nsp in the last panel.
    if (nsp % NR) {
        float *last = bp + (npanels - 1) * kcNR;
        for (dim_t p = 0; p < kc; ++p)
            for (dim_t j = nsp % NR; j < NR; ++j)
                last[p * NR + j] = 0.f;
    }
    const bool pointwise = c.is_pointwise();
    if (!ncsp) {
        // Channels last: the rows of one kernel tap are consecutive
        // channels, contiguous in the source for every output point, so
        // copy point by point (contiguous reads, lane-strided writes).
        const dim_t IC = c.ic();
        for (dim_t p = 0; p < kc;) {
            const dim_t k = pc + p;
            const dim_t tap = k / c.icg, ic0 = k % c.icg;
            const dim_t nrows = std::min(c.icg - ic0, kc - p);
            const dim_t kw = tap % c.kw, kh = (tap / c.kw) % c.kh,
                        kd = tap / (c.kw * c.kh);
            float *rows = bp + p * NR;
            for (const run_t &r : runs) {
                const dim_t id = r.id0 + kd * c.ddl;
                const dim_t ih = r.ih0 + kh * c.dhl;
                const bool row_ok
                        = id >= 0 && id < c.id && ih >= 0 && ih < c.ih;
                const T *srow = src + (id * c.ih + ih) * c.iw * IC + ic0;
                dim_t lane = r.jl;
                float *d = rows + r.jp * kcNR;
                for (dim_t t = 0; t < r.len; ++t) {
                    const dim_t iw = (r.ow0 + t) * c.sw - c.pl + kw * c.dwl;
                    float *dl = d + lane;
                    if (row_ok && iw >= 0 && iw < c.iw) {
                        const T *sp = srow + iw * IC;
                        for (dim_t q = 0; q < nrows; ++q)
                            dl[q * NR] = to_f32_t<T>::cvt(sp[q]);
                    } else {
                        for (dim_t q = 0; q < nrows; ++q)
                            dl[q * NR] = 0.f;
                    }
                    if (++lane == NR) {
                        lane = 0;
                        d += kcNR;
                    }
                }
            }
            p += nrows;
        }
        return;
    }
    if (!pointwise && c.ow < short_rows && c.isp() > 0) {
        pack_b_ncsp_short(c, src, runs, pc, kc, nsp, NR, bp);
        return;
    }
    // K order (ic, kd, kh, kw): the indices of row pc, then stepped row by
    // row (no divisions per row).
    const dim_t ksp_w = c.kw, ksp_hw = c.kw * c.kh;
    dim_t ic = pc / ksp, kd = pc % ksp / ksp_hw, kh = pc % ksp_hw / ksp_w,
          kw = pc % ksp_w;
    for (dim_t p = 0; p < kc; ++p) {
        const T *plane = src + ic * cs;
        float *row = bp + p * NR;
        const dim_t kwi = kw, khi = kh, kdi = kd;
        if (++kw == c.kw) {
            kw = 0;
            if (++kh == c.kh) {
                kh = 0;
                if (++kd == c.kd) {
                    kd = 0;
                    ++ic;
                }
            }
        }
        if (pointwise) {
            put_src(lane_pos_t(row), kcNR, NR, nsp, plane + sp0 * ps, ps);
            continue;
        }
        // The output columns this kernel column reaches in the source.
        const dim_t off_w = kwi * c.dwl - c.pl;
        dim_t lo = off_w >= 0 ? 0 : (-off_w + c.sw - 1) / c.sw;
        const dim_t hi = c.iw - 1 - off_w < 0
                ? 0
                : std::min(c.ow, (c.iw - 1 - off_w) / c.sw + 1);
        if (lo > hi) lo = hi;
        for (const run_t &r : runs) {
            const dim_t id = r.id0 + kdi * c.ddl;
            const dim_t ih = r.ih0 + khi * c.dhl;
            const dim_t e = r.ow0 + r.len;
            lane_pos_t at(row, kcNR, r);
            if (id < 0 || id >= c.id || ih < 0 || ih >= c.ih || hi <= r.ow0
                    || lo >= e) {
                put_lanes(at, kcNR, NR, r.len, [](dim_t) { return 0.f; });
                continue;
            }
            const dim_t a = std::max(r.ow0, lo), b = std::min(e, hi);
            if (a > r.ow0) {
                put_lanes(at, kcNR, NR, a - r.ow0, [](dim_t) { return 0.f; });
                at.advance(a - r.ow0, kcNR, NR);
            }
            const T *s = plane
                    + ((id * c.ih + ih) * c.iw + off_w + a * c.sw) * ps;
            put_src(at, kcNR, NR, b - a, s, c.sw * ps);
            if (b < e) {
                at.advance(b - a, kcNR, NR);
                put_lanes(at, kcNR, NR, e - b, [](dim_t) { return 0.f; });
            }
        }
    }
}

void pack_b_f32(const conv_conf_t &c, bool ncsp, const float *src,
        const std::vector<run_t> &runs, dim_t pc, dim_t kc, dim_t sp0,
        dim_t nsp, int NR, float *bp)
{
    pack_b(c, ncsp, src, runs, pc, kc, sp0, nsp, NR, bp);
}
void pack_b_bf16(const conv_conf_t &c, bool ncsp,
        const gemm::bf16_tag_t *src, const std::vector<run_t> &runs,
        dim_t pc, dim_t kc, dim_t sp0, dim_t nsp, int NR, float *bp)
{
    pack_b(c, ncsp, src, runs, pc, kc, sp0, nsp, NR, bp);
}
void pack_b_f16(const conv_conf_t &c, bool ncsp,
        const gemm::f16_tag_t *src, const std::vector<run_t> &runs, dim_t pc,
        dim_t kc, dim_t sp0, dim_t nsp, int NR, float *bp)
{
    pack_b(c, ncsp, src, runs, pc, kc, sp0, nsp, NR, bp);
}

} // namespace

const conv_kernels_t &DNNL_ISA_NAME(conv_kernels)() {
    // The gathering pack loop exists for AVX-512 only (its own file).
    constexpr auto gather = isa_unit::this_isa == avx512_core
            ? &igemm_pack_f32_ncsp_avx512_core
            : nullptr;
    static const conv_kernels_t k{isa_unit::this_isa_name, dw_points_max,
            dw_row_nspc,
            dw_row_ncsp, dw_bwd_d_row_nspc, dw_bwd_w_row_nspc, pack_b_f32, pack_b_bf16, pack_b_f16, gather};
    return k;
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
