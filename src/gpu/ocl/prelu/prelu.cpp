// PReLU on the gpu engine: checks, configuration (vector lanes, the
// diff_weights reduction plan), kernel specialisation and launches.
#include "gpu/ocl/prelu/prelu.hpp"

#include <algorithm>

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_types.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"
#include "gpu/ocl/ocl_walk.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

bool float_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16
            || dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}

// Bit d set where `md` has size 1 (broadcast or reduced along d).
unsigned ones_mask(const memory_desc_t &md) {
    unsigned m = 0;
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 1) m |= 1u << d;
    return m;
}

// Reduced positions up to which one work-item per weight adds them all.
constexpr int64_t serial_max = 64;

} // namespace

status_t ocl_prelu_t::pd_t::check_data_types() const {
    const memory_desc_t *mds[] = {&src_md_, &weights_md_, &dst_md_,
            &diff_src_md_, &diff_weights_md_, &diff_dst_md_};
    for (const memory_desc_t *m : mds) {
        if (is_zero_md(*m)) continue;
        if (!kernel_converts(m->data_type)
                || (!is_fwd() && !float_dt(m->data_type))) {
            verbose_check("prelu",
                    "gpu: data types f32, bf16, f16, f8 (s8, u8, s32 forward)");
            return dnnl_unimplemented;
        }
    }
    return dnnl_success;
}

