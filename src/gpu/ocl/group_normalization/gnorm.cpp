// Group normalization on the gpu engine: checks, staging, kernels,
// launches and the implementation list.
#include "gpu/ocl/group_normalization/gnorm.hpp"

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

enum { f_global = 1, f_save = 2 };

bool fwd_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s8
           || dt == dnnl_u8;
}
bool bwd_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

data_type_t scale_dt(const group_normalization_pd_t &pd, int arg) {
    return pd.with_scale(arg) ? pd.attr()->scales.get(arg)->data_type
                              : dnnl_f32;
}

bool nc_view(const memory_desc_t &md, view3_t &v) {
    return make_view3(md, 1, 2, v);
}

cl_mem required(const exec_ctx_t &ctx, int arg, bool needed, bool &ok) {
    if (!needed) return nullptr;
    cl_mem m = mem_of(ctx, arg);
    if (!m) {
        verbose_error("gnorm", "argument %d has no gpu buffer", arg);
        ok = false;
    }
    return m;
}

} // namespace

// The unit held on chip (gnorm_fwd_cached) on GPUs, as softmax holds its
// rows: statistics computed (given ones leave nothing to hold), units read
// as runs of vectors (vec, as the streaming kernel reads them), enough
// units to give every compute unit one, and a unit that fits the lanes of
// a group of the usual size: 16 vectors a lane in registers at most, and,
// while norm_held_enabled(), for longer units as many more in local memory
// as the group's share allows (the registers then keep what local memory
// cannot: on an H100 a stand-alone kernel holding 14 + 11 vectors a lane
// beat 16 + 9).
void ocl_gnorm_t::pd_t::plan_cache(const device_info_t &dev) {
    if (!gpu_geometry(dev) || vec != 4 || global_stats()
            || n * g < dev.compute_units || cache_vecs() == 0)
        return;
    const unit_geom_t geom = cache_geom(dev, unit_group_limit(dev, 0));
    if (2 * cpg > (int64_t)geom.lr) return;
    cache = unit_cache_vectors(geom, cache_vecs(), max_cache);
    if (cache || !norm_held_enabled()) return;
    const int64_t per_lane = div_up(cache_vecs(), (int64_t)geom.lr);
    const size_t budget = std::min(dev.local_mem_size, max_held_local);
    const size_t tree = geom.local_bytes(1), slot = geom.group_size() * 16;
    const int64_t slots = budget > tree ? (int64_t)((budget - tree) / slot) : 0;
    const int64_t loc = std::min(per_lane - 1, slots);
    if (per_lane - loc > max_cache) return;
    cache = (int)(per_lane - loc);
    cache_local = (int)loc;
}

// Channels-last images (points C apart in src and dst) cut into parts of
// whole points that a group holds on chip (gnorm_fwd_parts) on GPUs,
// while norm_held_enabled(), for units longer than a group's registers
// hold: parts as large as 16 vectors a lane in registers and the group's
// share of local memory hold (the kernel compiled for that most, whatever
// the shape), no more parts an image than compute units (the groups that
// hold an image's parts wait for one another), and a point's C / 4
// vectors dividing the lanes (a lane's channels then stay the same
// throughout).
void ocl_gnorm_t::pd_t::plan_parts(const device_info_t &dev) {
    if (!gpu_geometry(dev) || !norm_held_enabled() || vec != 4 || !ch_inner
            || global_stats() || sp < 2 || n > INT32_MAX || c > INT32_MAX
            || sp > INT32_MAX)
        return;
    for (int k = 0; k < 2; ++k) {
        view3_t v;
        if (!nc_view(staging.kernel_md(k), v) || v.s[1] != 1 || v.s[2] != c)
            return;
    }
    const size_t lanes = unit_group_limit(dev, 0);
    const int64_t cq = c / 4;
    // Units that a group's registers hold go to the kernels without a
    // reset launch and waits (short units gain nothing from parts).
    if (cq == 0 || (int64_t)lanes % cq != 0
            || cache_vecs() <= max_cache * (int64_t)lanes)
        return;
    // The three trees' floats and the ticket beside the held vectors.
    const size_t fixed = 3 * lanes * sizeof(float) + 16;
    const size_t budget = std::min(dev.local_mem_size, max_held_local);
    if (budget <= fixed) return;
    const int64_t slots = (int64_t)((budget - fixed) / (lanes * 16));
    const int64_t most_points = (max_cache + slots) * (int64_t)lanes / cq;
    if (most_points == 0) return;
    int64_t parts = div_up(sp, most_points);
    if (parts > dev.compute_units) return;
    const int64_t points = div_up(sp, parts);
    parts = div_up(sp, points);
    // Three statistics words a (part, channel group) for the whole batch
    // in the scratchpad: huge batches keep the unit kernels.
    if (3 * n * parts * g > max_parts_words) return;
    // The kernel holds the most a lane can whatever the part (lanes past
    // the part's vectors skip their slots), so one program serves every
    // shape.
    cache = max_cache;
    cache_local = (int)slots;
    image_parts = parts;
    part_points = points;
    parts_lanes = lanes;
}

