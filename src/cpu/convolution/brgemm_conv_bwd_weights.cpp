// BRGEMM backward-weights convolution (brgemm_conv_bwd.hpp): what it
// takes, the chunks of the reduction, the width phases of the transposed
// source, the work items and their scratchpad; its kernels and the walk
// (per chunk: transpose the source rows, then every tap, panel and tile
// of input channels; the reduction groups added in order at the end).
#include <algorithm>
#include <cstring>

#include "common/exec_ctx.hpp"
#include "cpu/convolution/brgemm_conv_bwd.hpp"
#include "cpu/convolution/conv_kernels.hpp"
#include "cpu/convolution/cpu_convolution.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

using namespace brgconv;

namespace {

// Source rows (n, id, ih) that output rows [r0, r1) reach through the
// kernel's depth and height taps: key[(row - r0) * kd * kh + kd * kh +
// kh] is the row's index in the sorted list `rows`, -1 outside the
// source.
void source_rows(const geo_t &g, dim_t r0, dim_t r1, std::vector<dim_t> &key,
        std::vector<dim_t> &rows) {
    const dim_t nt = g.kd * g.kh;
    key.assign((size_t)((r1 - r0) * nt), -1);
    rows.clear();
    for (dim_t r = r0; r < r1; ++r) {
        const dim_t oh = r % g.oh, od = (r / g.oh) % g.od,
                    n = r / (g.oh * g.od);
        for (dim_t kd = 0; kd < g.kd; ++kd) {
            const dim_t id = od * g.sd - g.pd + kd * g.dd;
            if (id < 0 || id >= g.id) continue;
            for (dim_t kh = 0; kh < g.kh; ++kh) {
                const dim_t ih = oh * g.sh - g.ph + kh * g.dh;
                if (ih < 0 || ih >= g.ih) continue;
                const dim_t k = (n * g.id + id) * g.ih + ih;
                key[(size_t)((r - r0) * nt + kd * g.kh + kh)] = k;
                rows.push_back(k);
            }
        }
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (auto &k : key)
        if (k >= 0)
            k = std::lower_bound(rows.begin(), rows.end(), k) - rows.begin();
}

} // namespace

status_t brgemm_conv_bwd_weights_t::pd_t::init(engine_t *engine) {
    if (!is_bwd_w() || !attr_.post_ops.entries.empty())
        return dnnl_unimplemented;
    target = target_for(*this, engine);
    if (!target) return dnnl_unimplemented;
    panel = target->tile_nv * target->lanes();
    if (!channels_last(src_md_, dst_md_, ndims())
            || !panel_weights(weights_md_, with_groups(), false, panel)
            || conv::resolve_bias(bias_md_, "convolution") != dnnl_success)
        return dnnl_unimplemented;
    geo = geo_of(*this);
    flatten(geo, *this);
    const geo_t &g = geo;
    if (g.ic == 0 || g.oc == 0) return dnnl_unimplemented;
    // B is diff_dst itself: its rows (points) OC apart, whole vectors
    // read; a channel count past whole vectors is copied per chunk into
    // rows of ocp.
    const int lanes = target->lanes();
    ocp = div_up(g.oc, lanes) * lanes;
    copy_dd = ocp != g.oc;
    cfg = jit::brgemm_config(*target, target->tile_m, panel);
    // (The kernel's B offsets are 32-bit: rows of up to 4M channels.)
    if (ocp > (1 << 22)) return dnnl_unimplemented;
    cfg.b_vecs = (int)(ocp / lanes);
    const int n0 = (int)std::min<dim_t>(panel, g.oc);
    if (!jit::brgemm_tile_config(cfg, target->tile_m, n0, false, false)
                    .supported())
        return dnnl_unimplemented;
    plan_work();
    // Keep the scratchpad sane for odd shapes (huge kernels, padding).
    const size_t limit = (size_t)1 << 30;
    if (scratchpad_size() > limit) return dnnl_unimplemented;
    name_ = std::string("brgconv_bwd_w:") + target->isa_name;
    return dnnl_success;
}

void brgemm_conv_bwd_weights_t::pd_t::plan_work() {
    const geo_t &g = geo;
    const int tm = target->tile_m;
    nb_oc = div_up(g.oc, panel);
    // Input channels in blocks of at most 256 (whole tiles where the
    // count allows): a chunk's transposed source stays in L2.
    nicb = div_up(g.ic, 256);
    icb = std::min(g.ic, div_up(div_up(g.ic, nicb), tm) * tm);
    nicb = div_up(g.ic, icb);

    // Width phases: tap kw reads source column (ow + shift) * sw + phase.
    kw_phase.assign((size_t)g.kw, 0);
    kw_shift.assign((size_t)g.kw, 0);
    phases.clear();
    dim_t emin = 0, emax = 0;
    for (dim_t kw = 0; kw < g.kw; ++kw) {
        const dim_t x = kw * g.dw - g.pw;
        const dim_t sh = floor_div(x, g.sw), ph = x - sh * g.sw;
        auto it = std::find(phases.begin(), phases.end(), ph);
        if (it == phases.end()) it = phases.insert(phases.end(), ph);
        kw_phase[(size_t)kw] = (int)(it - phases.begin());
        kw_shift[(size_t)kw] = sh;
        emin = kw ? std::min(emin, sh) : sh;
        emax = kw ? std::max(emax, sh) : sh;
    }

    // Chunks of about 256 KiB of transposed source (at least 64 points):
    // whole rows, several of them where rows are short.
    const dim_t rows = g.mb * g.od * g.oh;
    const dim_t target_pts =
            std::max<dim_t>(64, std::min<dim_t>(2048, 256 * 1024 / (icb * 4)));
    n_owb = std::max<dim_t>(1, div_up(g.ow, target_pts));
    ow_blk = std::max<dim_t>(1, div_up(g.ow, n_owb));
    row_blk = n_owb == 1 ? std::max<dim_t>(
                      1, target_pts / std::max<dim_t>(1, g.ow))
                         : 1;
    row_blk = std::max<dim_t>(1, std::min(row_blk, rows));
    n_rowb = div_up(rows, row_blk);
    lp = ow_blk + emax - emin;
    shift_lo = emin;

    // The most source rows a chunk reaches (counted where counting is
    // quick).
    max_slots = row_blk * g.kd * g.kh;
    if (n_rowb <= 4096 && g.ow > 0) {
        std::vector<dim_t> key, srows;
        dim_t most = 0;
        for (dim_t rb = 0; rb < n_rowb; ++rb) {
            source_rows(g, rb * row_blk, std::min(rows, (rb + 1) * row_blk),
                    key, srows);
            most = std::max(most, (dim_t)srows.size());
        }
        max_slots = most;
    }

    // Work items: blocks of input channels; where they are fewer than
    // threads, the chunks are split into reduction groups too (each a
    // copy of diff_weights, 64 MiB of them at most, past which panels
    // are split instead).
    nthr = max_threads();
    wei_elems = md_size(weights_md_) / sizeof(float);
    nkg = nocg = 1;
    if (nicb < nthr && n_chunks() > 1) {
        nkg = std::min(n_chunks(), div_up(nthr, nicb));
        const dim_t cap = std::max<dim_t>(
                1, (64 << 20) / (dim_t)((wei_elems + ocp) * sizeof(float)));
        if (nkg - 1 > cap) {
            nkg = cap + 1;
            nocg = std::min(nb_oc, div_up(nthr, nicb * nkg));
        }
    }

    // Scratchpad: per thread, the transposed source and the copied
    // diff_dst (in whole cache lines); shared, the ones and the groups'
    // partial sums.
    auto lines = [](size_t n) { return (n + 15) / 16 * 16; };
    tr_elems = lines((size_t)(max_slots * (dim_t)phases.size() * icb * lp));
    dd_elems = copy_dd ? lines((size_t)(row_blk * ow_blk * ocp)) : 0;
    ones_elems = with_bias() ? lines((size_t)ow_blk) : 0;
    const size_t parts = (size_t)(nkg - 1) * (lines(wei_elems) + lines(ocp));
    book_scratchpad(((size_t)nthr * (tr_elems + dd_elems) + ones_elems + parts)
                    * sizeof(float));

    m_used.assign((size_t)tm + 1, false);
    mark_tiles(0, icb, tm, m_used);
    mark_tiles(0, g.ic - (nicb - 1) * icb, tm, m_used);
    if (with_bias()) m_used[1] = true;
}

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

