// BRGEMM convolution descriptor: what it takes (data types, layouts,
// post-ops the kernel's epilogue runs), `any` resolution (channels last,
// weights in the kernel's panels), the geometry, the runs of output
// columns with equal kernel taps, the input-channel blocking and the work
// split.
#include "cpu/convolution/brgemm_conv.hpp"

#include <algorithm>

#include "common/verbose.hpp"
#include "cpu/convolution/conv_layout.hpp"
#include "cpu/convolution/cpu_convolution.hpp"
#include "cpu/jit/brgemm_scales.hpp"
#include "cpu/postops/postops.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

namespace {

bool all_ones(const memory_desc_t &md, int from) {
    for (int d = from; d < md.ndims; ++d)
        if (md.dims[d] != 1) return false;
    return true;
}

} // namespace

using brgconv::div_up;
using brgconv::floor_div;

bool brgemm_conv_fwd_t::pd_t::post_ops_ok() {
    const int nd = ndims();
    const auto &entries = attr_.post_ops.entries;
    for (size_t e = 0; e < entries.size(); ++e) {
        const post_op_t &p = entries[e];
        jit::brgemm_post_op_t q;
        if (p.kind != post_op_kind_t::binary) {
            if (!jit::brgemm_post_op_of(p, q)) return false;
        } else {
            const memory_desc_t &s1 = p.src1_md;
            if (s1.data_type != dnnl_f32 || s1.ndims != nd) return false;
            binary_arg_t b{(int)e, jit::brgemm_bcast_t::scalar, 0, 0, 0, 0};
            dims_t st;
            if (all_ones(s1, 0)) {
                b.bcast = jit::brgemm_bcast_t::scalar;
            } else if (s1.dims[0] == 1 && s1.dims[1] == OC()
                       && all_ones(s1, 2)) {
                if (!postops::plain_strides(s1, st) || st[1] != 1)
                    return false;
                b.bcast = jit::brgemm_bcast_t::per_n;
            } else {
                // Full over channels and space, the mini-batch full or 1.
                if (s1.dims[0] != MB() && s1.dims[0] != 1) return false;
                for (int d = 1; d < nd; ++d)
                    if (s1.dims[d] != dst_md_.dims[d]) return false;
                if (!postops::plain_strides(s1, st) || st[1] != 1)
                    return false;
                b.bcast = jit::brgemm_bcast_t::full;
                b.sn = s1.dims[0] == 1 ? 0 : st[0];
                b.sd = nd == 5 ? st[2] : 0;
                b.sh = nd >= 4 ? st[nd - 2] : 0;
                b.sw = st[nd - 1];
            }
            q.kind = jit::brgemm_post_op_t::binary;
            q.alg = p.alg;
            q.bcast = b.bcast;
            binaries.push_back(b);
        }
        cfg.post_ops.push_back(q);
    }
    return true;
}

// Source and destination channels last (`any` resolves to it), weights
// in the kernel's panels (`any` resolves to them), bias a vector.
bool brgemm_conv_fwd_t::pd_t::layouts_ok() {
    return brgconv::channels_last(src_md_, dst_md_, ndims())
           && brgconv::panel_weights(
                   weights_md_, with_groups(), false, panel, kgroup())
           && conv::resolve_bias(bias_md_, "convolution") == dnnl_success;
}