unit_geom_t ocl_gnorm_t::pd_t::cache_geom(
        const device_info_t &dev, size_t max_wg) const {
    return plan_units(n * g, 1, cache_vecs(), false, false, max_wg, dev, false);
}

status_t ocl_gnorm_t::pd_t::init(engine_t *engine) {
    const bool fwd = is_fwd();
    const primitive_attr_t &a = *attr();
    if (!a.zero_points.empty() || !a.rounding_modes.empty()
            || (!fwd && !a.computes_as_default())) {
        verbose_check("gnorm", "gpu: unsupported attributes");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    if (fwd) {
        if (!fwd_dt(src_md()->data_type) || !fwd_dt(dst_md()->data_type)) {
            verbose_check("gnorm", "gpu: data types not supported");
            return dnnl_unimplemented;
        }
        for (const auto &it : a.scales.items)
            if ((it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
                    || it.e.mask != 0 || !kernel_supports(it.e.data_type)) {
                verbose_check("gnorm", "gpu: scales not supported");
                return dnnl_unimplemented;
            }
        DNNL_CHECK(post_ops.init(a.post_ops, *dst_md(), "gnorm"));
    } else if (!bwd_dt(src_md()->data_type) || !bwd_dt(diff_dst_md()->data_type)
               || !bwd_dt(diff_src_md()->data_type)) {
        verbose_check("gnorm", "gpu: data types not supported");
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
    for (int k = 0; k < (fwd ? 2 : 3); ++k) {
        const tensor_t &t = fwd ? fwd_t[k] : bwd_t[k];
        view3_t v;
        const bool native = nc_view(*t.md, v);
        if (!native && !layout_supported(*t.md)) {
            verbose_check("gnorm", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
        staging.add(t.arg, *t.md, !t.out, t.out, native);
    }
    const memory_desc_t &m0 = staging.kernel_md(0);
    n = m0.dims[0];
    c = m0.dims[1];
    sp = dims_product(m0, 2, m0.ndims);
    g = groups();
    cpg = c / g;
    view3_t v0;
    nc_view(m0, v0);
    ch_inner = sp == 1 || v0.s[1] < v0.s[2];
    const device_info_t &dev = device_info_of(engine);
    const size_t wg = unit_group_limit(dev, 0);
    single_lane = single_lane_units(dev, cpg * sp);
    const int64_t units = n * g;
    if (fwd) {
        constexpr int v = 4;
        // Runs of aligned four-wide vectors: nchw units are one
        // contiguous run, nhwc units a run of cpg channels per point.
        bool runs = cpg * sp <= INT32_MAX
                    && (ch_inner ? cpg % v == 0 : (cpg * sp) % v == 0);
        for (int k = 0; k < 2 && runs; ++k) {
            const memory_desc_t &md = staging.kernel_md(k);
            view3_t vk;
            runs = nc_view(md, vk) && !staging.at(k).staged && vk.s[0] % v == 0
                   && md.offset0 % v == 0
                   && (ch_inner ? vk.s[1] == 1 && (sp == 1 || vk.s[2] % v == 0)
                                : vk.s[2] == 1 && vk.s[1] == sp);
        }
        vec = runs ? v : 1;
        plan_cache(dev);
        // Channels-last units that registers alone do not hold are read
        // as parts of whole images instead (contiguous runs).
        if (ch_inner && (cache == 0 || cache_local > 0)) plan_parts(dev);
        if (image_parts) {
            words_off = staging.reserve(
                    (size_t)(3 * n * image_parts * g) * sizeof(float));
            sync_off = staging.reserve(sizeof(int32_t));
            book_scratchpad(staging.scratch_bytes());
            return dnnl_success;
        }
        const unit_geom_t geom = plan_units(
                units, fwd_o(), fwd_i(), false, single_lane, wg, dev, true);
        chunks = geom.chunks();
        if (chunks > 1 && !global_stats() && !cache) {
            partial_off = staging.reserve(
                    (size_t)(3 * chunks * units) * sizeof(float));
            if (!stats_out())
                stats_off =
                        staging.reserve((size_t)(2 * units) * sizeof(float));
        }
    } else {
        nc_units_inner = v0.s[1] == 1 && sp > 1;
        nc_single = single_lane_units(dev, sp);
        // Aligned four-wide vectors in every tensor, read and written by
        // both backward passes: along the points of nchw-like planes, or
        // along the channels of channels-last points (cpg a multiple of
        // four, so a vector stays in one group).
        constexpr int v = 4;
        bool ok = ch_inner ? cpg % v == 0 && sp > 1 : sp % v == 0;
        for (int k = 0; k < 3 && ok; ++k) {
            const memory_desc_t &md = staging.kernel_md(k);
            view3_t vk;
            ok = nc_view(md, vk) && !staging.at(k).staged && vk.s[0] % v == 0
                 && md.offset0 % v == 0
                 && (ch_inner ? vk.s[1] == 1 && vk.s[2] % v == 0
                              : vk.s[2] == 1 && vk.s[1] % v == 0);
        }
        vec = ok ? v : 1;
        const unit_geom_t geom = plan_units(nc_units(), 1, nc_points(),
                nc_units_inner, nc_single, wg, dev, true);
        nc_chunks = geom.chunks();
        ab_off = staging.reserve(
                (size_t)(2 * nc_chunks * n * c) * sizeof(float));
        us_off = staging.reserve((size_t)(2 * units) * sizeof(float));
    }
    book_scratchpad(staging.scratch_bytes());
    return dnnl_success;
}

status_t ocl_gnorm_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const device_info_t &dev = device_info_of(engine);
    const char *src = "group_normalization/gnorm.cl";
    const int64_t units = pd->n * pd->g;
    const int64_t o = pd->ch_inner ? pd->sp : pd->cpg,
                  i = pd->ch_inner ? pd->cpg : pd->sp;
    // The forward kernels' options: geometry, VEC, data types, post-ops.
    auto fwd_options = [&](kernel_options_t &opts, int vec, bool single) {
        define_unit_geom(opts, false, single, dev);
        opts.define("GN_KERNEL", 1);
        opts.define("VEC", vec);
        define_data_type(opts, "SRC", pd->src_md()->data_type);
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        define_data_type(opts, "SSC", scale_dt(*pd, DNNL_ARG_SRC));
        define_data_type(opts, "DSC", scale_dt(*pd, DNNL_ARG_DST));
        pd->post_ops.define(opts);
    };
    if (pd->is_fwd() && pd->image_parts) {
        kernel_options_t opts;
        fwd_options(opts, 4, false);
        opts.define("GN_PARTS", 1);
        // NVIDIA's compiler gives the kernel 255 registers a lane, so one
        // group runs per multiprocessor and its memory traffic stops
        // while the group reduces and waits; capped at 128 two groups
        // share one (H200, 64 x 256 x 56 x 56 over 32 groups: 0.188 ->
        // 0.148 ms; the same cap made the unit kernels spill, 1.9x
        // slower).
        cap_registers_on_nvidia(opts, dev, 128);
        opts.define("UNIT_CACHE", pd->cache);
        opts.define("UNIT_LOCAL", pd->cache_local);
        opts.define("CH_INNER", 1);
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(engine, src, opts,
                {"gnorm_fwd_parts", "held_parts_reset"}, ks));
        fwd_ = ks[0];
        parts_reset_ = ks[1];
        if (fwd_.max_wg_size() < pd->parts_lanes) {
            verbose_error("gnorm",
                    "gpu: the image-parts kernel takes %zu lanes, %zu needed",
                    fwd_.max_wg_size(), pd->parts_lanes);
            return dnnl_runtime_error;
        }
        // Groups take parts by ticket: more groups than can run at once
        // only wait to start.
        parts_groups_ = (size_t)std::min<int64_t>(
                pd->n * pd->image_parts, 2 * (int64_t)dev.compute_units);
    } else if (pd->is_fwd() && pd->cache) {
        kernel_options_t opts;
        fwd_options(opts, 4, false);
        opts.define("UNIT_CACHE", pd->cache);
        opts.define("UNIT_LOCAL", pd->cache_local);
        opts.define("CH_INNER", pd->ch_inner ? 1 : 0);
        DNNL_CHECK(create_kernel(engine, src, opts, "gnorm_fwd_cached", fwd_));
        // The kernel's register budget must still hold a unit with the
        // lanes this kernel allows.
        geom_ = pd->cache_geom(dev, unit_group_limit(dev, fwd_.max_wg_size()));
        held_slots_ = 2 * (size_t)dev.compute_units * geom_.lu;
        if (!pd->cache_fits(geom_)) {
            verbose_error("gnorm", "gpu: unit kernel allows %zu lanes only",
                    fwd_.max_wg_size());
            return dnnl_runtime_error;
        }
    } else if (pd->is_fwd()) {
        kernel_options_t opts;
        fwd_options(opts, pd->vec, pd->single_lane);
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(
                engine, src, opts, {"gnorm_fwd", "gnorm_stats_final"}, ks));
        fwd_ = ks[0];
        stats_final_ = ks[1];
        // Units that src is read twice for, unsplit and too long for
        // registers, take groups of up to 1024 lanes on GPUs: two such
        // groups per multiprocessor keep few units in flight, aiming to
        // have the second read of each find it in the L2 cache.
        size_t wg = unit_group_limit(dev, fwd_.max_wg_size());
        const bool twice = !pd->global_stats() && pd->chunks == 1;
        if (twice && pd->vec > 1 && gpu_geometry(dev)
                && pd->cpg * pd->sp >= 16 * 1024)
            wg = std::max(wg, pow2_floor(std::min({(size_t)1024,
                                      dev.max_wg_size, fwd_.max_wg_size()})));
        geom_ = plan_units(units, pd->fwd_o(), pd->fwd_i(), false,
                pd->single_lane, wg, dev, true,
                pd->global_stats() ? INT64_MAX : pd->chunks);
    } else {
        auto types = [&](kernel_options_t &opts) {
            define_data_type(opts, "SRC", pd->src_md()->data_type);
            define_data_type(opts, "DD", pd->diff_dst_md()->data_type);
            define_data_type(opts, "DS", pd->diff_src_md()->data_type);
        };
        kernel_options_t o2;
        define_unit_geom(
                o2, pd->nc_units_inner, pd->nc_single, device_info_of(engine));
        o2.define("GN_KERNEL", 2);
        o2.define("VEC", pd->vec);
        o2.define("NC_CVEC", pd->ch_inner && pd->vec > 1 ? 1 : 0);
        types(o2);
        // Both backward passes over vectors of points: 64 registers a
        // lane on NVIDIA (H200, 64 x 256 x 56 x 56 over 32 groups, nchw:
        // 0.32 -> 0.31 ms).
        if (pd->vec > 1) cap_registers_on_nvidia(o2, dev, 64);
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(
                engine, src, o2, {"gnorm_bwd_nc", "gnorm_bwd_nc_final"}, ks));
        nc_ = ks[0];
        nc_final_ = ks[1];
        nc_geom_ = plan_units(pd->nc_units(), 1, pd->nc_points(),
                pd->nc_units_inner, pd->nc_single,
                unit_group_limit(dev, nc_.max_wg_size()), dev, true,
                pd->nc_chunks);
        kernel_options_t o3;
        define_unit_geom(o3, false, pd->single_lane, device_info_of(engine));
        o3.define("GN_KERNEL", 3);
        o3.define("VEC", pd->vec);
        types(o3);
        if (pd->vec > 1) cap_registers_on_nvidia(o3, dev, 64);
        DNNL_CHECK(create_kernels(engine, src, o3,
                {"gnorm_bwd_dss", "gnorm_bwd_unit", "gnorm_bwd_apply"}, ks));
        dss_ = ks[0];
        unit_ = ks[1];
        apply_ = ks[2];
        geom_ = plan_units(units, o, i / pd->vec, false, pd->single_lane,
                unit_group_limit(dev, apply_.max_wg_size()), dev, true);
    }
    return staging_.init(engine, pd->staging);
}

gn_view_t ocl_gnorm_t::unit_view(int k, int64_t off0) const {
    const pd_t *pd = pd_();
    view3_t v;
    nc_view(pd->staging.kernel_md(k), v);
    gn_view_t r;
    r.off0 = off0;
    r.sn = v.s[0];
    r.sg = pd->cpg * v.s[1];
    r.so = pd->ch_inner ? v.s[2] : v.s[1];
    r.si = pd->ch_inner ? v.s[1] : v.s[2];
    return r;
}

status_t ocl_gnorm_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->n * pd->g == 0) return dnnl_success;
    DNNL_CHECK(staging_.gather(ctx, pd->staging));
    DNNL_CHECK(pd->is_fwd() ? execute_fwd(ctx) : execute_bwd(ctx));
    return staging_.scatter(ctx, pd->staging);
}

