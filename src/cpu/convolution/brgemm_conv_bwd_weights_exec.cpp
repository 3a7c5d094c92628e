// BRGEMM backward-weights convolution primitive: its kernels from the
// kernel cache and the walk. A work item (reduction group, group of
// panels, block of input channels) runs its chunks in order: the chunk's
// source rows transposed into channel rows, then one kernel call per
// tap, panel and tile of input channels (batch: the chunk's output
// rows), and the bias gradient; between the calls the source of the
// next chunk is fetched into L2 a few lines at a time. At the end the
// reduction groups past the first are added in order.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "common/exec_ctx.hpp"
#include "cpu/convolution/brgemm_conv_bwd.hpp"
#include "cpu/matmul/brgemm_matmul_pack.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

using namespace brgconv;

namespace {

// Memory a coming step reads, fetched into L2 a few lines at a time:
// the transposition of the next chunk then reads from the cache while
// this chunk's products run (its source is read once, from memory).
struct prefetcher_t {
    std::vector<std::pair<const char *, size_t>> ranges; // start, bytes
    size_t r = 0, off = 0, lines = 0;

    void clear() { ranges.clear(), r = off = lines = 0; }
    void add(const void *p, size_t bytes) {
        const char *c = static_cast<const char *>(p);
        const char *a = reinterpret_cast<const char *>(
                reinterpret_cast<uintptr_t>(c) & ~uintptr_t(63));
        bytes += (size_t)(c - a);
        if (!ranges.empty()
                && ranges.back().first + ranges.back().second >= a) {
            auto &b = ranges.back();
            const size_t end =
                    std::max(b.second, (size_t)(a - b.first) + bytes);
            lines += (end - b.second + 63) / 64;
            b.second = end;
            return;
        }
        ranges.emplace_back(a, bytes);
        lines += (bytes + 63) / 64;
    }
    void step(size_t n) {
        for (; n && r < ranges.size(); --n) {
            __builtin_prefetch(ranges[r].first + off, 0, 2);
            off += 64;
            if (off >= ranges[r].second) ++r, off = 0;
        }
    }
};

using pd_t = brgemm_conv_bwd_weights_t::pd_t;

// One thread's walk over its work items.
struct worker_t {
    const pd_t &p;
    const geo_t &g;
    const kernel_set_t &ks;
    const float *src, *diff_dst, *ones;
    float *tr, *dd; // this thread's transposed source and diff_dst copy

    std::vector<dim_t> key, srows, next_key, next_rows;
    std::vector<jit::brgemm_batch_t> batch;
    std::vector<dim_t> a_off;
    std::vector<const float *> b_ptr;
    prefetcher_t pf;
    size_t pf_step = 0; // prefetched lines a kernel call
    jit::brgemm_args_t a;

    // A chunk: output rows [r0, r1), columns [c0, c1); jlo is its first
    // column of transposed source rows.
    struct chunk_t {
        dim_t r0, r1, c0, c1, jlo;
    };

    worker_t(const pd_t &p, const kernel_set_t &ks, const float *src,
            const float *diff_dst, const float *ones, float *tr, float *dd)
        : p(p), g(p.geo), ks(ks), src(src), diff_dst(diff_dst), ones(ones),
          tr(tr), dd(dd), batch((size_t)p.row_blk), a_off(batch.size()),
          b_ptr(batch.size()) {
        a.batch = batch.data();
        a.ldc = (size_t)p.panel * sizeof(float);
    }

    chunk_t chunk(dim_t q) const {
        const dim_t rows = g.mb * g.od * g.oh;
        chunk_t c;
        c.r0 = q / p.n_owb * p.row_blk;
        c.r1 = std::min(rows, c.r0 + p.row_blk);
        c.c0 = q % p.n_owb * p.ow_blk;
        c.c1 = std::min(g.ow, c.c0 + p.ow_blk);
        c.jlo = c.c0 + p.shift_lo;
        return c;
    }

