// Softmax on the gpu engine: checks, staging, kernel specialisation,
// launch and the implementation list.
#include "gpu/ocl/softmax/softmax.hpp"

#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

data_type_t scale_dt(const softmax_pd_t &pd, int arg) {
    return pd.with_scale(arg) ? pd.attr()->scales.get(arg)->data_type
                              : dnnl_f32;
}

} // namespace

status_t ocl_softmax_t::pd_t::init(engine_t *engine) {
    if (!attr_ok()) {
        verbose_check("softmax", "gpu: unsupported attributes");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    if (!types_ok()) {
        verbose_check("softmax", "gpu: unsupported data types");
        return dnnl_unimplemented;
    }
    const bool fwd = is_fwd();
    if (fwd) {
        DNNL_CHECK(post_ops.init(attr()->post_ops, *dst_md(), "softmax"));
        for (const auto &e : attr()->post_ops.entries)
            binary_po = binary_po || e.kind == post_op_kind_t::binary;
        if (!kernel_supports(scale_dt(*this, DNNL_ARG_SRC))
                || !kernel_supports(scale_dt(*this, DNNL_ARG_DST))) {
            verbose_check("softmax", "gpu: scale data type not supported");
            return dnnl_unimplemented;
        }
    }
    struct tensor_t {
        int arg;
        const memory_desc_t *md;
        bool out;
    };
    const tensor_t fwd_t[] = {
            {DNNL_ARG_SRC, src_md(), false}, {DNNL_ARG_DST, dst_md(), true}};
    const tensor_t bwd_t[] = {{DNNL_ARG_DST, dst_md(), false},
            {DNNL_ARG_DIFF_DST, diff_dst_md(), false},
            {DNNL_ARG_DIFF_SRC, diff_src_md(), true}};
    const int a = axis();
    bool all_vec = true; // every tensor native and read as vectors
    for (int k = 0; k < (fwd ? 2 : 3); ++k) {
        const tensor_t &t = fwd ? fwd_t[k] : bwd_t[k];
        view3_t v;
        const bool native = make_view3(*t.md, a, a + 1, v);
        if (!native && !layout_supported(*t.md)) {
            verbose_check("softmax", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
        staging.add(t.arg, *t.md, !t.out, t.out, native);
        all_vec = all_vec && native
                  && rows_vectorizable(*t.md, v, t.md->dims[a], row_vec);
    }
    const memory_desc_t &m0 = staging.kernel_md(0);
    outer = dims_product(m0, 0, a);
    axis_len = m0.dims[a];
    inner = dims_product(m0, a + 1, m0.ndims);
    // Units in neighbouring work-items when a softmax's elements are apart
    // and neighbouring softmaxes adjacent (nchw over channels).
    view3_t v0;
    make_view3(staging.kernel_md(0), a, a + 1, v0);
    units_inner = inner >= 16 && v0.s[2] == 1 && v0.s[1] != 1;
    const device_info_t &dev = device_info_of(engine);
    single_lane = single_lane_units(dev, axis_len);
    // Contiguous rows that fit the lanes' registers (softmax_fwd_rows,
    // softmax_bwd_rows).
    if (all_vec && !units_inner && inner == 1 && gpu_geometry(dev)) {
        const unit_geom_t g = plan_units(outer, 1, axis_len / row_vec, false,
                false, unit_group_limit(dev, 0), dev, false);
        row_cache = unit_cache_vectors(g, axis_len / row_vec, max_row_cache);
    }
    book_scratchpad(staging.scratch_bytes());
    return dnnl_success;
}

status_t ocl_softmax_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const bool fwd = pd->is_fwd();
    kernel_options_t opts;
    define_unit_geom(
            opts, pd->units_inner, pd->single_lane, device_info_of(engine));
    opts.define("IS_FWD", fwd ? 1 : 0);
    opts.define("ROW_CACHE", pd->row_cache);
    if (pd->row_cache) opts.define("VEC", pd_t::row_vec);
    if (fwd) {
        define_data_type(opts, "SRC", pd->src_md()->data_type);
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        define_data_type(opts, "SSC", scale_dt(*pd, DNNL_ARG_SRC));
        define_data_type(opts, "DSC", scale_dt(*pd, DNNL_ARG_DST));
        opts.define("BINARY_PO", pd->binary_po ? 1 : 0);
        pd->post_ops.define(opts);
    } else {
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        define_data_type(opts, "DD", pd->diff_dst_md()->data_type);
        define_data_type(opts, "DS", pd->diff_src_md()->data_type);
    }
    const char *name = pd->row_cache
                               ? (fwd ? "softmax_fwd_rows" : "softmax_bwd_rows")
                       : fwd ? "softmax_fwd"
                             : "softmax_bwd";
    DNNL_CHECK(
            create_kernel(engine, "softmax/softmax.cl", opts, name, kernel_));
    DNNL_CHECK(staging_.init(engine, pd->staging));
    const device_info_t &dev = device_info_of(engine);
    const size_t wg = unit_group_limit(dev, kernel_.max_wg_size());
    if (pd->row_cache) {
        // The unit space counts vectors; the kernel's register budget
        // must still hold a row with the lanes this kernel allows.
        const int64_t vectors = pd->axis_len / pd_t::row_vec;
        geom_ = plan_units(pd->outer, 1, vectors, false, false, wg, dev, false);
        if (unit_cache_vectors(geom_, vectors, pd->row_cache) == 0) {
            verbose_error("softmax", "gpu: row kernel allows %zu lanes only",
                    kernel_.max_wg_size());
            return dnnl_runtime_error;
        }
        return dnnl_success;
    }
    geom_ = plan_units(pd->outer * pd->inner, 1, pd->axis_len, pd->units_inner,
            pd->single_lane, wg, dev, false);
    return dnnl_success;
}

status_t ocl_softmax_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const staging_t &st = pd->staging;
    if (pd->outer * pd->inner * pd->axis_len == 0) return dnnl_success;
    const bool fwd = pd->is_fwd();
    const int n = fwd ? 2 : 3, a = pd->axis();
    kernel_args_t args;
    for (int k = 0; k < n; ++k) {
        const tensor_buf_t b = st.buffer(ctx, k);
        if (!b.mem) {
            verbose_error(
                    "softmax", "argument %d has no gpu buffer", st.at(k).arg);
            return dnnl_invalid_arguments;
        }
        view3_t v;
        make_view3(st.kernel_md(k), a, a + 1, v);
        v.off0 = b.off0;
        args.mem(b.mem).value(v);
    }
    args.value(geom_.sp).i64(pd->inner).i32(pd->is_log() ? 1 : 0);
    args.local(geom_.local_bytes(1));
    if (fwd) {
        cl_mem sc[2] = {nullptr, nullptr};
        const int sargs[2] = {DNNL_ARG_SRC, DNNL_ARG_DST};
        for (int i = 0; i < 2; ++i)
            if (pd->with_scale(sargs[i])
                    && !(sc[i] = mem_of(
                                 ctx, DNNL_ARG_ATTR_SCALES | sargs[i]))) {
                verbose_error("softmax", "a scale has no gpu buffer");
                return dnnl_invalid_arguments;
            }
        args.mem(sc[0]).mem(sc[1]).value(make_dims6(*pd->dst_md())).i32(a);
        pd->post_ops.set_args(args, ctx);
    }
    DNNL_CHECK(staging_.gather(ctx, st));
    DNNL_CHECK(kernel_.enqueue(ctx, geom_.range(), args));
    return staging_.scatter(ctx, st);
}

const impl_list_item_t *softmax_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_softmax_t::pd_t, softmax_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