status_t ocl_gnorm_t::execute_fwd(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const staging_t &st = pd->staging;
    const tensor_buf_t src = st.buffer(ctx, 0), dst = st.buffer(ctx, 1);
    // Empty tensors may come without buffers (never read).
    bool ok = (src.mem && dst.mem) || pd->sp * pd->c == 0;
    if (!ok) verbose_error("gnorm", "src or dst has no gpu buffer");
    const bool user_stats = pd->stats_in() || pd->stats_out();
    cl_mem mean = required(ctx, DNNL_ARG_MEAN, user_stats, ok);
    cl_mem var = required(ctx, DNNL_ARG_VARIANCE, user_stats, ok);
    cl_mem scale = required(ctx, DNNL_ARG_SCALE, pd->use_scale(), ok);
    cl_mem shift = required(ctx, DNNL_ARG_SHIFT, pd->use_shift(), ok);
    cl_mem ssc = required(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
            pd->with_scale(DNNL_ARG_SRC), ok);
    cl_mem dsc = required(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
            pd->with_scale(DNNL_ARG_DST), ok);
    if (!ok) return dnnl_invalid_arguments;
    const cl_mem scratch = scratchpad_of(ctx);
    const int64_t units = pd->n * pd->g;
    const int64_t poff = (int64_t)(pd->partial_off / sizeof(float));
    const bool chunked = geom_.chunks() > 1;
    // Where phase 2 finds the statistics.
    cl_mem smean = mean, svar = var;
    int64_t moff = 0, voff = 0;
    if (!user_stats) {
        smean = svar = scratch;
        moff = (int64_t)(pd->stats_off / sizeof(float));
        voff = moff + units;
    }
    auto launch = [&](int phase, int flags) {
        kernel_args_t a;
        a.mem(src.mem).value(unit_view(0, src.off0));
        a.mem(dst.mem).value(unit_view(1, dst.off0));
        a.mem(smean).i64(moff).mem(svar).i64(voff);
        a.mem(scale).mem(shift).value(geom_.sp).i64(pd->g).i64(pd->cpg);
        a.i32(pd->ch_inner ? 1 : 0).f32(pd->desc()->epsilon).i32(flags);
        a.i32(phase).mem(scratch).i64(poff).mem(ssc).mem(dsc);
        a.value(make_dims6(*pd->dst_md())).i32(pd->dst_md()->ndims);
        a.local(geom_.local_bytes(3));
        pd->post_ops.set_args(a, ctx);
        return fwd_.enqueue(ctx, geom_.range(), a);
    };
    if (pd->image_parts)
        return execute_parts(ctx, src, dst, mean, var, scale, shift, ssc, dsc);
    if (pd->cache) {
        // Groups that hold long units take most of a compute unit each:
        // two per compute unit loop over the units (measured on an H100:
        // 5% faster than a group per unit, doc/performance.md).
        nd_range_t range = geom_.range();
        if (pd->cache_local)
            range.global[1] = std::min(range.global[1], held_slots_);
        kernel_args_t a;
        a.mem(src.mem).value(unit_view(0, src.off0));
        a.mem(dst.mem).value(unit_view(1, dst.off0));
        a.mem(smean).i64(moff).mem(svar).i64(voff).mem(scale).mem(shift);
        const int64_t run_vecs = pd->ch_inner ? pd->cpg / 4 : pd->cache_vecs();
        a.i64(units).i64(pd->g).i32((int)pd->cpg).i32((int)pd->sp);
        a.i32((int)run_vecs).i32((int)(pd->cache_vecs() / run_vecs));
        a.i32(pd->ch_inner ? 1 : 0).f32(pd->desc()->epsilon);
        a.i32(pd->stats_out() ? f_save : 0);
        a.mem(ssc).mem(dsc);
        a.value(make_dims6(*pd->dst_md())).i32(pd->dst_md()->ndims);
        a.local(geom_.local_bytes(1));
        a.local(std::max<size_t>(geom_.local_bytes(4 * pd->cache_local), 16));
        pd->post_ops.set_args(a, ctx);
        return fwd_.enqueue(ctx, range, a);
    }
    if (pd->global_stats()) return launch(2, f_global);
    if (!chunked) return launch(0, pd->stats_out() ? f_save : 0);
    DNNL_CHECK(launch(1, 0));
    kernel_args_t f;
    f.mem(scratch).i64(poff).i64(units).i64(geom_.chunks());
    f.mem(smean).i64(moff).mem(svar).i64(voff);
    DNNL_CHECK(stats_final_.enqueue(ctx, nd_range_t({(size_t)units}, {64}), f));
    return launch(2, 0);
}

