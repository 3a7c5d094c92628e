// Reduction on the gpu engine: checks, staging, kernels, launches and the
// implementation list.
#include "gpu/ocl/reduction/reduction.hpp"

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// The algorithm codes of reduction.cl.
int alg_code(alg_kind_t alg) {
    switch (alg) {
    case dnnl_reduction_max:
        return 0;
    case dnnl_reduction_min:
        return 1;
    case dnnl_reduction_sum:
        return 2;
    case dnnl_reduction_mul:
        return 3;
    case dnnl_reduction_mean:
        return 4;
    case dnnl_reduction_norm_lp_max:
        return 5;
    case dnnl_reduction_norm_lp_sum:
        return 6;
    case dnnl_reduction_norm_lp_power_p_max:
        return 7;
    default:
        return 8; // norm_lp_power_p_sum
    }
}

bool plain(const memory_desc_t &md) {
    return layout::is_plain(md) && !layout::has_padding(md);
}

} // namespace

status_t ocl_reduction_t::pd_t::init(engine_t *engine) {
    const primitive_attr_t &a = *attr();
    if (!a.scales.empty() || !a.zero_points.empty()
            || !a.rounding_modes.empty()) {
        verbose_check("reduction", "gpu: unsupported attributes");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    if (!kernel_converts(src_md()->data_type)
            || !kernel_converts(dst_md()->data_type)) {
        verbose_check("reduction", "gpu: data types not supported");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(post_ops.init(a.post_ops, *dst_md(), "reduction"));
    prev_dt = dst_md()->data_type;
    for (const auto &e : a.post_ops.entries) {
        if (e.kind == post_op_kind_t::sum && e.sum_dt != dnnl_data_type_undef)
            prev_dt = e.sum_dt;
        binary_po = binary_po || e.kind == post_op_kind_t::binary;
    }
    if (!kernel_converts(prev_dt)) {
        verbose_check("reduction", "gpu: sum data type not supported");
        return dnnl_unimplemented;
    }
    const memory_desc_t *mds[] = {src_md(), dst_md()};
    for (int k = 0; k < 2; ++k) {
        const bool native = plain(*mds[k]);
        if (!native && !layout_supported(*mds[k])) {
            verbose_check("reduction", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
        staging.add(k ? DNNL_ARG_DST : DNNL_ARG_SRC, *mds[k],
                k == 0 || post_ops.has_sum(), k == 1, native);
    }
    if (!build_red_plan(staging.kernel_md(0), staging.kernel_md(1), plan)) {
        verbose_check("reduction", "gpu: layout not supported");
        return dnnl_unimplemented;
    }
    const device_info_t &dev = device_info_of(engine);
    single_lane = single_lane_units(dev, plan.o * plan.i);
    const unit_geom_t g = plan_units(plan.units, plan.o, plan.i,
            plan.units_inner, single_lane, unit_group_limit(dev, 0), dev, true);
    chunks = g.chunks();
    if (chunks > 1)
        partial_off =
                staging.reserve((size_t)(chunks * plan.units) * sizeof(float));
    book_scratchpad(staging.scratch_bytes());
    return dnnl_success;
}

status_t ocl_reduction_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const device_info_t &dev = device_info_of(engine);
    kernel_options_t opts;
    define_unit_geom(opts, pd->plan.units_inner, pd->single_lane, dev);
    define_data_type(opts, "SRC", pd->src_md()->data_type);
    define_data_type(opts, "DST", pd->dst_md()->data_type);
    define_data_type(opts, "PREV", pd->prev_dt);
    opts.define("WITH_SUM", pd->post_ops.has_sum() ? 1 : 0);
    opts.define("BINARY_PO", pd->binary_po ? 1 : 0);
    pd->post_ops.define(opts);
    std::vector<ocl_kernel_t> ks;
    DNNL_CHECK(create_kernels(engine, "reduction/reduction.cl", opts,
            {"reduction_main", "reduction_final"}, ks));
    main_ = ks[0];
    final_ = ks[1];
    geom_ = plan_units(pd->plan.units, pd->plan.o, pd->plan.i,
            pd->plan.units_inner, pd->single_lane,
            unit_group_limit(dev, main_.max_wg_size()), dev, true, pd->chunks);
    return staging_.init(engine, pd->staging);
}

status_t ocl_reduction_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->plan.units == 0) return dnnl_success;
    const staging_t &st = pd->staging;
    const tensor_buf_t src = st.buffer(ctx, 0), dst = st.buffer(ctx, 1);
    // An empty source may come without a buffer (it is never read).
    if ((!src.mem && pd->plan.o * pd->plan.i > 0) || !dst.mem) {
        verbose_error("reduction", "src or dst has no gpu buffer");
        return dnnl_invalid_arguments;
    }
    const cl_mem scratch = scratchpad_of(ctx);
    const int64_t poff = (int64_t)(pd->partial_off / sizeof(float));
    const int alg = alg_code(pd->alg());
    const dims6_t dims = make_dims6(*pd->dst_md());
    DNNL_CHECK(staging_.gather(ctx, st));
    kernel_args_t a;
    a.mem(src.mem).i64(src.off0).mem(dst.mem).i64(dst.off0);
    a.value(pd->plan.parts).value(dims).value(geom_.sp).i32(alg);
    a.f32(pd->p()).f32(pd->eps()).mem(scratch).i64(poff);
    a.local(geom_.local_bytes(1));
    pd->post_ops.set_args(a, ctx);
    DNNL_CHECK(main_.enqueue(ctx, geom_.range(), a));
    if (geom_.chunks() > 1) {
        kernel_args_t f;
        f.mem(dst.mem).i64(dst.off0).value(pd->plan.parts).value(dims);
        f.value(geom_.sp).i32(alg).f32(pd->p()).f32(pd->eps());
        f.mem(scratch).i64(poff).i64(geom_.chunks());
        pd->post_ops.set_args(f, ctx);
        DNNL_CHECK(final_.enqueue(
                ctx, nd_range_t({(size_t)pd->plan.units}, {64}), f));
    }
    return staging_.scatter(ctx, st);
}

const impl_list_item_t *reduction_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_reduction_t::pd_t, reduction_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
