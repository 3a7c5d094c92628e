// BRGEMM backward-data convolution descriptor (brgemm_conv_bwd.hpp): what
// it takes, the runs of diff_src columns per width phase with equal
// taps, the output-channel blocking, the row groups and the work split.
#include <algorithm>
#include <numeric>
#include <utility>

#include "cpu/convolution/brgemm_conv_bwd.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

using namespace brgconv;

status_t brgemm_conv_bwd_data_t::pd_t::init(engine_t *engine) {
    if (!is_bwd_d() || !attr_.post_ops.entries.empty())
        return dnnl_unimplemented;
    target = target_for(*this, engine, /* low_precision = */ true,
            /* backward_data = */ true);
    if (!target) return dnnl_unimplemented;
    bf16 = target->in_dt == dnnl_bf16;
    // A tap's K is its output channels.
    target = jit::brgemm_target_for_k(
            target, OC() * (dim_t)data_type_size(dst_md_.data_type));
    if (!target) return dnnl_unimplemented;
    panel = target->tile_nv * target->lanes();
    // Less than one vector of input channels leaves most of each tile's
    // lanes idle and makes the kernel wait on its loads; the GEMM-based
    // entry (diff_dst times all taps' weights at once, then col2im)
    // runs those faster (the 7x7 first layer of ResNet-50, 3 channels:
    // 115 ms against 530 at mb32 on one core). Exactly one vector is
    // faster here (3x3, 16 -> 32 channels, two threads: 7x7 mb2 8 us
    // against 28, 56x56 mb32 5.9 ms against 6.7; 56x56 mb1 even).
    if (IC() < target->lanes()) return dnnl_unimplemented;
    if (!channels_last(src_md_, dst_md_, ndims())
            || !panel_weights(weights_md_, with_groups(), true, panel,
                    bf16 ? 2 : 1))
        return dnnl_unimplemented;
    cfg = jit::brgemm_config(*target, target->tile_m, panel);
    cfg.c_dt = src_md_.data_type; // diff_src: f32, or bf16 with bf16
    if (!cfg.supported()) return dnnl_unimplemented;
    geo = geo_of(*this);
    flatten(geo, *this);
    // Descriptors may hold strides and kernels of billions (valid ones):
    // the plan keeps per width phase runs, searches a phase's first tap
    // among `sw / gcd(sw, dw)` and batches every tap of a point, so such
    // extremes go to the next entry instead of taking memory and time.
    const geo_t &g = geo;
    const dim_t lim = 4096, taps = 1 << 16;
    if (std::min(g.sw, g.iw) > lim || std::min(g.kw, g.sw) > lim
            || g.kd > taps || g.kh > taps || g.kw > taps
            || g.kd * g.kh * g.kw > taps)
        return dnnl_unimplemented;
    plan_work();
    name_ = std::string("brgconv_bwd_d:") + target->isa_name;
    return dnnl_success;
}

void brgemm_conv_bwd_data_t::pd_t::plan_work() {
    const geo_t &g = geo;
    const int tm = target->tile_m;
    nb_ic = div_up(g.ic, panel);
    // A panel's weights in blocks of at most 512 KiB of output channels.
    const dim_t panel_bytes = g.ksp() * g.oc * panel
                              * (dim_t)data_type_size(weights_md_.data_type);
    const dim_t budget = 512 * 1024;
    // (bf16: one block; blocks would need f32 partial sums apart from a
    // bf16 diff_src.)
    nk = bf16 || panel_bytes <= budget
            ? 1
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

    // Rows in groups where a run of columns is narrow (the border
    // columns of a small image): those columns then run as tiles down
    // the group's rows (consecutive diff_src rows meet consecutive
    // diff_dst rows when the height stride is 1), not as tiles of one
    // or two points, whose kernels wait on the panel's loads.
    bool narrow_runs = false;
    for (const seg_t &sg : segs)
        narrow_runs = narrow_runs || sg.t1 - sg.t0 < narrow_w(tm);
    row_grp = narrow_runs && g.sh == 1 && g.ih > 1 ? tm : 1;
    n_hg = div_up(g.ih, row_grp);

    // Work units: (panels, row group, column block); enough of them for
    // every thread to claim several. Blocks hold whole tiles of every
    // phase.
    const dim_t groups = g.mb * g.id * n_hg;
    const dim_t want = 4 * (dim_t)max_threads();
    const dim_t have = (panel_inner ? 1 : nb_ic) * groups;
    const dim_t ntiles = div_up(g.iw, tm);
    n_iwb = have >= want ? 1 : std::min(ntiles, div_up(want, have));
    if (g.kw == 1 && g.ow == g.iw && g.sw == 1)
        n_iwb = std::max(n_iwb, std::min(ntiles, div_up(g.iw, 384)));
    const dim_t quantum = tm * std::min(g.sw, g.iw);
    iw_blk = std::max<dim_t>(1, div_up(div_up(g.iw, n_iwb), quantum) * quantum);
    n_iwb = std::max<dim_t>(1, div_up(g.iw, iw_blk));

    // The tile heights calls use (all of them with row groups or where
    // counting would take long).
    m_used.assign((size_t)tm + 1, row_grp > 1);
    if (row_grp > 1) return;
    if ((dim_t)segs.size() * n_iwb > 4096) {
        m_used.assign((size_t)tm + 1, true);
        return;
    }
    for (dim_t b = 0; b < n_iwb; ++b) {
        const dim_t c0 = b * iw_blk, c1 = std::min(g.iw, c0 + iw_blk);
        for (dim_t r = 0; r < nph; ++r) {
            const dim_t ta = std::max<dim_t>(0, ceil_div(c0 - r, g.sw));
            const dim_t tb = ceil_div(c1 - r, g.sw);
            for (dim_t s = seg_at[r]; s < seg_at[r + 1]; ++s) {
                const dim_t a0 = std::max(segs[s].t0, ta);
                const dim_t a1 = std::min(segs[s].t1, tb);
                if (a1 > a0) tile_split_t(a1 - a0, tm).mark(m_used);
            }
        }
    }
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
