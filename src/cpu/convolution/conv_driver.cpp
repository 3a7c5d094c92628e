// Plan completion (layouts, arithmetic, work split, scratchpad) and
// execution: shadow copies in and out of the canonical layouts around the
// kernels.
#include "cpu/convolution/conv_driver.hpp"

#include <algorithm>
#include <cstring>


#include "cpu/convolution/conv_kernels.hpp"
#include "cpu/convolution/conv_layout.hpp"
#include "cpu/gemm/gemm.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {
constexpr size_t col_budget = 384 * 1024; // bytes of one im2col chunk

size_t bytes_of(const memory_desc_t &md)
{
    return (size_t)md_nelems(md) * data_type_size(md.data_type);
}

bool is_int8(data_type_t dt) { return dt == dnnl_u8 || dt == dnnl_s8; }

// Spatial chunk: an im2col buffer of about col_budget bytes, and enough
// work items for every thread.
dim_t pick_msp(const conv_conf_t &c, dim_t row_bytes, dim_t outer, int nthr,
        bool need_col)
{
    const dim_t osp = c.osp();
    dim_t msp = osp;
    if (need_col)
        msp = std::max<dim_t>(
                16, (dim_t)col_budget / std::max<dim_t>(1, row_bytes));
    msp = std::min(msp, osp);
    const dim_t want = (nthr + outer - 1) / std::max<dim_t>(1, outer);
    if (want > 1) {
        const dim_t per = (osp + want - 1) / want;
        msp = std::min(msp, std::max<dim_t>(1, per));
    }
    return std::max<dim_t>(1, msp);
}
// Whether the user's weights are a plain layout in which the reduction
// index of the kernel's order (ncsp: i, d, h, w; nspc: d, h, w, i) has a
// single stride (dims of one element skipped); fills (group, output
// channel, k) strides.
bool plain_wei_strides(const conv_plan_t &p, bool groups, dim_t *s)
{
    const memory_desc_t &md = p.wei_md;
    if (md.format_kind != dnnl_blocked
            || md.format_desc.blocking.inner_nblks != 0)
        return false;
    const dim_t *st = md.format_desc.blocking.strides;
    const int o = groups ? 1 : 0, i = o + 1, nd = md.ndims;
    int order[max_ndims], n = 0;
    if (p.layout == layout_t::ncsp) order[n++] = i;
    for (int d = i + 1; d < nd; ++d)
        order[n++] = d;
    if (p.layout == layout_t::nspc) order[n++] = i;
    // Dims of size 1 take no part: their strides are free (any value is
    // a valid descriptor), so neither the single stride nor the chain may
    // be read from them. The single stride is that of the innermost dim
    // of more than one element; every outer one of more than one element
    // must be that stride times the elements inside it.
    dim_t unit = 1, inside = 1;
    bool found = false;
    for (int k = n - 1; k >= 0; --k) {
        const dim_t d = md.dims[order[k]], sk = st[order[k]];
        if (d == 1) continue;
        if (!found) {
            unit = sk;
            found = true;
        } else {
            dim_t want = 0;
            if (__builtin_mul_overflow(unit, inside, &want) || sk != want)
                return false;
        }
        if (__builtin_mul_overflow(inside, d, &inside)) return false;
    }
    s[0] = groups ? st[0] : 0;
    s[1] = st[o];
    s[2] = unit;
    return true;
}
} // namespace