status_t ocl_gnorm_t::execute_parts(const exec_ctx_t &ctx,
        const tensor_buf_t &src, const tensor_buf_t &dst, cl_mem mean,
        cl_mem var, cl_mem scale, cl_mem shift, cl_mem ssc, cl_mem dsc) const {
    const pd_t *pd = pd_();
    const cl_mem scratch = scratchpad_of(ctx);
    const int64_t sync = (int64_t)(pd->sync_off / sizeof(int32_t));
    const int64_t words_off = (int64_t)(pd->words_off / sizeof(float));
    const int64_t items = pd->n * pd->image_parts;
    const int64_t trips = div_up(items, (int64_t)parts_groups_);
    DNNL_CHECK(reset_held_parts(
            ctx, parts_reset_, scratch, sync, words_off, 3 * items * pd->g));
    // Statistics go to the user's tensors when asked, nowhere otherwise.
    const bool save = pd->stats_out();
    view3_t sv, dv;
    nc_view(pd->staging.kernel_md(0), sv);
    nc_view(pd->staging.kernel_md(1), dv);
    kernel_args_t a;
    a.mem(src.mem).i64(src.off0).i64(sv.s[0]);
    a.mem(dst.mem).i64(dst.off0).i64(dv.s[0]);
    a.mem(save ? mean : nullptr).i64(0).mem(save ? var : nullptr).i64(0);
    a.mem(scale).mem(shift);
    a.i32((int)pd->n).i32((int)pd->c).i32((int)pd->g).i32((int)pd->sp);
    a.i32((int)pd->part_points).i32((int)pd->image_parts).i32((int)trips);
    a.f32(pd->desc()->epsilon).i32(save ? f_save : 0);
    a.mem(ssc).mem(dsc);
    a.value(make_dims6(*pd->dst_md())).i32(pd->dst_md()->ndims);
    a.mem(scratch).i64(sync).mem(scratch).i64(words_off);
    const size_t lanes = pd->parts_lanes;
    a.local(3 * lanes * sizeof(float));
    a.local(std::max<size_t>(lanes * 16 * pd->cache_local, 16));
    a.local(16);
    pd->post_ops.set_args(a, ctx);
    return fwd_.enqueue(ctx, nd_range_t({lanes, parts_groups_}, {lanes, 1}), a);
}