status_t ocl_prelu_t::pd_t::init(engine_t *engine) {
    DNNL_CHECK(init_formats());
    DNNL_CHECK(check_data_types());
    // The tensors as the kernels address them: beyond layout_max_ndims,
    // their fold (weights broadcast along the merged dims alike).
    k_src_ = src_md_, k_weights_ = weights_md_, k_dst_ = dst_md_;
    k_diff_src_ = diff_src_md_, k_diff_weights_ = diff_weights_md_;
    k_diff_dst_ = diff_dst_md_;
    memory_desc_t *mds[] = {&k_src_, &k_weights_, &k_dst_, &k_diff_src_,
            &k_diff_weights_, &k_diff_dst_};
    memory_desc_t *present[6];
    int n_present = 0;
    for (memory_desc_t *m : mds)
        if (!is_zero_md(*m)) present[n_present++] = m;
    if (k_src_.ndims > layout_max_ndims
            && !fold_to_layout_dims(present, n_present)) {
        verbose_check("prelu",
                "gpu: more than %d dims that do not merge into fewer",
                layout_max_ndims);
        return dnnl_unimplemented;
    }
    generic = false;
    int32 = true;
    for (const memory_desc_t *m : mds) {
        if (is_zero_md(*m)) continue;
        if (!layout_supported(*m)) {
            verbose_check("prelu", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
        generic = generic || !fast_offsets_ok(*m);
        int32 = int32 && offsets_fit_int32(*m);
    }
    // The planes kernels take their views as arguments; the others read
    // a configuration table.
    init_planes(engine);
    if (!planes) {
        init_data_conf();
        if (!is_fwd()) init_dw_conf(engine);
    }
    return dnnl_success;
}

// Per-channel weights (every other dim of the weights 1) over tensors
// (src, dst; src, diff_dst, diff_src) whose [N, C, S] planes are
// contiguous and aligned for four-wide vectors.
void ocl_prelu_t::pd_t::init_planes(engine_t *engine) {
    constexpr int v = 4;
    planes = false;
    const int nd = k_src_.ndims;
    if (generic || nd < 3) return;
    const memory_desc_t *wmds[] = {&k_weights_, &k_diff_weights_};
    for (const memory_desc_t *w : wmds) {
        if (is_fwd() && w == &k_diff_weights_) continue;
        for (int d = 0; d < nd; ++d)
            if (w->dims[d] != (d == 1 ? k_src_.dims[1] : 1) || w->ndims != nd
                    || w->format_desc.blocking.inner_nblks != 0)
                return;
    }
    const int64_t n = k_src_.dims[0], c = k_src_.dims[1];
    const int64_t s = dims_product(k_src_, 2, nd);
    // Channels are a dimension of the range (groups along it stay within
    // what every device takes there, 65535 on NVIDIA's).
    if (c < 1 || c > 65535 || s % v != 0 || n * s == 0) return;
    const memory_desc_t *mds[] = {
            &k_src_, is_fwd() ? &k_dst_ : &k_diff_dst_, &k_diff_src_};
    for (int k = 0; k < (is_fwd() ? 2 : 3); ++k) {
        view3_t vw;
        if (!make_view3(*mds[k], 1, 2, vw) || vw.s[2] != 1 || vw.s[0] % v != 0
                || vw.s[1] % v != 0 || mds[k]->offset0 % v != 0)
            return;
        plane_views[k][0] = mds[k]->offset0;
        plane_views[k][1] = vw.s[0];
        plane_views[k][2] = vw.s[1];
    }
    planes = true;
    // Enough groups to fill the device (16 a compute unit, as the diff
    // weights tree), in chunks of whole images.
    const device_info_t &dev = device_info_of(engine);
    const int64_t want = div_up(16 * (int64_t)dev.compute_units, c);
    plane_ipc = div_up(n, std::max<int64_t>(1, std::min(want, n)));
    plane_chunks = div_up(n, plane_ipc);
    if (plane_chunks > 1 && !is_fwd())
        book_scratchpad((size_t)(c * plane_chunks) * sizeof(float));
}

void ocl_prelu_t::pd_t::init_data_conf() {
    const memory_desc_t &out = is_fwd() ? k_dst_ : k_diff_src_;
    std::vector<const memory_desc_t *> all = {&k_src_, &k_weights_, &out};
    if (!is_fwd()) all.push_back(&k_diff_dst_);
    size_t esz = 1;
    for (const memory_desc_t *m : all)
        esz = std::max(esz, data_type_size(m->data_type));
    const unsigned wmask = ones_mask(k_weights_);

    // Vector lanes along the written tensor's innermost part, which the
    // weights either hold contiguously or broadcast along.
    int ld = 0;
    dim_t ext = 0, step = 0;
    walk_innermost(out, ld, ext, step);
    w_lanes = !(wmask >> ld & 1u);
    vec = generic || step != 1
                  ? 1
                  : pick_vec((int)std::min<size_t>(8, 16 / esz), [&](int v) {
                        if (ext % v != 0) return false;
                        for (const memory_desc_t *m : all)
                            if ((m != &k_weights_ || w_lanes)
                                    && !lanes_contiguous(*m, ld, v))
                                return false;
                        return true;
                    });
    walk_t walk;
    make_walk(out, walk, vec);
    work = layout::has_zero_dim(out) ? 0 : walk.volume;
    lane_pad = vec > 1 && out.dims[ld] != out.padded_dims[ld];

    conf_t c;
    c.put(walk).put_tensor(k_src_, generic).put_tensor(k_weights_, generic);
    c.put_tensor(out, generic);
    if (is_fwd())
        c.put_no_tensor(generic);
    else
        c.put_tensor(k_diff_dst_, generic);
    for (int d = 0; d < walk_ndims; ++d)
        c.put(d < k_src_.ndims ? k_src_.dims[d] : 1);
    c.put(wmask);
    conf = c.values();
}

void ocl_prelu_t::pd_t::init_dw_conf(engine_t *engine) {
    const memory_desc_t &dw = k_diff_weights_;
    walk_t wwalk, rwalk;
    make_walk(dw, wwalk);
    make_walk_of_dims(k_src_, ones_mask(dw), rwalk);
    dw_count = layout::has_zero_dim(dw) ? 0 : wwalk.volume;
    const int64_t R = layout::has_zero_dim(k_src_) ? 0 : rwalk.volume;
    if (R == 0) rwalk.volume = 0;

    dw_serial = R <= serial_max;
    dw_groups = 1;
    dw_lws = 1;
    if (!dw_serial) {
        const device_info_t &dev = device_info_of(engine);
        while (dw_lws * 2 <= std::min<int64_t>(256, (int64_t)dev.max_wg_size)
                && dw_lws * 2 <= R)
            dw_lws *= 2;
        // Enough work-groups to keep the device busy (each lane walks its
        // positions one after another; H200, 64 x 256 x 56 x 56 with
        // per-channel weights: 1.22 ms with 4 a compute unit, 1.11 with
        // 16, the rest being each position's index arithmetic), each
        // with at least one full stride of the reduction.
        const int64_t target = 16 * (int64_t)dev.compute_units;
        const int64_t per_w =
                (target + dw_count - 1) / std::max<int64_t>(dw_count, 1);
        const int64_t max_chunks = (R + dw_lws - 1) / dw_lws;
        dw_groups = std::max<int64_t>(1, std::min(per_w, max_chunks));
        if (dw_groups > 1)
            book_scratchpad((size_t)(dw_count * dw_groups) * sizeof(float));
    }

    conf_t c;
    c.put(wwalk).put(rwalk);
    c.put_tensor(k_src_, generic)
            .put_tensor(k_diff_dst_, generic)
            .put_tensor(dw, generic);
    for (int d = 0; d < walk_ndims; ++d)
        c.put(d < k_src_.ndims ? k_src_.dims[d] : 1);
    for (int d = 0; d < walk_ndims; ++d) c.put(d < dw.ndims ? dw.dims[d] : 1);
    c.put(dw_groups);
    dw_conf = c.values();
}

status_t ocl_prelu_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    opts.define("IS_FWD", pd->is_fwd() ? 1 : 0);
    // The planes kernel reads four-wide vectors whatever the data
    // kernels' width would be.
    opts.define("VEC", pd->planes ? 4 : pd->vec);
    opts.define("W_LANES", pd->w_lanes ? 1 : 0);
    opts.define("LANE_PAD", pd->lane_pad ? 1 : 0);
    define_walk(opts, pd->generic, pd->int32);
    define_data_type(opts, "SRC", pd->src_md()->data_type);
    define_data_type(opts, "WEI", pd->weights_md()->data_type);
    if (!pd->planes) DNNL_CHECK(conf_.create(engine, pd->conf));
    opts.define("PLANES", pd->planes ? 1 : 0);
    if (pd->is_fwd()) {
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        return create_kernels(engine, "prelu/prelu.cl", opts,
                {pd->planes ? "prelu_fwd_planes" : "prelu_fwd"}, kernels_);
    }
    define_data_type(opts, "DIFF_DST", pd->diff_dst_md()->data_type);
    define_data_type(opts, "DIFF_SRC", pd->diff_src_md()->data_type);
    define_data_type(opts, "DIFF_WEI", pd->diff_weights_md()->data_type);
    if (pd->planes) {
        return create_kernels(engine, "prelu/prelu.cl", opts,
                {"prelu_bwd_planes", "prelu_planes_final"}, kernels_);
    }
    DNNL_CHECK(dw_conf_.create(engine, pd->dw_conf));
    return create_kernels(engine, "prelu/prelu.cl", opts,
            {"prelu_bwd_data", "prelu_dw_tree", "prelu_dw_final",
                    "prelu_dw_serial"},
            kernels_);
}

status_t ocl_prelu_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const size_t lws = 256;
    if (pd->planes) return execute_planes(ctx);
    if (pd->is_fwd()) {
        if (pd->work == 0) return dnnl_success;
        kernel_args_t args;
        args.mem(mem_of(ctx, DNNL_ARG_SRC))
                .mem(mem_of(ctx, DNNL_ARG_WEIGHTS))
                .mem(mem_of(ctx, DNNL_ARG_DST))
                .mem(conf_.mem());
        return kernels_[0].enqueue(
                ctx, nd_range_t({(size_t)pd->work}, {lws}), args);
    }
    if (pd->work > 0) {
        kernel_args_t args;
        args.mem(mem_of(ctx, DNNL_ARG_SRC))
                .mem(mem_of(ctx, DNNL_ARG_WEIGHTS))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_DST))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_SRC))
                .mem(conf_.mem());
        DNNL_CHECK(kernels_[0].enqueue(
                ctx, nd_range_t({(size_t)pd->work}, {lws}), args));
    }
    return execute_dw(ctx);
}