    // Transposed columns [ja, jb) of phase `ph` that lie in the source.
    void phase_range(const chunk_t &c, dim_t ph, dim_t &ja, dim_t &jb) const {
        ja = std::max<dim_t>(c.jlo, 0);
        jb = std::min(c.jlo + p.lp, ceil_div(g.iw - ph, g.sw));
    }

    // Queues the source chunk c transposes (channels [ic0, ic0 + icn)).
    void plan_prefetch(const chunk_t &c, dim_t ic0, dim_t icn) {
        pf.clear();
        brgemm_conv_bwd_weights_t::source_rows(
                g, c.r0, c.r1, next_key, next_rows);
        const dim_t w0 = std::max<dim_t>(0, c.jlo * g.sw);
        const dim_t w1 = std::min(g.iw, (c.jlo + p.lp) * g.sw);
        if (w1 <= w0) return;
        for (dim_t row : next_rows) {
            const float *s = src + row * g.iw * g.ic + ic0;
            if (icn == g.ic)
                pf.add(s + w0 * g.ic, (size_t)((w1 - w0) * g.ic) * 4);
            else
                for (dim_t w = w0; w < w1; ++w)
                    pf.add(s + w * g.ic, (size_t)icn * 4);
        }
    }

    // The chunk's source rows (srows; channels [ic0, ic0 + icn)) as
    // channel rows per width phase: tr[slot][phase][ic][j - jlo].
    void transpose_src(const chunk_t &c, dim_t ic0, dim_t icn) {
        const dim_t nph = (dim_t)p.phases.size();
        for (size_t s = 0; s < srows.size(); ++s) {
            const float *sr = src + srows[s] * g.iw * g.ic + ic0;
            for (dim_t pi = 0; pi < nph; ++pi) {
                const dim_t ph = p.phases[(size_t)pi];
                dim_t ja, jb;
                phase_range(c, ph, ja, jb);
                if (jb <= ja) continue;
                // (The matmul's in-register transpose, 8 x 8 or 16 x
                // 16 blocks by the ISA.)
                matmul::transpose_f32(sr + (ja * g.sw + ph) * g.ic, g.sw * g.ic,
                        jb - ja, icn,
                        tr + ((dim_t)s * nph + pi) * icn * p.lp + (ja - c.jlo),
                        p.lp);
            }
        }
    }

    // diff_dst of the chunk in panels [jb0, jb1): [panel - jb0][point][P],
    // zero past OC.
    void copy_diff_dst(const chunk_t &c, dim_t jb0, dim_t jb1) {
        const dim_t P = p.panel, pts = p.row_blk * p.ow_blk;
        for (dim_t r = c.r0; r < c.r1; ++r)
            for (dim_t ow = c.c0; ow < c.c1; ++ow) {
                const float *s = diff_dst + (r * g.ow + ow) * g.oc;
                const dim_t pt = (r - c.r0) * p.ow_blk + (ow - c.c0);
                for (dim_t jb = jb0; jb < jb1; ++jb) {
                    float *d = dd + ((jb - jb0) * pts + pt) * P;
                    const dim_t n = std::min(P, g.oc - jb * P);
                    std::memcpy(d, s + jb * P, (size_t)n * sizeof(float));
                    std::fill(d + n, d + P, 0.f);
                }
            }
    }

    // Output point (r, ow) of the chunk as B reads it in panel 0 (of the
    // copy: the item's first panel, dd_jb0), and the offset of panel jb
    // from there.
    dim_t dd_jb0 = 0;
    const float *b_row(const chunk_t &c, dim_t r, dim_t ow) const {
        if (p.copy_dd)
            return dd + ((r - c.r0) * p.ow_blk + (ow - c.c0)) * p.panel;
        return diff_dst + (r * g.ow + ow) * g.oc;
    }
    dim_t b_panel(dim_t jb) const {
        return p.copy_dd ? (jb - dd_jb0) * p.row_blk * p.ow_blk * p.panel
                         : jb * p.panel;
    }

