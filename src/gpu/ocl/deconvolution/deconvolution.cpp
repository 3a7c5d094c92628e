// Deconvolution on the gpu engine: checks, `any` resolution, the
// convolution pass it is, and the argument mapping at execution.
#include "gpu/ocl/deconvolution/deconvolution.hpp"

#include "common/verbose.hpp"
#include "gpu/ocl/convolution/conv_layout.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
// Swaps the two channel axes of (g,) oc, ic, spatial weights (its own
// inverse): deconvolution order <-> convolution order.
status_t swap_channels(
        memory_desc_t &out, const memory_desc_t &in, bool with_groups) {
    int perm[max_ndims];
    for (int d = 0; d < max_ndims; ++d) perm[d] = d;
    const int o = with_groups ? 1 : 0;
    perm[o] = o + 1;
    perm[o + 1] = o;
    return md_permute_axes(out, in, perm);
}
} // namespace

status_t ocl_deconvolution_t::pd_t::init(engine_t *engine) {
    if (desc()->alg_kind != dnnl_deconvolution_direct) {
        verbose_check("deconvolution", "gpu: winograd is not implemented");
        return dnnl_unimplemented;
    }
    const data_type_t bdt = with_bias() ? bias_md_.data_type : dnnl_f32;
    if (!conv_types_supported(is_fwd(), is_bwd_d(), src_md_.data_type,
                weights_md_.data_type, dst_md_.data_type, bdt)) {
        verbose_check("deconvolution", "gpu: data type combination");
        return dnnl_unimplemented;
    }
    if (!conv_geom_fits(*this)) {
        verbose_check("deconvolution", "gpu: sizes beyond 32-bit indexing");
        return dnnl_unimplemented;
    }
    const bool cl = conv_channels_last(src_md_, dst_md_);
    DNNL_CHECK(conv_resolve_act(src_md_, cl));
    DNNL_CHECK(conv_resolve_act(dst_md_, cl));
    DNNL_CHECK(conv_resolve_bias(bias_md_));
    memory_desc_t wei_conv;
    DNNL_CHECK(swap_channels(wei_conv, weights_md_, with_groups()));
    if (wei_conv.format_kind == dnnl_format_kind_any) {
        DNNL_CHECK(conv_resolve_wei(wei_conv, cl, with_groups()));
        DNNL_CHECK(swap_channels(weights_md_, wei_conv, with_groups()));
    }

    conv_problem_t p;
    p.role = is_fwd()     ? conv_role_t::bwd_d
             : is_bwd_d() ? conv_role_t::fwd
                          : conv_role_t::bwd_w;
    p.geom = make_conv_geom(*this, true);
    p.ndims = ndims();
    p.with_groups = with_groups();
    // The convolution's source is the deconvolution's destination.
    p.src = dst_md_;
    p.dst = src_md_;
    p.wei = wei_conv;
    p.bias = bias_md_;
    p.with_bias = with_bias();
    p.bias_from_src = is_bwd_w();
    DNNL_CHECK(conf.init(p, *attr(), engine, "deconvolution"));
    if (conf.ws_in_scratchpad) book_scratchpad(conf.ws_bytes);
    return dnnl_success;
}

status_t ocl_deconvolution_t::init(engine_t *engine) {
    return gemm_.init(engine, pd_()->conf);
}

status_t ocl_deconvolution_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const bool fwd = pd->is_fwd();
    conv_mems_t m;
    // The convolution's source is the deconvolution's destination (diff_dst
    // for backward passes), its destination the deconvolution's source.
    m.src = mem_of(ctx, fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST);
    m.dst = mem_of(ctx, pd->is_bwd_d() ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC);
    m.wei = mem_of(
            ctx, pd->is_bwd_w() ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS);
    m.bias = mem_of(ctx, pd->is_bwd_w() ? DNNL_ARG_DIFF_BIAS : DNNL_ARG_BIAS);
    return gemm_.execute(ctx, pd->conf, m);
}

const impl_list_item_t *deconvolution_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_deconvolution_t::pd_t, deconvolution_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
