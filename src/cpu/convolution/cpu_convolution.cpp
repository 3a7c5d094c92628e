// CPU convolution descriptors (checks, `any` resolution, plan) and the
// primitive that executes the plan.
#include "cpu/convolution/cpu_convolution.hpp"

#include <cstdint>

#include "oneapi/dnnl/dnnl_debug.h"

#include "common/exec_ctx.hpp"
#include "common/verbose.hpp"
#include "cpu/convolution/brgemm_conv.hpp"
#include "cpu/convolution/brgemm_conv_bwd.hpp"
#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_fused_dw.hpp"
#include "cpu/convolution/conv_kernels.hpp"
#include "cpu/convolution/conv_layout.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/gemm/gemm.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"
#include "cpu/kernel_name.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

namespace conv {
layout_t choose_layout(
        const memory_desc_t &a, const memory_desc_t &b, layout_t dflt)
{
    for (const memory_desc_t *md : {&a, &b}) {
        if (md->format_kind != dnnl_blocked) continue;
        if (md_is_tag(*md, act_tag(layout_t::ncsp, md->ndims)))
            return layout_t::ncsp;
        if (md_is_tag(*md, act_tag(layout_t::nspc, md->ndims)))
            return layout_t::nspc;
    }
    return dflt;
}

status_t resolve_any(memory_desc_t &md, format_tag_t tag)
{
    if (md.ndims == 0 || md.format_kind != dnnl_format_kind_any)
        return dnnl_success;
    return md_set_format_by_tag(md, tag);
}

status_t resolve_bias(memory_desc_t &md, const char *what)
{
    DNNL_CHECK(resolve_any(md, dnnl_a));
    if (md.ndims == 0) return dnnl_success;
    // The epilogues read bias[c] from the handle: a strided vector (a
    // zero stride included) or one with an offset would be read wrong, or
    // past the end of a buffer of its reported size.
    const blocking_desc_t &b = md.format_desc.blocking;
    if (md.format_kind != dnnl_blocked || b.inner_nblks != 0 || md.offset0 != 0
            || (md.dims[0] > 1 && b.strides[0] != 1)) {
        verbose_check(what, "bias must be a contiguous vector without offset");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}
} // namespace conv

namespace {
bool is_fp(data_type_t dt)
{
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
bool is_i8(data_type_t dt) { return dt == dnnl_u8 || dt == dnnl_s8; }
bool is_out_dt(data_type_t dt)
{
    return is_fp(dt) || is_i8(dt) || dt == dnnl_s32;
}
} // namespace

status_t cpu_convolution_pd_t::init(engine_t *engine)
{
    using namespace conv;
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    const convolution_desc_t &d = *desc();
    if (d.alg_kind == dnnl_convolution_winograd) return dnnl_unimplemented;

    const data_type_t sdt = src_md_.data_type, wdt = weights_md_.data_type;
    const data_type_t ddt = dst_md_.data_type;
    const data_type_t bdt = with_bias() ? bias_md_.data_type : dnnl_f32;
    bool ok = false;
    if (is_fwd()) {
        if (is_fp(sdt))
            ok = wdt == sdt && (ddt == dnnl_f32 || ddt == sdt)
                    && (bdt == dnnl_f32 || bdt == sdt);
        else if (is_i8(sdt))
            ok = wdt == dnnl_s8 && is_out_dt(ddt) && is_out_dt(bdt);
    } else if (is_bwd_d()) {
        ok = is_fp(ddt) && wdt == ddt && (sdt == dnnl_f32 || sdt == ddt);
    } else {
        ok = is_fp(sdt) && ddt == sdt && (wdt == dnnl_f32 || wdt == sdt)
                && (bdt == dnnl_f32 || bdt == sdt);
    }
    if (!ok) return dnnl_unimplemented;
    if (!is_fwd() || !is_i8(sdt))
        if (!attr_.scales.empty() || !attr_.zero_points.empty())
            return dnnl_unimplemented;
    if (attr_.zero_points.has(DNNL_ARG_WEIGHTS)) {
        verbose_check("convolution", "cpu: weights zero points not supported");
        return dnnl_unimplemented;
    }
    if (!is_fwd() && !attr_.post_ops.entries.empty())
        return dnnl_unimplemented;

    if (!spatial_params_in_range(*desc(), ndims(), with_groups(), src_md_,
                dst_md_, weights_md_)) {
        verbose_error("convolution", "strides, dilations, paddings or spatial sizes "
                "beyond 2^31 are not supported");
        return dnnl_unimplemented;
    }

    const conv_conf_t c = conf_from_pd(*this);
    if (depthwise_ && !c.is_depthwise()) return dnnl_unimplemented;

    const int nd = ndims();
    // Channels-first runs fastest through the implicit GEMM; depthwise
    // vectorises best over channels; int8 feeds the u8 x s8 GEMM with the
    // activations as A (no shift compensation) and keeps the per-channel
    // epilogue contiguous with channels last.
    const layout_t layout = depthwise_ && !is_fwd()
            ? layout_t::nspc
            : choose_layout(src_md_, dst_md_,
                    depthwise_ || (is_fwd() && is_i8(sdt)) ? layout_t::nspc
                                                           : layout_t::ncsp);
    DNNL_CHECK(resolve_any(src_md_, act_tag(layout, nd)));
    DNNL_CHECK(resolve_any(dst_md_, act_tag(layout, nd)));
    if (weights_md_.format_kind == dnnl_format_kind_any) {
        if (is_fwd() && !depthwise_ && is_fp(sdt))
            // The implicit GEMM reads this layout without packing.
            DNNL_CHECK(igemm_wei_md(weights_md_, weights_md_, layout,
                    with_groups(), gemm::select_f32_ukernel().mr));
        else
            DNNL_CHECK(resolve_any(weights_md_,
                    depthwise_ ? dw_wei_tag(layout, nd)
                               : wei_tag(layout, nd, with_groups())));
    }
    DNNL_CHECK(resolve_bias(bias_md_, "convolution"));

    conv_plan_t &p = plan_;
    p.kind = is_fwd() ? conv_kind_t::fwd
            : is_bwd_d() ? conv_kind_t::bwd_d
                         : conv_kind_t::bwd_w;
    p.c = c;
    p.layout = layout;
    p.depthwise_direct = depthwise_;
    p.src_md = src_md_;
    p.wei_md = weights_md_;
    p.bias_md = bias_md_;
    p.dst_md = dst_md_;
    p.with_bias = with_bias();
    p.bias_from_src = false;
    if (is_fwd())
        DNNL_CHECK(p.epi.init(attr_, dst_md_, with_bias(), bdt));
    else if (is_bwd_d())
        DNNL_CHECK(p.epi.init(attr_, src_md_, false, dnnl_f32));
    const quant_entry_t *zp = attr_.zero_points.get(DNNL_ARG_SRC);
    DNNL_CHECK(plan_finalize(p, zp != nullptr, zp && zp->mask != 0));
    if (p.depthwise_direct) {
        // Channels last: dw_points points by 16 channels at a time
        // (backward weights: 4 points reduced per 16 channels); channels
        // first: output rows of one channel plane.
        const std::string tile = std::to_string(p.ker->dw_points) + "x16";
        const std::string op = is_bwd_d() ? "dwconv_bwd_d_" + tile
                : is_bwd_w()              ? std::string("dwconv_bwd_w_4x16")
                : p.layout == conv::layout_t::nspc ? "dwconv_" + tile
                                                   : std::string("dwconv_rows");
        name_ = "dw:direct:"
                + kernel_name(dnnl_dt2str(p.src_md.data_type), op.c_str(),
                        p.ker->isa);
    }
    else if (p.igemm)
        name_ = std::string("igemm:") + gemm::f32_kernel_name();
    else if (p.math == conv::math_t::s32)
        name_ = std::string("gemm:") + gemm::s32_kernel_name();
    else {
        // The GEMM's inputs: activations (or diff_dst) and weights (or
        // diff_dst for the weights gradient).
        const data_type_t a = is_bwd_d() ? p.dst_md.data_type
                                         : p.src_md.data_type;
        const data_type_t b = is_bwd_w() ? p.dst_md.data_type
                                         : p.wei_md.data_type;
        name_ = std::string("gemm:")
                + gemm::f32_kernel_name(a, b, attr_.fpmath_mode);
    }
    book_scratchpad(p.scratch.total);
    return dnnl_success;
}

status_t cpu_convolution_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const
{
    p = std::make_shared<cpu_convolution_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(cpu_convolution_t));
    return dnnl_success;
}

status_t cpu_convolution_t::execute(const exec_ctx_t &ctx) const
{
    using namespace conv;
    const cpu_convolution_pd_t *pd = pd_();
    const conv_plan_t &p = pd->plan();
    conv_io_t io;
    epilogue_args_t ea;
    switch (p.kind) {
        case conv_kind_t::fwd:
            io.src = ctx.host_ptr(DNNL_ARG_SRC);
            io.wei = ctx.host_ptr(DNNL_ARG_WEIGHTS);
            io.dst = ctx.host_ptr(DNNL_ARG_DST);
            DNNL_CHECK(ea.init(p.epi, ctx, DNNL_ARG_BIAS));
            break;
        case conv_kind_t::bwd_d:
            io.diff_src = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
            io.wei = ctx.host_ptr(DNNL_ARG_WEIGHTS);
            io.diff_dst = ctx.host_ptr(DNNL_ARG_DIFF_DST);
            DNNL_CHECK(ea.init(p.epi, ctx, DNNL_ARG_BIAS));
            break;
        case conv_kind_t::bwd_w:
            io.src = ctx.host_ptr(DNNL_ARG_SRC);
            io.diff_wei = ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS);
            io.diff_bias = ctx.host_ptr(DNNL_ARG_DIFF_BIAS);
            io.diff_dst = ctx.host_ptr(DNNL_ARG_DIFF_DST);
            if (p.with_bias && !io.diff_bias) return dnnl_invalid_arguments;
            break;
    }
    if (p.in_zp) {
        io.in_zp = ctx.input<int32_t>(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC);
        if (!io.in_zp) return dnnl_invalid_arguments;
    }
    if (p.scratch.total && !ctx.scratchpad()) return dnnl_invalid_arguments;
    return plan_execute(p, io, ea, ctx.scratchpad());
}

namespace {
// The BRGEMM convolutions first: they decline all but f32 channels-last
// problems (forward: with post-ops its kernel's epilogue runs; backward:
// without post-ops).
const impl_list_item_t conv_list[] = {
        {create_pd<brgemm_conv_fwd_t::pd_t, convolution_desc_t>},
        {create_pd<brgemm_conv_bwd_data_t::pd_t, convolution_desc_t>},
        {create_pd<brgemm_conv_bwd_weights_t::pd_t, convolution_desc_t>},
        {create_pd<conv_fused_dw_pd_t, convolution_desc_t>},
        {create_pd<cpu_convolution_pd_impl_t<true>, convolution_desc_t>},
        {create_pd<cpu_convolution_pd_impl_t<false>, convolution_desc_t>},
        {nullptr},
};
} // namespace

const impl_list_item_t *convolution_impl_list()
{
    return conv_list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