    // Chunk c's products for every tap, panel in [jb0, jb1) and tile of
    // channels [ic0, ic0 + icn), written to `out` (first chunk: the
    // kernels write, empty batches too; later ones add). With the kernel
    // columns merged, the columns where every one of them lies inside
    // the source run as one call per tile of (kw, channel) rows, the
    // border columns tap by tap after it. Fetches a share of the
    // prefetcher's lines after each call.
    void weights(const chunk_t &c, dim_t ic0, dim_t icn, dim_t jb0, dim_t jb1,
            bool first, float *out) {
        const int tm = p.target->tile_m;
        const dim_t rows = p.merge_kw ? g.kw * icn : icn;
        const dim_t calls = g.kd * g.kh * (p.merge_kw ? 1 : g.kw) * (jb1 - jb0)
                            * div_up(rows, tm);
        pf_step = (pf.lines + (size_t)calls - 1) / (size_t)calls;
        // A: the transposed rows (a tile's channels lp apart), or the
        // source by columns (its channels consecutive, points sw * IC
        // apart).
        a.lda = (size_t)(p.direct_a ? g.sw * g.ic : p.lp) * sizeof(float);
        for (dim_t kd = 0; kd < g.kd; ++kd)
            for (dim_t kh = 0; kh < g.kh; ++kh) {
                if (!p.merge_kw) {
                    for (dim_t kw = 0; kw < g.kw; ++kw)
                        tap_calls(c, kd, kh, kw, c.c0, c.c1, ic0, icn, icn, jb0,
                                jb1, first, out);
                    continue;
                }
                // Columns whose whole kernel row lies inside:
                // ow * sw - pw in [0, iw - kw].
                const dim_t i0 =
                        std::min(c.c1, std::max(c.c0, ceil_div(g.pw, g.sw)));
                const dim_t i1 = std::max(
                        i0, std::min(c.c1,
                                    floor_div(g.iw - g.kw + g.pw, g.sw) + 1));
                tap_calls(c, kd, kh, 0, i0, i1, ic0, icn, rows, jb0, jb1, first,
                        out);
                for (dim_t kw = 0; kw < g.kw; ++kw) {
                    tap_calls(c, kd, kh, kw, c.c0, i0, ic0, icn, icn, jb0, jb1,
                            false, out);
                    tap_calls(c, kd, kh, kw, i1, c.c1, ic0, icn, icn, jb0, jb1,
                            false, out);
                }
            }
    }

    // The calls of tap (kd, kh, kw) over output columns [lo, hi) of
    // chunk c: `rows` rows of A from channel ic0 on (icn channels a
    // kernel column; more rows than that: the next kernel columns').
    // `first` writes, an empty batch too; otherwise empty ones are
    // skipped.
    void tap_calls(const chunk_t &c, dim_t kd, dim_t kh, dim_t kw, dim_t lo,
            dim_t hi, dim_t ic0, dim_t icn, dim_t rows, dim_t jb0, dim_t jb1,
            bool first, float *out) {
        const int tm = p.target->tile_m;
        const dim_t P = p.panel, nph = (dim_t)p.phases.size();
        const int ph = first ? kernel_set_t::first : kernel_set_t::middle;
        const float *a_base = p.direct_a ? src : tr;
        const dim_t a_tile = p.direct_a ? 1 : p.lp;
        const dim_t tap = (kd * g.kh + kh) * g.kw + kw;
        // Output columns whose source column lies inside:
        // ow * sw in [pw - kw * dw, iw + pw - kw * dw).
        const dim_t x = g.pw - kw * g.dw;
        const dim_t o0 = std::max(lo, ceil_div(x, g.sw));
        const dim_t o1 = std::min(hi, ceil_div(g.iw + x, g.sw));
        const dim_t j0 = o0 + p.kw_shift[(size_t)kw] - c.jlo;
        const dim_t slot0 = p.kw_phase[(size_t)kw] * icn * p.lp;
        const dim_t col0 = (o0 * g.sw - x) * g.ic + ic0;
        size_t bs = 0;
        for (dim_t r = c.r0; o1 > o0 && r < c.r1; ++r) {
            const dim_t s =
                    key[(size_t)((r - c.r0) * g.kd * g.kh + kd * g.kh + kh)];
            if (s < 0) continue;
            a_off[bs] = p.direct_a ? srows[(size_t)s] * g.iw * g.ic + col0
                                   : s * nph * icn * p.lp + slot0 + j0;
            b_ptr[bs] = b_row(c, r, o0);
            ++bs;
        }
        if (bs == 0 && !first) return;
        a.bs = bs;
        a.k = bs ? (size_t)(o1 - o0) : 0;
        for (dim_t jb = jb0; jb < jb1; ++jb) {
            const dim_t n0 = jb * P;
            const bool nt = n0 + P > g.oc;
            for (dim_t t0 = 0; t0 < rows; t0 += tm) {
                const int m = (int)std::min<dim_t>(tm, rows - t0);
                for (size_t i = 0; i < bs; ++i) {
                    batch[i].a = a_base + a_off[i] + t0 * a_tile;
                    batch[i].b = b_ptr[i] + b_panel(jb);
                }
                a.c = out + ((jb * g.ksp() + tap) * g.ic + ic0 + t0) * P;
                ks.at(ph, m, nt).fn(&a);
                pf.step(pf_step);
            }
        }
    }