status_t brgemm_conv_fwd_t::pd_t::init(engine_t *engine) {
    if (!is_fwd()) return dnnl_unimplemented;
    target = brgconv::target_for(*this, engine, /* low_precision = */ true);
    if (!target) return dnnl_unimplemented;
    int8 = target->in_dt == dnnl_u8;
    bf16 = target->in_dt == dnnl_bf16;
    // A tap's K is its input channels (a first layer's 3: no AMX).
    target = jit::brgemm_target_for_k(
            target, IC() * (dim_t)data_type_size(src_md_.data_type));
    if (!target) return dnnl_unimplemented;
    // An s32 dst takes the sums as they are (the kernel stores them raw):
    // nothing may follow them, and an s8 source's correction would not
    // be applied.
    if (int8 && dst_md_.data_type == dnnl_s32
            && (with_bias() || !attr_.post_ops.entries.empty()
                    || !attr_.scales.empty() || !attr_.zero_points.empty()
                    || src_md_.data_type == dnnl_s8))
        return dnnl_unimplemented;
    panel = target->tile_nv * target->lanes();
    if (!layouts_ok()) return dnnl_unimplemented;

    cfg = jit::brgemm_config(*target, target->tile_m, panel);
    cfg.bias = with_bias();
    if (with_bias()) cfg.bias_dt = bias_md_.data_type;
    cfg.c_dt = dst_md_.data_type;
    if (int8) {
        if (!quant.init(attr_, 1,
                    with_bias() || !attr_.post_ops.entries.empty(),
                    src_md_.data_type == dnnl_s8))
            return dnnl_unimplemented;
        quant.exact_s8 = jit::brgemm_is_amx(target->isa);
        quant.configure(cfg);
        // A sum reads dst in its own type.
        for (const auto &e : attr_.post_ops.entries)
            if (e.kind == post_op_kind_t::sum
                    && e.sum_dt != dnnl_data_type_undef
                    && e.sum_dt != dst_md_.data_type)
                return dnnl_unimplemented;
    }
    if (!post_ops_ok() || !cfg.supported()) return dnnl_unimplemented;

    geo_t &g = geo;
    g = brgconv::geo_of(*this);
    const bool k1x1_no_pad = brgconv::is_1x1_no_pad(*this);
    flat = brgconv::flatten(g, *this);
    if (flat) {
        // One GEMM over the points of an image: a 1D problem.
        // A full binary operand must step evenly from point to point.
        for (auto &b : binaries) {
            if (b.bcast != jit::brgemm_bcast_t::full) continue;
            const memory_desc_t &dm = dst_md_;
            const int nd = ndims();
            const dim_t w = dm.dims[nd - 1], h = nd >= 4 ? dm.dims[nd - 2] : 1;
            if ((nd >= 4 && b.sh != w * b.sw) || (nd == 5 && b.sd != h * b.sh))
                return dnnl_unimplemented;
            b.sd = b.sh = 0;
        }
    }
    plan_work();
    name_ = std::string(k1x1_no_pad ? "brgconv_1x1:" : "brgconv:")
            + target->isa_name;
    return dnnl_success;
}