status_t ocl_prelu_t::execute_dw(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->dw_count == 0) return dnnl_success;
    const cl_mem src = mem_of(ctx, DNNL_ARG_SRC),
                 dd = mem_of(ctx, DNNL_ARG_DIFF_DST),
                 dw = mem_of(ctx, DNNL_ARG_DIFF_WEIGHTS);
    if (pd->dw_serial) {
        kernel_args_t args;
        args.mem(src).mem(dd).mem(dw).mem(dw_conf_.mem());
        return kernels_[3].enqueue(
                ctx, nd_range_t({(size_t)pd->dw_count}, {(size_t)64}), args);
    }
    const cl_mem partial = pd->dw_groups > 1 ? scratchpad_of(ctx) : nullptr;
    if (pd->dw_groups > 1 && !partial) return dnnl_invalid_arguments;
    // The tree needs a power of 2 within the kernel's own limit.
    size_t lws = (size_t)pd->dw_lws;
    while (lws > kernels_[1].max_wg_size()) lws /= 2;
    kernel_args_t args;
    args.mem(src).mem(dd).mem(dw).mem(partial).mem(dw_conf_.mem());
    args.local(lws * sizeof(float));
    const size_t groups = (size_t)(pd->dw_count * pd->dw_groups);
    DNNL_CHECK(
            kernels_[1].enqueue(ctx, nd_range_t({groups * lws}, {lws}), args));
    if (pd->dw_groups == 1) return dnnl_success;
    kernel_args_t fin;
    fin.mem(dw).mem(partial).mem(dw_conf_.mem());
    return kernels_[2].enqueue(
            ctx, nd_range_t({(size_t)pd->dw_count}, {(size_t)64}), fin);
}

