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

dim_t div_up(dim_t a, dim_t b) {
    return (a + b - 1) / b;
}

// Floor division for any sign of a (b > 0).
dim_t floor_div(dim_t a, dim_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

} // namespace

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
    using namespace conv;
    const int nd = ndims();
    if (choose_layout(src_md_, dst_md_, layout_t::nspc) != layout_t::nspc)
        return false;
    if (resolve_any(src_md_, act_tag(layout_t::nspc, nd)) != dnnl_success
            || resolve_any(dst_md_, act_tag(layout_t::nspc, nd))
                       != dnnl_success)
        return false;
    if (!md_is_tag(src_md_, act_tag(layout_t::nspc, nd))
            || !md_is_tag(dst_md_, act_tag(layout_t::nspc, nd)))
        return false;
    memory_desc_t want;
    if (igemm_wei_md(want, weights_md_, layout_t::nspc, with_groups(), panel)
            != dnnl_success)
        return false;
    if (weights_md_.format_kind == dnnl_format_kind_any) {
        weights_md_ = want;
    } else {
        want.offset0 = weights_md_.offset0;
        if (!md_equal(want, weights_md_)) return false;
    }
    return resolve_bias(bias_md_, "convolution") == dnnl_success;
}

status_t brgemm_conv_fwd_t::pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu || !is_fwd()) return dnnl_unimplemented;
    const convolution_desc_t &d = *desc();
    if (d.alg_kind != dnnl_convolution_direct
            && d.alg_kind != dnnl_convolution_auto)
        return dnnl_unimplemented;
    if (src_md_.data_type != dnnl_f32 || weights_md_.data_type != dnnl_f32
            || dst_md_.data_type != dnnl_f32
            || (with_bias() && bias_md_.data_type != dnnl_f32))
        return dnnl_unimplemented;
    if (G() != 1) return dnnl_unimplemented;
    for (const memory_desc_t *md : {&src_md_, &weights_md_, &dst_md_, &bias_md_})
        if (md_has_runtime_dims_or_strides(*md)) return dnnl_unimplemented;
    if (!attr_.scales.empty() || !attr_.zero_points.empty()
            || attr_.fpmath_mode != dnnl_fpmath_mode_strict)
        return dnnl_unimplemented;
    for (const auto &r : attr_.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment)
            return dnnl_unimplemented;
    if (!spatial_params_in_range(d, ndims(), with_groups(), src_md_, dst_md_,
                weights_md_))
        return dnnl_unimplemented;
    target = jit::select_brgemm_target();
    if (!target) return dnnl_unimplemented;
    panel = target->tile_nv * target->lanes();
    if (!layouts_ok()) return dnnl_unimplemented;

    cfg = jit::brgemm_config(*target, target->tile_m, panel);
    cfg.bias = with_bias();
    if (!post_ops_ok() || !cfg.supported()) return dnnl_unimplemented;

    geo_t &g = geo;
    g.mb = MB(), g.ic = IC(), g.oc = OC();
    g.id = in_sp(0), g.ih = in_sp(1), g.iw = in_sp(2);
    g.od = out_sp(0), g.oh = out_sp(1), g.ow = out_sp(2);
    g.kd = ker_sp(0), g.kh = ker_sp(1), g.kw = ker_sp(2);
    g.sd = stride_sp(0), g.sh = stride_sp(1), g.sw = stride_sp(2);
    g.dd = dilate_sp(0) + 1, g.dh = dilate_sp(1) + 1, g.dw = dilate_sp(2) + 1;
    g.pd = pad_l_sp(0), g.ph = pad_l_sp(1), g.pw = pad_l_sp(2);
    const bool k1x1 = g.kd * g.kh * g.kw == 1;
    // (A right padding below 0 drops the last source columns: a 1x1
    // kernel of stride 2 over an even size has -1.)
    bool no_pad = true;
    for (int i = 0; i < 3; ++i)
        no_pad = no_pad && pad_l_sp(i) == 0 && pad_r_sp(i) <= 0;
    flat = k1x1 && no_pad && g.sd * g.sh * g.sw == 1 && g.od == g.id
           && g.oh == g.ih && g.ow == g.iw;
    if (flat) {
        // One GEMM over the points of an image: a 1D problem.
        g.ow = g.od * g.oh * g.ow;
        g.iw = g.ow;
        g.od = g.oh = g.id = g.ih = 1;
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
    name_ = std::string(k1x1 && no_pad ? "brgconv_1x1:" : "brgconv:")
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
    const dim_t panel_bytes = ksp * g.ic * panel * (dim_t)sizeof(float);
    const dim_t budget = 512 * 1024;
    nk = attr_.post_ops.find(post_op_kind_t::sum) >= 0 || panel_bytes <= budget
                 ? 1
                 : std::min(g.ic, div_up(panel_bytes, budget));
    icb = nk > 1 ? div_up(g.ic, nk) : g.ic;
    if (nk > 1) nk = div_up(g.ic, icb);
    // Without dilation along w, the taps of a kernel row are adjacent in
    // the source and in the panel: one K range of kw * ic.
    merge_kw = nk == 1 && g.dw == 1 && g.kw > 1;

    // Runs of output columns with equal kernel columns in range. Both
    // ends of the range fall as the column grows, so each run is found
    // by bisection (a few dozen runs at most even where the padding
    // makes the output billions of columns wide).
    auto range = [&](dim_t ow, dim_t &kw0, dim_t &kw1) {
        const dim_t lo_pos = g.pw - ow * g.sw; // kw * dw >= lo_pos
        const dim_t hi_pos = g.iw - 1 + g.pw - ow * g.sw; // kw * dw <= hi_pos
        kw0 = lo_pos <= 0 ? 0 : div_up(lo_pos, g.dw);
        kw1 = hi_pos < 0 ? 0 : floor_div(hi_pos, g.dw) + 1;
        kw0 = std::min(kw0, g.kw);
        kw1 = std::max(kw0, std::min(kw1, g.kw));
    };
    segs.clear();
    for (dim_t ow = 0; ow < g.ow;) {
        dim_t kw0, kw1, a, b;
        range(ow, kw0, kw1);
        dim_t lo = ow + 1, hi = g.ow; // the run ends in [lo, hi]
        while (lo < hi) {
            const dim_t mid = lo + (hi - lo) / 2;
            range(mid, a, b);
            if (a == kw0 && b == kw1)
                lo = mid + 1;
            else
                hi = mid;
        }
        segs.push_back({ow, lo, kw0, kw1});
        ow = lo;
    }

    // Work units: (panel, row, column block); enough of them for every
    // thread to claim several.
    const int tm = target->tile_m;
    const dim_t rows = g.mb * g.od * g.oh;
    const dim_t ntiles = div_up(g.ow, tm);
    const dim_t want = 4 * (dim_t)max_threads();
    const dim_t have = nb_oc * rows;
    n_owb = have >= want ? 1 : std::min(ntiles, div_up(want, have));
    if (flat) n_owb = std::max(n_owb, std::min(ntiles, div_up(g.ow, 384)));
    ow_blk = std::max<dim_t>(1, div_up(ntiles, n_owb) * tm);
    n_owb = std::max<dim_t>(1, div_up(g.ow, ow_blk));

    // The tile heights calls use (all of them where counting would take
    // long).
    for (auto &u : m_used) u = false;
    if ((dim_t)segs.size() * n_owb > 4096) {
        for (int m = 1; m <= tm; ++m) m_used[m] = true;
        return;
    }
    for (dim_t b = 0; b < n_owb; ++b) {
        const dim_t c0 = b * ow_blk, c1 = std::min(g.ow, c0 + ow_blk);
        for (const seg_t &s : segs) {
            const dim_t a0 = std::max(s.ow0, c0), a1 = std::min(s.ow1, c1);
            if (a1 <= a0) continue;
            if (a1 - a0 >= tm) m_used[tm] = true;
            if ((a1 - a0) % tm) m_used[(a1 - a0) % tm] = true;
        }
    }
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
