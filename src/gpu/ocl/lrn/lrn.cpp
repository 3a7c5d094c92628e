// LRN on the gpu engine: checks, configuration, kernel specialisation and
// launch.
#include "gpu/ocl/lrn/lrn.hpp"

#include <cmath>

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_types.hpp"
#include "gpu/ocl/ocl_walk.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
bool float_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
} // namespace

status_t ocl_lrn_t::pd_t::init(engine_t *engine) {
    const primitive_attr_t &a = *attr();
    if (!a.scales.empty() || !a.zero_points.empty() || !a.rounding_modes.empty()
            || !a.post_ops.entries.empty()) {
        verbose_check("lrn", "gpu: attributes not supported");
        return dnnl_unimplemented;
    }
    if (src_md_.ndims > 5) {
        verbose_check("lrn", "gpu: at most 3 spatial dims");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    const memory_desc_t &out = is_fwd() ? dst_md_ : diff_src_md_;
    const data_type_t dt = src_md_.data_type;
    if (!float_dt(dt) || out.data_type != dt
            || (!is_fwd() && diff_dst_md_.data_type != dt)) {
        verbose_check("lrn", "gpu: one data type of f32, bf16 or f16");
        return dnnl_unimplemented;
    }
    const memory_desc_t *mds[] = {&src_md_, &out, &diff_dst_md_, &ws_md_};
    for (const memory_desc_t *md : mds) {
        if (is_zero_md(*md) || (is_fwd() && md == &diff_dst_md_)) continue;
        if (!layout_supported(*md)) {
            verbose_check("lrn", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
    }
    const int nsp = src_md_.ndims - 2;
    const double size = (double)desc()->local_size;
    const double summands = across() ? size : std::pow(size, nsp);
    alpha_s = summands > 0 ? (float)(desc()->alpha / summands) : 0.f;
    plan_planes(device_info_of(engine));
    if (!planes) init_conf();
    return dnnl_success;
}

// Window of at most max_window channels; src, dst and the workspace as
// [N, C, S] views with contiguous planes, read as four-wide vectors when
// the planes and the views' strides allow. On GPUs the channels are cut
// into blocks until there are enough work-items to fill the device.
void ocl_lrn_t::pd_t::plan_planes(const device_info_t &dev) {
    constexpr int max_window = 16, v = 4;
    const dim_t n = desc()->local_size;
    if (!across() || (n - 1) / 2 + (n + 1) / 2 > max_window) return;
    // Backward reads the norms from the workspace.
    if (!is_fwd() && !has_ws()) return;
    const memory_desc_t *fwd_mds[] = {&src_md_, &dst_md_, &ws_md_};
    const memory_desc_t *bwd_mds[]
            = {&src_md_, &diff_dst_md_, &diff_src_md_, &ws_md_};
    const memory_desc_t *const *mds = is_fwd() ? fwd_mds : bwd_mds;
    const int count = is_fwd() ? 3 : 4;
    const int64_t s = dims_product(src_md_, 2, src_md_.ndims);
    bool vec_ok = s % v == 0;
    for (int k = 0; k < count; ++k) {
        const memory_desc_t &md = *mds[k];
        view3_t &vw = views[k];
        vw = view3_t {};
        if (is_zero_md(md)) continue;
        if (!make_view3(md, 1, 2, vw) || (s > 1 && vw.s[2] != 1)) return;
        vw.off0 = md.offset0;
        vec_ok = vec_ok && vw.s[0] % v == 0 && vw.s[1] % v == 0
                && md.offset0 % v == 0;
    }
    planes = true;
    vec = vec_ok ? v : 1;
    points = s;
    const int64_t channels = src_md_.dims[1];
    const int64_t vecs = src_md_.dims[0] * (s / vec);
    const int64_t wanted = 2048 * (int64_t)std::max(dev.compute_units, 1);
    blocks = 1;
    if (gpu_geometry(dev) && vecs > 0)
        blocks = std::max<int64_t>(1,
                std::min(div_up(wanted, vecs), div_up(channels, 16)));
    block = std::max<int64_t>(1, div_up(channels, blocks));
    blocks = div_up(channels, block);
    work = layout::has_zero_dim(src_md_) ? 0 : vecs * blocks;
}

void ocl_lrn_t::pd_t::init_conf() {
    const memory_desc_t s = as_5d(src_md_);
    const memory_desc_t o = as_5d(is_fwd() ? dst_md_ : diff_src_md_);
    const memory_desc_t w = has_ws() ? as_5d(ws_md_) : zero_md();
    const memory_desc_t g = is_fwd() ? zero_md() : as_5d(diff_dst_md_);
    const memory_desc_t *all[] = {&s, &o, &w, &g};
    generic = false;
    int32 = true;
    for (const memory_desc_t *m : all) {
        if (is_zero_md(*m)) continue;
        generic = generic || !fast_offsets_ok(*m);
        int32 = int32 && offsets_fit_int32(*m);
    }
    walk_t walk;
    make_walk(o, walk);
    work = layout::has_zero_dim(o) ? 0 : walk.volume;
    conf_t c;
    c.put(walk);
    for (const memory_desc_t *m : all) {
        if (is_zero_md(*m))
            c.put_no_tensor(generic);
        else
            c.put_tensor(*m, generic);
    }
    for (int i = 0; i < walk_ndims; ++i) c.put(i < 5 ? o.dims[i] : 1);
    const dim_t n = desc()->local_size;
    c.put((n - 1) / 2).put((n + 1) / 2 - 1);
    conf = c.values();
}

status_t ocl_lrn_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    if (pd->planes) {
        const dim_t n = pd->desc()->local_size;
        opts.define("PLANES", 1);
        opts.define("VEC", pd->vec);
        opts.define("LO", (n - 1) / 2);
        opts.define("WL", (n - 1) / 2 + (n + 1) / 2);
        // Backward keeps three loaded windows (src, diff_dst, norms)
        // and one of terms: fewer channels ahead.
        opts.define("PF", pd->is_fwd() ? 3 : 2);
        opts.define("WITH_WS", pd->has_ws() ? 1 : 0);
        define_data_type(opts, "SRC", pd->src_md()->data_type);
        // One program holds both kernels; the data types are all one.
        define_data_type(opts, "DST", pd->src_md()->data_type);
        // Inference with windows of up to 5 channels (the window and
        // look-ahead are in registers; H200, 64 x 256 x 56 x 56, 5
        // channels: 0.164 -> 0.143 ms with 48 registers a lane; training,
        // which also writes the workspace, went 0.202 -> 0.234, and wider
        // windows were not measured: both keep the compiler's choice).
        if (pd->is_fwd() && n <= 5 && !pd->has_ws())
            cap_registers_on_nvidia(opts, device_info_of(engine), 48);
        return create_kernel(engine, "lrn/lrn.cl", opts,
                pd->is_fwd() ? "lrn_fwd_planes" : "lrn_bwd_planes", kernel_);
    }
    opts.define("IS_FWD", pd->is_fwd() ? 1 : 0);
    opts.define("ACROSS", pd->across() ? 1 : 0);
    opts.define("WITH_WS", pd->has_ws() ? 1 : 0);
    define_walk(opts, pd->generic, pd->int32);
    define_data_type(opts, "SRC", pd->src_md()->data_type);
    if (pd->is_fwd()) {
        define_data_type(opts, "DST", pd->dst_md()->data_type);
    } else {
        define_data_type(opts, "DIFF_DST", pd->diff_dst_md()->data_type);
        define_data_type(opts, "DIFF_SRC", pd->diff_src_md()->data_type);
    }
    DNNL_CHECK(conf_.create(engine, pd->conf));
    return create_kernel(engine, "lrn/lrn.cl", opts,
            pd->is_fwd() ? "lrn_fwd" : "lrn_bwd", kernel_);
}

status_t ocl_lrn_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->work == 0) return dnnl_success;
    if (pd->planes) return execute_planes(ctx);
    const cl_mem ws = pd->has_ws() ? mem_of(ctx, DNNL_ARG_WORKSPACE) : nullptr;
    if (pd->has_ws() && !ws) return dnnl_invalid_arguments;
    kernel_args_t args;
    if (pd->is_fwd())
        args.mem(mem_of(ctx, DNNL_ARG_SRC)).mem(mem_of(ctx, DNNL_ARG_DST));
    else
        args.mem(mem_of(ctx, DNNL_ARG_SRC))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_DST))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_SRC));
    args.mem(ws)
            .mem(conf_.mem())
            .f32(pd->desc()->k)
            .f32(pd->alpha_s)
            .f32(pd->desc()->beta);
    return kernel_.enqueue(
            ctx, nd_range_t({(size_t)pd->work}, {(size_t)256}), args);
}