status_t plan_finalize(conv_plan_t &p, bool has_in_zp, bool in_zp_per_c)
{
    const conv_conf_t &c = p.c;
    p.nthr = std::max(1, max_threads());
    p.ker = &select_conv_kernels();
    // Small problems run on the calling thread: a parallel region costs
    // more than it saves below a few MFLOP.
    // The direct depthwise kernels run at a fraction of the GEMM's rate
    // per flop (memory-bound rows), so a team pays off ten times sooner
    // (MobileNet's 14x14x512 layer at mb1, 1.8 MFLOP: 44 us on one
    // thread).
    const double flops = 2.0 * c.mb * c.oc() * c.osp() * c.kgemm();
    if (flops < (p.depthwise_direct ? 2e5 : 2e6)) p.nthr = 1;
    const int nd = c.ndims;
    const bool groups = p.wei_md.ndims == nd + 1;
    const format_tag_t at = act_tag(p.layout, nd);
    // The direct depthwise backward kernels read and write f32 only:
    // bf16 / f16 tensors go through f32 copies.
    const bool f32_canon = p.depthwise_direct && p.kind != conv_kind_t::fwd;
    DNNL_CHECK(md_init_by_tag(p.src_canon, nd, p.src_md.dims,
            f32_canon ? dnnl_f32 : p.src_md.data_type, at));
    DNNL_CHECK(md_init_by_tag(p.dst_canon, nd, p.dst_md.dims,
            f32_canon ? dnnl_f32 : p.dst_md.data_type, at));
    p.src_shadow = !md_is_tag(p.src_md, at)
            || p.src_md.data_type != p.src_canon.data_type;
    p.dst_shadow = !md_is_tag(p.dst_md, at)
            || p.dst_md.data_type != p.dst_canon.data_type;
    p.in_zp = has_in_zp;
    p.in_zp_per_c = in_zp_per_c;

    const data_type_t in_dt = p.kind == conv_kind_t::bwd_d
            ? p.dst_md.data_type
            : p.src_md.data_type;
    const bool is_int = is_int8(in_dt);
    if (is_int && p.kind == conv_kind_t::bwd_w) return dnnl_unimplemented;
    p.math = !is_int ? math_t::f32
            : (has_in_zp && in_zp_per_c) ? math_t::shifted_f32
                                         : math_t::s32;
    p.shift_fallback = p.math == math_t::s32 && has_in_zp
            && p.kind == conv_kind_t::fwd && !c.is_pointwise()
            && !p.depthwise_direct;

    // Weights.
    p.igemm = p.kind == conv_kind_t::fwd && p.math == math_t::f32
            && !p.depthwise_direct;
    const data_type_t wdt = p.wei_md.data_type;
    const format_tag_t wt = p.depthwise_direct ? dw_wei_tag(p.layout, nd)
                                               : wei_tag(p.layout, nd, groups);
    const bool wmatch = md_is_tag(p.wei_md, wt);
    DNNL_CHECK(md_init_by_tag(
            p.wei_f32_md, p.wei_md.ndims, p.wei_md.dims, dnnl_f32, wt));
    if (p.igemm) {
        DNNL_CHECK(igemm_wei_md(p.wei_canon, p.wei_md, p.layout, groups,
                gemm::select_f32_ukernel().mr));
        p.wei_pack = false; // the kernel makes its own f32 panels
        using w_t = conv_plan_t::ig_wei_t;
        p.ig_wei = md_equal(p.wei_md, p.wei_canon)
                ? (wdt == dnnl_f32 ? w_t::direct : w_t::convert)
                : plain_wei_strides(p, groups, p.ig_s) ? w_t::pack_plain
                                                       : w_t::generic;
        p.wei_canon.data_type = dnnl_f32;
    } else if (p.kind == conv_kind_t::bwd_w || p.depthwise_direct
            || p.math == math_t::shifted_f32) {
        // f32 weights in the kernel's layout (used as they are).
        p.wei_canon = p.wei_f32_md;
        p.wei_pack = !(wmatch && wdt == dnnl_f32);
    } else {
        DNNL_CHECK(md_init_by_tag(
                p.wei_canon, p.wei_md.ndims, p.wei_md.dims, wdt, wt));
        p.wei_pack = !wmatch;
    }

    auto &sp = p.scratch;
    sp = scratch_plan_t();
    if (p.src_shadow)
        sp.add(scratch_plan_t::src_shadow, bytes_of(p.src_canon));
    if (p.dst_shadow)
        sp.add(scratch_plan_t::dst_shadow, bytes_of(p.dst_canon));
    if (p.wei_pack && p.kind != conv_kind_t::bwd_w)
        sp.add(scratch_plan_t::wei_pack, md_size(p.wei_canon));
    if (p.shift_fallback)
        sp.add(scratch_plan_t::wei_f32, bytes_of(p.wei_f32_md));

    // Empty problems only zero gradients (bwd_w) or do nothing.
    if (c.is_empty()) return dnnl_success;

    const int nthr = p.nthr;
    const dim_t K = c.kgemm();
    const bool shifted_possible
            = p.math == math_t::shifted_f32 || p.shift_fallback;
    const size_t in_esz = data_type_size(in_dt);
    const bool ncsp = p.layout == layout_t::ncsp;

    if (p.kind == conv_kind_t::fwd && p.depthwise_direct) {
        // Per thread: an f32 output row and f32 copies of the input rows
        // of one output row (nspc) or of an input plane (ncsp).
        const dim_t acc = ncsp ? c.ow : c.ow * c.g;
        const dim_t in = ncsp ? c.isp() : c.kd * c.kh * c.iw * c.g;
        sp.add(scratch_plan_t::acc, (size_t)nthr * acc * sizeof(float));
        sp.add(scratch_plan_t::col, (size_t)nthr * in * sizeof(float));
        return dnnl_success;
    }
    if (p.kind == conv_kind_t::bwd_d && p.depthwise_direct) return dnnl_success;
    if (p.kind == conv_kind_t::bwd_w && p.depthwise_direct) {
        // Per thread: [taps][G] weight and G bias partial sums.
        const dim_t wsz = c.ksp() * c.g;
        sp.add(scratch_plan_t::red, (size_t)nthr * (wsz + c.g) * 4);
        if (p.wei_pack) sp.add(scratch_plan_t::wei_acc, (size_t)wsz * 4);
        if (p.with_bias) sp.add(scratch_plan_t::bias_acc, (size_t)c.g * 4);
        return dnnl_success;
    }

    if (p.igemm) {
        const auto &uk = gemm::select_f32_ukernel();
        // K blocks whose B micro-panel (kc x NR floats) takes 32 KiB at
        // most, to stay in L1 next to the A panel.
        const dim_t kc_max = std::min<dim_t>(uk.kc, 8192 / uk.nr);
        const dim_t nkb = (K + kc_max - 1) / kc_max;
        p.ig_kc = (K + nkb - 1) / nkb;
        const dim_t NR = uk.nr, osp = c.osp();
        // B block of about 256 KiB, a whole number of panels.
        dim_t msp = std::max<dim_t>(NR, (256 * 1024 / (p.ig_kc * 4)) / NR * NR);
        // At least two items per thread when the problem allows.
        const dim_t outer = c.mb * c.g;
        const dim_t want = (2 * nthr + outer - 1) / outer;
        if (want > 1)
            msp = std::min(msp,
                    std::max<dim_t>(NR, ((osp + want - 1) / want + NR - 1) / NR * NR));
        p.msp = std::min(msp, osp);
        // f32 A panels unless the user's weights are them already.
        if (p.ig_wei != conv_plan_t::ig_wei_t::direct)
            sp.add(scratch_plan_t::wei_panels,
                    (size_t)md_nelems(p.wei_canon, true) * 4);
        sp.add(scratch_plan_t::col,
                (size_t)nthr * ((p.msp + NR - 1) / NR * NR) * p.ig_kc * 4);
        const bool out_direct
                = ncsp && p.epi.dst_dt == dnnl_f32 && !p.epi.has_sum();
        if (!out_direct)
            sp.add(scratch_plan_t::acc, (size_t)nthr * c.ocg * p.msp * 4);
        return dnnl_success;
    }

    if (p.kind == conv_kind_t::fwd) {
        const bool need_col = !c.is_pointwise() || shifted_possible;
        const size_t col_esz = shifted_possible ? 4 : in_esz;
        p.msp = pick_msp(c, K * col_esz, c.mb * c.g, nthr, need_col);
        if (need_col)
            sp.add(scratch_plan_t::col,
                    (size_t)nthr * p.msp * K * col_esz);
        sp.add(scratch_plan_t::acc, (size_t)nthr * p.msp * c.ocg * 4);
        const dim_t M = ncsp ? c.ocg : p.msp, N = ncsp ? p.msp : c.ocg;
        const size_t ws = std::max(
                gemm::gemm_workspace_size(M, N, K, p.math == math_t::s32,
                        false, 1),
                shifted_possible
                        ? gemm::gemm_workspace_size(M, N, K, false, false, 1)
                        : (size_t)0);
        sp.add(scratch_plan_t::gemm_ws, (size_t)nthr * ws);
        return dnnl_success;
    }

    if (p.kind == conv_kind_t::bwd_d) {
        const bool s32 = p.math == math_t::s32;
        if (p.math == math_t::shifted_f32)
            sp.add(scratch_plan_t::src_f32,
                    (size_t)nthr * c.osp() * c.ocg * sizeof(float));
        if (c.is_pointwise()) {
            p.msp = pick_msp(c, 0, c.mb * c.g, nthr, false);
            sp.add(scratch_plan_t::acc, (size_t)nthr * p.msp * c.icg * 4);
            const dim_t M = ncsp ? c.icg : p.msp, N = ncsp ? p.msp : c.icg;
            sp.add(scratch_plan_t::gemm_ws,
                    (size_t)nthr
                            * gemm::gemm_workspace_size(
                                    M, N, c.ocg, s32, false, 1));
            return dnnl_success;
        }
        p.msp = c.osp();
        p.bwd_d_serial_images = c.mb * c.g < nthr;
        const int copies = p.bwd_d_serial_images ? 1 : nthr;
        const dim_t M = ncsp ? K : c.osp(), N = ncsp ? c.osp() : K;
        sp.add(scratch_plan_t::col, (size_t)copies * c.osp() * K * 4);
        sp.add(scratch_plan_t::acc, (size_t)copies * c.isp() * c.icg * 4);
        sp.add(scratch_plan_t::gemm_ws,
                (size_t)copies
                        * gemm::gemm_workspace_size(M, N, c.ocg, s32,
                                p.bwd_d_serial_images, nthr));
        return dnnl_success;
    }

    // Backward weights.
    const bool need_col = !c.is_pointwise();
    p.msp = pick_msp(c, K * in_esz, c.mb, nthr, need_col);
    if (need_col)
        sp.add(scratch_plan_t::col, (size_t)nthr * p.msp * K * in_esz);
    const dim_t wsz = c.g * c.ocg * K;
    const dim_t nbias = p.bias_from_src ? c.ic() : c.oc();
    sp.add(scratch_plan_t::red, (size_t)nthr * (wsz + nbias) * sizeof(float));
    if (p.wei_pack) sp.add(scratch_plan_t::wei_acc, (size_t)wsz * 4);
    if (p.with_bias) sp.add(scratch_plan_t::bias_acc, (size_t)nbias * 4);
    const dim_t M = ncsp ? c.ocg : K, N = ncsp ? K : c.ocg;
    sp.add(scratch_plan_t::gemm_ws,
            (size_t)nthr * gemm::gemm_workspace_size(M, N, p.msp, false, false, 1));
    return dnnl_success;
}