status_t ocl_gnorm_t::execute_bwd(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const staging_t &st = pd->staging;
    tensor_buf_t t[3];
    bool ok = true;
    for (int k = 0; k < 3; ++k) {
        t[k] = st.buffer(ctx, k);
        ok = ok && (t[k].mem || pd->sp * pd->c == 0);
    }
    if (!ok) verbose_error("gnorm", "a data tensor has no gpu buffer");
    const bool full = pd->desc()->prop_kind == dnnl_backward;
    cl_mem mean = required(ctx, DNNL_ARG_MEAN, true, ok);
    cl_mem var = required(ctx, DNNL_ARG_VARIANCE, true, ok);
    cl_mem scale = required(ctx, DNNL_ARG_SCALE, pd->use_scale(), ok);
    cl_mem dscale =
            required(ctx, DNNL_ARG_DIFF_SCALE, full && pd->use_scale(), ok);
    cl_mem dshift =
            required(ctx, DNNL_ARG_DIFF_SHIFT, full && pd->use_shift(), ok);
    if (!ok) return dnnl_invalid_arguments;
    const cl_mem scratch = scratchpad_of(ctx);
    const int64_t units = pd->n * pd->g, nc = pd->n * pd->c;
    const int64_t ab = (int64_t)(pd->ab_off / sizeof(float)),
                  us = (int64_t)(pd->us_off / sizeof(float));
    const float eps = pd->desc()->epsilon;
    const bool need_sums = !pd->global_stats() || dscale || dshift;
    if (need_sums) {
        kernel_args_t a;
        view3_t v;
        nc_view(st.kernel_md(0), v);
        v.off0 = t[0].off0;
        a.mem(t[0].mem).value(v);
        nc_view(st.kernel_md(1), v);
        v.off0 = t[1].off0;
        a.mem(t[1].mem).value(v).mem(mean).value(nc_geom_.sp);
        a.i64(pd->c).i64(pd->cpg).mem(scratch).i64(ab);
        a.local(nc_geom_.local_bytes(2));
        DNNL_CHECK(nc_.enqueue(ctx, nc_geom_.range(), a));
        if (nc_geom_.chunks() > 1) {
            kernel_args_t f;
            f.mem(scratch).i64(ab).i64(nc).i64(nc_geom_.chunks());
            DNNL_CHECK(
                    nc_final_.enqueue(ctx, nd_range_t({(size_t)nc}, {64}), f));
        }
    }
    if (dscale || dshift) {
        kernel_args_t a;
        a.mem(scratch).i64(ab).mem(var).i64(pd->n).i64(pd->c).i64(pd->cpg);
        a.f32(eps).mem(dscale).mem(dshift);
        DNNL_CHECK(dss_.enqueue(ctx, nd_range_t({(size_t)pd->c}, {64}), a));
    }
    if (!pd->global_stats()) {
        kernel_args_t a;
        a.mem(scratch).i64(ab).mem(scale).i64(units).i64(pd->c).i64(pd->cpg);
        a.i64(us);
        DNNL_CHECK(unit_.enqueue(ctx, nd_range_t({(size_t)units}, {64}), a));
    }
    kernel_args_t a;
    for (int k = 0; k < 3; ++k) a.mem(t[k].mem).value(unit_view(k, t[k].off0));
    a.mem(mean).mem(var).mem(scale).mem(scratch).i64(us).value(geom_.sp);
    a.i64(pd->g).i64(pd->cpg).i32(pd->ch_inner ? 1 : 0).f32(eps);
    a.i32(pd->global_stats() ? f_global : 0);
    return apply_.enqueue(ctx, geom_.range(), a);
}

const impl_list_item_t *group_normalization_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_gnorm_t::pd_t, group_normalization_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
