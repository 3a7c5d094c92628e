// Building and launching the implicit-GEMM convolution kernels.
#include "gpu/ocl/convolution/conv_gemm.hpp"

#include <algorithm>
#include <memory>

#include "common/verbose.hpp"
#include "gpu/ocl/convolution/conv_layout.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
constexpr int bias_wg = 256;           // BIAS_WG of conv_reduce.cl
constexpr size_t max_groups_z = 65535; // grid limit of some devices

// Mirrors conv_dims_t of conv_zero_pad.cl.
struct conv_dims_t {
    int64_t d[layout_max_ndims];
};

// An activation's form in the GEMM kernel's arguments.
void add_act(kernel_args_t &a, const memory_desc_t &md, bool generic) {
    if (generic)
        a.value(conv_blocked(md));
    else
        a.value(conv_act_strides(md));
}

// dnnl_invalid_arguments (with a verbose line) unless `m` holds `bytes`;
// kernels must not read or write past a buffer.
status_t check_size(cl_mem m, size_t bytes, const char *what) {
    if (bytes == 0) return dnnl_success;
    size_t size = 0;
    if (!m
            || clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(size), &size, nullptr)
                       != CL_SUCCESS
            || size < bytes) {
        verbose_error("convolution", "%s: missing or too small a buffer", what);
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

// An optional input of `count` 4-byte values (scales, zero points, the
// rounding seed): null when the configuration does not use it.
status_t input(
        const exec_ctx_t &ctx, bool need, int arg, dim_t count, cl_mem &m) {
    m = need ? mem_of(ctx, arg) : nullptr;
    return check_size(m, need ? (size_t)count * 4 : 0, "scales, zero points or rounding seed");
}

size_t div_up(int64_t a, int64_t b) {
    return (size_t)((a + b - 1) / b);
}
} // namespace

status_t conv_gemm_t::init(engine_t *engine, const conv_gemm_conf_t &c) {
    const conv_problem_t &p = c.prb;
    const bool bwd_w = p.role == conv_role_t::bwd_w;
    kernel_options_t o;
    if (!c.dw_direct) {
        o.define("ROLE", (int64_t)p.role);
        o.define("LX", c.lx);
        o.define("LY", c.ly);
        o.define("TM", c.tm);
        o.define("TN", c.tn);
        o.define("KB", 16);
        o.define("CONV_UNROLL", device_info_of(engine).is_gpu() ? 1 : 0);
        o.define("A_MFAST", c.a_mfast ? 1 : 0);
        o.define("B_NFAST", c.b_nfast ? 1 : 0);
    }
    // Those of conv_ctx.clh.
    define_data_type(o, "SRC", p.src.data_type);
    // bwd_w writes the weights in conv_reduce.cl, not here.
    define_data_type(o, "WEI", bwd_w ? dnnl_f32 : p.wei.data_type);
    define_data_type(o, "DST", p.dst.data_type);
    define_data_type(
            o, "BIA", p.with_bias && !bwd_w ? p.bias.data_type : dnnl_f32);
    if (c.acc_int) o.define("ACC_INT");
    o.define("SRC_GENERIC", c.src_generic ? 1 : 0);
    o.define("WEI_GENERIC", c.wei_generic && !bwd_w ? 1 : 0);
    o.define("DST_GENERIC", c.dst_generic ? 1 : 0);
    o.define("A_ZP", c.a_zp);
    o.define("B_ZP", c.b_zp ? 1 : 0);
    c.post_ops.define(o);
    o.define("WITH_SUM", c.post_ops.has_sum() ? 1 : 0);
    if (c.sround) define_stochastic_rounding(o, p.dst.data_type);
    if (c.dw_direct)
        DNNL_CHECK(create_kernel(
                engine, "convolution/conv_dw.cl", o, "conv_dw", gemm_));
    else
        DNNL_CHECK(create_kernel(
                engine, "convolution/conv_gemm.cl", o, "conv_gemm", gemm_));

    if (bwd_w) {
        kernel_options_t r;
        r.define("WEI_REDUCE", 1);
        define_data_type(r, "WEI", p.wei.data_type);
        r.define("WEI_GENERIC", c.wei_generic ? 1 : 0);
        r.define("BIAS_REDUCE", p.with_bias ? 1 : 0);
        std::vector<const char *> names = {"conv_wei_reduce"};
        if (p.with_bias) {
            const memory_desc_t &x = p.bias_from_src ? p.src : p.dst;
            define_data_type(r, "X", x.data_type);
            r.define("X_GENERIC", conv_is_strided(x) ? 0 : 1);
            define_data_type(r, "BIA", p.bias.data_type);
            r.define("BIAS_WG", bias_wg);
            names.push_back("conv_bias_reduce");
        }
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(
                engine, "convolution/conv_reduce.cl", r, names, ks));
        wei_reduce_ = ks[0];
        if (p.with_bias) bias_reduce_ = ks[1];
    }
    if (c.zero_pad_out) {
        kernel_options_t z;
        define_data_type(
                z, "Z", bwd_w ? p.wei.data_type : c.out_md().data_type);
        DNNL_CHECK(create_kernel(engine, "convolution/conv_zero_pad.cl", z,
                "conv_zero_pad", zero_pad_));
    }
    return dnnl_success;
}

