// BRGEMM backward-data convolution primitive: its kernels from the kernel
// cache and the walk over work units (panels of input channels, group of
// diff_src rows, block of columns). A run of points with one batch of
// taps goes through the panels in groups of tiles: along a row for the
// runs of a width phase, down the group's rows for narrow runs.
#include <algorithm>
#include <utility>
#include <vector>

#include "common/exec_ctx.hpp"
#include "cpu/convolution/brgemm_conv_bwd.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

using namespace brgconv;

namespace {

using pd_t = brgemm_conv_bwd_data_t::pd_t;
using seg_t = brgemm_conv_bwd_data_t::seg_t;
// (tap, diff_dst index) pairs of one spatial dim.
using taps_t = std::vector<std::pair<dim_t, dim_t>>;

// Taps k of one dim with (i + p - k * dl) / s a whole index o in [0, O).
void taps_of(
        dim_t i, dim_t s, dim_t pad, dim_t dl, dim_t K, dim_t O, taps_t &v) {
    v.clear();
    for (dim_t k = 0; k < K; ++k) {
        const dim_t x = i + pad - k * dl;
        if (x < 0) break;
        if (x % s == 0 && x / s < O) v.emplace_back(k, x / s);
    }
}

bool same_taps(const taps_t &a, const taps_t &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].first != b[i].first) return false;
    return true;
}

// One thread's walk over its units. Offsets are in elements; the
// tensors are bytes of their types (ed: diff_dst, ew: weights, es:
// diff_src).
struct worker_t {
    const pd_t &p;
    const geo_t &g;
    const kernel_set_t &ks;
    const char *dd, *wei;
    char *ds;
    size_t ed, ew, es;
    // A tap's rows in the panel: output channels rounded up to pairs
    // (bf16) with zeros.
    dim_t ocp;

    std::vector<jit::brgemm_batch_t> batch;
    // Per batch element: its diff_dst offset at the run's first point
    // and its offset in a panel.
    std::vector<dim_t> a_off, b_off;
    taps_t dtaps;
    std::vector<taps_t> htaps; // per row of the group
    jit::brgemm_args_t a;

    worker_t(const pd_t &p, const kernel_set_t &ks, const char *dd,
            const char *wei, char *ds)
        : p(p), g(p.geo), ks(ks), dd(dd), wei(wei), ds(ds),
          ed(data_type_size(p.data_dst_md().data_type)),
          ew(data_type_size(p.data_weights_md().data_type)),
          es(data_type_size(p.data_src_md().data_type)),
          ocp(p.bf16 ? (p.geo.oc + 1) / 2 * 2 : p.geo.oc),
          batch((size_t)p.max_bs), a_off(batch.size()), b_off(batch.size()),
          htaps((size_t)p.row_grp) {
        a.batch = batch.data();
    }

    // The batch of diff_src point (n, id, ih) (its height taps `ht`) at
    // column t of width phase r, with the width taps of run s and output
    // channels from oc0.
    size_t build(dim_t n, const taps_t &ht, dim_t r, const seg_t &s, dim_t t,
            dim_t oc0) {
        size_t bs = 0;
        for (const auto &dt : dtaps)
            for (const auto &h : ht) {
                const dim_t orow = (n * g.od + dt.second) * g.oh + h.second;
                const dim_t tap0 = (dt.first * g.kh + h.first) * g.kw;
                for (dim_t i = 0; i < s.nkw; ++i) {
                    const dim_t kw = s.kw0 + i * s.step;
                    const dim_t ow = (r + t * g.sw + g.pw - kw * g.dw) / g.sw;
                    a_off[bs] = (orow * g.ow + ow) * g.oc + oc0;
                    b_off[bs] = (tap0 + kw) * ocp * p.panel;
                    ++bs;
                }
            }
        return bs;
    }

