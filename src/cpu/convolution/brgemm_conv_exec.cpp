// BRGEMM convolution primitive: its kernels from the kernel cache, and the
// threaded walk over work units (panel of output channels, output row,
// block of columns), each a row of tiles whose batch holds the kernel
// taps inside the source.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/exec_ctx.hpp"
#include "cpu/convolution/brgemm_conv.hpp"
#include "cpu/jit/brgemm_scales.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

using brgconv::taps_in;

status_t brgemm_conv_fwd_t::init(engine_t *) {
    const pd_t *p = pd_();
    const int n_full = p->geo.oc >= p->panel ? p->panel : 0;
    return kernels_.load(p->cfg, brgconv::kernel_set_t::phases_for(p->nk),
            p->m_used, n_full, (int)(p->geo.oc % p->panel));
}

status_t brgemm_conv_fwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const geo_t &g = p->geo;
    const dim_t rows = g.mb * g.od * g.oh;
    const int tm = p->target->tile_m, P = p->panel;
    // Per panel: the units of rows (row, column block), then those of
    // the border columns (image, border run, tile of rows).
    const dim_t per_panel = rows * p->n_owb;
    const brgconv::tile_split_t col_tiles(p->oh_hi - p->oh_lo, tm);
    const dim_t ncs = (dim_t)p->col_segs.size();
    const dim_t col_units = p->col_mode() ? g.mb * ncs * col_tiles.count : 0;
    const dim_t per_panel_all = per_panel + col_units;
    std::vector<bool> in_cols(p->segs.size(), false);
    for (int i : p->col_segs) in_cols[(size_t)i] = true;
    const dim_t units = p->nb_oc * per_panel_all;
    if (units == 0 || g.ow == 0) return dnnl_success;

    // Bytes: the element sizes differ for u8 x s8 (src 1, weights 1, dst
    // 1 or 4).
    const size_t es = data_type_size(p->data_src_md().data_type),
                 ew = data_type_size(p->data_weights_md().data_type),
                 ed = data_type_size(p->data_dst_md().data_type);
    const char *src = ctx.input<char>(DNNL_ARG_SRC);
    const char *wei = ctx.input<char>(DNNL_ARG_WEIGHTS);
    char *dst = ctx.output<char>(DNNL_ARG_DST);
    // The bias is f32, or bf16 with bf16 inputs (its element size eb).
    const char *bias = p->with_bias() ? ctx.input<char>(DNNL_ARG_BIAS) : nullptr;
    const size_t eb = p->with_bias()
            ? data_type_size(p->data_bias_md().data_type)
            : 4;
    if (!dst || (g.ic > 0 && (!src || !wei)) || (p->with_bias() && !bias))
        return dnnl_invalid_arguments;
    // (The bias is a vector without offset: resolve_bias.)
    if (src) src += p->data_src_md().offset0 * es;
    if (wei) wei += p->data_weights_md().offset0 * ew;
    dst += p->data_dst_md().offset0 * ed;
    // int8: the execution's scales (one or one per output channel), zero
    // points and shift.
    std::vector<float> per_oc(
            p->quant.scale == jit::brgemm_scale_t::per_n ? (size_t)g.oc : 0);
    jit::brgemm_quant_values_t qv;
    if (p->int8)
        DNNL_CHECK(qv.init(ctx, *p->attr(), p->quant, g.oc,
                per_oc.empty() ? nullptr : per_oc.data()));
    std::vector<const float *> bin(p->binaries.size());
    for (size_t i = 0; i < bin.size(); ++i) {
        const int po = p->binaries[i].po_index;
        bin[i] = ctx.input<float>(
                DNNL_ARG_ATTR_MULTIPLE_POST_OP(po) | DNNL_ARG_SRC_1);
        if (!bin[i]) return dnnl_invalid_arguments;
        bin[i] += p->attr()->post_ops.entries[po].src1_md.offset0;
    }

    const dim_t ksp = g.kd * g.kh * g.kw;
    // A tap's rows in the panel: its input channels rounded up to the
    // kernel's k step (pairs, quads) with zeros.
    const dim_t icp = (g.ic + p->kgroup() - 1) / p->kgroup() * p->kgroup();
    const dim_t panel_elems = ksp * icp * P;
    const double macs = (double)units * (double)p->ow_blk * (double)P
                        * (double)(ksp * g.ic);
    const int nthr = brgconv::team_for(macs, units);
    // s8 source / source zero point: -shift x each tap's column sums,
    // [tap][panel][P] (from the weights' quads), by the main loop's team
    // (a team of another size between two regions costs OpenMP a
    // regrouping of its threads).
    const int32_t shift = qv.shift;
    std::vector<int32_t> tap_comp;
    if (p->quant.comp()) {
        tap_comp.assign((size_t)(ksp * p->nb_oc * P), 0);
        const auto *w8 = reinterpret_cast<const int8_t *>(wei);
        parallel_chunks(nthr, ksp * p->nb_oc,
                [&](int, dim_t u0, dim_t u1) {
                    for (dim_t u = u0; u < u1; ++u) {
                        const dim_t tap = u / p->nb_oc, jb = u % p->nb_oc;
                        int32_t *o = tap_comp.data() + u * P;
                        const int8_t *b = w8 ? w8 + jb * panel_elems
                                                       + tap * icp * P
                                             : nullptr;
                        for (dim_t r = 0; b && r < icp / 4; ++r)
                            for (int j = 0; j < P; ++j) {
                                const int8_t *q = b + (r * P + j) * 4;
                                o[j] += q[0] + q[1] + q[2] + q[3];
                            }
                        for (int j = 0; j < P; ++j) o[j] *= -shift;
                    }
                });
    }
    const dim_t max_bs = g.kd * g.kh * (p->merge_kw ? 1 : g.kw);

    // bf16 with odd channels: the panels again with a kernel row's
    // taps as consecutive rows (row kw * ic + c), the last pair padded.
    const char *merged = nullptr;
    const dim_t kdh = g.kd * g.kh, mrows = p->merged_rows;
    if (p->merge_pairs && wei) {
        auto *m = static_cast<uint16_t *>(ctx.scratchpad());
        if (!m) return dnnl_invalid_arguments;
        const auto *w = reinterpret_cast<const uint16_t *>(wei);
        // Element (row r, column j) of a block of pairs: ((r / 2) * P + j)
        // * 2 + r % 2.
        auto at = [P](dim_t r, dim_t j) {
            return ((r / 2) * P + j) * 2 + r % 2;
        };
        // On the calling thread: a few kilobytes (a team here, of
        // another size than the main loop's, cost libgomp a regrouping
        // of its threads: the first layer on 16 Xeon threads 0.36 ->
        // 0.65 ms).
        for (dim_t i = 0; i < p->nb_oc * kdh; ++i) {
            const dim_t jb = i / kdh, tap0 = (i % kdh) * g.kw;
            const uint16_t *s = w + jb * panel_elems + tap0 * icp * P;
            uint16_t *d = m + i * mrows * P;
            for (dim_t r = 0; r < mrows; ++r) {
                const dim_t kw = r / g.ic, c = r % g.ic;
                for (dim_t j = 0; j < P; ++j)
                    d[at(r, j)] = kw < g.kw ? s[kw * icp * P + at(c, j)] : 0;
            }
        }
        merged = reinterpret_cast<const char *>(m);
    }

    parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
        std::vector<jit::brgemm_batch_t> batch((size_t)std::max<dim_t>(1, max_bs));
        // Per batch element: its source offset at the run's first column
        // and its panel offset.
        std::vector<dim_t> a_off(batch.size()), b_off(batch.size());
        // The correction of the current batch's taps (comp).
        std::vector<int32_t> comp((size_t)(p->quant.comp() ? P : 0));
        jit::brgemm_args_t a;
        a.batch = batch.data();
        a.lda = (size_t)(g.sw * g.ic) * es;
        a.ldc = (size_t)g.oc * ed;

        // The correction of taps kd [kd0, kd1) x kh [kh0, kh1) x kw
        // [kw0, kw1) of panel jb into comp (s8 source / zero point).
        auto set_comp = [&](dim_t jb, dim_t kd0, dim_t kd1, dim_t kh0,
                                dim_t kh1, dim_t kw0, dim_t kw1) {
            std::fill(comp.begin(), comp.end(), 0);
            for (dim_t kd = kd0; kd < kd1; ++kd)
                for (dim_t kh = kh0; kh < kh1; ++kh)
                    for (dim_t kw = kw0; kw < kw1; ++kw) {
                        const dim_t tap = (kd * g.kh + kh) * g.kw + kw;
                        const int32_t *t = tap_comp.data()
                                + (tap * p->nb_oc + jb) * P;
                        for (int j = 0; j < P; ++j) comp[j] += t[j];
                    }
            a.comp = comp.data();
        };
        // The tile's output, its first row at dst point pt, columns from
        // n0: C, bias, quantization and the binary operands (a full one
        // at tile row 0 of image n, row (od, oh), column ow, stepping
        // sw elements a tile row, or sh with `down`: a column's tile).
        auto set_output = [&](dim_t pt, dim_t n0, dim_t n, dim_t od, dim_t oh,
                                  dim_t ow, bool down) {
            a.c = reinterpret_cast<float *>(dst + (pt * g.oc + n0) * ed);
            a.bias = bias ? reinterpret_cast<const float *>(bias + n0 * eb)
                          : nullptr;
            qv.set_args(a, p->quant, n0);
            for (size_t i = 0; i < bin.size(); ++i) {
                const auto &ba = p->binaries[i];
                const float *q = bin[i];
                if (ba.bcast == jit::brgemm_bcast_t::per_n) q += n0;
                if (ba.bcast == jit::brgemm_bcast_t::full) {
                    q += n * ba.sn + od * ba.sd + oh * ba.sh + ow * ba.sw + n0;
                    a.binary_ld[i] = (size_t)(down ? ba.sh : ba.sw)
                            * sizeof(float);
                }
                a.binary[i] = q;
            }
        };
        // A border run's columns for a tile of rows [oh0, oh0 + m) of
        // image n, every kernel row in range: M steps down the column.
        auto run_column = [&](dim_t jb, dim_t idx, dim_t kb) {
            const dim_t bi = idx % col_tiles.count;
            const dim_t cs = (idx / col_tiles.count) % ncs;
            const dim_t n = idx / (col_tiles.count * ncs);
            const seg_t &s = p->segs[(size_t)p->col_segs[(size_t)cs]];
            const dim_t oh0 = p->oh_lo + col_tiles.start(bi);
            const int m = (int)col_tiles.height(bi);
            const dim_t ic0 = kb * p->icb;
            const dim_t icn = std::min(p->icb, g.ic - ic0);
            const int ph = brgconv::kernel_set_t::phase_of(kb, p->nk);
            const dim_t n0 = jb * P;
            const int nt = n0 + P > g.oc;
            const dim_t nkw = s.kw1 - s.kw0;
            const char *wp
                    = wei ? wei + (jb * panel_elems + ic0 * P) * ew : nullptr;
            const size_t lda = a.lda, ldc = a.ldc;
            a.lda = (size_t)(g.sh * g.iw * g.ic) * es;
            a.ldc = (size_t)(g.ow * g.oc) * ed;
            if (p->quant.comp()) set_comp(jb, 0, 1, 0, g.kh, s.kw0, s.kw1);
            for (dim_t ow = s.ow0; ow < s.ow1; ++ow) {
                size_t bs = 0;
                for (dim_t kh = 0; icn > 0 && kh < g.kh; ++kh) {
                    const dim_t ih = oh0 * g.sh - g.ph + kh * g.dh;
                    const dim_t srow = n * g.ih + ih;
                    const dim_t kw_end = p->merge_kw ? s.kw0 + 1 : s.kw1;
                    for (dim_t kw = s.kw0; kw < kw_end; ++kw) {
                        const dim_t iw = ow * g.sw - g.pw + kw * g.dw;
                        batch[bs].a = reinterpret_cast<const float *>(src
                                + ((srow * g.iw + iw) * g.ic + ic0) * es);
                        batch[bs].b = reinterpret_cast<const float *>(
                                wp + (kh * g.kw + kw) * icp * P * ew);
                        ++bs;
                    }
                }
                a.bs = bs;
                a.k = (size_t)(p->merge_kw ? nkw * g.ic : icn);
                set_output((n * g.oh + oh0) * g.ow + ow, n0, n, 0, oh0, ow,
                        true);
                kernels_.at(ph, m, nt).fn(&a);
            }
            a.lda = lda;
            a.ldc = ldc;
        };

        auto run_unit = [&](dim_t u, dim_t kb) {
            const dim_t jb = u / per_panel_all, rem = u % per_panel_all;
            if (rem >= per_panel) {
                run_column(jb, rem - per_panel, kb);
                return;
            }
            const dim_t owb = rem % p->n_owb, row = rem / p->n_owb;
            const dim_t oh = row % g.oh, od = (row / g.oh) % g.od,
                        n = row / (g.oh * g.od);
            const dim_t ic0 = kb * p->icb;
            const dim_t icn = std::min(p->icb, g.ic - ic0);
            const int ph = brgconv::kernel_set_t::phase_of(kb, p->nk);
            const dim_t n0 = jb * P;
            const int nt = n0 + P > g.oc;
            dim_t kd0, kd1, kh0, kh1;
            taps_in(od, g.sd, g.pd, g.dd, g.kd, g.id, kd0, kd1);
            taps_in(oh, g.sh, g.ph, g.dh, g.kh, g.ih, kh0, kh1);
            const dim_t c0 = owb * p->ow_blk,
                        c1 = std::min(g.ow, c0 + p->ow_blk);
            const dim_t dst_row = ((n * g.od + od) * g.oh + oh) * g.ow;
            const char *wp
                    = wei ? wei + (jb * panel_elems + ic0 * P) * ew : nullptr;
            // Rows with every kernel row leave the border runs to the
            // column units.
            const bool cols_apart
                    = p->col_mode() && oh >= p->oh_lo && oh < p->oh_hi;
            for (size_t si = 0; si < p->segs.size(); ++si) {
                const seg_t &s = p->segs[si];
                if (cols_apart && in_cols[si]) continue;
                const dim_t a0 = std::max(s.ow0, c0), a1 = std::min(s.ow1, c1);
                if (a1 <= a0) continue;
                // The batch at column a0 (B from the merged panels where
                // the run has every kernel column and they are made).
                size_t bs = 0;
                const dim_t nkw = s.kw1 - s.kw0;
                const bool pairs = merged && nkw == g.kw;
                const bool merge = p->merge_kw || pairs;
                const char *bp = pairs ? merged + jb * kdh * mrows * P * ew : wp;
                if (icn > 0 && nkw > 0)
                    for (dim_t kd = kd0; kd < kd1; ++kd)
                        for (dim_t kh = kh0; kh < kh1; ++kh) {
                            const dim_t id = od * g.sd - g.pd + kd * g.dd;
                            const dim_t ih = oh * g.sh - g.ph + kh * g.dh;
                            const dim_t tap0 = (kd * g.kh + kh) * g.kw;
                            const dim_t srow = (n * g.id + id) * g.ih + ih;
                            const dim_t kw_end = merge ? s.kw0 + 1 : s.kw1;
                            for (dim_t kw = s.kw0; kw < kw_end; ++kw) {
                                const dim_t iw = a0 * g.sw - g.pw + kw * g.dw;
                                a_off[bs] = (srow * g.iw + iw) * g.ic + ic0;
                                b_off[bs] = pairs
                                        ? (kd * g.kh + kh) * mrows * P
                                        : (tap0 + kw) * icp * P;
                                ++bs;
                            }
                        }
                a.bs = bs;
                a.k = (size_t)(merge ? nkw * g.ic : icn);
                if (p->quant.comp())
                    set_comp(jb, kd0, bs ? kd1 : kd0, kh0, kh1, s.kw0, s.kw1);
                // Tiles of near-equal height (26 columns: 6 + 5 x 4, not
                // 6 x 4 + 2, whose kernel waits on the panel's loads).
                const brgconv::tile_split_t ts(a1 - a0, tm);
                for (dim_t ti = 0; ti < ts.count; ++ti) {
                    const dim_t t0 = a0 + ts.start(ti);
                    const int m = (int)ts.height(ti);
                    const dim_t shift = (t0 - a0) * g.sw * g.ic;
                    for (size_t i = 0; i < bs; ++i) {
                        batch[i].a = reinterpret_cast<const float *>(
                                src + (a_off[i] + shift) * es);
                        batch[i].b = reinterpret_cast<const float *>(
                                bp + b_off[i] * ew);
                    }
                    set_output(dst_row + t0, n0, n, od, oh, t0, false);
                    kernels_.at(ph, m, nt).fn(&a);
                }
            }
        };
        // Runs of units on one panel: input-channel blocks outside, so a
        // block of the panel stays in L2 for every unit of the run.
        for (dim_t r0 = u0; r0 < u1;) {
            const dim_t r1
                    = std::min(u1, (r0 / per_panel_all + 1) * per_panel_all);
            for (dim_t kb = 0; kb < p->nk; ++kb)
                for (dim_t u = r0; u < r1; ++u)
                    run_unit(u, kb);
            r0 = r1;
        }
    });
    return dnnl_success;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