status_t conv_gemm_t::workspace(const exec_ctx_t &ctx,
        const conv_gemm_conf_t &c, cl_mem &ws, cl_mem &owned,
        std::unique_lock<std::mutex> &lock) const {
    if (c.ws_in_scratchpad) {
        ws = scratchpad_of(ctx);
        return ws ? dnnl_success : dnnl_invalid_arguments;
    }
    ocl_stream_t *st = as_ocl_stream(ctx.stream());
    if (!st) return dnnl_invalid_arguments;
    ws = pool_.acquire(st->queue(), c.ws_bytes, lock);
    if (ws) return dnnl_success;
    // An out-of-order queue (or a failed allocation): a buffer of its own.
    cl_context context = nullptr;
    clGetCommandQueueInfo(
            st->queue(), CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr);
    cl_int err = CL_SUCCESS;
    owned = clCreateBuffer(
            context, CL_MEM_READ_WRITE, c.ws_bytes, nullptr, &err);
    ws = owned;
    return err == CL_SUCCESS ? dnnl_success : dnnl_out_of_memory;
}

status_t conv_gemm_t::execute(const exec_ctx_t &ctx, const conv_gemm_conf_t &c,
        const conv_mems_t &m) const {
    const conv_problem_t &p = c.prb;
    const conv_geom_t &g = p.geom;
    const bool bwd_w = p.role == conv_role_t::bwd_w;
    // Nothing to compute (and possibly no buffers): an empty output.
    if (!bwd_w && g.M == 0) return dnnl_success;

    const bool bias = p.with_bias && !bwd_w;
    const memory_desc_t &out = bwd_w ? p.wei : c.out_md();
    const cl_mem out_mem = bwd_w                        ? m.wei
                           : p.role == conv_role_t::fwd ? m.dst
                                                        : m.src;
    // Tensors without elements (zero batch for bwd_w) may have no buffer.
    DNNL_CHECK(check_size(m.src, md_size(p.src), "src"));
    DNNL_CHECK(check_size(m.wei, md_size(p.wei), "weights"));
    DNNL_CHECK(check_size(m.dst, md_size(p.dst), "dst"));
    if (p.with_bias) DNNL_CHECK(check_size(m.bias, md_size(p.bias), "bias"));
    // Per-channel values: one per output channel (per input channel for the
    // gathered activation's zero points).
    const bool bwd_d = p.role == conv_role_t::bwd_d;
    const dim_t oc = (dim_t)g.g * (bwd_d ? g.icg : g.ocg);
    const dim_t ac = (dim_t)g.g * (bwd_d ? g.ocg : g.icg);
    cl_mem ss, wsc, dsc, szp, dzp, wzp;
    DNNL_CHECK(input(
            ctx, c.src_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, 1, ss));
    DNNL_CHECK(input(ctx, c.wei_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS,
            c.wei_scale_per_c ? oc : 1, wsc));
    DNNL_CHECK(input(ctx, c.dst_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
            c.dst_scale_per_c ? oc : 1, dsc));
    DNNL_CHECK(input(ctx, c.a_zp != 0, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC,
            c.a_zp == 2 ? ac : 1, szp));
    DNNL_CHECK(
            input(ctx, c.dst_zp != 0, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST,
                    c.dst_zp == 2 ? oc : 1, dzp));
    DNNL_CHECK(input(ctx, c.b_zp, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS,
            1, wzp));
    cl_mem sround_seed = nullptr;
    if (c.sround)
        DNNL_CHECK(input(ctx, true, DNNL_ARG_ATTR_ROUNDING_SEED, 1, sround_seed));
    cl_mem ws = nullptr, ws_owned = nullptr;
    std::unique_lock<std::mutex> ws_lock;
    if (c.ws_bytes) DNNL_CHECK(workspace(ctx, c, ws, ws_owned, ws_lock));
    std::unique_ptr<_cl_mem, decltype(&clReleaseMemObject)> ws_guard(
            ws_owned, &clReleaseMemObject);

    kernel_args_t a;
    a.mem(m.src);
    add_act(a, p.src, c.src_generic);
    a.mem(m.wei);
    if (bwd_w)
        a.value(conv_strides_t{}); // unused: conv_reduce.cl writes weights
    else if (c.wei_generic)
        a.value(conv_blocked(p.wei));
    else
        a.value(conv_wei_strides(p.wei, p.with_groups));
    a.mem(m.dst);
    add_act(a, p.dst, c.dst_generic);
    a.mem(ws).value(g);
    a.mem(bias ? m.bias : nullptr)
            .i64(p.bias.offset0)
            .i64(p.with_bias ? p.bias.format_desc.blocking.strides[0] : 0);
    a.mem(ss).mem(wsc).mem(dsc).mem(szp).mem(dzp).mem(wzp);
    // The CONV_*_PER_C bits of conv_epilogue.clh.
    a.i32((c.wei_scale_per_c ? 1 : 0) | (c.dst_scale_per_c ? 2 : 0)
            | (c.dst_zp == 2 ? 4 : 0));
    a.mem(sround_seed);
    c.post_ops.set_args(a, ctx);
    if (c.dw_direct) {
        const size_t n = (size_t)g.M * g.g;
        DNNL_CHECK(gemm_.enqueue(ctx, nd_range_t({n}, {128}), a));
    } else {
        const size_t groups_z =
                std::min<size_t>((size_t)g.g * g.nsplit, max_groups_z);
        DNNL_CHECK(gemm_.enqueue(ctx,
                nd_range_t({div_up(g.M, c.bm()) * c.nt(), div_up(g.N, c.bn()),
                                   groups_z},
                        {(size_t)c.nt(), 1, 1}),
                a));
    }

    if (bwd_w) {
        kernel_args_t r;
        r.mem(ws).mem(m.wei);
        if (c.wei_generic)
            r.value(make_layout(p.wei));
        else
            r.value(conv_wei_strides(p.wei, p.with_groups));
        r.value(g);
        const size_t n = (size_t)g.g * g.ocg * g.icg * g.kd * g.kh * g.kw;
        DNNL_CHECK(wei_reduce_.enqueue(ctx, nd_range_t({n}, {64}), r));
    }
    if (bwd_w && p.with_bias) {
        const memory_desc_t &x = p.bias_from_src ? p.src : p.dst;
        const bool from_src = p.bias_from_src;
        kernel_args_t b;
        b.mem(from_src ? m.src : m.dst);
        if (conv_is_strided(x))
            b.value(conv_act_strides(x));
        else
            b.value(make_layout(x));
        b.mem(m.bias)
                .i64(p.bias.offset0)
                .i64(p.bias.format_desc.blocking.strides[0])
                .i32(g.mb)
                .i32(from_src ? g.id : g.od)
                .i32(from_src ? g.ih : g.oh)
                .i32(from_src ? g.iw : g.ow);
        const size_t channels = (size_t)g.g * (from_src ? g.icg : g.ocg);
        DNNL_CHECK(bias_reduce_.enqueue(
                ctx, nd_range_t({channels * bias_wg}, {(size_t)bias_wg}), b));
    }
    if (c.zero_pad_out) {
        conv_dims_t pd;
        for (int d = 0; d < layout_max_ndims; ++d)
            pd.d[d] = d < out.ndims ? out.padded_dims[d] : 1;
        const int64_t n = md_nelems(out, true);
        kernel_args_t z;
        z.mem(out_mem).value(make_layout(out)).value(pd).i64(n);
        DNNL_CHECK(zero_pad_.enqueue(ctx, nd_range_t({(size_t)n}, {64}), z));
    }
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