    const auto &transpose = conv::select_conv_kernels().transpose_f32;
    const int tm = p->target->tile_m;
    const dim_t rows = g.mb * g.od * g.oh;
    const dim_t nph = (dim_t)p->phases.size();
    const dim_t nt_hd = g.kd * g.kh;
    const dim_t items = p->nkg * p->nocg * p->nicb;
    const int nthr =
            (int)std::min<dim_t>(items, std::min(p->nthr, max_threads()));
    // Scratchpad: ones, partial sums (weights, then bias, per group past
    // the first), then per thread the transposed source and diff_dst.
    float *ones = scratch;
    float *parts = ones + p->ones_elems;
    const size_t wstride = (p->wei_elems + 15) / 16 * 16;
    const size_t bstride = (size_t)(p->ocp + 15) / 16 * 16;
    float *bparts = parts + (size_t)(p->nkg - 1) * wstride;
    float *per_thr = bparts + (size_t)(p->nkg - 1) * bstride;
    for (size_t i = 0; i < p->ones_elems; ++i) ones[i] = 1.f;

    parallel_chunks(nthr, items, [&](int ithr, dim_t i0, dim_t i1) {
        float *tr = per_thr + (size_t)ithr * (p->tr_elems + p->dd_elems);
        float *dd = tr + p->tr_elems;
        std::vector<dim_t> key, srows;
        std::vector<jit::brgemm_batch_t> batch((size_t)p->row_blk);
        std::vector<dim_t> a_off(batch.size());
        std::vector<const float *> b_ptr(batch.size());
        jit::brgemm_args_t a;
        a.batch = batch.data();
        a.lda = (size_t)p->lp * sizeof(float);
        a.ldc = (size_t)P * sizeof(float);
        for (dim_t it = i0; it < i1; ++it) {
            const dim_t ib = it % p->nicb;
            const dim_t og = (it / p->nicb) % p->nocg;
            const dim_t kg = it / (p->nicb * p->nocg);
            const dim_t ic0 = ib * p->icb;
            const dim_t icn = std::min(p->icb, g.ic - ic0);
            const dim_t jb0 = og * p->nb_oc / p->nocg,
                        jb1 = (og + 1) * p->nb_oc / p->nocg;
            const dim_t q0 = kg * nchunks / p->nkg,
                        q1 = (kg + 1) * nchunks / p->nkg;
            float *out = kg == 0 ? diff_w : parts + (kg - 1) * wstride;
            float *bout = !diff_b   ? nullptr
                          : kg == 0 ? diff_b
                                    : bparts + (kg - 1) * bstride;
            for (dim_t q = q0; q < q1; ++q) {
                const int ph =
                        q == q0 ? kernel_set_t::first : kernel_set_t::middle;
                const dim_t r0 = q / p->n_owb * p->row_blk;
                const dim_t r1 = std::min(rows, r0 + p->row_blk);
                const dim_t c0 = q % p->n_owb * p->ow_blk;
                const dim_t c1 = std::min(g.ow, c0 + p->ow_blk);
                const dim_t jlo = c0 + p->shift_lo;
                // The chunk's source rows, as channel rows per
                // width phase: tr[slot][phase][ic][j - jlo].
                source_rows(g, r0, r1, key, srows);
                for (size_t s = 0; s < srows.size(); ++s) {
                    const float *sr = src + srows[s] * g.iw * g.ic + ic0;
                    for (dim_t pi = 0; pi < nph; ++pi) {
                        const dim_t phs = p->phases[(size_t)pi];
                        const dim_t ja = std::max<dim_t>(jlo, 0);
                        const dim_t jb = std::min(
                                jlo + p->lp, ceil_div(g.iw - phs, g.sw));
                        if (jb <= ja) continue;
                        transpose(sr + (ja * g.sw + phs) * g.ic, g.sw * g.ic,
                                tr + ((dim_t)s * nph + pi) * icn * p->lp
                                        + (ja - jlo),
                                p->lp, jb - ja, icn);
                    }
                }
                // diff_dst rows as B reads them.
                if (p->copy_dd)
                    for (dim_t r = r0; r < r1; ++r)
                        for (dim_t ow = c0; ow < c1; ++ow) {
                            float *d = dd
                                       + ((r - r0) * p->ow_blk + (ow - c0))
                                                 * p->ocp;
                            std::memcpy(d, diff_dst + (r * g.ow + ow) * g.oc,
                                    (size_t)g.oc * sizeof(float));
                            for (dim_t c = g.oc; c < p->ocp; ++c) d[c] = 0.f;
                        }
                auto bpt = [&](dim_t r, dim_t ow) {
                    return p->copy_dd ? dd
                                                + ((r - r0) * p->ow_blk
                                                          + (ow - c0))
                                                          * p->ocp
                                      : diff_dst + (r * g.ow + ow) * g.oc;
                };
                for (dim_t kd = 0; kd < g.kd; ++kd)
                    for (dim_t kh = 0; kh < g.kh; ++kh)
                        for (dim_t kw = 0; kw < g.kw; ++kw) {
                            const dim_t tap = (kd * g.kh + kh) * g.kw + kw;
                            // Output columns whose source column
                            // lies inside: ow * sw in [pw - kw *
                            // dw, iw + pw - kw * dw).
                            const dim_t x = g.pw - kw * g.dw;
                            const dim_t o0 = std::max(c0, ceil_div(x, g.sw));
                            const dim_t o1 =
                                    std::min(c1, ceil_div(g.iw + x, g.sw));
                            size_t bs = 0;
                            if (o1 > o0)
                                for (dim_t r = r0; r < r1; ++r) {
                                    const dim_t s =
                                            key[(size_t)((r - r0) * nt_hd
                                                         + kd * g.kh + kh)];
                                    if (s < 0) continue;
                                    a_off[bs] =
                                            (s * nph + p->kw_phase[(size_t)kw])
                                                    * icn * p->lp
                                            + o0 + p->kw_shift[(size_t)kw]
                                            - jlo;
                                    b_ptr[bs] = bpt(r, o0);
                                    ++bs;
                                }
                            if (bs == 0 && q != q0) continue;
                            a.bs = bs;
                            a.k = bs ? (size_t)(o1 - o0) : 0;
                            for (dim_t jb = jb0; jb < jb1; ++jb) {
                                const dim_t n0 = jb * P;
                                const bool nt = n0 + P > g.oc;
                                for (dim_t t0 = 0; t0 < icn; t0 += tm) {
                                    const int m =
                                            (int)std::min<dim_t>(tm, icn - t0);
                                    for (size_t i = 0; i < bs; ++i) {
                                        batch[i].a = tr + a_off[i] + t0 * p->lp;
                                        batch[i].b = b_ptr[i] + n0;
                                    }
                                    a.c = out
                                          + ((jb * ksp + tap) * g.ic + ic0 + t0)
                                                    * P;
                                    kernels_.at(ph, m, nt).fn(&a);
                                }
                            }
                        }
                // The bias gradient: a row of ones times the
                // chunk's diff_dst.
                if (bout && ib == 0) {
                    size_t bs = 0;
                    for (dim_t r = r0; r < r1; ++r) {
                        b_ptr[bs] = bpt(r, c0);
                        ++bs;
                    }
                    a.bs = bs;
                    a.k = (size_t)(c1 - c0);
                    for (dim_t jb = jb0; jb < jb1; ++jb) {
                        const dim_t n0 = jb * P;
                        for (size_t i = 0; i < bs; ++i) {
                            batch[i].a = ones;
                            batch[i].b = b_ptr[i] + n0;
                        }
                        a.c = bout + n0;
                        kernels_.at(ph, 1, n0 + P > g.oc).fn(&a);
                    }
                }
            }
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