status_t plan_execute(const conv_plan_t &p, const conv_io_t &io,
        const epilogue_args_t &ea, void *scratchpad)
{
    const conv_conf_t &c = p.c;
    const auto &sp = p.scratch;
    conv_canon_t t;
    t.in_zp = io.in_zp;

    if (p.kind == conv_kind_t::bwd_w) {
        if (c.is_empty()) {
            // Nothing to reduce: the gradients are zero.
            if (io.diff_wei) std::memset(io.diff_wei, 0, md_size(p.wei_md));
            if (p.with_bias && io.diff_bias)
                std::memset(io.diff_bias, 0, md_size(p.bias_md));
            return dnnl_success;
        }
        t.src = io.src;
        if (p.src_shadow) {
            void *s = sp.get<void>(scratchpad, scratch_plan_t::src_shadow);
            copy_tensor(p.src_md, io.src, p.src_canon, s);
            t.src = s;
        }
        t.diff_dst = io.diff_dst;
        if (p.dst_shadow) {
            void *s = sp.get<void>(scratchpad, scratch_plan_t::dst_shadow);
            copy_tensor(p.dst_md, io.diff_dst, p.dst_canon, s);
            t.diff_dst = s;
        }
        t.diff_wei = p.wei_pack
                ? sp.get<float>(scratchpad, scratch_plan_t::wei_acc)
                : static_cast<float *>(io.diff_wei);
        t.diff_bias = p.with_bias
                ? sp.get<float>(scratchpad, scratch_plan_t::bias_acc)
                : nullptr;
        if (p.depthwise_direct)
            conv_bwd_weights_depthwise(p, t, scratchpad);
        else
            conv_bwd_weights_gemm(p, t, scratchpad);
        if (p.wei_pack) copy_tensor(p.wei_canon, t.diff_wei, p.wei_md, io.diff_wei);
        if (p.with_bias) {
            memory_desc_t bmd;
            dims_t d = {p.bias_md.dims[0]};
            DNNL_CHECK(md_init_by_tag(bmd, 1, d, dnnl_f32, dnnl_a));
            copy_tensor(bmd, t.diff_bias, p.bias_md, io.diff_bias);
        }
        return dnnl_success;
    }

    if (c.is_empty()) return dnnl_success;

    // Weights in the kernel layout.
    t.wei = io.wei;
    if (p.wei_pack) {
        void *w = sp.get<void>(scratchpad, scratch_plan_t::wei_pack);
        copy_tensor(p.wei_md, io.wei, p.wei_canon, w);
        t.wei = w;
    }
    t.zp_shift = p.math == math_t::shifted_f32;
    if (p.shift_fallback && io.in_zp) {
        const int32_t z = io.in_zp[0];
        const data_type_t in_dt = p.src_md.data_type;
        const bool fits = in_dt == dnnl_u8 ? (z >= 0 && z <= 255)
                                           : (z >= -128 && z <= 127);
        if (!fits) {
            float *w = sp.get<float>(scratchpad, scratch_plan_t::wei_f32);
            copy_tensor(p.wei_md, io.wei, p.wei_f32_md, w);
            t.wei = w;
            t.zp_shift = true;
        }
    }

    if (p.kind == conv_kind_t::fwd) {
        t.src = io.src;
        if (p.src_shadow) {
            void *s = sp.get<void>(scratchpad, scratch_plan_t::src_shadow);
            copy_tensor(p.src_md, io.src, p.src_canon, s);
            t.src = s;
        }
        t.dst = io.dst;
        if (p.dst_shadow) {
            void *s = sp.get<void>(scratchpad, scratch_plan_t::dst_shadow);
            if (p.epi.has_sum()) copy_tensor(p.dst_md, io.dst, p.dst_canon, s);
            t.dst = s;
        }
        if (p.depthwise_direct)
            conv_fwd_depthwise(p, t, ea, scratchpad);
        else if (p.igemm)
            conv_fwd_igemm(p, t, ea, scratchpad);
        else
            conv_fwd_gemm(p, t, ea, scratchpad);
        if (p.dst_shadow) copy_tensor(p.dst_canon, t.dst, p.dst_md, io.dst);
        return dnnl_success;
    }

    // Backward data: the output is diff_src (src roles), the input diff_dst.
    t.diff_dst = io.diff_dst;
    if (p.dst_shadow) {
        void *s = sp.get<void>(scratchpad, scratch_plan_t::dst_shadow);
        copy_tensor(p.dst_md, io.diff_dst, p.dst_canon, s);
        t.diff_dst = s;
    }
    t.diff_src = io.diff_src;
    if (p.src_shadow) {
        void *s = sp.get<void>(scratchpad, scratch_plan_t::src_shadow);
        if (p.epi.has_sum())
            copy_tensor(p.src_md, io.diff_src, p.src_canon, s);
        t.diff_src = s;
    }
    if (p.depthwise_direct)
        conv_bwd_data_depthwise(p, t, scratchpad);
    else
        conv_bwd_data_gemm(p, t, ea, scratchpad);
    if (p.src_shadow)
        copy_tensor(p.src_canon, t.diff_src, p.src_md, io.diff_src);
    return dnnl_success;
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