status_t ocl_lrn_t::execute_planes(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const cl_mem ws = pd->has_ws() ? mem_of(ctx, DNNL_ARG_WORKSPACE) : nullptr;
    if (pd->has_ws() && !ws) return dnnl_invalid_arguments;
    kernel_args_t a;
    a.mem(mem_of(ctx, DNNL_ARG_SRC)).value(pd->views[0]);
    if (pd->is_fwd()) {
        a.mem(mem_of(ctx, DNNL_ARG_DST)).value(pd->views[1]);
        a.mem(ws).value(pd->views[2]);
    } else {
        a.mem(mem_of(ctx, DNNL_ARG_DIFF_DST)).value(pd->views[1]);
        a.mem(mem_of(ctx, DNNL_ARG_DIFF_SRC)).value(pd->views[2]);
        a.mem(ws).value(pd->views[3]);
    }
    a.i64(pd->points).i64(pd->src_md()->dims[1]).i64(pd->block);
    a.i64(pd->blocks).f32(pd->desc()->k).f32(pd->alpha_s);
    a.f32(pd->desc()->beta);
    const size_t items = (size_t)(pd->points / pd->vec * pd->blocks);
    const size_t wg = 256;
    return kernel_.enqueue(ctx,
            nd_range_t({(items + wg - 1) / wg * wg,
                               (size_t)pd->src_md()->dims[0]},
                    {wg, 1}),
            a);
}

const impl_list_item_t *lrn_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_lrn_t::pd_t, lrn_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