status_t ocl_prelu_t::execute_planes(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const bool fwd = pd->is_fwd();
    const memory_desc_t &w = *pd->weights_md(), &dwm = *pd->diff_weights_md();
    const int64_t c = pd->src_md()->dims[1], n = pd->src_md()->dims[0];
    const int64_t s = dims_product(*pd->src_md(), 2, pd->src_md()->ndims);
    const bool partial_sums = !fwd && pd->plane_chunks > 1;
    const cl_mem partial = partial_sums ? scratchpad_of(ctx) : nullptr;
    if (partial_sums && !partial) return dnnl_invalid_arguments;
    const int fwd_args[] = {DNNL_ARG_SRC, DNNL_ARG_DST};
    const int bwd_args[] = {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC};
    const int count = fwd ? 2 : 3;
    cl_mem mems[3];
    for (int k = 0; k < count; ++k)
        if (!(mems[k] = mem_of(ctx, fwd ? fwd_args[k] : bwd_args[k])))
            return dnnl_invalid_arguments;
    const cl_mem wei = mem_of(ctx, DNNL_ARG_WEIGHTS);
    const cl_mem dw = fwd ? nullptr : mem_of(ctx, DNNL_ARG_DIFF_WEIGHTS);
    if (!wei || (!fwd && !dw)) return dnnl_invalid_arguments;
    struct plane_view_t {
        int64_t off0, sn, sc;
    };
    auto view = [&](int k) {
        return plane_view_t{pd->plane_views[k][0], pd->plane_views[k][1],
                pd->plane_views[k][2]};
    };
    const size_t lws =
            pow2_floor(std::min<size_t>(256, kernels_[0].max_wg_size()));
    const nd_range_t range(
            {lws, (size_t)c, (size_t)pd->plane_chunks}, {lws, 1, 1});
    kernel_args_t a;
    a.mem(mems[0]).value(view(0)).mem(wei).i64(w.offset0);
    a.i64(w.format_desc.blocking.strides[1]).mem(mems[1]).value(view(1));
    if (fwd) {
        a.i64(n).i64(s).i64(pd->plane_ipc);
        return kernels_[0].enqueue(ctx, range, a);
    }
    a.mem(mems[2]).value(view(2));
    a.mem(dw).i64(dwm.offset0).i64(dwm.format_desc.blocking.strides[1]);
    a.mem(partial).i64(n).i64(s).i64(pd->plane_ipc);
    a.local(lws * sizeof(float));
    DNNL_CHECK(kernels_[0].enqueue(ctx, range, a));
    if (!partial_sums) return dnnl_success;
    kernel_args_t f;
    f.mem(dw).i64(dwm.offset0).i64(dwm.format_desc.blocking.strides[1]);
    f.mem(partial).i64(c).i64(pd->plane_chunks);
    return kernels_[1].enqueue(ctx, nd_range_t({(size_t)c}, {(size_t)64}), f);
}

const impl_list_item_t *prelu_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_prelu_t::pd_t, prelu_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
