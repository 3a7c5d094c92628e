// CPU deconvolution through the convolution driver (see the header for the
// role mapping).
#include "cpu/deconvolution/cpu_deconvolution.hpp"

#include "common/exec_ctx.hpp"
#include "common/verbose.hpp"
#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_layout.hpp"
#include "cpu/convolution/cpu_convolution.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

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

// The weights permutation between deconvolution and convolution views
// (its own inverse): swaps the two channel axes.
void channel_swap_perm(int ndims, bool groups, int *perm)
{
    for (int d = 0; d < max_ndims; ++d)
        perm[d] = d;
    const int o = groups ? 1 : 0;
    perm[o] = o + 1;
    perm[o + 1] = o;
    (void)ndims;
}
} // namespace

status_t cpu_deconvolution_pd_t::init(engine_t *engine)
{
    using namespace conv;
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    if (desc()->alg_kind != dnnl_deconvolution_direct)
        return dnnl_unimplemented;

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
    if (!is_fwd() && !attr_.post_ops.entries.empty())
        return dnnl_unimplemented;
    if (!spatial_params_in_range(*desc(), ndims(), with_groups(), src_md_,
                dst_md_, weights_md_)) {
        verbose_error("deconvolution", "strides, dilations, paddings or "
                "spatial sizes beyond 2^31 are not supported");
        return dnnl_unimplemented;
    }

    const int nd = ndims();
    const bool groups = with_groups();
    const layout_t layout
            = choose_layout(src_md_, dst_md_, layout_t::ncsp);
    DNNL_CHECK(resolve_any(src_md_, act_tag(layout, nd)));
    DNNL_CHECK(resolve_any(dst_md_, act_tag(layout, nd)));
    DNNL_CHECK(resolve_bias(bias_md_, "deconvolution"));
    int perm[max_ndims];
    channel_swap_perm(nd, groups, perm);
    memory_desc_t wei_conv;
    DNNL_CHECK(md_permute_axes(wei_conv, weights_md_, perm));
    if (wei_conv.format_kind == dnnl_format_kind_any) {
        DNNL_CHECK(resolve_any(wei_conv, wei_tag(layout, nd, groups)));
        DNNL_CHECK(md_permute_axes(weights_md_, wei_conv, perm));
    }

    // Geometry in convolution terms: the convolution's source is the
    // deconvolution's destination.
    conv_conf_t c;
    c.ndims = nd;
    c.mb = MB();
    c.g = G();
    c.icg = OC() / c.g;
    c.ocg = IC() / c.g;
    c.id = out_sp(0), c.ih = out_sp(1), c.iw = out_sp(2);
    c.od = in_sp(0), c.oh = in_sp(1), c.ow = in_sp(2);
    c.kd = ker_sp(0), c.kh = ker_sp(1), c.kw = ker_sp(2);
    c.sd = stride_sp(0), c.sh = stride_sp(1), c.sw = stride_sp(2);
    c.ddl = dilate_sp(0) + 1, c.dhl = dilate_sp(1) + 1;
    c.dwl = dilate_sp(2) + 1;
    c.pf = pad_l_sp(0), c.pt = pad_l_sp(1), c.pl = pad_l_sp(2);

    conv_plan_t &p = plan_;
    p.c = c;
    p.layout = layout;
    p.depthwise_direct = false;
    p.wei_md = wei_conv;
    p.bias_md = bias_md_;
    p.with_bias = with_bias();
    if (is_fwd()) {
        p.kind = conv_kind_t::bwd_d;
        p.src_md = dst_md_; // written
        p.dst_md = src_md_; // read
        DNNL_CHECK(p.epi.init(attr_, dst_md_, with_bias(), bdt));
    } else if (is_bwd_d()) {
        p.kind = conv_kind_t::fwd;
        p.src_md = dst_md_; // diff_dst, read
        p.dst_md = src_md_; // diff_src, written
        DNNL_CHECK(p.epi.init(attr_, src_md_, false, dnnl_f32));
    } else {
        p.kind = conv_kind_t::bwd_w;
        p.src_md = dst_md_; // diff_dst
        p.dst_md = src_md_; // src
        p.bias_from_src = true;
    }
    const quant_entry_t *zp = attr_.zero_points.get(DNNL_ARG_SRC);
    DNNL_CHECK(plan_finalize(p, zp != nullptr, zp && zp->mask != 0));
    book_scratchpad(p.scratch.total);
    return dnnl_success;
}

status_t cpu_deconvolution_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const
{
    p = std::make_shared<cpu_deconvolution_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(cpu_deconvolution_t));
    return dnnl_success;
}

status_t cpu_deconvolution_t::execute(const exec_ctx_t &ctx) const
{
    using namespace conv;
    const auto *pd = static_cast<const cpu_deconvolution_pd_t *>(this->pd());
    const conv_plan_t &p = pd->plan();
    conv_io_t io;
    epilogue_args_t ea;
    switch (p.kind) {
        case conv_kind_t::bwd_d: // deconvolution forward
            io.diff_src = ctx.host_ptr(DNNL_ARG_DST);
            io.wei = ctx.host_ptr(DNNL_ARG_WEIGHTS);
            io.diff_dst = ctx.host_ptr(DNNL_ARG_SRC);
            DNNL_CHECK(ea.init(p.epi, ctx, DNNL_ARG_BIAS));
            break;
        case conv_kind_t::fwd: // deconvolution backward data
            io.src = ctx.host_ptr(DNNL_ARG_DIFF_DST);
            io.wei = ctx.host_ptr(DNNL_ARG_WEIGHTS);
            io.dst = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
            DNNL_CHECK(ea.init(p.epi, ctx, DNNL_ARG_BIAS));
            break;
        case conv_kind_t::bwd_w:
            io.src = ctx.host_ptr(DNNL_ARG_DIFF_DST);
            io.diff_dst = ctx.host_ptr(DNNL_ARG_SRC);
            io.diff_wei = ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS);
            io.diff_bias = ctx.host_ptr(DNNL_ARG_DIFF_BIAS);
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
const impl_list_item_t deconv_list[] = {
        {create_pd<cpu_deconvolution_pd_t, deconvolution_desc_t>},
        {nullptr},
};
} // namespace

const impl_list_item_t *deconvolution_impl_list()
{
    return deconv_list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