    // The bias gradient of chunk c for panels [jb0, jb1): a row of ones
    // times the chunk's diff_dst.
    void bias(const chunk_t &c, dim_t jb0, dim_t jb1, bool first, float *out) {
        const dim_t P = p.panel;
        size_t bs = 0;
        for (dim_t r = c.r0; r < c.r1; ++r) b_ptr[bs++] = b_row(c, r, c.c0);
        // A: a row of ones (by columns for the direct kernels).
        a.lda = (size_t)(p.direct_a ? 1 : p.lp) * sizeof(float);
        a.bs = bs;
        a.k = (size_t)(c.c1 - c.c0);
        for (dim_t jb = jb0; jb < jb1; ++jb) {
            const dim_t n0 = jb * P;
            for (size_t i = 0; i < bs; ++i) {
                batch[i].a = ones;
                batch[i].b = b_ptr[i] + b_panel(jb);
            }
            a.c = out + n0;
            ks.at(first ? kernel_set_t::first : kernel_set_t::middle, 1,
                      n0 + P > g.oc)
                    .fn(&a);
        }
    }

    // Chunks [q0, q1) of one item into `out` and `bout` (bias: null).
    void item(dim_t q0, dim_t q1, dim_t ic0, dim_t icn, dim_t jb0, dim_t jb1,
            float *out, float *bout) {
        pf.clear();
        dd_jb0 = jb0;
        for (dim_t q = q0; q < q1; ++q) {
            const chunk_t c = chunk(q);
            // The chunk's source rows: the prefetch planned them already
            // (after the first chunk).
            if (q == q0)
                brgemm_conv_bwd_weights_t::source_rows(
                        g, c.r0, c.r1, key, srows);
            else
                key.swap(next_key), srows.swap(next_rows);
            if (!p.direct_a) transpose_src(c, ic0, icn);
            if (p.copy_dd) copy_diff_dst(c, jb0, jb1);
            if (q + 1 < q1)
                plan_prefetch(chunk(q + 1), ic0, icn);
            else
                pf.clear();
            weights(c, ic0, icn, jb0, jb1, q == q0, out);
            if (bout) bias(c, jb0, jb1, q == q0, bout);
        }
    }
};

} // namespace

status_t brgemm_conv_bwd_weights_t::init(engine_t *) {
    const pd_t *p = pd_();
    const int n_full = p->geo.oc >= p->panel ? p->panel : 0;
    return kernels_.load(p->cfg,
            (1u << kernel_set_t::first) | (1u << kernel_set_t::middle),
            p->m_used, n_full, (int)(p->geo.oc % p->panel));
}

