// BRGEMM backward-weights convolution descriptor (brgemm_conv_bwd.hpp):
// what it takes, the chunks of the reduction, the width phases of the
// transposed source, the work items and their scratchpad.
#include <algorithm>

#include "cpu/convolution/brgemm_conv_bwd.hpp"
#include "cpu/convolution/cpu_convolution.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

using namespace brgconv;

void brgemm_conv_bwd_weights_t::source_rows(const geo_t &g, dim_t r0, dim_t r1,
        std::vector<dim_t> &key, std::vector<dim_t> &rows) {
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
    // Descriptors may hold kernels of billions of taps (valid ones): the
    // plan keeps a phase per kernel column and a chunk's source rows per
    // (row, kd, kh), so such extremes go to the next entry.
    if (g.kw > 4096 || g.kd * g.kh > 4096) return dnnl_unimplemented;
    // B is diff_dst itself, its rows (points) OC apart, whole vectors
    // read; or a copy of each chunk in panels, where OC is not whole
    // vectors or is four panels or more: the kernel's k steps then read
    // one run of panel rows instead of rows OC apart (a page or more
    // for 1024-2048 channels). Measured (ResNet-50 mb32): on 2 AVX2
    // cores (panels of 16) every layer gained, 1x1 ones of 1024-2048
    // channels 28 -> 19 ms (oneDNN 3.2: 19.5), 64 channels 3x3 54 -> 42;
    // on the 16-core Xeon (panels of 64) from 256 channels up mostly
    // (2048: 7.4 -> 4.6 ms), while 64-128 channel layers lost 10-30%.
    const int lanes = target->lanes();
    ocp = div_up(g.oc, lanes) * lanes;
    copy_dd = ocp != g.oc || g.oc >= 4 * panel;
    cfg = jit::brgemm_config(*target, target->tile_m, panel);
    // The source of a 1x1 kernel whose points are at most a kilobyte
    // apart (the kernel's column step: 256 channels at unit stride), or
    // of a first layer's few channels, is read in place, by columns,
    // without the transposed copy. Measured with ResNet-50 mb32: 1x1 of
    // 64 and 256 channels 0.95-0.98x the time on 2 AVX2 cores (Zen),
    // 0.80-0.86x on the 16-core Xeon; wider steps (512 channels and up,
    // strides of 2) 1.1-1.6x on both, as the columns fall into a few L1
    // sets and every tile of channels reads them from L2 again; 3x3
    // kernels of 64-256 channels 1.04-1.10x on AVX2 (each line holds a
    // third of a tile's channels, read by nine taps) against 0.9-0.97x
    // on the Xeon, within its noise: those keep the copy.
    direct_a = g.sw * g.ic * (dim_t)sizeof(float) <= 1024
               && (g.ksp() == 1 || g.ic * (dim_t)sizeof(float) <= 64);
    cfg.a_kmajor = direct_a;
    // (The kernel's B offsets are 32-bit: rows of up to 4M channels.)
    if (ocp > (1 << 22)) return dnnl_unimplemented;
    cfg.b_vecs = copy_dd ? target->tile_nv : (int)(ocp / lanes);
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

// Blocks of input channels (down to one tile) times groups of panels of
// output channels, at least one item a thread where the channels allow.
// Each item transposes (or reads in place) its channels of every chunk
// and reads (or copies) its panels of diff_dst, so cutting only the
// input channels makes every thread go through all of diff_dst: the
// cut is the one with the least work on the busiest thread, its
// products (icb x OC of a group) plus what it moves, 2 x lanes
// multiply-adds counted a float transposed or copied (one float moved
// a cycle against two vector FMAs).
void brgemm_conv_bwd_weights_t::pd_t::split_channels() {
    const geo_t &g = geo;
    const dim_t tm = target->tile_m, cap = icb;
    const dim_t move_cost = 2 * target->lanes();
    double best = 0;
    const dim_t most = std::min<dim_t>(nb_oc, nthr);
    for (dim_t og = 1; og <= most; ++og) {
        const dim_t want = std::min(div_up(g.ic, tm), div_up(nthr, og));
        const dim_t b = std::min(cap, div_up(div_up(g.ic, want), tm) * tm);
        const dim_t nb = div_up(g.ic, b);
        const dim_t ocw = std::min(g.oc, div_up(nb_oc, og) * panel);
        const double rounds = (double)div_up(nb * og, nthr);
        const double cost = rounds * (double)(b * ocw + move_cost * (b + ocw));
        if (og == 1 || cost < best) {
            best = cost;
            icb = b;
            nicb = nb;
            nocg = og;
        }
    }
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

    // Chunks of about 256 KiB of transposed source (at least 64 points),
    // and at most what keeps a panel of the chunk's diff_dst (points x
    // P floats, B of every tile of input channels) in a 32 KiB share of
    // L1: 256 points on AVX2's panels of 16, 128 on AVX-512's of 64.
    // Whole rows, several of them where rows are short.
    const dim_t rows = g.mb * g.od * g.oh;
    const dim_t target_pts = std::max<dim_t>(
            64, std::min<dim_t>({2048, 256 * 1024 / (icb * 4),
                        32 * 1024 / (panel * (dim_t)sizeof(float))}));
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
    if (n_rowb <= 4096 && g.ow > 0 && n_rowb * max_slots <= (1 << 22)) {
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
    // threads, groups of output panels and reduction groups of chunks
    // too (each a copy of diff_weights, 64 MiB of them at most, past
    // which panels are split instead).
    nthr = max_threads();
    // Too few chunks and channel blocks for the threads (small images):
    // the channels are cut finer (split_channels), each thread
    // transposing and multiplying its own block (no reduction copies);
    // chunks cut into reduction groups instead cost 1.6-10x on 16
    // threads.
    nocg = 1;
    if (nicb * n_chunks() < nthr) split_channels();
    wei_elems = md_size(weights_md_) / sizeof(float);
    // Items still fewer than threads: more groups of output panels or
    // reduction groups. A panel group reads the source of its channel
    // block again; a reduction group writes a copy of diff_weights that
    // is read back and added: the groups of panels go first where the
    // source is the smaller. 16-core Xeon, ResNet-50 mb32: 3x3 on 7x7
    // of 512 channels (eight 9.4 MB copies to add) 9.3 -> 6.5 ms, on
    // 14x14 with stride 2 17.0 -> 8.2, 1x1 512 -> 2048 on 7x7 4.0 ->
    // 3.5 (oneDNN 3.2: 7.0, 8.7, 3.5).
    const dim_t src_elems = g.mb * g.id * g.ih * g.iw * g.ic;
    if (nicb * nocg < nthr && n_chunks() > 1
            && src_elems < 2 * (dim_t)wei_elems)
        nocg = std::max(nocg, std::min(nb_oc, div_up(nthr, nicb)));
    nkg = 1;
    if (nicb * nocg < nthr && n_chunks() > 1) {
        nkg = std::min(n_chunks(), div_up(nthr, nicb * nocg));
        const dim_t cap = std::max<dim_t>(
                1, (64 << 20) / (dim_t)((wei_elems + ocp) * sizeof(float)));
        if (nkg - 1 > cap) {
            nkg = cap + 1;
            nocg = std::max(nocg, std::min(nb_oc, div_up(nthr, nicb * nkg)));
        }
    }

    // Scratchpad: per thread, the transposed source and the copied
    // diff_dst (in whole cache lines); shared, the ones and the groups'
    // partial sums.
    auto lines = [](size_t n) { return (n + 15) / 16 * 16; };
    tr_elems = direct_a ? 0
                        : lines((size_t)(max_slots * (dim_t)phases.size() * icb
                                         * lp));
    dd_elems = copy_dd ? lines(
                       (size_t)(row_blk * ow_blk * div_up(nb_oc, nocg) * panel))
                       : 0;
    ones_elems = with_bias() ? lines((size_t)ow_blk) : 0;
    const size_t parts = (size_t)(nkg - 1) * (lines(wei_elems) + lines(ocp));
    book_scratchpad(((size_t)nthr * (tr_elems + dd_elems) + ones_elems + parts)
                    * sizeof(float));

    merge_kw = direct_a && nicb == 1 && g.dw == 1 && g.kw > 1;
    m_used.assign((size_t)tm + 1, false);
    if (merge_kw) mark_tiles(0, g.kw * g.ic, tm, m_used);
    mark_tiles(0, icb, tm, m_used);
    mark_tiles(0, g.ic - (nicb - 1) * icb, tm, m_used);
    if (with_bias()) m_used[1] = true;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
