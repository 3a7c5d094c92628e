// Strided views and unit geometry (see ocl_unit_plan.hpp).
#include "gpu/ocl/ocl_unit_plan.hpp"

#include <algorithm>
#include <string>

#include "common/utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// Lanes per unit of multi-lane kernels on CPU devices.
constexpr size_t cpu_lanes = 16;

size_t pow2_ceil(int64_t v) {
    size_t p = 1;
    while ((int64_t)p < v) p <<= 1;
    return p;
}

} // namespace

size_t pow2_floor(size_t v) {
    size_t p = 1;
    while (p * 2 <= v) p <<= 1;
    return p;
}

bool merged_stride(const memory_desc_t &md, int d0, int d1, int64_t &stride) {
    if (md.format_kind != dnnl_blocked
            || md.format_desc.blocking.inner_nblks != 0
            || md_has_runtime_dims_or_strides(md))
        return false;
    const auto &s = md.format_desc.blocking.strides;
    stride = 0;
    int64_t expect = -1; // stride the next outer non-unit dim must have
    for (int d = d1 - 1; d >= d0; --d) {
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0)
            return false;
        if (md.dims[d] == 1) continue;
        if (expect < 0)
            stride = s[d];
        else if (s[d] != expect)
            return false;
        expect = s[d] * md.dims[d];
    }
    return true;
}

int64_t dims_product(const memory_desc_t &md, int d0, int d1) {
    int64_t p = 1;
    for (int d = d0; d < d1; ++d) p *= md.dims[d];
    return p;
}

bool make_view3(const memory_desc_t &md, int d1, int d2, view3_t &v) {
    v.off0 = 0;
    return merged_stride(md, 0, d1, v.s[0]) && merged_stride(md, d1, d2, v.s[1])
           && merged_stride(md, d2, md.ndims, v.s[2]);
}

dims6_t make_dims6(const memory_desc_t &md) {
    dims6_t r;
    for (int d = 0; d < 6; ++d) r.d[d] = d < md.ndims ? md.dims[d] : 1;
    return r;
}

nd_range_t unit_geom_t::range() const {
    const size_t groups = (size_t)div_up(sp.units, (int64_t)lu);
    const size_t q = (size_t)chunks();
    if (units_inner) return nd_range_t({groups * lu, lr, q}, {lu, lr, 1});
    return nd_range_t({lr, groups * lu, q}, {lr, lu, 1});
}

bool rows_vectorizable(
        const memory_desc_t &md, const view3_t &v, int64_t len, int vec) {
    return v.s[1] == 1 && len % vec == 0 && v.s[0] % vec == 0
            && md.offset0 % vec == 0;
}

int unit_cache_vectors(const unit_geom_t &g, int64_t vectors, int max_per_lane) {
    const int64_t per_lane = div_up(vectors, (int64_t)std::max<size_t>(g.lr, 1));
    if (per_lane > max_per_lane) return 0;
    return (int)pow2_ceil(std::max<int64_t>(per_lane, 1));
}

size_t unit_group_limit(const device_info_t &dev, size_t kernel_max) {
    size_t wg = std::min<size_t>(256, dev.max_wg_size);
    if (kernel_max) wg = std::min(wg, kernel_max);
    return pow2_floor(std::max<size_t>(wg, 1));
}

bool gpu_geometry(const device_info_t &dev) {
    return dev.is_gpu() || getenv_string("ONEDNN_OCL_UNIT_GEOMETRY") == "gpu";
}

bool norm_held_enabled() {
    return getenv_string("ONEDNN_OCL_NORM_HELD") != "0";
}

bool single_lane_units(const device_info_t &dev, int64_t elems) {
    return !gpu_geometry(dev) && elems < 1024;
}

status_t reset_held_parts(const exec_ctx_t &ctx, const ocl_kernel_t &reset,
        cl_mem scratch, int64_t ticket_off, int64_t words_off, int64_t count) {
    kernel_args_t a;
    a.mem(scratch).i64(ticket_off).i64(words_off).i64(count);
    return reset.enqueue(ctx,
            nd_range_t({(size_t)div_up(std::max<int64_t>(count, 1), 64) * 64},
                    {64}),
            a);
}

void cap_registers_on_nvidia(
        kernel_options_t &opts, const device_info_t &dev, int registers) {
    if (dev.vendor == device_vendor_t::nvidia)
        opts.add_option("-cl-nv-maxrregcount=" + std::to_string(registers));
}

void define_unit_geom(kernel_options_t &opts, bool units_inner, bool single,
        const device_info_t &dev) {
    opts.define("UNITS_INNER", units_inner ? 1 : 0);
    opts.define("UL_LANES", single ? 1 : gpu_geometry(dev) ? 0 : cpu_lanes);
}

unit_geom_t plan_units(int64_t units, int64_t o, int64_t i, bool units_inner,
        bool single, size_t max_wg, const device_info_t &dev, bool split,
        int64_t max_chunks, int groups_per_cu) {
    unit_geom_t g;
    g.units_inner = units_inner;
    g.single_lane = single;
    // Empty units (o or i zero) stay empty: kernels still visit them
    // (statistics of nothing, sums of nothing).
    g.sp = {units, std::max<int64_t>(o, 0), std::max<int64_t>(i, 0), 1, 1};
    const size_t wg = pow2_floor(std::max<size_t>(max_wg, 1));
    const int64_t elems = g.sp.o * g.sp.i;
    // About four elements per lane before the tree.
    const size_t lanes_wanted = pow2_ceil(std::max<int64_t>(1, elems / 4));
    if (single) {
        g.lu = std::min<size_t>(16, wg);
        g.lr = 1;
    } else if (!gpu_geometry(dev)) {
        // CPU devices (PoCL) compile a kernel again for every new local
        // size, and gain nothing from wide groups: one shape per kernel,
        // its lane count compiled in (define_unit_geom).
        g.lr = cpu_lanes;
        g.lu = units_inner
                       ? std::max<size_t>(1, std::min<size_t>(16, wg / g.lr))
                       : 1;
    } else if (units_inner) {
        g.lu = std::min(
                {wg, (size_t)32, pow2_ceil(std::max<int64_t>(units, 1))});
        g.lr = std::min(wg / g.lu, lanes_wanted);
    } else {
        g.lr = std::min(wg, lanes_wanted);
        g.lu = std::min(wg / g.lr, pow2_ceil(std::max<int64_t>(units, 1)));
    }
    if (!split || units <= 0) return g;
    // Enough groups to fill the device (by default eight of up to 256
    // work-items per compute unit: what an H100 SM holds); a chunk keeps
    // at least four elements per lane.
    const int64_t groups = div_up(units, (int64_t)g.lu);
    const int64_t target
            = groups_per_cu * (int64_t)std::max(dev.compute_units, 1);
    if (groups >= target) return g;
    int64_t q = div_up(target, groups);
    q = std::min<int64_t>(q, std::max<int64_t>(1, elems / (4 * (int64_t)g.lr)));
    q = std::min(q, max_chunks);
    if (q <= 1) return g;
    g.sp.qo = std::min<int64_t>(q, std::max<int64_t>(g.sp.o, 1));
    g.sp.qi = std::min<int64_t>(
            div_up(q, g.sp.qo), std::max<int64_t>(1, g.sp.i / (int64_t)g.lr));
    while (g.sp.qi > 1 && g.sp.qo * g.sp.qi > max_chunks) --g.sp.qi;
    return g;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