    // Points [0, n) with the batch built: point i's diff_dst at a_off +
    // i * a_step, its diff_src at c + i * c_step elements. Groups of
    // tiles run through panels [jb0, jb1) one after the other, so that a
    // panel's rows stay in L1 for the group; each call first fetches the
    // lines the next one writes (a tile's stores would otherwise wait for
    // them at its end), a group's first the diff_dst rows of the next.
    void run_points(size_t bs, dim_t n, dim_t a_step, dim_t c_step, char *c,
            dim_t jb0, dim_t jb1, int ph, dim_t ocn, const char *wp) {
        const int tm = p.target->tile_m;
        const dim_t P = p.panel, panel_elems = g.ksp() * ocp * P;
        const tile_split_t ts(n, tm);
        const dim_t per_group = 4;
        a.bs = bs;
        a.k = (size_t)std::max<dim_t>(0, ocn);
        a.lda = (size_t)a_step * ed;
        a.ldc = (size_t)c_step * es;
        auto c_at = [&](dim_t ti, dim_t jb) {
            return c + (ts.start(ti) * c_step + jb * P) * es;
        };
        for (dim_t g0 = 0; g0 < ts.count; g0 += per_group) {
            const dim_t g1 = std::min(ts.count, g0 + per_group);
            if (bs > 0 && g1 < ts.count) {
                const dim_t e = std::min(ts.count, g1 + per_group);
                prefetch_rows(dd + (a_off[0] + ts.start(g1) * a_step) * ed,
                        ts.start(e - 1) + ts.height(e - 1) - ts.start(g1),
                        a.lda, (size_t)a.k * ed, false);
            }
            for (dim_t jb = jb0; jb < jb1; ++jb) {
                for (size_t i = 0; i < bs; ++i)
                    batch[i].b = reinterpret_cast<const float *>(
                            wp + (jb * panel_elems + b_off[i]) * ew);
                for (dim_t ti = g0; ti < g1; ++ti) {
                    const dim_t t = ts.start(ti);
                    for (size_t i = 0; i < bs; ++i)
                        batch[i].a = reinterpret_cast<const float *>(
                                dd + (a_off[i] + t * a_step) * ed);
                    a.c = reinterpret_cast<float *>(c_at(ti, jb));
                    char *next = ti + 1 < g1     ? c_at(ti + 1, jb)
                                  : jb + 1 < jb1  ? c_at(g0, jb + 1)
                                  : g1 < ts.count ? c_at(g1, jb0)
                                                  : nullptr;
                    if (next)
                        prefetch_rows(next, tm, a.ldc, (size_t)P * es, true);
                    ks.at(ph, (int)ts.height(ti), jb * P + P > g.ic).fn(&a);
                }
            }
        }
    }

    // Unit u of output-channel block kb.
    void run_unit(dim_t u, dim_t kb) {
        const dim_t per_panel = g.mb * g.id * p.n_hg * p.n_iwb;
        const dim_t jb0 = p.panel_inner ? 0 : u / per_panel;
        const dim_t jb1 = p.panel_inner ? p.nb_ic : jb0 + 1;
        const dim_t rem = u % per_panel;
        const dim_t cb = rem % p.n_iwb, grp = rem / p.n_iwb;
        const dim_t hg = grp % p.n_hg, id = (grp / p.n_hg) % g.id,
                    n = grp / (p.n_hg * g.id);
        const tile_split_t rows(g.ih, p.row_grp);
        const dim_t h0 = rows.start(hg), h1 = h0 + rows.height(hg);
        const dim_t oc0 = kb * p.ocb;
        const dim_t ocn = std::min(p.ocb, g.oc - oc0);
        const int ph = kernel_set_t::phase_of(kb, p.nk);
        const dim_t c0 = cb * p.iw_blk, c1 = std::min(g.iw, c0 + p.iw_blk);
        const char *wp = wei ? wei + oc0 * p.panel * ew : nullptr;
        const bool down = p.row_grp > 1;
        const dim_t nph = std::min(g.sw, g.iw);
        taps_of(id, g.sd, g.pd, g.dd, g.kd, g.od, dtaps);
        for (dim_t ih = h0; ih < h1; ++ih)
            taps_of(ih, g.sh, g.ph, g.dh, g.kh, g.oh, htaps[(size_t)(ih - h0)]);
        auto row_c = [&](dim_t ih) {
            return ds + ((n * g.id + id) * g.ih + ih) * g.iw * g.ic * es;
        };
        for (dim_t r = 0; r < nph; ++r) {
            const dim_t ta = std::max<dim_t>(0, ceil_div(c0 - r, g.sw));
            const dim_t tb = ceil_div(c1 - r, g.sw);
            for (dim_t si = p.seg_at[r]; si < p.seg_at[r + 1]; ++si) {
                const seg_t &s = p.segs[si];
                const dim_t a0 = std::max(s.t0, ta), a1 = std::min(s.t1, tb);
                if (a1 <= a0) continue;
                if (!down || s.t1 - s.t0 >= pd_t::narrow_w(p.target->tile_m)) {
                    // Along each row.
                    for (dim_t ih = h0; ih < h1; ++ih) {
                        const auto &ht = htaps[(size_t)(ih - h0)];
                        const size_t bs =
                                ocn > 0 ? build(n, ht, r, s, a0, oc0) : 0;
                        run_points(bs, a1 - a0, g.oc, g.sw * g.ic,
                                row_c(ih) + (r + a0 * g.sw) * g.ic * es, jb0,
                                jb1, ph, ocn, wp);
                    }
                    continue;
                }
                // Down the rows: a column at a time, over rows with the
                // same height taps (one diff_dst row further each).
                for (dim_t t = a0; t < a1; ++t)
                    for (dim_t ha = h0; ha < h1;) {
                        const auto &ht = htaps[(size_t)(ha - h0)];
                        dim_t hb = ha + 1;
                        while (hb < h1
                                && same_taps(htaps[(size_t)(hb - h0)], ht))
                            ++hb;
                        const size_t bs =
                                ocn > 0 ? build(n, ht, r, s, t, oc0) : 0;
                        run_points(bs, hb - ha, g.ow * g.oc, g.iw * g.ic,
                                row_c(ha) + (r + t * g.sw) * g.ic * es, jb0,
                                jb1, ph, ocn, wp);
                        ha = hb;
                    }
            }
        }
    }
};

} // namespace

