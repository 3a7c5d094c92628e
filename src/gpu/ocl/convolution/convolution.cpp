// Convolution on the gpu engine: checks, `any` resolution, the pass in
// convolution roles, and the argument mapping at execution.
#include "gpu/ocl/convolution/convolution.hpp"

#include "common/verbose.hpp"
#include "gpu/ocl/convolution/conv_layout.hpp"
#include "gpu/ocl/convolution/wino_conv.hpp"
#include "cpu/convolution/conv_fused_dw.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

status_t ocl_convolution_t::pd_t::init(engine_t *engine) {
    if (desc()->alg_kind == dnnl_convolution_winograd) {
        verbose_check("convolution",
                "gpu: winograd only as ocl:wino (3x3 forward, f32 / f16)");
        return dnnl_unimplemented;
    }
    const data_type_t bdt = with_bias() ? bias_md_.data_type : dnnl_f32;
    if (!conv_types_supported(is_fwd(), is_bwd_d(), src_md_.data_type,
                weights_md_.data_type, dst_md_.data_type, bdt)) {
        verbose_check("convolution", "gpu: data type combination");
        return dnnl_unimplemented;
    }
    if (!conv_geom_fits(*this)) {
        verbose_check("convolution", "gpu: sizes beyond 32-bit indexing");
        return dnnl_unimplemented;
    }
    const bool cl = conv_channels_last(src_md_, dst_md_);
    DNNL_CHECK(conv_resolve_act(src_md_, cl));
    DNNL_CHECK(conv_resolve_act(dst_md_, cl));
    DNNL_CHECK(conv_resolve_wei(weights_md_, cl, with_groups()));
    DNNL_CHECK(conv_resolve_bias(bias_md_));

    conv_problem_t p;
    p.role = is_fwd()     ? conv_role_t::fwd
             : is_bwd_d() ? conv_role_t::bwd_d
                          : conv_role_t::bwd_w;
    p.geom = make_conv_geom(*this, false);
    p.ndims = ndims();
    p.with_groups = with_groups();
    p.src = src_md_;
    p.wei = weights_md_;
    p.dst = dst_md_;
    p.bias = bias_md_;
    p.with_bias = with_bias();
    DNNL_CHECK(conf.init(p, *attr(), engine, "convolution"));
    if (conf.ws_in_scratchpad) book_scratchpad(conf.ws_bytes);
    return dnnl_success;
}

status_t ocl_convolution_t::init(engine_t *engine) {
    return gemm_.init(engine, pd_()->conf);
}

status_t ocl_convolution_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    conv_mems_t m;
    m.src = mem_of(ctx, pd->is_bwd_d() ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC);
    m.wei = mem_of(
            ctx, pd->is_bwd_w() ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS);
    m.dst = mem_of(ctx, pd->is_fwd() ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST);
    m.bias = mem_of(ctx, pd->is_bwd_w() ? DNNL_ARG_DIFF_BIAS : DNNL_ARG_BIAS);
    return gemm_.execute(ctx, pd->conf, m);
}

const impl_list_item_t *convolution_impl_list() {
    static const impl_list_item_t list[] = {
            // Winograd where it is asked for (the others refuse it).
            {create_pd<ocl_wino_convolution_t::pd_t, convolution_desc_t>},
            {create_pd<ocl_convolution_t::pd_t, convolution_desc_t>},
            // A depthwise post-op: two nested gpu convolutions, through the
            // engine-neutral implementation of the CPU side.
            {create_pd<cpu::conv_fused_dw_pd_t, convolution_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
