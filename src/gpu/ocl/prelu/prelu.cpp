// PReLU on the gpu engine: checks, configuration (vector lanes, the
// diff_weights reduction plan), kernel specialisation and launches.
#include "gpu/ocl/prelu/prelu.hpp"

#include <algorithm>

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
        if (!kernel_supports(m->data_type)
                || (!is_fwd() && !float_dt(m->data_type))) {
            verbose_check("prelu",
                    "gpu: data types f32, bf16, f16 (s8, u8, s32 forward)");
            return dnnl_unimplemented;
        }
    }
    return dnnl_success;
}

status_t ocl_prelu_t::pd_t::init(engine_t *engine) {
    DNNL_CHECK(init_formats());
    DNNL_CHECK(check_data_types());
    const memory_desc_t *mds[] = {&src_md_, &weights_md_, &dst_md_,
            &diff_src_md_, &diff_weights_md_, &diff_dst_md_};
    generic = false;
    int32 = true;
    for (const memory_desc_t *m : mds) {
        if (is_zero_md(*m)) continue;
        if (!layout_supported(*m)) {
            verbose_check(
                    "prelu", "gpu: layout not supported (at most 6 dims)");
            return dnnl_unimplemented;
        }
        generic = generic || !fast_offsets_ok(*m);
        int32 = int32 && offsets_fit_int32(*m);
    }
    init_data_conf();
    if (!is_fwd()) init_dw_conf(engine);
    return dnnl_success;
}

void ocl_prelu_t::pd_t::init_data_conf() {
    const memory_desc_t &out = is_fwd() ? dst_md_ : diff_src_md_;
    std::vector<const memory_desc_t *> all = {&src_md_, &weights_md_, &out};
    if (!is_fwd()) all.push_back(&diff_dst_md_);
    size_t esz = 1;
    for (const memory_desc_t *m : all)
        esz = std::max(esz, data_type_size(m->data_type));
    const unsigned wmask = ones_mask(weights_md_);

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
                            if ((m != &weights_md_ || w_lanes)
                                    && !lanes_contiguous(*m, ld, v))
                                return false;
                        return true;
                    });
    walk_t walk;
    make_walk(out, walk, vec);
    work = layout::has_zero_dim(out) ? 0 : walk.volume;
    lane_pad = vec > 1 && out.dims[ld] != out.padded_dims[ld];

    conf_t c;
    c.put(walk).put_tensor(src_md_, generic).put_tensor(weights_md_, generic);
    c.put_tensor(out, generic);
    if (is_fwd())
        c.put_no_tensor(generic);
    else
        c.put_tensor(diff_dst_md_, generic);
    for (int d = 0; d < walk_ndims; ++d)
        c.put(d < src_md_.ndims ? src_md_.dims[d] : 1);
    c.put(wmask);
    conf = c.values();
}

void ocl_prelu_t::pd_t::init_dw_conf(engine_t *engine) {
    const memory_desc_t &dw = diff_weights_md_;
    walk_t wwalk, rwalk;
    make_walk(dw, wwalk);
    make_walk_of_dims(src_md_, ones_mask(dw), rwalk);
    dw_count = layout::has_zero_dim(dw) ? 0 : wwalk.volume;
    const int64_t R = layout::has_zero_dim(src_md_) ? 0 : rwalk.volume;
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
    c.put_tensor(src_md_, generic)
            .put_tensor(diff_dst_md_, generic)
            .put_tensor(dw, generic);
    for (int d = 0; d < walk_ndims; ++d)
        c.put(d < src_md_.ndims ? src_md_.dims[d] : 1);
    for (int d = 0; d < walk_ndims; ++d) c.put(d < dw.ndims ? dw.dims[d] : 1);
    c.put(dw_groups);
    dw_conf = c.values();
}

status_t ocl_prelu_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    opts.define("IS_FWD", pd->is_fwd() ? 1 : 0);
    opts.define("VEC", pd->vec);
    opts.define("W_LANES", pd->w_lanes ? 1 : 0);
    opts.define("LANE_PAD", pd->lane_pad ? 1 : 0);
    define_walk(opts, pd->generic, pd->int32);
    define_data_type(opts, "SRC", pd->src_md()->data_type);
    define_data_type(opts, "WEI", pd->weights_md()->data_type);
    DNNL_CHECK(conf_.create(engine, pd->conf));
    if (pd->is_fwd()) {
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        return create_kernels(
                engine, "prelu/prelu.cl", opts, {"prelu_fwd"}, kernels_);
    }
    define_data_type(opts, "DIFF_DST", pd->diff_dst_md()->data_type);
    define_data_type(opts, "DIFF_SRC", pd->diff_src_md()->data_type);
    define_data_type(opts, "DIFF_WEI", pd->diff_weights_md()->data_type);
    DNNL_CHECK(dw_conf_.create(engine, pd->dw_conf));
    return create_kernels(engine, "prelu/prelu.cl", opts,
            {"prelu_bwd_data", "prelu_dw_tree", "prelu_dw_final",
                    "prelu_dw_serial"},
            kernels_);
}

status_t ocl_prelu_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const size_t lws = 256;
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
