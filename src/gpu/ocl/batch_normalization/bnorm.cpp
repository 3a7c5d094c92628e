// Batch normalization on the gpu engine: checks, staging, kernels,
// launches and the implementation list.
#include "gpu/ocl/batch_normalization/bnorm.hpp"

#include <algorithm>

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

enum { f_global = 1, f_save = 2, f_relu = 4 };

// Lanes of bnorm_stats_bands_final's group (one group per channel).
constexpr size_t final_lanes = 64;

bool float_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

bool nc_view(const memory_desc_t &md, view3_t &v) {
    return make_view3(md, 1, 2, v);
}

cl_mem required(const exec_ctx_t &ctx, int arg, bool needed, bool &ok) {
    if (!needed) return nullptr;
    cl_mem m = mem_of(ctx, arg);
    if (!m) {
        verbose_error("bnorm", "argument %d has no gpu buffer", arg);
        ok = false;
    }
    return m;
}

} // namespace

status_t ocl_bnorm_t::pd_t::init(engine_t *engine) {
    const bool fwd = is_fwd();
    // The C API admits one ReLU post-op (forward; alpha 0 in training) and
    // nothing else that changes the computation.
    const auto &po = attr()->post_ops.entries;
    if (!po.empty()) {
        relu_post_op = true;
        // After the flags' ReLU a leaky one changes nothing.
        relu_slope = any_relu() ? 0.f : po[0].alpha;
    }
    // s8 as oneDNN takes it: forward, src and dst both s8, statistics
    // given (converted through f32, rounded and saturated).
    const bool s8 = fwd && src_md()->data_type == dnnl_s8
            && dst_md()->data_type == dnnl_s8 && global_stats();
    if ((!float_dt(src_md()->data_type) && !s8)
            || (fwd && !float_dt(dst_md()->data_type) && !s8)
            || (!fwd
                    && (!float_dt(diff_src_md()->data_type)
                            || !float_dt(diff_dst_md()->data_type)))) {
        verbose_check("bnorm", "gpu: data types not supported");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    struct tensor_t {
        int slot, arg;
        const memory_desc_t *md;
        bool out, used;
    };
    const tensor_t fwd_t[] = {{src, DNNL_ARG_SRC, src_md(), false, true},
            {dst, DNNL_ARG_DST, dst_md(), true, true},
            {src1, DNNL_ARG_SRC_1, dst_md(), false, fuse_add_relu()},
            {ws, DNNL_ARG_WORKSPACE, ws_md(), true, has_ws()}};
    const tensor_t bwd_t[] = {{src, DNNL_ARG_SRC, src_md(), false, true},
            {diff_dst, DNNL_ARG_DIFF_DST, diff_dst_md(), false, true},
            {diff_src, DNNL_ARG_DIFF_SRC, diff_src_md(), true, true},
            {ws, DNNL_ARG_WORKSPACE, ws_md(), false, has_ws()},
            {diff_src1, DNNL_ARG_DIFF_SRC_1, diff_src_md(), true,
                    fuse_add_relu()}};
    const int nt = fwd ? 4 : 5;
    for (int i = 0; i < nt; ++i) {
        const tensor_t &t = fwd ? fwd_t[i] : bwd_t[i];
        if (!t.used) continue;
        view3_t v;
        const bool native = nc_view(*t.md, v);
        if (!native && !layout_supported(*t.md)) {
            verbose_check("bnorm", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
        k[t.slot] = staging.add(t.arg, *t.md, !t.out, t.out, native);
    }
    const memory_desc_t &m0 = staging.kernel_md(k[src]);
    n = m0.dims[0];
    c = m0.dims[1];
    sp = dims_product(m0, 2, m0.ndims);
    view3_t v0;
    nc_view(m0, v0);
    units_inner = v0.s[1] == 1 && c > 1;
    merge_n = units_inner;
    for (int i = 0; i < staging.size() && merge_n; ++i) {
        view3_t v;
        nc_view(staging.kernel_md(i), v);
        merge_n = n == 1 || sp == 1 || v.s[0] == sp * v.s[2];
    }
    const device_info_t &dev = device_info_of(engine);
    single_lane = single_lane_units(dev, n * sp);
    init_dense();
    // Backward takes the dense kernels over channels-last layouts only
    // (bands of rows for the sums, then diff_src elementwise).
    if (!fwd && dense && !(cstride == 1 && n * sp > 0)) dense = false;
    if (dense && !fwd) {
        init_bands(dev);
        partial_off = staging.reserve((size_t)(2 * bands * c) * sizeof(float));
        stats_off = staging.reserve((size_t)(2 * c) * sizeof(float));
        book_scratchpad(staging.scratch_bytes());
        return dnnl_success;
    }
    if (dense && fwd && !global_stats() && cstride == 1 && n * sp > 0) {
        init_bands(dev);
        partial_off = staging.reserve((size_t)(3 * bands * c) * sizeof(float));
        if (!stats_out())
            stats_off = staging.reserve((size_t)(2 * c) * sizeof(float));
        book_scratchpad(staging.scratch_bytes());
        return dnnl_success;
    }
    if (dense && global_stats()) {
        vec = dense_vec;
    } else if (!units_inner && !merge_n && gpu_geometry(dev)) {
        bool aligned = true;
        for (int i = 0; i < staging.size(); ++i) {
            view3_t v;
            const memory_desc_t &md = staging.kernel_md(i);
            aligned = aligned && nc_view(md, v) && v.s[2] == 1 && sp % 4 == 0
                      && v.s[0] % 4 == 0 && v.s[1] % 4 == 0
                      && md.offset0 % 4 == 0 && !staging.at(i).staged;
        }
        vec = aligned ? 4 : 1;
    }
    // The held kernels take f32 data: with 16-bit elements a part's
    // vectors carry half the bytes while the waits stay, and the unit
    // kernels ran faster (H200, 64 x 256 x 56 x 56, training forward
    // bf16 0.219 against 0.241 ms held, f16 0.203 against 0.240;
    // backward f16 0.245 against 0.305).
    const bool f32_data =
            src_md()->data_type == dnnl_f32
            && (fwd ? dst_md() : diff_dst_md())->data_type == dnnl_f32;
    if ((!fwd || !global_stats()) && vec == 4 && f32_data
            && norm_held_enabled())
        plan_held(dev);
    if (held_parts > 0) {
        partial_off = staging.reserve(
                (size_t)(held_words() * held_parts * c) * sizeof(float));
        sync_off = staging.reserve(sizeof(int32_t));
        dense = false;
        book_scratchpad(staging.scratch_bytes());
        return dnnl_success;
    }
    const unit_geom_t g = plan_units(c, merge_n ? n * sp : n,
            merge_n ? 1 : points(), units_inner, single_lane,
            unit_group_limit(dev, 0), dev, true, INT64_MAX, groups_per_cu);
    chunks = g.chunks();
    // Computed statistics in one group per channel: that kernel also
    // normalizes, so the elementwise pass would never run.
    if (dense && !global_stats() && chunks == 1) dense = false;
    if (chunks > 1 && (!fwd || !global_stats())) {
        const int per = fwd ? 3 : 2;
        partial_off =
                staging.reserve((size_t)(per * chunks * c) * sizeof(float));
        if (!fwd || !stats_out())
            stats_off = staging.reserve((size_t)(2 * c) * sizeof(float));
    }
    book_scratchpad(staging.scratch_bytes());
    return dnnl_success;
}

void ocl_bnorm_t::pd_t::init_dense() {
    constexpr int v = dense_vec;
    const memory_desc_t &m0 = staging.kernel_md(k[src]);
    const blocking_desc_t &b0 = m0.format_desc.blocking;
    if (m0.ndims < 2 || b0.inner_nblks != 0 || !walk_dense(m0)) return;
    for (int i = 0; i < staging.size(); ++i) {
        const memory_desc_t &md = staging.kernel_md(i);
        const blocking_desc_t &b = md.format_desc.blocking;
        if (staging.at(i).staged || b.inner_nblks != 0 || md.offset0 % v != 0)
            return;
        for (int d = 0; d < m0.ndims; ++d)
            if (md.padded_dims[d] != m0.padded_dims[d]
                    || (m0.dims[d] > 1 && b.strides[d] != b0.strides[d]))
                return;
    }
    const int64_t elems = n * c * sp;
    const int64_t cs = c > 1 ? b0.strides[1] : 1;
    if (elems % v != 0 || (cs == 1 ? c % v != 0 : cs % v != 0)) return;
    dense = true;
    cstride = cs;
    idx32 = elems < ((int64_t)1 << 31);
}

void ocl_bnorm_t::pd_t::init_bands(const device_info_t &dev) {
    constexpr int64_t rows_at_once = 4; // BN_ROWS in bnorm.cl
    const int64_t rows = n * sp, cvecs = c / dense_vec;
    const size_t group = std::min<size_t>(256, dev.max_wg_size);
    const size_t lc = (size_t)std::min<int64_t>(
            std::min<int64_t>(cvecs, 64), (int64_t)group);
    size_t lr = 1;
    while (lr * 2 * lc <= group) lr *= 2;
    // A few groups per compute unit over the whole tensor (their partial
    // statistics are merged per channel afterwards), each band at least
    // one load round of every row lane.
    const int64_t cblocks = div_up(cvecs, (int64_t)lc);
    const int64_t want =
            std::max<int64_t>(1, (int64_t)dev.compute_units * 4 / cblocks);
    const int64_t most = div_up(rows, (int64_t)lr * rows_at_once);
    band_rows = div_up(rows, std::min(want, most));
    bands = div_up(rows, band_rows);
    band_lanes[0] = lc;
    band_lanes[1] = lr;
}

// Statistics and normalization in one launch (bnorm_fwd_held) on GPUs,
// while norm_held_enabled(): channels cut into parts as large as a
// group's registers (16 vectors a lane) and local memory hold, with no
// more parts per channel than compute units, since the groups that hold
// one channel's parts wait for one another. Registers take what they can
// first (on an H100 a stand-alone kernel with parts of 16 + 9 vectors a
// lane ran at 0.19 ms, 14 + 11 at 0.26 ms), 8 a lane on NVIDIA where the
// kernel is capped at 128 registers. The backward (bnorm_bwd_held) holds
// src and diff_dst: each gets half of the registers and of the slots
// (H200, 64 x 256 x 56 x 56: 4 vectors of each a lane in registers
// 0.245-0.251 ms, 6 0.235, 8 0.36, 2 0.25; 256 x 1024 x 14 x 14: 4
// 0.205-0.210, 6 0.236).
void ocl_bnorm_t::pd_t::plan_held(const device_info_t &dev) {
    const int tensors = is_fwd() ? 1 : 2;
    const int64_t pv = sp / vec;
    const size_t lanes = unit_group_limit(dev, 0);
    // The tree's floats (two a lane backward) and the ticket (16 bytes)
    // beside the held vectors.
    const size_t fixed = (size_t)tensors * lanes * sizeof(float) + 16;
    const size_t budget = std::min(dev.local_mem_size, max_held_local);
    if (!gpu_geometry(dev) || pv == 0 || n == 0 || n > INT32_MAX
            || budget <= fixed)
        return;
    const int64_t slots =
            (int64_t)((budget - fixed) / (lanes * 16 * (size_t)tensors));
    const int regs = (dev.vendor == device_vendor_t::nvidia ? nvidia_held_cache
                                                            : max_held_cache)
                     / tensors;
    const int64_t most = (regs + slots) * (int64_t)lanes;
    if (pv > most) return;
    const int64_t parts = div_up(n, most / pv);
    // Lane j gathers part j's words into the tree's buffer.
    if (parts > dev.compute_units
            || held_words() * parts > tensors * (int64_t)lanes)
        return;
    held_images = div_up(n, parts);
    const int64_t per_lane = div_up(held_images * pv, (int64_t)lanes);
    held_cache = (int)std::min<int64_t>(per_lane, regs);
    held_local = (int)(per_lane - held_cache);
    held_lanes = lanes;
    held_parts = parts;
}

status_t ocl_bnorm_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const bool fwd = pd->is_fwd();
    kernel_options_t opts;
    define_unit_geom(
            opts, pd->units_inner, pd->single_lane, device_info_of(engine));
    opts.define("IS_FWD", fwd ? 1 : 0);
    opts.define("VEC", pd->vec);
    opts.define("IDX32", pd->idx32 ? 1 : 0);
    // Compiled in only when not 0, so that the usual programs stay shared.
    if (pd->relu_slope != 0.f) opts.define_float("RELU_SLOPE", pd->relu_slope);
    define_data_type(opts, "DATA", pd->src_md()->data_type);
    if (fwd) {
        define_data_type(opts, "DST", pd->dst_md()->data_type);
    } else {
        define_data_type(opts, "DD", pd->diff_dst_md()->data_type);
        define_data_type(opts, "DS", pd->diff_src_md()->data_type);
    }
    if (pd->held_parts > 0) {
        kernel_options_t hopts = opts;
        hopts.define("HELD_CACHE", pd->held_cache);
        hopts.define("HELD_LOCAL", pd->held_local);
        hopts.define("HELD_ADD", pd->fuse_add_relu() ? 1 : 0);
        hopts.define("HELD_RELU",
                (fwd ? pd->relu_in_kernel() : pd->has_ws()) ? 1 : 0);
        // One group a multiprocessor (the compiler's 255 registers a lane)
        // leaves the memory idle while it reduces and waits; with 128 and
        // 8 vectors a lane in registers two share one (H200, 64 x 256 x 56
        // x 56: 0.186-0.190 -> 0.161-0.162 ms, with fused ReLU 0.244-0.248
        // -> 0.191-0.193; 16 vectors under the cap: 0.181-0.187, 6 or 10
        // as 8).
        cap_registers_on_nvidia(hopts, device_info_of(engine), 128);
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(engine, "batch_normalization/bnorm.cl", hopts,
                {fwd ? "bnorm_fwd_held" : "bnorm_bwd_held", "held_parts_reset"},
                ks));
        held_ = ks[0];
        held_reset_ = ks[1];
        if (held_.max_wg_size() < pd->held_lanes) {
            verbose_error("bnorm",
                    "gpu: the held kernel takes %zu lanes, %zu needed",
                    held_.max_wg_size(), pd->held_lanes);
            return dnnl_runtime_error;
        }
        // Groups take parts by ticket: more groups than can run at once
        // only wait to start.
        held_groups_ = (size_t)std::min<int64_t>(pd->c * pd->held_parts,
                2 * (int64_t)device_info_of(engine).compute_units);
        return staging_.init(engine, pd->staging);
    }
    // The dense layouts' kernels: the elementwise pass, and the bands'
    // sums or statistics with their merge.
    auto create_bands =
            [&](const kernel_options_t &dopts,
                    const std::vector<const char *> &names) -> status_t {
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(
                engine, "batch_normalization/bnorm.cl", dopts, names, ks));
        dense_ = ks[0];
        bands_ = ks[1];
        bands_final_ = ks[2];
        if (bands_.max_wg_size() < pd->band_lanes[0] * pd->band_lanes[1]
                || bands_final_.max_wg_size() < final_lanes) {
            verbose_error("bnorm",
                    "gpu: the device allows too few work-items per group "
                    "for the %s kernels",
                    fwd ? "statistics" : "backward sums");
            return dnnl_unimplemented;
        }
        return staging_.init(engine, pd->staging);
    };
    if (pd->dense) {
        kernel_options_t dopts = opts;
        dopts.define("VEC", pd_t::dense_vec);
        if (!fwd)
            return create_bands(dopts, {"bnorm_bwd_dense", "bnorm_bwd_bands",
                                               "bnorm_bwd_bands_final"});
        if (pd->bands > 0)
            return create_bands(dopts, {"bnorm_fwd_dense", "bnorm_stats_bands",
                                               "bnorm_stats_bands_final"});
        DNNL_CHECK(create_kernel(engine, "batch_normalization/bnorm.cl", dopts,
                "bnorm_fwd_dense", dense_));
        if (pd->global_stats()) return staging_.init(engine, pd->staging);
    }
    // Backward over vectors of points: 64 registers a lane on NVIDIA
    // (H200, 64 x 256 x 56 x 56 nchw: 0.41 -> 0.33 ms; 128 changed
    // nothing).
    if (!fwd && pd->vec > 1)
        cap_registers_on_nvidia(opts, device_info_of(engine), 64);
    std::vector<ocl_kernel_t> ks;
    DNNL_CHECK(create_kernels(engine, "batch_normalization/bnorm.cl", opts,
            {fwd ? "bnorm_fwd" : "bnorm_bwd",
                    fwd ? "bnorm_stats_final" : "bnorm_sums_final"},
            ks));
    main_ = ks[0];
    final_ = ks[1];
    const device_info_t &dev = device_info_of(engine);
    const bool fixed = !fwd || !pd->global_stats();
    geom_ = plan_units(pd->c, pd->merge_n ? pd->n * pd->sp : pd->n,
            pd->merge_n ? 1 : pd->points(), pd->units_inner, pd->single_lane,
            unit_group_limit(dev, main_.max_wg_size()), dev, true,
            fixed ? pd->chunks : INT64_MAX, pd_t::groups_per_cu);
    return staging_.init(engine, pd->staging);
}