void brgemm_conv_fwd_t::pd_t::plan_work() {
    const geo_t &g = geo;
    nb_oc = div_up(g.oc, panel);
    // A panel's weights in blocks of at most 512 KiB (half of this
    // core's L2) of input channels; a sum must see the destination
    // before anything is added to it, so it keeps one block.
    const dim_t ksp = g.kd * g.kh * g.kw;
    const dim_t panel_bytes = ksp * g.ic * panel
                              * (dim_t)data_type_size(weights_md_.data_type);
    const dim_t budget = 512 * 1024;
    // (int8 and bf16: one block; blocks would need s32 / f32 partial sums
    // apart from dst.)
    nk = int8 || bf16 || attr_.post_ops.find(post_op_kind_t::sum) >= 0
                         || panel_bytes <= budget
                 ? 1
                 : std::min(g.ic, div_up(panel_bytes, budget));
    icb = nk > 1 ? div_up(g.ic, nk) : g.ic;
    if (nk > 1) nk = div_up(g.ic, icb);
    // Without dilation along w, the taps of a kernel row are adjacent in
    // the source and in the panel: one K range of kw * ic, unless the
    // panel pads each tap's channels to the kernel's k step (pairs,
    // quads), when every tap is a batch element of its own (its partial
    // last step reads only its channels).
    merge_kw = nk == 1 && g.dw == 1 && g.kw > 1 && g.ic % kgroup() == 0;
    merge_pairs = bf16 && nk == 1 && g.dw == 1 && g.kw > 1 && g.ic % 2 != 0;
    merged_rows = merge_pairs ? (g.kw * g.ic + 1) / 2 * 2 : 0;
    merged_elems = (size_t)(nb_oc * g.kd * g.kh * merged_rows * panel);
    if (merge_pairs) book_scratchpad(merged_elems * sizeof(uint16_t));

    // Runs of output columns with equal kernel columns in range (both
    // ends of the range fall as the column grows).
    auto range = [&](dim_t ow, dim_t &kw0, dim_t &kw1) {
        const dim_t lo_pos = g.pw - ow * g.sw; // kw * dw >= lo_pos
        const dim_t hi_pos = g.iw - 1 + g.pw - ow * g.sw; // kw * dw <= hi_pos
        kw0 = lo_pos <= 0 ? 0 : div_up(lo_pos, g.dw);
        kw1 = hi_pos < 0 ? 0 : floor_div(hi_pos, g.dw) + 1;
        kw0 = std::min(kw0, g.kw);
        kw1 = std::max(kw0, std::min(kw1, g.kw));
    };
    segs.clear();
    brgconv::cut_runs(
            g.ow,
            [&](dim_t ow) {
                dim_t kw0, kw1;
                range(ow, kw0, kw1);
                return std::make_pair(kw0, kw1);
            },
            [&](dim_t ow0, dim_t ow1, std::pair<dim_t, dim_t> k) {
                segs.push_back({ow0, ow1, k.first, k.second});
            });

    // Work units: (panel, row, column block); enough of them for every
    // thread to claim several.
    const int tm = target->tile_m;
    const dim_t rows = g.mb * g.od * g.oh;
    const dim_t ntiles = div_up(g.ow, tm);
    // Rows narrower than four tiles (7x7, 14x14) are cut only where the
    // rows and panels are fewer than the threads: cut, their border
    // columns can no longer run down the rows (col_segs below), and
    // every unit of a few points reads its weight panel again. 16-core
    // Xeon, ResNet-50 mb1: 3x3 on 7x7 of 512 channels 0.200-0.225 ->
    // 0.158-0.163 ms, on 14x14 of 256 0.166 -> 0.129.
    dim_t want = 4 * (dim_t)max_threads();
    if (g.ow < 4 * tm) want = max_threads();
    const dim_t have = nb_oc * rows;
    n_owb = have >= want ? 1 : std::min(ntiles, div_up(want, have));
    if (flat) n_owb = std::max(n_owb, std::min(ntiles, div_up(g.ow, 384)));
    ow_blk = std::max<dim_t>(1, div_up(ntiles, n_owb) * tm);
    n_owb = std::max<dim_t>(1, div_up(g.ow, ow_blk));

    // Columns of rows for the narrow border runs (see col_segs).
    col_segs.clear();
    oh_lo = oh_hi = 0;
    // Only narrow rows: there the borders are a large share (7 columns:
    // 2 of 7, 49% of the time as one-point calls; 14 columns: 9% less
    // time on one core); with 64-column tiles (AVX-512) at 56 the extra
    // units cost more than they save on two threads (1.00 -> 1.05 ms).
    // With 16-column tiles (ymm) a one-point call does two FMAs per
    // three loads, and up to 64 columns the columns pay (2 AVX2 cores,
    // 3x3 of 128 channels on 28 x 28: mb1 1.30 -> 1.17-1.20 ms, mb32
    // 44.1-44.9 -> 38.8-41.5; of 64 on 56 x 56: mb1 1.27 -> 1.22, mb8
    // 10.4 -> 9.8; 112 columns: no change).
    const dim_t narrow_cols = target->zmm ? 4 * tm : 64;
    if (!flat && n_owb == 1 && g.od == 1 && g.kd == 1 && g.id == 1 && g.oh > 2
            && g.ow < narrow_cols) {
        dim_t k0, k1;
        for (oh_lo = 0; oh_lo < g.oh; ++oh_lo) {
            brgconv::taps_in(oh_lo, g.sh, g.ph, g.dh, g.kh, g.ih, k0, k1);
            if (k0 == 0 && k1 == g.kh) break;
        }
        for (oh_hi = oh_lo; oh_hi < g.oh; ++oh_hi) {
            brgconv::taps_in(oh_hi, g.sh, g.ph, g.dh, g.kh, g.ih, k0, k1);
            if (!(k0 == 0 && k1 == g.kh)) break;
        }
        if (oh_hi - oh_lo >= 2)
            for (size_t i = 0; i < segs.size(); ++i) {
                const seg_t &sg = segs[i];
                if (sg.kw1 > sg.kw0 && sg.kw1 - sg.kw0 < g.kw
                        && sg.ow1 - sg.ow0 <= 2)
                    col_segs.push_back((int)i);
            }
    }

    // The tile heights calls use (all of them where counting would take
    // long).
    m_used.assign((size_t)tm + 1, false);
    if (col_mode()) brgconv::tile_split_t(oh_hi - oh_lo, tm).mark(m_used);
    if ((dim_t)segs.size() * n_owb > 4096) {
        m_used.assign((size_t)tm + 1, true);
        return;
    }
    for (dim_t b = 0; b < n_owb; ++b) {
        const dim_t c0 = b * ow_blk, c1 = std::min(g.ow, c0 + ow_blk);
        for (const seg_t &s : segs) {
            const dim_t a0 = std::max(s.ow0, c0), a1 = std::min(s.ow1, c1);
            if (a1 > a0) brgconv::tile_split_t(a1 - a0, tm).mark(m_used);
        }
    }
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
