// Resampling on the gpu engine: checks, tap tables, kernel specialisation
// and launch.
#include "gpu/ocl/resampling/resampling.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

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

bool fwd_dt_ok(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s8
           || dt == dnnl_u8;
}
bool bwd_dt_ok(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

struct taps_t {
    dim_t i0, i1;
    float w1;
};

// The source coordinate of output o, x = (o + 0.5) * I / O - 0.5, in
// float as oneDNN computes it; its taps clamped to [0, I - 1].
taps_t taps(bool linear, dim_t I, dim_t O, dim_t o) {
    const float x = ((float)o + 0.5f) * (float)I / (float)O - 0.5f;
    auto clamp = [&](dim_t i) {
        return std::min(std::max(i, (dim_t)0), I - 1);
    };
    if (!linear) {
        const dim_t i = clamp((dim_t)std::round(x));
        return {i, i, 0.f};
    }
    const double f = std::floor((double)x);
    return {clamp((dim_t)f), clamp((dim_t)std::ceil((double)x)),
            (float)((double)x - f)};
}

} // namespace

status_t ocl_resampling_t::pd_t::check_data_types() const {
    const memory_desc_t &x = is_fwd() ? src_md_ : diff_src_md_;
    const memory_desc_t &y = is_fwd() ? dst_md_ : diff_dst_md_;
    const bool ok = is_fwd() ? fwd_dt_ok(x.data_type) && fwd_dt_ok(y.data_type)
                             : bwd_dt_ok(x.data_type) && bwd_dt_ok(y.data_type);
    if (!ok) {
        verbose_check("resampling",
                "gpu: data types f32, bf16, f16 (and s8, u8 forward)");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

status_t ocl_resampling_t::pd_t::init(engine_t *) {
    const primitive_attr_t &a = *attr();
    if (!a.scales.empty() || !a.zero_points.empty() || !a.rounding_modes.empty()
            || (!is_fwd() && !a.post_ops.entries.empty())) {
        verbose_check("resampling", "gpu: only forward post-ops are supported");
        return dnnl_unimplemented;
    }
    const int nd = is_fwd() ? src_md_.ndims : diff_src_md_.ndims;
    if (nd < 3 || nd > 5) {
        verbose_check("resampling", "gpu: 1 to 3 spatial dims");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    DNNL_CHECK(check_data_types());
    const memory_desc_t &x = is_fwd() ? src_md_ : diff_src_md_;
    const memory_desc_t &y = is_fwd() ? dst_md_ : diff_dst_md_;
    if (!layout_supported(x) || !layout_supported(y)) {
        verbose_check("resampling", "gpu: layout not supported");
        return dnnl_unimplemented;
    }
    if (is_fwd()) DNNL_CHECK(post_ops.init(a.post_ops, dst_md_, "resampling"));
    init_conf();
    return dnnl_success;
}

void ocl_resampling_t::pd_t::init_conf() {
    const memory_desc_t s = as_5d(is_fwd() ? src_md_ : diff_src_md_);
    const memory_desc_t d = as_5d(is_fwd() ? dst_md_ : diff_dst_md_);
    const memory_desc_t &out = is_fwd() ? d : s;
    generic = !fast_offsets_ok(s) || !spatial_unblocked(s)
              || !fast_offsets_ok(d) || !spatial_unblocked(d);
    vec = generic ? 1 : channel_lanes(out, {&s, &d});
    walk_t walk;
    make_walk(out, walk, vec);
    work = layout::has_zero_dim(out) ? 0 : walk.volume;
    int32 = offsets_fit_int32(s) && offsets_fit_int32(d);
    out_dense = walk_dense(out);

    // Per spatial dim: O rows of taps (i0, i1, bits of w1), then I rows of
    // output ranges (first, last; empty when first > last).
    tab.clear();
    int64_t taps_at[3], range_at[3];
    for (int i = 0; i < 3; ++i) {
        const dim_t I = s.dims[2 + i], O = d.dims[2 + i];
        taps_at[i] = (int64_t)tab.size();
        std::vector<dim_t> lo((size_t)I, O), hi((size_t)I, -1);
        for (dim_t o = 0; o < O; ++o) {
            const taps_t t = taps(is_linear(), I, O, o);
            uint32_t bits;
            std::memcpy(&bits, &t.w1, sizeof(bits));
            tab.insert(tab.end(), {t.i0, t.i1, (int64_t)bits});
            for (dim_t j : {t.i0, t.i1}) {
                lo[(size_t)j] = std::min(lo[(size_t)j], o);
                hi[(size_t)j] = std::max(hi[(size_t)j], o);
            }
        }
        range_at[i] = (int64_t)tab.size();
        for (dim_t j = 0; j < I; ++j)
            tab.insert(tab.end(), {lo[(size_t)j], hi[(size_t)j]});
    }
    if (tab.empty()) tab.push_back(0);

    conf_t c;
    c.put(walk).put_tensor(s, generic).put_tensor(d, generic);
    for (int i = 0; i < walk_ndims; ++i) c.put(i < 5 ? out.dims[i] : 1);
    for (int i = 0; i < 3; ++i) c.put(taps_at[i]);
    for (int i = 0; i < 3; ++i) c.put(range_at[i]);
    conf = c.values();
}

status_t ocl_resampling_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    opts.define("IS_FWD", pd->is_fwd() ? 1 : 0);
    opts.define("NTAPS", pd->is_linear() ? 2 : 1);
    opts.define("VEC", pd->vec);
    opts.define("OUT_DENSE", pd->out_dense ? 1 : 0);
    define_walk(opts, pd->generic, pd->int32);
    if (pd->is_fwd()) {
        define_data_type(opts, "SRC", pd->src_md()->data_type);
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        pd->post_ops.define(opts);
        opts.define("WITH_SUM", pd->post_ops.has_sum() ? 1 : 0);
        opts.define("PO_NDIMS",
                pd->post_ops.count() ? (int64_t)pd->dst_md()->ndims : 5);
    } else {
        define_data_type(opts, "DIFF_SRC", pd->diff_src_md()->data_type);
        define_data_type(opts, "DIFF_DST", pd->diff_dst_md()->data_type);
    }
    DNNL_CHECK(conf_.create(engine, pd->conf));
    DNNL_CHECK(tab_.create(engine, pd->tab));
    return create_kernel(engine, "resampling/resampling.cl", opts,
            pd->is_fwd() ? "resampling_fwd" : "resampling_bwd", kernel_);
}

status_t ocl_resampling_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->work == 0) return dnnl_success;
    kernel_args_t args;
    if (pd->is_fwd())
        args.mem(mem_of(ctx, DNNL_ARG_SRC)).mem(mem_of(ctx, DNNL_ARG_DST));
    else
        args.mem(mem_of(ctx, DNNL_ARG_DIFF_SRC))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_DST));
    args.mem(conf_.mem()).mem(tab_.mem());
    if (pd->is_fwd()) pd->post_ops.set_args(args, ctx);
    return kernel_.enqueue(
            ctx, nd_range_t({(size_t)pd->work}, {(size_t)256}), args);
}

const impl_list_item_t *resampling_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_resampling_t::pd_t, resampling_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