status_t brgemm_conv_bwd_data_t::init(engine_t *) {
    const pd_t *p = pd_();
    const int n_full = p->geo.ic >= p->panel ? p->panel : 0;
    return kernels_.load(p->cfg, kernel_set_t::phases_for(p->nk), p->m_used,
            n_full, (int)(p->geo.ic % p->panel));
}

status_t brgemm_conv_bwd_data_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const geo_t &g = p->geo;
    const dim_t per_panel = g.mb * g.id * p->n_hg * p->n_iwb;
    // Panels innermost (each group of tiles through every panel) where
    // all of them stay in L2: diff_dst is then read once.
    const dim_t units = p->panel_inner ? per_panel : p->nb_ic * per_panel;
    if (units == 0 || g.iw == 0) return dnnl_success;

    char *diff_src = ctx.output<char>(DNNL_ARG_DIFF_SRC);
    const char *wei = ctx.input<char>(DNNL_ARG_WEIGHTS);
    const char *diff_dst = ctx.input<char>(DNNL_ARG_DIFF_DST);
    if (!diff_src || (g.oc > 0 && (!diff_dst || !wei)))
        return dnnl_invalid_arguments;
    auto bytes = [](const memory_desc_t &md) {
        return md.offset0 * (dim_t)data_type_size(md.data_type);
    };
    diff_src += bytes(p->data_src_md());
    if (wei) wei += bytes(p->data_weights_md());
    if (diff_dst) diff_dst += bytes(p->data_dst_md());

    const double macs = (double)(p->nb_ic * g.mb * g.id * g.ih * g.iw)
                        * (double)p->panel * (double)(g.ksp() * g.oc);
    const int nthr = brgconv::team_for(macs, units);
    parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
        worker_t w(*p, kernels_, diff_dst, wei, diff_src);
        if (p->panel_inner) {
            for (dim_t u = u0; u < u1; ++u) w.run_unit(u, 0);
            return;
        }
        // Runs of units on one panel: output-channel blocks outside, so a
        // block of the panel stays in L2 for every unit of the run.
        for (dim_t r0 = u0; r0 < u1;) {
            const dim_t r1 = std::min(u1, (r0 / per_panel + 1) * per_panel);
            for (dim_t kb = 0; kb < p->nk; ++kb)
                for (dim_t u = r0; u < r1; ++u) w.run_unit(u, kb);
            r0 = r1;
        }
    });
    return dnnl_success;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
