// Eltwise on the gpu engine: checks, kernel specialisation and launch.
#include "gpu/ocl/eltwise/eltwise.hpp"

#include <algorithm>

#include "common/math/eltwise_math.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

using namespace eltwise_md_utils;

status_t ocl_eltwise_t::pd_t::init(engine_t *engine) {
    const primitive_attr_t &a = *attr();
    if (!a.scales.empty() || !a.zero_points.empty()
            || !a.rounding_modes.empty())
        return dnnl_unimplemented;
    for (const auto &e : a.post_ops.entries)
        if (!is_fwd() || e.kind != post_op_kind_t::binary)
            return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    const memory_desc_t *mds[] = {is_fwd() ? src_md() : data_md(),
            is_fwd() ? dst_md() : diff_dst_md(),
            is_fwd() ? dst_md() : diff_src_md()};
    for (const memory_desc_t *md : mds) {
        if (md->format_kind != dnnl_blocked
                || md_has_runtime_dims_or_strides(*md)
                || !(kernel_converts(md->data_type)
                        || md->data_type == dnnl_f64)) {
            verbose_check("eltwise", "gpu: layout or data type not supported");
            return dnnl_unimplemented;
        }
        if (!is_fwd()
                && (md->data_type == dnnl_s8 || md->data_type == dnnl_u8
                        || md->data_type == dnnl_s32)) {
            verbose_check("eltwise", "gpu: backward of integer data");
            return dnnl_unimplemented;
        }
    }
    if (!f64_supported(engine, "eltwise", {mds[0], mds[1], mds[2]}))
        return dnnl_unimplemented;
    const bool f64 = any_f64({mds[0], mds[1], mds[2]});
    if (f64 && !a.post_ops.entries.empty()) {
        verbose_check("eltwise", "gpu: post-ops with f64 data");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(post_ops.init(a.post_ops, *dst_md(), "eltwise"));
    const bool zero_safe = is_fwd()
            ? math::eltwise_fwd(alg(), 0.f, alpha(), beta()) == 0.f
            : math::eltwise_bwd(alg(), 0.f, 0.f, alpha(), beta()) == 0.f;
    dense = same_layout(*mds[0], *mds[1]) && same_layout(*mds[0], *mds[2])
            && is_dense_padded(*mds[0]) && a.post_ops.entries.empty()
            && (!has_padding(*mds[0]) || zero_safe);
    // The dense kernels index linearly, whatever the number of dims; the
    // others address each tensor through its layout_t, beyond its dims
    // through the tensors' fold.
    memory_desc_t *kmds[3];
    for (int i = 0; i < 3; ++i) {
        kernel_md[i] = *mds[i];
        kmds[i] = &kernel_md[i];
    }
    if (!dense && kernel_md[0].ndims > layout_max_ndims
            && !fold_to_layout_dims(kmds, 3)) {
        verbose_check("eltwise",
                "gpu: layouts that differ over more than %d dims that do "
                "not merge into fewer",
                layout_max_ndims);
        return dnnl_unimplemented;
    }
    for (int i = 0; i < 3; ++i)
        if (!dense && !layout_supported(kernel_md[i])) {
            verbose_check("eltwise",
                    "gpu: layouts that differ, with more than %d inner "
                    "blocks",
                    layout_max_blks);
            return dnnl_unimplemented;
        }
    // Both paths cover the output's padded volume; the dense forward path
    // moves up to 16 bytes of the wider type a work-item (at least 4
    // elements) when both tensors start aligned to that.
    work = has_zero_dim() ? 0 : md_nelems(*mds[2], true);
    vec = 1;
    if (dense && is_fwd() && !f64) {
        const size_t wide = std::max(data_type_size(mds[0]->data_type),
                data_type_size(mds[2]->data_type));
        for (int v = (int)std::max<size_t>(16 / wide, 4); v >= 4 && vec == 1;
                v /= 2)
            if (mds[0]->offset0 % v == 0 && mds[2]->offset0 % v == 0) vec = v;
    }
    return dnnl_success;
}

status_t ocl_eltwise_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    opts.define("DENSE", pd->dense ? 1 : 0);
    opts.define("VEC", pd->vec);
    opts.define("ALG", (int64_t)pd->alg());
    opts.define("IS_FWD", pd->is_fwd() ? 1 : 0);
    if (pd->is_fwd()) {
        define_data_type(opts, "SRC", pd->src_md()->data_type);
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        pd->post_ops.define(opts);
    } else {
        define_data_type(opts, "DATA", pd->data_md()->data_type);
        define_data_type(opts, "DIFF_DST", pd->diff_dst_md()->data_type);
        define_data_type(opts, "DIFF_SRC", pd->diff_src_md()->data_type);
    }
    return create_kernel(engine, "eltwise/eltwise.cl", opts,
            pd->is_fwd() ? "eltwise_fwd_kernel" : "eltwise_bwd_kernel", kernel_);
}

status_t ocl_eltwise_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->work == 0) return dnnl_success;
    // The dense kernels read only the offsets.
    auto layout_of = [pd](int i) {
        const memory_desc_t &md = pd->kernel_md[i];
        if (!pd->dense) return make_layout(md);
        layout_t l = {};
        l.offset0 = md.offset0;
        return l;
    };
    kernel_args_t args;
    if (pd->is_fwd()) {
        args.mem(mem_of(ctx, DNNL_ARG_SRC))
                .mem(mem_of(ctx, DNNL_ARG_DST))
                .i64(pd->work)
                .value(layout_of(0))
                .value(layout_of(1))
                .f32(pd->alpha())
                .f32(pd->beta());
        pd->post_ops.set_args(args, ctx);
    } else {
        args.mem(mem_of(ctx, pd->data_arg()))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_DST))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_SRC))
                .i64(pd->work)
                .value(layout_of(0))
                .value(layout_of(1))
                .value(layout_of(2))
                .f32(pd->alpha())
                .f32(pd->beta());
    }
    const size_t lws = 256;
    const size_t items = (size_t)((pd->work + pd->vec - 1) / pd->vec);
    return kernel_.enqueue(ctx, nd_range_t({items}, {lws}), args);
}

const impl_list_item_t *eltwise_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_eltwise_t::pd_t, eltwise_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
