// Convolution + depthwise post-op through two nested primitives.
#include "cpu/convolution/conv_fused_dw.hpp"

#include "common/exec_ctx.hpp"
#include "common/memory.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

namespace {

// Post-op argument `arg` as (entry index, argument within the entry), or
// index -1 for an argument that is not a post-op's.
void split_post_op_arg(int arg, int &index, int &sub) {
    if (arg < DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE) {
        index = -1;
        sub = arg;
        return;
    }
    index = arg / DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE - 1;
    sub = arg % DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE;
}

// The layout the depthwise destination takes: the intermediate tensor's
// when it is a plain activation layout, else the implementation's choice.
format_tag_t dw_dst_tag(const memory_desc_t &inter) {
    for (format_tag_t t : {dnnl_nchw, dnnl_nhwc})
        if (md_matches_tag(inter, t)) return t;
    return dnnl_format_tag_any;
}

#define FUSED_CHECK(cond, status, msg) \
    do { \
        if (!(cond)) { \
            verbose_check("convolution", "fused:dw: %s", msg); \
            return status; \
        } \
    } while (0)
} // namespace

status_t conv_fused_dw_pd_t::init(engine_t *engine) {
    if (!is_fwd()) return dnnl_unimplemented;
    // On the gpu engine (listed by src/gpu/ocl/convolution) the nested
    // primitives are the gpu's; device buffers cannot be carved out of one
    // scratchpad like host memory, so the intermediate tensor and the
    // nested scratchpads get buffers of their own at execution.
    device_memory = engine->kind() != dnnl_cpu;
    FUSED_CHECK(!device_memory
                    || attr_.scratchpad_mode == dnnl_scratchpad_mode_library,
            dnnl_unimplemented, "user scratchpad on a device engine");
    const auto &po = attr_.post_ops.entries;
    for (size_t i = 0; i < po.size(); ++i)
        if (po[i].kind == post_op_kind_t::dw_conv) {
            FUSED_CHECK(dw_index < 0, dnnl_unimplemented,
                    "more than one depthwise post-op");
            dw_index = (int)i;
        }
    if (dw_index < 0) return dnnl_unimplemented;
    FUSED_CHECK(ndims() == 4 && !with_groups(), dnnl_unimplemented,
            "2D convolution without groups only");
    FUSED_CHECK(attr_.zero_points.empty(), dnnl_unimplemented,
            "zero points with a depthwise post-op");
    FUSED_CHECK(attr_.get_rounding(DNNL_ARG_DST) == dnnl_rounding_mode_environment,
            dnnl_unimplemented, "stochastic rounding with a depthwise post-op");
    // Scales of the base convolution (its dst scale quantizes the
    // intermediate tensor) and of the depthwise one (its weights and dst,
    // passed under DNNL_ARG_ATTR_POST_OP_DW).
    quant_map_t base_scales, dw_scales;
    for (const auto &it : attr_.scales.items) {
        if (it.arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS))
            dw_scales.set(DNNL_ARG_WEIGHTS, it.e);
        else if (it.arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_DST))
            dw_scales.set(DNNL_ARG_DST, it.e);
        else
            base_scales.set(it.arg, it.e);
    }
    const post_op_t &dw = po[dw_index];

    // The base convolution: this one, with the post-ops before the
    // depthwise entry.
    primitive_attr_t base_attr = attr_;
    base_attr.post_ops.entries.resize(dw_index);
    base_attr.scales = base_scales;
    DNNL_CHECK(create_nested_pd(base_pd, *desc(), base_attr, engine));
    const memory_desc_t inter = *base_pd->arg_md(DNNL_ARG_DST);

    // The depthwise convolution: k x k, stride s, left padding p; the
    // output is ceil(input / s) and the right padding follows from it.
    const dim_t mb = inter.dims[0], c = inter.dims[1];
    const dim_t ih = inter.dims[2], iw = inter.dims[3];
    const dim_t k = dw.dw_kernel, s = dw.dw_stride, p = dw.dw_padding;
    const dim_t oh = (ih + s - 1) / s, ow = (iw + s - 1) / s;
    const dims_t wei_dims = {c, 1, 1, k, k};
    const dims_t bias_dims = {c};
    const dims_t dst_dims = {mb, c, oh, ow};
    const dims_t strides = {s, s}, dilates = {0, 0}, pad_l = {p, p};
    const dims_t pad_r = {(oh - 1) * s - ih + k - p, (ow - 1) * s - iw + k - p};
    FUSED_CHECK(pad_r[0] >= 0 && pad_r[1] >= 0, dnnl_unimplemented,
            "depthwise stride larger than its kernel allows");
    memory_desc_t wei_md, bias_md, dst_md;
    DNNL_CHECK(md_init_by_tag(wei_md, 5, wei_dims, dw.dw_wei_dt, dnnl_format_tag_any));
    const bool with_dw_bias = dw.dw_bias_dt != dnnl_data_type_undef;
    if (with_dw_bias)
        DNNL_CHECK(md_init_by_tag(bias_md, 1, bias_dims, dw.dw_bias_dt, dnnl_a));
    DNNL_CHECK(md_init_by_tag(
            dst_md, 4, dst_dims, dw.dw_dst_dt, dw_dst_tag(inter)));
    convolution_desc_t dwd;
    DNNL_CHECK(conv_desc_init(dwd, dnnl_forward_inference,
            dnnl_convolution_direct, &inter, &wei_md,
            with_dw_bias ? &bias_md : nullptr, &dst_md, strides, dilates,
            pad_l, pad_r));
    primitive_attr_t dw_attr;
    dw_attr.post_ops.entries.assign(po.begin() + dw_index + 1, po.end());
    dw_attr.scales = dw_scales;
    dw_attr.fpmath_mode = attr_.fpmath_mode;
    dw_attr.fpmath_apply_to_int = attr_.fpmath_apply_to_int;
    DNNL_CHECK(create_nested_pd(dw_pd, dwd, dw_attr, engine));
    // Both must agree on how the intermediate tensor is laid out.
    FUSED_CHECK(md_equal(*dw_pd->arg_md(DNNL_ARG_SRC), inter),
            dnnl_unimplemented, "intermediate layouts differ");

    src_md_ = *base_pd->arg_md(DNNL_ARG_SRC);
    weights_md_ = *base_pd->arg_md(DNNL_ARG_WEIGHTS);
    bias_md_ = *base_pd->arg_md(DNNL_ARG_BIAS);
    dst_md_ = *dw_pd->arg_md(DNNL_ARG_DST);

    inter_offset = 0;
    base_scratch_offset = align64(md_size(inter));
    dw_scratch_offset
            = base_scratch_offset + align64(base_pd->scratchpad_size());
    if (!device_memory)
        book_scratchpad(dw_scratch_offset + dw_pd->scratchpad_size());
    return dnnl_success;
}