status_t brgemm_conv_bwd_weights_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const geo_t &g = p->geo;
    const float *src = ctx.input<float>(DNNL_ARG_SRC);
    const float *diff_dst = ctx.input<float>(DNNL_ARG_DIFF_DST);
    float *diff_w = ctx.output<float>(DNNL_ARG_DIFF_WEIGHTS);
    float *diff_b =
            p->with_bias() ? ctx.output<float>(DNNL_ARG_DIFF_BIAS) : nullptr;
    if (!diff_w || (p->with_bias() && !diff_b)) return dnnl_invalid_arguments;
    diff_w += p->data_weights_md().offset0;
    const dim_t P = p->panel, ksp = g.ksp();
    const dim_t nchunks = p->n_chunks();
    if (nchunks == 0) {
        // No output points: zero gradients.
        std::memset(diff_w, 0, p->wei_elems * sizeof(float));
        if (diff_b) std::memset(diff_b, 0, (size_t)g.oc * sizeof(float));
        return dnnl_success;
    }
    if (!src || !diff_dst) return dnnl_invalid_arguments;
    src += p->data_src_md().offset0;
    diff_dst += p->data_dst_md().offset0;
    float *scratch = static_cast<float *>(ctx.scratchpad());
    if (!scratch && p->scratchpad_size() > 0) return dnnl_invalid_arguments;

    // Scratchpad: ones, partial sums (weights, then bias, per group past
    // the first), then per thread the transposed source and diff_dst.
    float *ones = scratch;
    float *parts = ones + p->ones_elems;
    const size_t wstride = (p->wei_elems + 15) / 16 * 16;
    const size_t bstride = (size_t)(p->ocp + 15) / 16 * 16;
    float *bparts = parts + (size_t)(p->nkg - 1) * wstride;
    float *per_thr = bparts + (size_t)(p->nkg - 1) * bstride;
    std::fill(ones, ones + p->ones_elems, 1.f);

    const dim_t items = p->nkg * p->nocg * p->nicb;
    const int nthr =
            (int)std::min<dim_t>(items, std::min(p->nthr, max_threads()));
    parallel_chunks(nthr, items, [&](int ithr, dim_t i0, dim_t i1) {
        float *tr = per_thr + (size_t)ithr * (p->tr_elems + p->dd_elems);
        worker_t w(*p, kernels_, src, diff_dst, ones, tr, tr + p->tr_elems);
        for (dim_t it = i0; it < i1; ++it) {
            const dim_t ib = it % p->nicb;
            const dim_t og = (it / p->nicb) % p->nocg;
            const dim_t kg = it / (p->nicb * p->nocg);
            const dim_t ic0 = ib * p->icb;
            float *out = kg == 0 ? diff_w : parts + (kg - 1) * wstride;
            float *bout = !diff_b || ib != 0 ? nullptr
                          : kg == 0          ? diff_b
                                             : bparts + (kg - 1) * bstride;
            w.item(kg * nchunks / p->nkg, (kg + 1) * nchunks / p->nkg, ic0,
                    std::min(p->icb, g.ic - ic0), og * p->nb_oc / p->nocg,
                    (og + 1) * p->nb_oc / p->nocg, out, bout);
        }
    });

    // The reduction groups past the first, added in order; the panel
    // padding past OC zeroed.
    const dim_t prow = p->nb_oc * ksp * g.ic;
    if (p->nkg > 1)
        parallel_nd(
                prow,
                [&](dim_t i) {
                    const dim_t n = std::min(P, g.oc - i / (ksp * g.ic) * P);
                    float *d = diff_w + i * P;
                    for (dim_t kg = 1; kg < p->nkg; ++kg) {
                        const float *s = parts + (kg - 1) * wstride + i * P;
                        for (dim_t c = 0; c < n; ++c) d[c] += s[c];
                    }
                },
                64);
    if (diff_b)
        for (dim_t kg = 1; kg < p->nkg; ++kg)
            for (dim_t c = 0; c < g.oc; ++c)
                diff_b[c] += bparts[(kg - 1) * bstride + c];
    if (g.oc % P)
        for (dim_t i = (p->nb_oc - 1) * ksp * g.ic; i < prow; ++i)
            std::memset(diff_w + i * P + g.oc % P, 0,
                    (size_t)(P - g.oc % P) * sizeof(float));
    return dnnl_success;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
