// Layer normalization on the gpu engine: checks, staging, kernels,
// launches and the implementation list.
#include "gpu/ocl/layer_normalization/lnorm.hpp"

#include <algorithm>

#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// f64 too: the kernels then compute in double (FLT_T, ocl_types.clh).
bool float_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16
            || dt == dnnl_f64;
}

enum { f_global = 1, f_save = 2, f_rms = 4 };

// The views the kernels take: data tensors as [rows, C], statistics as
// [rows].
bool data_view(const memory_desc_t &md, view3_t &v) {
    return make_view3(md, md.ndims - 1, md.ndims, v);
}
bool stat_view(const memory_desc_t &md, view3_t &v) {
    return make_view3(md, md.ndims, md.ndims, v);
}

data_type_t scale_dt(const layer_normalization_pd_t &pd, int arg) {
    const auto *e = pd.attr()->scales.get(arg);
    return e ? e->data_type : dnnl_f32;
}

} // namespace

status_t ocl_lnorm_t::pd_t::init(engine_t *engine) {
    const primitive_attr_t &a = *attr();
    const bool fwd = is_fwd();
    // The C API admits per-tensor src / dst scales of int8 data and
    // post-ops, forward only. Post-ops are the cpu engine's only, as in
    // oneDNN (its gpu engine refuses them, and its tests check that);
    // scales come from device memory.
    if (!a.post_ops.entries.empty()) {
        verbose_check("lnorm", "gpu: post-ops not supported");
        return dnnl_unimplemented;
    }
    for (const auto &it : a.scales.items)
        if (!kernel_supports(it.e.data_type) || it.e.is_on_host) {
            verbose_check("lnorm", "gpu: scales of this type or on the host");
            return dnnl_unimplemented;
        }
    // Forward reads and writes s8 / u8 too (through f32, rounded and
    // saturated), as oneDNN does.
    auto fwd_dt = [](data_type_t dt) {
        return float_dt(dt) || dt == dnnl_s8 || dt == dnnl_u8;
    };
    if ((fwd
                && (!fwd_dt(src_md()->data_type)
                        || !fwd_dt(dst_md()->data_type)))
            || (!fwd && !float_dt(src_md()->data_type))
            || (!fwd
                    && (!float_dt(diff_src_md()->data_type)
                            || !float_dt(diff_dst_md()->data_type)))) {
        verbose_check("lnorm", "gpu: data types not supported");
        return dnnl_unimplemented;
    }
    const std::initializer_list<const memory_desc_t *> data = {src_md(),
            fwd ? dst_md() : diff_dst_md(), fwd ? nullptr : diff_src_md()};
    if (!f64_supported(engine, "lnorm", data)) return dnnl_unimplemented;
    f64 = any_f64(data);
    if (f64 && !a.computes_as_default()) {
        verbose_check("lnorm", "gpu: f64 with attributes not supported");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    if (stat_md()->data_type != dnnl_f32) {
        verbose_check("lnorm", "gpu: statistics must be f32");
        return dnnl_unimplemented;
    }
    struct tensor_t {
        int arg;
        const memory_desc_t *md;
        bool out;
    };
    const tensor_t fwd_t[] = {
            {DNNL_ARG_SRC, src_md(), false}, {DNNL_ARG_DST, dst_md(), true}};
    const tensor_t bwd_t[] = {{DNNL_ARG_SRC, src_md(), false},
            {DNNL_ARG_DIFF_DST, diff_dst_md(), false},
            {DNNL_ARG_DIFF_SRC, diff_src_md(), true}};
    bool all_vec = true; // forward tensors native and read as vectors
    for (int k = 0; k < (fwd ? 2 : 3); ++k) {
        const tensor_t &t = fwd ? fwd_t[k] : bwd_t[k];
        view3_t v;
        const bool native = data_view(*t.md, v);
        all_vec =
                all_vec && native
                && rows_vectorizable(*t.md, v, t.md->dims[t.md->ndims - 1], 4);
        if (!native && !layout_supported(*t.md)) {
            verbose_check("lnorm", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
        staging.add(t.arg, *t.md, !t.out, t.out, native);
    }
    if (stats_in() || stats_out()) {
        view3_t v;
        const bool native = stat_view(*stat_md(), v);
        if (!native && !layout_supported(*stat_md())) {
            verbose_check("lnorm", "gpu: statistics layout not supported");
            return dnnl_unimplemented;
        }
        if (!rms())
            mean_k = staging.add(
                    DNNL_ARG_MEAN, *stat_md(), stats_in(), stats_out(), native);
        var_k = staging.add(
                DNNL_ARG_VARIANCE, *stat_md(), stats_in(), stats_out(), native);
    }
    const memory_desc_t &m0 = staging.kernel_md(0);
    rows = dims_product(m0, 0, m0.ndims - 1);
    c = m0.dims[m0.ndims - 1];
    view3_t v0;
    data_view(m0, v0);
    // Rows in neighbouring work-items only when they are adjacent and a
    // row's elements apart (a transposed layout).
    rows_inner = v0.s[0] == 1 && v0.s[1] != 1 && rows >= 16;
    const device_info_t &dev = device_info_of(engine);
    single_lane = single_lane_units(dev, c);
    // f64 reads scalars (the vector loads convert to float).
    vec = all_vec && !rows_inner && gpu_geometry(dev) && !f64 ? 4 : 1;
    const bool with_ss = with_diff_ss();
    if (fwd && vec > 1) {
        // Rows that fit the registers are read once (lnorm_fwd_rows);
        // longer ones stream twice (statistics, then dst).
        const unit_geom_t g = plan_units(rows, 1, c / vec, false, false,
                unit_group_limit(dev, 0), dev, false);
        row_cache = unit_cache_vectors(g, c / vec, max_fwd_row_cache);
        row_lu = g.lu;
    }
    if (!fwd && vec > 1) {
        // Rows that fit the registers (src and diff_dst of a row); slots
        // loop over the rows, at most bwd_slots_per_cu a compute unit, so
        // that the diff scale / shift partial sums (one set a slot) stay
        // small beside the tensors.
        const unit_geom_t g = plan_units(rows, 1, c / vec, false, false,
                unit_group_limit(dev, 0), dev, false);
        row_cache = unit_cache_vectors(g, c / vec, max_row_cache);
        row_lu = g.lu;
        row_slots = std::min(div_up(rows, (int64_t)g.lu),
                            (int64_t)bwd_slots_per_cu * dev.compute_units)
                    * (int64_t)g.lu;
        if (!row_cache) vec = 1;
        if (row_cache && with_ss)
            partial_off = staging.reserve(
                    (size_t)(2 * row_slots * c) * sizeof(float));
    }
    if (with_ss && !row_cache) {
        ss_units_inner = !rows_inner;
        ss_single = single_lane_units(dev, rows);
        const unit_geom_t g = plan_units(c, rows, 1, ss_units_inner, ss_single,
                unit_group_limit(dev, 0), dev, true);
        ss_chunks = g.chunks();
        if (ss_chunks > 1)
            partial_off = staging.reserve(
                    (size_t)(2 * ss_chunks * c) * sizeof(float));
    }
    book_scratchpad(staging.scratch_bytes());
    return dnnl_success;
}

status_t ocl_lnorm_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const bool fwd = pd->is_fwd();
    const device_info_t &dev = device_info_of(engine);
    auto types = [&](kernel_options_t &o) {
        define_data_type(o, "SRC", pd->src_md()->data_type);
        if (fwd) {
            define_data_type(o, "DST", pd->dst_md()->data_type);
        } else {
            define_data_type(o, "DD", pd->diff_dst_md()->data_type);
            define_data_type(o, "DS", pd->diff_src_md()->data_type);
        }
    };
    kernel_options_t opts;
    define_unit_geom(
            opts, pd->rows_inner, pd->single_lane, device_info_of(engine));
    const bool with_ss = pd->with_diff_ss();
    opts.define("LN_KERNEL", fwd ? 1 : 2);
    opts.define("VEC", pd->vec);
    opts.define("ROW_CACHE", pd->row_cache);
    opts.define("WITH_SS", with_ss ? 1 : 0);
    types(opts);
    if (fwd) {
        define_data_type(opts, "SSC", scale_dt(*pd, DNNL_ARG_SRC));
        define_data_type(opts, "DSC", scale_dt(*pd, DNNL_ARG_DST));
    }
    // Forward over rows of up to 4096 (H200: 16384 x 4096 0.220 -> 0.200
    // ms, 65536 x 1024 0.217 -> 0.198 with 48 registers a lane; 64 and
    // more changed nothing, 32 spilled; rows of 16384 ran 3% slower).
    if (fwd && !pd->row_cache && pd->c <= 4096)
        cap_registers_on_nvidia(opts, dev, 48);
    DNNL_CHECK(create_kernel(engine, "layer_normalization/lnorm.cl", opts,
            fwd ? (pd->row_cache ? "lnorm_fwd_rows" : "lnorm_fwd")
                : (pd->row_cache ? "lnorm_bwd_rows" : "lnorm_bwd"),
            rows_));
    geom_ = plan_units(pd->rows, 1, pd->c / pd->vec, pd->rows_inner,
            pd->single_lane, unit_group_limit(dev, rows_.max_wg_size()), dev,
            false);
    if (pd->row_cache
            && (unit_cache_vectors(geom_, pd->c / pd->vec, pd->row_cache) == 0
                    || geom_.lu != pd->row_lu)) {
        verbose_error("lnorm", "gpu: row kernel allows %zu lanes only",
                rows_.max_wg_size());
        return dnnl_runtime_error;
    }
    DNNL_CHECK(staging_.init(engine, pd->staging));
    if (with_ss) {
        kernel_options_t o;
        define_unit_geom(
                o, pd->ss_units_inner, pd->ss_single, device_info_of(engine));
        o.define("LN_KERNEL", 3);
        o.define("VEC", 1);
        types(o);
        // The rows kernel sums diff scale / shift itself; only the
        // final addition is left.
        if (pd->row_cache)
            return create_kernel(engine, "layer_normalization/lnorm.cl", o,
                    "lnorm_bwd_ss_final", ss_final_);
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(engine, "layer_normalization/lnorm.cl", o,
                {"lnorm_bwd_ss", "lnorm_bwd_ss_final"}, ks));
        ss_ = ks[0];
        ss_final_ = ks[1];
        ss_geom_ = plan_units(pd->c, pd->rows, 1, pd->ss_units_inner,
                pd->ss_single, unit_group_limit(dev, ss_.max_wg_size()), dev,
                true, pd->ss_chunks);
    }
    return dnnl_success;
}

namespace {

// The buffer and view of staging entry k (null mem for k < 0).
status_t tensor_arg(const exec_ctx_t &ctx, const staging_t &st, int k,
        bool data, cl_mem &mem, view3_t &v) {
    mem = nullptr;
    v = {0, {0, 0, 0}};
    if (k < 0) return dnnl_success;
    const tensor_buf_t b = st.buffer(ctx, k);
    if (!b.mem) {
        verbose_error("lnorm", "argument %d has no gpu buffer", st.at(k).arg);
        return dnnl_invalid_arguments;
    }
    if (data)
        data_view(st.kernel_md(k), v);
    else
        stat_view(st.kernel_md(k), v);
    v.off0 = b.off0;
    mem = b.mem;
    return dnnl_success;
}

status_t optional_arg(
        const exec_ctx_t &ctx, int arg, bool needed, cl_mem &mem) {
    mem = needed ? mem_of(ctx, arg) : nullptr;
    if (needed && !mem) {
        verbose_error("lnorm", "argument %d has no gpu buffer", arg);
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

} // namespace

// lnorm_bwd_ss_final over `chunks` sets of partial sums: 32 channels by
// 8 lanes of chunks a group (one lane when there are few chunks).
status_t ocl_lnorm_t::add_partial_sums(const exec_ctx_t &ctx, cl_mem scratch,
        int64_t poff, int64_t chunks, cl_mem dscale, cl_mem dshift) const {
    const int64_t c = pd_()->c;
    const size_t lanes = chunks >= 64 ? 8 : 1, ch = lanes > 1 ? 32 : 64;
    kernel_args_t f;
    f.mem(scratch).i64(poff).i64(c).i64(chunks).mem(dscale).mem(dshift);
    f.local(ch * lanes * 2 * sizeof(float));
    return ss_final_.enqueue(ctx,
            nd_range_t(
                    {(size_t)div_up(c, (int64_t)ch) * ch, lanes}, {ch, lanes}),
            f);
}

status_t ocl_lnorm_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->rows * pd->c == 0) return dnnl_success;
    const staging_t &st = pd->staging;
    const bool fwd = pd->is_fwd();
    cl_mem data[3], mean, var, scale, shift;
    view3_t dv[3], mv, vv;
    for (int k = 0; k < (fwd ? 2 : 3); ++k)
        DNNL_CHECK(tensor_arg(ctx, st, k, true, data[k], dv[k]));
    DNNL_CHECK(tensor_arg(ctx, st, pd->mean_k, false, mean, mv));
    DNNL_CHECK(tensor_arg(ctx, st, pd->var_k, false, var, vv));
    DNNL_CHECK(optional_arg(ctx, DNNL_ARG_SCALE, pd->use_scale(), scale));
    DNNL_CHECK(
            optional_arg(ctx, DNNL_ARG_SHIFT, fwd && pd->use_shift(), shift));
    const int flags = (pd->global_stats() ? f_global : 0)
                      | (pd->stats_out() ? f_save : 0)
                      | (pd->rms() ? f_rms : 0);
    const float eps = pd->desc()->epsilon;
    const size_t vb = pd->f64 ? 8 : 4; // a value the reductions hold
    DNNL_CHECK(staging_.gather(ctx, st));
    cl_mem dscale = nullptr, dshift = nullptr;
    const bool with_ss = pd->with_diff_ss();
    const cl_mem scratch = with_ss ? scratchpad_of(ctx) : nullptr;
    const int64_t poff = (int64_t)(pd->partial_off / sizeof(float));
    if (with_ss) {
        DNNL_CHECK(optional_arg(
                ctx, DNNL_ARG_DIFF_SCALE, pd->use_scale(), dscale));
        DNNL_CHECK(optional_arg(
                ctx, DNNL_ARG_DIFF_SHIFT, pd->use_shift(), dshift));
    }
    if (pd->row_cache && !fwd) {
        // Slots loop over the rows; with diff scale / shift slot q's sums
        // are chunk q of lnorm_bwd_ss_final.
        nd_range_t range = geom_.range();
        range.global[1] = (size_t)pd->row_slots;
        kernel_args_t a;
        for (int k = 0; k < 3; ++k) a.mem(data[k]).value(dv[k]);
        a.mem(mean).value(mv).mem(var).value(vv).mem(scale);
        a.value(geom_.sp).f32(eps).i32(flags).local(geom_.local_bytes(2, vb));
        a.mem(scratch).i64(poff);
        DNNL_CHECK(rows_.enqueue(ctx, range, a));
        if (with_ss)
            DNNL_CHECK(add_partial_sums(
                    ctx, scratch, poff, pd->row_slots, dscale, dshift));
        return staging_.scatter(ctx, st);
    }
    if (with_ss) {
        kernel_args_t a;
        a.mem(data[0]).value(dv[0]).mem(data[1]).value(dv[1]);
        a.mem(mean).value(mv).mem(var).value(vv);
        a.value(ss_geom_.sp).f32(eps).i32(flags);
        a.mem(scratch).i64(poff).mem(dscale).mem(dshift);
        a.local(ss_geom_.local_bytes(2, vb));
        DNNL_CHECK(ss_.enqueue(ctx, ss_geom_.range(), a));
        if (ss_geom_.chunks() > 1)
            DNNL_CHECK(add_partial_sums(
                    ctx, scratch, poff, ss_geom_.chunks(), dscale, dshift));
    }
    kernel_args_t a;
    for (int k = 0; k < (fwd ? 2 : 3); ++k) a.mem(data[k]).value(dv[k]);
    a.mem(mean).value(mv).mem(var).value(vv).mem(scale);
    if (fwd) {
        cl_mem ssc, dsc;
        DNNL_CHECK(optional_arg(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
                pd->attr()->scales.has(DNNL_ARG_SRC), ssc));
        DNNL_CHECK(optional_arg(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
                pd->attr()->scales.has(DNNL_ARG_DST), dsc));
        a.mem(shift).mem(ssc).mem(dsc);
    }
    a.value(geom_.sp).f32(eps).i32(flags).local(
            geom_.local_bytes(fwd ? 3 : 2, vb));
    DNNL_CHECK(rows_.enqueue(ctx, geom_.range(), a));
    return staging_.scatter(ctx, st);
}

const impl_list_item_t *layer_normalization_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_lnorm_t::pd_t, layer_normalization_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
