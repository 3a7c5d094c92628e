// Winograd F(2x2, 3x3) convolution on the gpu engine (wino_conv.hpp):
// which requests it takes, the table its kernels read, the two launches.
#include "gpu/ocl/convolution/wino_conv.hpp"

#include "common/layout_helpers.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

status_t refuse(const char *why) {
    verbose_check("convolution", "ocl:wino: %s", why);
    return dnnl_unimplemented;
}

bool fp_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_f16;
}

// `any` as nchw / oihw / x.
status_t resolve_any(memory_desc_t &md, format_tag_t tag) {
    if (md.format_kind != dnnl_format_kind_any) return dnnl_success;
    return md_set_format_by_tag(md, tag);
}

void put_strides(std::vector<int64_t> &c, const memory_desc_t &md, int n) {
    for (int d = 0; d < n; ++d)
        c.push_back(d < md.ndims ? md.format_desc.blocking.strides[d] : 0);
    c.push_back(md.offset0);
}

} // namespace

status_t ocl_wino_convolution_t::pd_t::init(engine_t *) {
    if (desc()->alg_kind != dnnl_convolution_winograd)
        return dnnl_unimplemented;
    if (!is_fwd()) return refuse("forward only");
    if (ndims() != 4 || with_groups()) return refuse("2D without groups");
    if (ker_sp(1) != 3 || ker_sp(2) != 3 || stride_sp(1) != 1
            || stride_sp(2) != 1 || dilate_sp(1) != 0 || dilate_sp(2) != 0)
        return refuse("3x3 kernels of unit stride without dilation");
    const data_type_t sdt = src_md_.data_type;
    if (!fp_dt(sdt) || weights_md_.data_type != sdt
            || !fp_dt(dst_md_.data_type)
            || (with_bias() && !fp_dt(bias_md_.data_type)))
        return refuse("f32 or f16 data");
    const primitive_attr_t &a = *attr();
    if (!a.scales.empty() || !a.zero_points.empty()
            || !a.rounding_modes.empty())
        return refuse("scales, zero points or rounding modes");
    DNNL_CHECK(resolve_any(src_md_, dnnl_nchw));
    DNNL_CHECK(resolve_any(dst_md_, dnnl_nchw));
    DNNL_CHECK(resolve_any(weights_md_, dnnl_oihw));
    if (with_bias()) DNNL_CHECK(resolve_any(bias_md_, dnnl_x));
    for (const memory_desc_t *md :
            {&src_md_, &weights_md_, &dst_md_, &bias_md_})
        if ((md != &bias_md_ || with_bias()) && !layout::is_plain(*md))
            return refuse("plain layouts only");
    DNNL_CHECK(post_ops.init(a.post_ops, dst_md_, "convolution"));

    const int64_t OH = out_sp(1), OW = out_sp(2);
    tiles = ((OH + 1) / 2) * ((OW + 1) / 2);
    // wino_conf (wino_conv.cl): N, IC, IH, IW, OC, OH, OW, pad top, pad
    // left, then per tensor (src, weights, dst) four strides and the
    // offset, and the bias's stride and offset.
    conf = {MB(), IC(), in_sp(1), in_sp(2), OC(), OH, OW, pad_l_sp(1),
            pad_l_sp(2)};
    put_strides(conf, src_md_, 4);
    put_strides(conf, weights_md_, 4);
    put_strides(conf, dst_md_, 4);
    put_strides(conf, bias_md_, 1);
    book_scratchpad((size_t)(OC() * IC() * 16) * sizeof(float));
    return dnnl_success;
}

status_t ocl_wino_convolution_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t o;
    define_data_type(o, "SRC", pd->data_src_md().data_type);
    define_data_type(o, "DST", pd->data_dst_md().data_type);
    define_data_type(o, "BIA",
            pd->with_bias() ? pd->data_bias_md().data_type : dnnl_f32);
    pd->post_ops.define(o);
    if (pd->post_ops.has_sum()) o.define("WITH_SUM");
    DNNL_CHECK(conf_.create(engine, pd->conf));
    std::vector<ocl_kernel_t> ks;
    DNNL_CHECK(create_kernels(engine, "convolution/wino_conv.cl", o,
            {"wino_weights", "wino_fwd"}, ks));
    weights_ = ks[0];
    conv_ = ks[1];
    return dnnl_success;
}

status_t ocl_wino_convolution_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->MB() * pd->OC() * pd->tiles == 0) return dnnl_success;
    const cl_mem src = mem_of(ctx, DNNL_ARG_SRC),
                 wei = mem_of(ctx, DNNL_ARG_WEIGHTS),
                 dst = mem_of(ctx, DNNL_ARG_DST),
                 bias = pd->with_bias() ? mem_of(ctx, DNNL_ARG_BIAS) : nullptr,
                 u = scratchpad_of(ctx);
    if (!dst || !wei || (pd->IC() > 0 && !src) || (pd->with_bias() && !bias)
            || !u) {
        verbose_error("convolution", "ocl:wino: a tensor has no gpu buffer");
        return dnnl_invalid_arguments;
    }
    kernel_args_t w;
    w.mem(wei).mem(u).mem(conf_.mem());
    DNNL_CHECK(weights_.enqueue(ctx,
            nd_range_t({(size_t)pd->IC(), (size_t)pd->OC()}), w));
    kernel_args_t a;
    a.mem(src).mem(u).mem(dst).mem(bias).mem(conf_.mem());
    pd->post_ops.set_args(a, ctx);
    return conv_.enqueue(ctx,
            nd_range_t({(size_t)pd->tiles, (size_t)pd->OC(),
                    (size_t)pd->MB()}),
            a);
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
