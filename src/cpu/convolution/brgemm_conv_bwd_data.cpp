// BRGEMM backward-data convolution (brgemm_conv_bwd.hpp): what it takes,
// the runs of diff_src columns per width phase with equal taps, the
// output-channel blocking and the work split; its kernels and the walk
// over work units (panel of input channels, diff_src row, block of
// columns).
#include <algorithm>
#include <numeric>
#include <utility>

#include "common/exec_ctx.hpp"
#include "cpu/convolution/brgemm_conv_bwd.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

using namespace brgconv;

status_t brgemm_conv_bwd_data_t::pd_t::init(engine_t *engine) {
    if (!is_bwd_d() || !attr_.post_ops.entries.empty())
        return dnnl_unimplemented;
    target = target_for(*this, engine);
    if (!target) return dnnl_unimplemented;
    panel = target->tile_nv * target->lanes();
    // At most one vector of input channels leaves most of each tile's
    // lanes idle and makes the kernel wait on its loads; the GEMM-based
    // entry (diff_dst times all taps' weights at once, then col2im)
    // runs those faster (the 7x7 first layer of ResNet-50, 3 channels:
    // 115 ms against 530 at mb32 on one core).
    if (IC() <= target->lanes()) return dnnl_unimplemented;
    if (!channels_last(src_md_, dst_md_, ndims())
            || !panel_weights(weights_md_, with_groups(), true, panel))
        return dnnl_unimplemented;
    cfg = jit::brgemm_config(*target, target->tile_m, panel);
    if (!cfg.supported()) return dnnl_unimplemented;
    geo = geo_of(*this);
    flatten(geo, *this);
    plan_work();
    name_ = std::string("brgconv_bwd_d:") + target->isa_name;
    return dnnl_success;
}

void brgemm_conv_bwd_data_t::pd_t::plan_work() {
    const geo_t &g = geo;
    const int tm = target->tile_m;
    nb_ic = div_up(g.ic, panel);
    // A panel's weights in blocks of at most 512 KiB of output channels.
    const dim_t panel_bytes = g.ksp() * g.oc * panel * (dim_t)sizeof(float);
    const dim_t budget = 512 * 1024;
    nk = panel_bytes <= budget ? 1
                               : std::min(g.oc, div_up(panel_bytes, budget));
    ocb = nk > 1 ? div_up(g.oc, nk) : g.oc;
    if (nk > 1) nk = div_up(g.oc, ocb);
    panel_inner = nk == 1 && nb_ic > 1 && nb_ic * panel_bytes <= 768 * 1024;

    // Width phases: diff_src column iw = r + t * sw meets diff_dst column
    // ow = (iw + pw - kw * dw) / sw through the taps kw that make the
    // division exact (every step-th from the first, c) and the quotient
    // lie in [0, OW). Both ends of that range of taps rise with t, so
    // the columns of a phase fall into a few runs.
    segs.clear();
    seg_at.clear();
    const dim_t nph = std::min(g.sw, g.iw);
    const dim_t step = g.sw / std::gcd(g.sw, g.dw);
    dim_t max_nkw = 0;
    for (dim_t r = 0; r < nph; ++r) {
        seg_at.push_back((dim_t)segs.size());
        dim_t c = -1;
        for (dim_t kw = 0; kw < std::min(g.kw, step); ++kw)
            if ((r + g.pw - kw * g.dw) % g.sw == 0) {
                c = kw;
                break;
            }
        const dim_t ncls = c < 0 ? 0 : div_up(g.kw - c, step);
        auto key = [&](dim_t t) {
            if (ncls == 0) return std::make_pair<dim_t, dim_t>(0, 0);
            const dim_t x = r + t * g.sw + g.pw; // kw * dw + ow * sw
            const dim_t kwmin =
                    std::max<dim_t>(0, ceil_div(x - (g.ow - 1) * g.sw, g.dw));
            const dim_t kwmax = floor_div(x, g.dw);
            const dim_t i0 = std::min(
                    ncls, std::max<dim_t>(0, ceil_div(kwmin - c, step)));
            const dim_t i1 = std::min(
                    ncls, std::max(i0, floor_div(kwmax - c, step) + 1));
            return std::make_pair(i0, i1);
        };
        cut_runs(div_up(g.iw - r, g.sw), key,
                [&](dim_t t0, dim_t t1, std::pair<dim_t, dim_t> k) {
                    const dim_t n = k.second - k.first;
                    segs.push_back({t0, t1, c + k.first * step, n, step});
                    max_nkw = std::max(max_nkw, n);
                });
    }
    seg_at.push_back((dim_t)segs.size());
    max_bs = std::max<dim_t>(1, g.kd * g.kh * max_nkw);

    // Work units: (panel, row, column block); enough of them for every
    // thread to claim several. Blocks hold whole tiles of every phase.
    const dim_t rows = g.mb * g.id * g.ih;
    const dim_t want = 4 * (dim_t)max_threads();
    const dim_t have = (panel_inner ? 1 : nb_ic) * rows;
    const dim_t ntiles = div_up(g.iw, tm);
    n_iwb = have >= want ? 1 : std::min(ntiles, div_up(want, have));
    if (g.kw == 1 && g.ow == g.iw && g.sw == 1)
        n_iwb = std::max(n_iwb, std::min(ntiles, div_up(g.iw, 384)));
    const dim_t quantum = tm * std::min(g.sw, g.iw);
    iw_blk = std::max<dim_t>(1, div_up(div_up(g.iw, n_iwb), quantum) * quantum);
    n_iwb = std::max<dim_t>(1, div_up(g.iw, iw_blk));

    m_used.assign((size_t)tm + 1, false);
    if ((dim_t)segs.size() * n_iwb > 4096) {
        m_used.assign((size_t)tm + 1, true);
        return;
    }
    for (dim_t b = 0; b < n_iwb; ++b) {
        const dim_t c0 = b * iw_blk, c1 = std::min(g.iw, c0 + iw_blk);
        for (dim_t r = 0; r < nph; ++r) {
            const dim_t ta = std::max<dim_t>(0, ceil_div(c0 - r, g.sw));
            const dim_t tb = ceil_div(c1 - r, g.sw);
            for (dim_t s = seg_at[r]; s < seg_at[r + 1]; ++s)
                mark_tiles(std::max(segs[s].t0, ta), std::min(segs[s].t1, tb),
                        tm, m_used);
        }
    }
}

