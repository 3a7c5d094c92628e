// Primitive-descriptor-time decisions of the implicit-GEMM convolution
// kernels: checks, GEMM sizes, tile shape, gather directions, K slicing,
// the epilogue and the scratchpad.
#include <algorithm>
#include <initializer_list>

#include "common/math/stochastic_round.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/convolution/conv_gemm.hpp"
#include "gpu/ocl/convolution/conv_layout.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
constexpr int k_block = 16; // KB of conv_gemm.cl
// Kernel arguments every OpenCL device must accept
// (CL_DEVICE_MAX_PARAMETER_SIZE).
constexpr size_t max_arg_bytes = 1024;
// The K-slice workspace of bwd_w stays below this.
constexpr size_t max_ws_bytes = size_t(256) << 20;

bool is_int8(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8;
}

bool has_padding(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0)
            return true;
    return false;
}

// Tile shapes, all of 256 work-items: tall ones for GEMMs with few
// columns (depthwise, few channels per group), square ones otherwise, with
// 8 x 8 register tiles (four products per local-memory read) once the
// columns fill 128. Every role puts the long side of its GEMM in the rows.
void choose_tile(conv_gemm_conf_t &c, int64_t N, bool f64) {
    struct tile_t {
        int lx, ly, tm, tn;
    };
    tile_t t{16, 16, 8, 8}; // 128 x 128
    if (N <= 4)
        t = {4, 64, 4, 1}; // 256 x 4
    else if (N <= 16)
        t = {16, 16, 8, 1}; // 128 x 16
    else if (N <= 64)
        t = {16, 16, 4, 4}; // 64 x 64
    // Doubles: half the rows or columns, so that the staged tiles fit 48
    // KB of local memory (an H200 group's) and the accumulators their
    // registers.
    if (f64 && t.tm * t.tn == 64) t = {16, 16, 4, 4};
    if (f64 && t.tn == 1) {
        if (t.ly == 64)
            t.ly = 32;
        else
            t.tm = 4;
    }
    c.lx = t.lx, c.ly = t.ly, c.tm = t.tm, c.tn = t.tn;
}

// Unit stride of a strided tensor along a dim (false for generic ones).
bool unit(const memory_desc_t &md, bool generic, int64_t stride) {
    return !generic && stride == 1 && md.ndims > 0;
}
} // namespace