const memory_desc_t *conv_fused_dw_pd_t::arg_md(int arg) const {
    if (dw_pd) {
        // The intermediate tensor (not an argument; verbose prints it).
        if (arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_SRC))
            return dw_pd->arg_md(DNNL_ARG_SRC);
        if (arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS))
            return dw_pd->arg_md(DNNL_ARG_WEIGHTS);
        if (arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS))
            return dw_pd->arg_md(DNNL_ARG_BIAS);
    }
    return convolution_pd_t::arg_md(arg);
}

arg_usage_t conv_fused_dw_pd_t::arg_usage(int arg) const {
    if (dw_pd) {
        if (arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS))
            return arg_usage_t::input;
        if (arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS))
            return dw_pd->arg_usage(DNNL_ARG_BIAS);
    }
    return convolution_pd_t::arg_usage(arg);
}

status_t conv_fused_dw_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<conv_fused_dw_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(conv_fused_dw_t));
    return dnnl_success;
}

status_t conv_fused_dw_t::init(engine_t *engine) {
    const conv_fused_dw_pd_t *pd = pd_();
    DNNL_CHECK(pd->base_pd->create_primitive(base_, engine, nullptr, true));
    return pd->dw_pd->create_primitive(dw_, engine, nullptr, true);
}

status_t conv_fused_dw_t::create_resource(
        engine_t *engine, resource_mapper_t &mapper) const {
    DNNL_CHECK(base_->create_resource(engine, mapper));
    return dw_->create_resource(engine, mapper);
}