status_t brgemm_conv_bwd_data_t::init(engine_t *) {
    const pd_t *p = pd_();
    const int n_full = p->geo.ic >= p->panel ? p->panel : 0;
    return kernels_.load(p->cfg, kernel_set_t::phases_for(p->nk), p->m_used,
            n_full, (int)(p->geo.ic % p->panel));
}

status_t brgemm_conv_bwd_data_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const geo_t &g = p->geo;
    const dim_t rows = g.mb * g.id * g.ih;
    const dim_t per_panel = rows * p->n_iwb;
    // Panels innermost (each tile of points through every panel) where
    // all of them stay in L2: diff_dst is then read once and diff_src
    // written a whole row of channels at a time.
    const dim_t units = p->panel_inner ? per_panel : p->nb_ic * per_panel;
    if (units == 0 || g.iw == 0) return dnnl_success;

    float *diff_src = ctx.output<float>(DNNL_ARG_DIFF_SRC);
    const float *wei = ctx.input<float>(DNNL_ARG_WEIGHTS);
    const float *diff_dst = ctx.input<float>(DNNL_ARG_DIFF_DST);
    if (!diff_src || (g.oc > 0 && (!diff_dst || !wei)))
        return dnnl_invalid_arguments;
    diff_src += p->data_src_md().offset0;
    if (wei) wei += p->data_weights_md().offset0;
    if (diff_dst) diff_dst += p->data_dst_md().offset0;

    const int tm = p->target->tile_m, P = p->panel;
    const dim_t panel_elems = g.ksp() * g.oc * P;
    const dim_t nph = std::min(g.sw, g.iw);
    const double macs = (double)(p->nb_ic * per_panel) * (double)p->iw_blk
                        * (double)P * (double)(g.ksp() * g.oc);
    const int nthr = macs < 1e6 ? 1 : nthr_for(units, 1);
    const dim_t group = 4 * tm;

    parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
        std::vector<jit::brgemm_batch_t> batch((size_t)p->max_bs);
        // Per batch element: its diff_dst offset at the run's first
        // column and its panel offset.
        std::vector<dim_t> a_off(batch.size()), b_off(batch.size());
        // The (tap, diff_dst index) pairs of the row along depth and
        // height.
        std::vector<std::pair<dim_t, dim_t>> dtaps, htaps;
        jit::brgemm_args_t a;
        a.batch = batch.data();
        a.lda = (size_t)g.oc * sizeof(float);
        a.ldc = (size_t)(g.sw * g.ic) * sizeof(float);

        // Taps k of one dim with (i + p - k * dl) / s a whole index o in
        // [0, O).
        auto taps = [](dim_t i, dim_t s, dim_t pad, dim_t dl, dim_t K, dim_t O,
                            std::vector<std::pair<dim_t, dim_t>> &v) {
            v.clear();
            for (dim_t k = 0; k < K; ++k) {
                const dim_t x = i + pad - k * dl;
                if (x < 0) break;
                if (x % s == 0 && x / s < O) v.emplace_back(k, x / s);
            }
        };
        auto run_unit = [&](dim_t u, dim_t kb) {
            const dim_t jb0 = p->panel_inner ? 0 : u / per_panel;
            const dim_t jb1 = p->panel_inner ? p->nb_ic : jb0 + 1;
            const dim_t rem = u % per_panel;
            const dim_t cb = rem % p->n_iwb, row = rem / p->n_iwb;
            const dim_t ih = row % g.ih, id = (row / g.ih) % g.id,
                        n = row / (g.ih * g.id);
            const dim_t oc0 = kb * p->ocb;
            const dim_t ocn = std::min(p->ocb, g.oc - oc0);
            const int ph = kernel_set_t::phase_of(kb, p->nk);
            taps(id, g.sd, g.pd, g.dd, g.kd, g.od, dtaps);
            taps(ih, g.sh, g.ph, g.dh, g.kh, g.oh, htaps);
            const dim_t c0 = cb * p->iw_blk,
                        c1 = std::min(g.iw, c0 + p->iw_blk);
            const float *wp = wei ? wei + oc0 * P : nullptr;
            float *row_c = diff_src + row * g.iw * g.ic;
            a.k = (size_t)std::max<dim_t>(0, ocn);
            for (dim_t r = 0; r < nph; ++r) {
                const dim_t ta = std::max<dim_t>(0, ceil_div(c0 - r, g.sw));
                const dim_t tb = ceil_div(c1 - r, g.sw);
                for (dim_t si = p->seg_at[r]; si < p->seg_at[r + 1]; ++si) {
                    const seg_t &s = p->segs[si];
                    const dim_t a0 = std::max(s.t0, ta),
                                a1 = std::min(s.t1, tb);
                    if (a1 <= a0) continue;
                    // The batch at column a0.
                    size_t bs = 0;
                    if (ocn > 0)
                        for (const auto &dt : dtaps)
                            for (const auto &ht : htaps) {
                                const dim_t orow = (n * g.od + dt.second) * g.oh
                                                   + ht.second;
                                const dim_t tap0 =
                                        (dt.first * g.kh + ht.first) * g.kw;
                                for (dim_t i = 0; i < s.nkw; ++i) {
                                    const dim_t kw = s.kw0 + i * s.step;
                                    const dim_t ow =
                                            (r + a0 * g.sw + g.pw - kw * g.dw)
                                            / g.sw;
                                    a_off[bs] = (orow * g.ow + ow) * g.oc + oc0;
                                    b_off[bs] = (tap0 + kw) * g.oc * P;
                                    ++bs;
                                }
                            }
                    a.bs = bs;
                    // Groups of tiles run through one panel after the
                    // other, so that the panel's rows stay in L1 for the
                    // group; each call first fetches the lines the next
                    // one writes (a tile's stores would otherwise wait
                    // for them at its end), and a group's first call the
                    // diff_dst rows of the next group.
                    auto c_at = [&](dim_t t, dim_t jb) {
                        return row_c + (r + t * g.sw) * g.ic + jb * P;
                    };
                    for (dim_t g0 = a0; g0 < a1; g0 += group) {
                        const dim_t g1 = std::min(a1, g0 + group);
                        if (bs > 0 && g1 < a1)
                            prefetch_rows(
                                    diff_dst + a_off[0] + (g1 - a0) * g.oc,
                                    std::min(group, a1 - g1), a.lda,
                                    (size_t)ocn * sizeof(float), false);
                        for (dim_t jb = jb0; jb < jb1; ++jb) {
                            for (size_t i = 0; i < bs; ++i)
                                batch[i].b = wp + jb * panel_elems + b_off[i];
                            for (dim_t t0 = g0; t0 < g1; t0 += tm) {
                                const int m = (int)std::min<dim_t>(tm, g1 - t0);
                                const dim_t shift = (t0 - a0) * g.oc;
                                for (size_t i = 0; i < bs; ++i)
                                    batch[i].a = diff_dst + a_off[i] + shift;
                                a.c = c_at(t0, jb);
                                float *next = t0 + tm < g1   ? c_at(t0 + tm, jb)
                                              : jb + 1 < jb1 ? c_at(g0, jb + 1)
                                              : g1 < a1      ? c_at(g1, jb0)
                                                             : nullptr;
                                if (next)
                                    prefetch_rows(next, tm, a.ldc,
                                            (size_t)P * sizeof(float), true);
                                kernels_.at(ph, m, jb * P + P > g.ic).fn(&a);
                            }
                        }
                    }
                }
            }
        };
        if (p->panel_inner) {
            for (dim_t u = u0; u < u1; ++u) run_unit(u, 0);
            return;
        }
        // Runs of units on one panel: output-channel blocks outside, so a
        // block of the panel stays in L2 for every unit of the run.
        for (dim_t r0 = u0; r0 < u1;) {
            const dim_t r1 = std::min(u1, (r0 / per_panel + 1) * per_panel);
            for (dim_t kb = 0; kb < p->nk; ++kb)
                for (dim_t u = r0; u < r1; ++u) run_unit(u, kb);
            r0 = r1;
        }
    });
    return dnnl_success;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