status_t conv_gemm_conf_t::init(const conv_problem_t &p,
        const primitive_attr_t &attr, engine_t *engine, const char *who) {
    prb = p;
    const bool fwd = p.role == conv_role_t::fwd;
    const bool bwd_d = p.role == conv_role_t::bwd_d;
    const bool bwd_w = p.role == conv_role_t::bwd_w;

    // f64 data (every tensor but an f32 bias, conv_types_supported)
    // computes in double.
    const bool f64 = p.src.data_type == dnnl_f64;
    auto type_ok = [f64](data_type_t dt) {
        return f64 ? dt == dnnl_f64 : kernel_supports(dt);
    };
    const memory_desc_t *mds[] = {&p.src, &p.wei, &p.dst};
    for (const memory_desc_t *md : mds)
        if (!layout_supported(*md) || !type_ok(md->data_type)) {
            verbose_check(who, "gpu: layout or data type not supported");
            return dnnl_unimplemented;
        }
    if (!f64_supported(engine, who, {&p.src})) return dnnl_unimplemented;
    if (f64
            && !(attr.scales.empty() && attr.zero_points.empty()
                    && attr.post_ops.entries.empty()
                    && attr.rounding_modes.empty())) {
        verbose_check(who, "gpu: attributes with f64 data");
        return dnnl_unimplemented;
    }
    const size_t comp_bytes = f64 ? 8 : 4; // an accumulator
    if (p.with_bias
            && (!layout_supported(p.bias) || !conv_is_strided(p.bias)
                    || !(type_ok(p.bias.data_type)
                            || (f64 && p.bias.data_type == dnnl_f32)))) {
        verbose_check(who, "gpu: bias layout or data type not supported");
        return dnnl_unimplemented;
    }
    src_generic = !conv_is_strided(p.src);
    wei_generic = !conv_is_strided(p.wei);
    dst_generic = !conv_is_strided(p.dst);

    conv_geom_t &g = prb.geom;
    const int64_t ksp = (int64_t)g.kd * g.kh * g.kw;
    const int64_t isp = (int64_t)g.id * g.ih * g.iw;
    const int64_t osp = (int64_t)g.od * g.oh * g.ow;
    int64_t M = 0, N = 0, K = 0;
    if (fwd) M = g.mb * osp, N = g.ocg, K = g.icg * ksp;
    if (bwd_d) M = g.mb * isp, N = g.icg, K = g.ocg * ksp;
    if (bwd_w) M = g.icg * ksp, N = g.ocg, K = g.mb * osp;
    g.M = (int32_t)M, g.N = (int32_t)N, g.K = (int32_t)K;

    // Gather directions: adjacent work-items take the dim that is
    // contiguous in memory. The gathered activation decides whether the
    // channel is the fastest part of a reduction (or bwd_w column) index.
    const conv_strides_t ss = conv_act_strides(p.src);
    const conv_strides_t ds = conv_act_strides(p.dst);
    const conv_strides_t ws = conv_wei_strides(p.wei, p.with_groups);
    const bool src_cl = unit(p.src, src_generic, ss.s[1]);
    const bool dst_cl = unit(p.dst, dst_generic, ds.s[1]);
    bool ic_inner = false, c_mfast = false;
    if (fwd) {
        ic_inner = src_cl;
        a_mfast = !src_cl;
        b_nfast = unit(p.wei, wei_generic, ws.s[1]);
        c_mfast = !dst_cl;
    } else if (bwd_d) {
        ic_inner = dst_cl;
        a_mfast = !dst_cl;
        b_nfast = unit(p.wei, wei_generic, ws.s[2]);
        c_mfast = !src_cl;
    } else {
        ic_inner = src_cl;
        a_mfast = src_cl;
        b_nfast = dst_cl;
        c_mfast = false; // the workspace is row-major
    }
    g.ic_inner = ic_inner;
    g.c_mfast = c_mfast;
    g.sp_ndims = p.ndims - 2;
    g.with_groups = p.with_groups;
    acc_int = !bwd_w && is_int8((fwd ? p.src : p.dst).data_type);
    choose_tile(*this, N, f64);
    dw_direct = fwd && g.icg == 1 && g.ocg == 1;

    // K slices for bwd_w: enough work-groups to fill the device, each
    // slice a few K steps long at least.
    g.nsplit = 1;
    g.kchunk = (int32_t)std::max<int64_t>(K, 1);
    if (bwd_w) {
        const device_info_t &dev = device_info_of(engine);
        const int64_t tiles =
                ((M + bm() - 1) / bm()) * ((N + bn() - 1) / bn()) * g.g;
        const int64_t want = 4 * (int64_t)dev.compute_units;
        const int64_t slice_bytes = (int64_t)(g.g * M * N * comp_bytes);
        int64_t ns = std::min<int64_t>((want + tiles - 1) / tiles,
                (K + 4 * k_block - 1) / (4 * k_block));
        ns = std::min<int64_t>(ns, (int64_t)max_ws_bytes / slice_bytes);
        ns = std::max<int64_t>(ns, 1);
        int64_t chunk = (K + ns - 1) / ns;
        chunk = std::max<int64_t>(
                (chunk + k_block - 1) / k_block * k_block, k_block);
        g.kchunk = (int32_t)chunk;
        g.nsplit = (int32_t)std::max<int64_t>((K + chunk - 1) / chunk, 1);
        ws_bytes = (size_t)g.nsplit * slice_bytes;
        ws_in_scratchpad = attr.scratchpad_mode == dnnl_scratchpad_mode_user;
    }

    // Epilogue of the forward roles (backward passes take no attributes).
    if (!bwd_w) {
        src_scale = attr.scales.has(DNNL_ARG_SRC);
        if (const quant_entry_t *s = attr.scales.get(DNNL_ARG_WEIGHTS)) {
            wei_scale = true;
            wei_scale_per_c = s->mask != 0;
        }
        if (const quant_entry_t *s = attr.scales.get(DNNL_ARG_DST)) {
            dst_scale = true;
            dst_scale_per_c = s->mask != 0;
        }
        if (const quant_entry_t *z = attr.zero_points.get(DNNL_ARG_SRC))
            a_zp = z->mask ? 2 : 1;
        if (const quant_entry_t *z = attr.zero_points.get(DNNL_ARG_DST))
            dst_zp = z->mask ? 2 : 1;
        b_zp = attr.zero_points.has(DNNL_ARG_WEIGHTS);
        if (b_zp && p.role != conv_role_t::fwd) {
            verbose_check(who, "gpu: weights zero points outside forward");
            return dnnl_unimplemented;
        }
        if ((a_zp || b_zp) && !acc_int) {
            verbose_check(who, "gpu: zero points of non-int8 data");
            return dnnl_unimplemented;
        }
        DNNL_CHECK(post_ops.init(attr.post_ops, out_md(), who));
        sround = attr.get_rounding(DNNL_ARG_DST) == dnnl_rounding_mode_stochastic;
        math::sround_params_t sp;
        if (sround && (p.role != conv_role_t::fwd
                              || !math::sround_params(out_md().data_type, sp))) {
            verbose_check(who, "gpu: stochastic rounding of this output");
            return dnnl_unimplemented;
        }
    }
    zero_pad_out = has_padding(bwd_w ? p.wei : out_md());

    // What the device must offer: the work-group, its local memory and
    // the argument bytes (structs by value; generic layouts are large).
    const device_info_t &dev = device_info_of(engine);
    const size_t local_bytes =
            dw_direct ? 0
                      : 2 * k_block * (size_t)(bm() + 1 + bn() + 1) * comp_bytes
                                + 2 * k_block * 24;
    const size_t wg_size = dw_direct ? 128 : (size_t)nt();
    size_t arg_bytes = sizeof(conv_geom_t) + 13 * 8 + 4 + 8 * post_ops.count();
    for (bool generic : {src_generic, wei_generic && !bwd_w, dst_generic})
        arg_bytes += generic ? sizeof(conv_blocked_t) : sizeof(conv_strides_t);
    if (dev.max_wg_size < wg_size
            || (dev.local_mem_size && dev.local_mem_size < local_bytes)
            || arg_bytes > max_arg_bytes) {
        verbose_check(who,
                "gpu: device limits (work-group %zu, local memory %zu bytes, "
                "arguments %zu bytes)",
                wg_size, local_bytes, arg_bytes);
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