bn_view_t ocl_bnorm_t::view(int k, int64_t off0) const {
    const pd_t *pd = pd_();
    if (k < 0) return {0, 0, 0, 0};
    view3_t v;
    nc_view(pd->staging.kernel_md(k), v);
    if (pd->merge_n) return {off0, v.s[1], pd->sp == 1 ? v.s[0] : v.s[2], 0};
    return {off0, v.s[1], v.s[0], v.s[2]};
}

status_t ocl_bnorm_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->c == 0) return dnnl_success;
    DNNL_CHECK(staging_.gather(ctx, pd->staging));
    DNNL_CHECK(pd->is_fwd() ? execute_fwd(ctx) : execute_bwd(ctx));
    return staging_.scatter(ctx, pd->staging);
}

// The bands kernels' range: channel vectors by the groups' row lanes,
// one group of row lanes a band.
nd_range_t ocl_bnorm_t::bands_range() const {
    const pd_t *pd = pd_();
    const size_t lc = pd->band_lanes[0], lr = pd->band_lanes[1];
    const int64_t cvecs = pd->c / pd_t::dense_vec;
    return nd_range_t(
            {(size_t)div_up(cvecs, (int64_t)lc) * lc, (size_t)pd->bands * lr},
            {lc, lr});
}

status_t ocl_bnorm_t::execute_fwd(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const staging_t &st = pd->staging;
    const bool empty = pd->n * pd->sp == 0;
    bool ok = true;
    tensor_buf_t b[pd_t::count];
    for (int s : {pd_t::src, pd_t::dst, pd_t::src1, pd_t::ws}) {
        if (pd->k[s] < 0) continue;
        b[s] = st.buffer(ctx, pd->k[s]);
        if (!b[s].mem && !empty) {
            verbose_error("bnorm", "argument %d has no gpu buffer",
                    st.at(pd->k[s]).arg);
            ok = false;
        }
    }
    const bool user_stats = pd->stats_in() || pd->stats_out();
    cl_mem mean = required(ctx, DNNL_ARG_MEAN, user_stats, ok);
    cl_mem var = required(ctx, DNNL_ARG_VARIANCE, user_stats, ok);
    cl_mem scale = required(ctx, DNNL_ARG_SCALE, pd->use_scale(), ok);
    cl_mem shift = required(ctx, DNNL_ARG_SHIFT, pd->use_shift(), ok);
    if (!ok) return dnnl_invalid_arguments;
    const cl_mem scratch = scratchpad_of(ctx);
    const int64_t poff = (int64_t)(pd->partial_off / sizeof(float));
    cl_mem smean = mean, svar = var;
    int64_t moff = 0, voff = 0;
    if (!user_stats) {
        smean = svar = scratch;
        moff = (int64_t)(pd->stats_off / sizeof(float));
        voff = moff + pd->c;
    }
    const int relu = pd->relu_in_kernel() ? f_relu : 0;
    if (pd->held_parts > 0)
        return execute_held(ctx, b, smean, moff, svar, voff, scale, shift);
    auto launch = [&](int phase, int flags) {
        kernel_args_t a;
        for (int s : {pd_t::src, pd_t::dst, pd_t::src1, pd_t::ws})
            a.mem(b[s].mem).value(view(pd->k[s], b[s].off0));
        a.mem(smean).i64(moff).mem(svar).i64(voff).mem(scale).mem(shift);
        a.value(geom_.sp).f32(pd->desc()->epsilon).i32(flags | relu);
        a.i32(phase).mem(scratch).i64(poff).local(geom_.local_bytes(3));
        return main_.enqueue(ctx, geom_.range(), a);
    };
    // Normalization from statistics at (m, mo) and (v, vo) as one
    // elementwise pass.
    auto launch_dense = [&](cl_mem m, int64_t mo, cl_mem v, int64_t vo,
                                int reverse) {
        kernel_args_t a;
        for (int s : {pd_t::src, pd_t::dst, pd_t::src1, pd_t::ws})
            a.mem(b[s].mem).i64(b[s].off0);
        a.mem(m).i64(mo).mem(v).i64(vo).mem(scale).mem(shift);
        const int64_t vectors = pd->n * pd->c * pd->sp / pd_t::dense_vec;
        a.i64(vectors).i64(pd->cstride).i64(pd->c);
        a.f32(pd->desc()->epsilon).i32(relu).i32(reverse);
        return dense_.enqueue(ctx, nd_range_t({(size_t)vectors}, {256}), a);
    };
    if (pd->global_stats())
        return pd->dense ? launch_dense(mean, 0, var, 0, 0)
                         : launch(2, f_global);
    if (pd->bands > 0) {
        const size_t lc = pd->band_lanes[0], lr = pd->band_lanes[1];
        kernel_args_t a;
        a.mem(b[pd_t::src].mem).i64(b[pd_t::src].off0).i64(pd->n * pd->sp);
        a.i64(pd->c).i64(pd->band_rows).mem(scratch).i64(poff);
        a.local(3 * lc * lr * sizeof(float));
        DNNL_CHECK(bands_.enqueue(ctx, bands_range(), a));
        kernel_args_t f;
        f.mem(scratch).i64(poff).i64(pd->bands);
        f.mem(smean).i64(moff).mem(svar).i64(voff);
        f.local(3 * final_lanes * sizeof(float));
        DNNL_CHECK(bands_final_.enqueue(ctx,
                nd_range_t({(size_t)pd->c * final_lanes}, {final_lanes}), f));
        return launch_dense(smean, moff, svar, voff, 1);
    }
    if (geom_.chunks() == 1) return launch(0, pd->stats_out() ? f_save : 0);
    DNNL_CHECK(launch(1, 0));
    kernel_args_t f;
    f.mem(scratch).i64(poff).i64(pd->c).i64(geom_.chunks());
    f.mem(smean).i64(moff).mem(svar).i64(voff);
    DNNL_CHECK(final_.enqueue(ctx, nd_range_t({(size_t)pd->c}, {64}), f));
    return pd->dense ? launch_dense(smean, moff, svar, voff, 0) : launch(2, 0);
}