status_t conv_fused_dw_t::execute(const exec_ctx_t &ctx) const {
    const conv_fused_dw_pd_t *pd = pd_();
    char *scratch = static_cast<char *>(ctx.scratchpad());
    if (!scratch && !pd->device_memory) return dnnl_invalid_arguments;

    if (!ctx.host_ptr(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS)
            || (pd->arg_usage(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS)
                            == arg_usage_t::input
                    && !ctx.host_ptr(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS))) {
        verbose_error("convolution", "depthwise post-op weights or bias missing");
        return dnnl_invalid_arguments;
    }
    const memory_desc_t &inter_md = *pd->base_pd->arg_md(DNNL_ARG_DST);
    engine_t *engine = ctx.stream()->engine();
    std::unique_ptr<memory_storage_t> storage, base_scratch, dw_scratch;
    void *base_sp = nullptr, *dw_sp = nullptr;
    if (pd->device_memory) {
        // Released right after the launches: the runtime keeps a buffer
        // alive until the work using it is done (as for scratchpads).
        DNNL_CHECK(engine->create_memory_storage(
                storage, DNNL_MEMORY_ALLOCATE, md_size(inter_md)));
        auto alloc = [&](const primitive_desc_t &npd,
                             std::unique_ptr<memory_storage_t> &s, void *&sp) {
            if (npd.scratchpad_size() == 0) return dnnl_success;
            DNNL_CHECK(engine->create_memory_storage(
                    s, DNNL_MEMORY_ALLOCATE, npd.scratchpad_size()));
            sp = s->data_handle();
            return dnnl_success;
        };
        DNNL_CHECK(alloc(*pd->base_pd, base_scratch, base_sp));
        DNNL_CHECK(alloc(*pd->dw_pd, dw_scratch, dw_sp));
    } else {
        DNNL_CHECK(engine->create_memory_storage(
                storage, scratch + pd->inter_offset, md_size(inter_md)));
        base_sp = scratch + pd->base_scratch_offset;
        dw_sp = scratch + pd->dw_scratch_offset;
    }
    memory_t inter(engine, inter_md, std::move(storage));

    // Route the user's arguments: post-op arguments before the depthwise
    // entry keep their index, those after it are renumbered for the
    // depthwise convolution's own post-ops.
    std::vector<exec_arg_t> base_args {{DNNL_ARG_DST, &inter}};
    std::vector<exec_arg_t> dw_args {{DNNL_ARG_SRC, &inter}};
    for (const exec_arg_t &a : ctx.args()) {
        int index, sub;
        split_post_op_arg(a.arg, index, sub);
        if (a.arg == DNNL_ARG_DST)
            dw_args.push_back(a);
        else if (a.arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS))
            dw_args.push_back({DNNL_ARG_WEIGHTS, a.mem});
        else if (a.arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS))
            dw_args.push_back({DNNL_ARG_BIAS, a.mem});
        else if (a.arg
                == (DNNL_ARG_ATTR_SCALES | DNNL_ARG_ATTR_POST_OP_DW
                        | DNNL_ARG_WEIGHTS))
            dw_args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, a.mem});
        else if (a.arg
                == (DNNL_ARG_ATTR_SCALES | DNNL_ARG_ATTR_POST_OP_DW
                        | DNNL_ARG_DST))
            dw_args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, a.mem});
        else if (index > pd->dw_index)
            dw_args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(
                                       index - pd->dw_index - 1)
                            | sub,
                    a.mem});
        else if (a.arg != DNNL_ARG_SCRATCHPAD)
            base_args.push_back(a);
    }

    exec_ctx_t base_ctx(ctx.stream(), std::move(base_args));
    base_ctx.set_resources(ctx.resources());
    base_ctx.set_scratchpad(base_sp);
    DNNL_CHECK(base_->execute(base_ctx));

    exec_ctx_t dw_ctx(ctx.stream(), std::move(dw_args));
    dw_ctx.set_resources(ctx.resources());
    dw_ctx.set_scratchpad(dw_sp);
    return dw_->execute(dw_ctx);
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