// The held kernel's launch after its arguments up to its scale and shift
// (forward) or diff scale / shift (backward), which `a` holds: the
// published words reset, then the shape of the parts, flags, scratch and
// local memory.
status_t ocl_bnorm_t::launch_held(
        const exec_ctx_t &ctx, kernel_args_t &a, int flags) const {
    const pd_t *pd = pd_();
    const cl_mem scratch = scratchpad_of(ctx);
    const int64_t sync = (int64_t)(pd->sync_off / sizeof(int32_t));
    const int64_t words = (int64_t)(pd->partial_off / sizeof(float));
    const int64_t items = pd->c * pd->held_parts;
    const int64_t trips = div_up(items, (int64_t)held_groups_);
    DNNL_CHECK(reset_held_parts(
            ctx, held_reset_, scratch, sync, words, pd->held_words() * items));
    a.i64(pd->c).i32((int)pd->n).i32((int)(pd->sp / pd->vec));
    a.i32((int)pd->held_images).i32((int)pd->held_parts).i32((int)trips);
    a.f32(pd->desc()->epsilon).i32(flags);
    a.mem(scratch).i64(sync).mem(scratch).i64(words);
    const size_t lanes = pd->held_lanes, tensors = pd->is_fwd() ? 1 : 2;
    a.local(tensors * lanes * sizeof(float));
    a.local(std::max<size_t>(tensors * lanes * 16 * pd->held_local, 16));
    a.local(16);
    return held_.enqueue(ctx, nd_range_t({lanes, held_groups_}, {lanes, 1}), a);
}

status_t ocl_bnorm_t::execute_held(const exec_ctx_t &ctx, const tensor_buf_t *b,
        cl_mem mean, int64_t moff, cl_mem var, int64_t voff, cl_mem scale,
        cl_mem shift) const {
    const pd_t *pd = pd_();
    kernel_args_t a;
    for (int s : {pd_t::src, pd_t::dst, pd_t::src1, pd_t::ws})
        a.mem(b[s].mem).value(view(pd->k[s], b[s].off0));
    a.mem(mean).i64(moff).mem(var).i64(voff).mem(scale).mem(shift);
    return launch_held(ctx, a,
            (pd->relu_in_kernel() ? f_relu : 0)
                    | (pd->stats_out() ? f_save : 0));
}

status_t ocl_bnorm_t::execute_bwd(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const staging_t &st = pd->staging;
    const bool empty = pd->n * pd->sp == 0;
    bool ok = true;
    tensor_buf_t b[pd_t::count];
    const int slots[] = {pd_t::src, pd_t::diff_dst, pd_t::diff_src,
            pd_t::diff_src1, pd_t::ws};
    for (int s : slots) {
        if (pd->k[s] < 0) continue;
        b[s] = st.buffer(ctx, pd->k[s]);
        if (!b[s].mem && !empty) {
            verbose_error("bnorm", "argument %d has no gpu buffer",
                    st.at(pd->k[s]).arg);
            ok = false;
        }
    }
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
    const int64_t poff = (int64_t)(pd->partial_off / sizeof(float)),
                  soff = (int64_t)(pd->stats_off / sizeof(float));
    const float eps = pd->desc()->epsilon;
    if (pd->dense) {
        if (empty || pd->c == 0) return dnnl_success;
        const size_t lc = pd->band_lanes[0], lr = pd->band_lanes[1];
        const int64_t rows = pd->n * pd->sp;
        kernel_args_t a;
        for (int s : {pd_t::src, pd_t::diff_dst, pd_t::ws})
            a.mem(b[s].mem).i64(b[s].off0);
        a.mem(mean).i64(rows).i64(pd->c).i64(pd->band_rows);
        a.mem(scratch).i64(poff).local(2 * lc * lr * sizeof(float));
        DNNL_CHECK(bands_.enqueue(ctx, bands_range(), a));
        kernel_args_t f;
        f.mem(scratch).i64(poff).i64(pd->bands).i64(soff).mem(var).f32(eps);
        f.mem(dscale).mem(dshift).local(2 * final_lanes * sizeof(float));
        DNNL_CHECK(bands_final_.enqueue(ctx,
                nd_range_t({(size_t)pd->c * final_lanes}, {final_lanes}), f));
        kernel_args_t d;
        for (int s : {pd_t::src, pd_t::diff_dst, pd_t::diff_src,
                     pd_t::diff_src1, pd_t::ws})
            d.mem(b[s].mem).i64(b[s].off0);
        const int64_t vectors = rows * pd->c / pd_t::dense_vec;
        d.mem(mean).mem(var).mem(scale).mem(scratch).i64(soff);
        d.i64(vectors).i64(pd->c).f32((float)rows).f32(eps);
        d.i32(pd->global_stats() ? f_global : 0);
        return dense_.enqueue(ctx, nd_range_t({(size_t)vectors}, {256}), d);
    }
    if (pd->held_parts > 0) {
        kernel_args_t a;
        for (int s : slots) a.mem(b[s].mem).value(view(pd->k[s], b[s].off0));
        a.mem(mean).mem(var).mem(scale).mem(dscale).mem(dshift);
        return launch_held(ctx, a, pd->global_stats() ? f_global : 0);
    }
    auto launch = [&](int phase) {
        kernel_args_t a;
        for (int s : slots) a.mem(b[s].mem).value(view(pd->k[s], b[s].off0));
        a.mem(mean).mem(var).mem(scale).mem(dscale).mem(dshift);
        a.value(geom_.sp).f32(eps).i32(pd->global_stats() ? f_global : 0);
        a.i32(phase).mem(scratch).i64(poff).i64(soff);
        a.local(geom_.local_bytes(2));
        return main_.enqueue(ctx, geom_.range(), a);
    };
    if (geom_.chunks() == 1) return launch(0);
    DNNL_CHECK(launch(1));
    kernel_args_t f;
    f.mem(scratch).i64(poff).i64(pd->c).i64(geom_.chunks()).i64(soff);
    f.mem(var).f32(eps).mem(dscale).mem(dshift);
    DNNL_CHECK(final_.enqueue(ctx, nd_range_t({(size_t)pd->c}, {64}), f));
    return launch(2);
}

const impl_list_item_t *batch_normalization_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_bnorm_t::pd_t, batch_normalization_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
