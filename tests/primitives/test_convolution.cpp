// Convolution primitive tests: shapes (1x1, odd sizes, asymmetric padding,
// strides, dilation, groups, depthwise, 1D/2D/3D), every data type
// (f32/bf16/f16, int8 with scales and zero points), each post-op kind,
// forward / backward data / backward weights with bias, `any` and blocked
// layouts, convolution_auto, queries, user scratchpad, bad parameters and
// the GPU engine. Results are compared with the naive double-precision
// reference in tests/reference/conv_ref.*.
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/compare.hpp"
#include "reference/conv_ref.hpp"
#include "reference/reorder_ref.hpp"

using namespace dnnl;

namespace {

// ---- test glue (memories, descriptors, attributes) -----------------------
// (test_deconvolution.cpp carries the same glue.)

using dt = memory::data_type;
using tag = memory::format_tag;
namespace rr = reorder_ref;

enum class fmt_t { plain, cl, blocked, any };

engine &eng()
{
    static engine e(engine::kind::cpu, 0);
    return e;
}
stream &strm()
{
    static stream s(eng());
    return s;
}

bool is_int(dt d) { return d == dt::s8 || d == dt::u8 || d == dt::s32; }

struct shape_t {
    std::string name;
    int64_t mb = 1, g = 1, ic = 1, oc = 1;
    std::vector<int64_t> in, k, s, d, pl, pr; // per spatial dim
    memory::dims strides() const { return s; }
    memory::dims dilates() const { return d; }
    memory::dims pad_l() const { return pl; }
    memory::dims pad_r() const { return pr; }
};

// Spatial sizes of the output: of the convolution, or of the
// deconvolution whose source has sizes `in`.
std::vector<int64_t> out_sp(const shape_t &s, bool deconv)
{
    std::vector<int64_t> o(s.in.size());
    for (size_t i = 0; i < o.size(); ++i) {
        const int64_t kr = (s.k[i] - 1) * (s.d[i] + 1) + 1;
        o[i] = deconv ? (s.in[i] - 1) * s.s[i] + kr - s.pl[i] - s.pr[i]
                      : (s.in[i] - kr + s.pl[i] + s.pr[i]) / s.s[i] + 1;
    }
    return o;
}

conv_ref::prb_t to_prb(const shape_t &s, bool deconv)
{
    conv_ref::prb_t p;
    p.mb = s.mb, p.g = s.g, p.ic = s.ic, p.oc = s.oc;
    const auto o = out_sp(s, deconv);
    const int n = (int)s.in.size();
    for (int i = 0; i < n; ++i) {
        const int j = 3 - n + i;
        p.i[j] = s.in[i], p.o[j] = o[i], p.k[j] = s.k[i];
        p.s[j] = s.s[i], p.d[j] = s.d[i], p.pl[j] = s.pl[i];
    }
    return p;
}

memory::dims act_dims(const shape_t &s, int64_t c, const std::vector<int64_t> &sp)
{
    memory::dims d = {s.mb, c};
    d.insert(d.end(), sp.begin(), sp.end());
    return d;
}

// Weights dims (g, oc/g, ic/g, k...) (no group dim when g == 1).
memory::dims wei_dims(const shape_t &s, int64_t oc, int64_t ic)
{
    memory::dims d;
    if (s.g > 1) d.push_back(s.g);
    d.push_back(oc / s.g);
    d.push_back(ic / s.g);
    d.insert(d.end(), s.k.begin(), s.k.end());
    return d;
}

memory::desc make_md(const memory::dims &d, dt t, fmt_t f, bool wei)
{
    const int nd = (int)d.size();
    if (f == fmt_t::any) return memory::desc(d, t, tag::any);
    if (!wei) {
        static const tag plain[] = {tag::ncw, tag::nchw, tag::ncdhw};
        static const tag cl[] = {tag::nwc, tag::nhwc, tag::ndhwc};
        static const tag blk[] = {tag::nCw8c, tag::nChw8c, tag::nCdhw8c};
        const tag *tt = f == fmt_t::plain ? plain : f == fmt_t::cl ? cl : blk;
        return memory::desc(d, t, tt[nd - 3]);
    }
    static const tag plain[] = {tag::abc, tag::abcd, tag::abcde, tag::abcdef};
    return memory::desc(d, t, plain[nd - 3]);
}

// Weights: plain (g)oi..., output-channel-major with input channels last,
// or 8i8o blocked.
memory::desc make_wei_md(const memory::dims &d, dt t, fmt_t f, bool groups)
{
    const int nd = (int)d.size();
    if (f == fmt_t::any || f == fmt_t::plain) return make_md(d, t, f, true);
    static const tag cl_ng[] = {tag::acb, tag::acdb, tag::acdeb};
    static const tag cl_g[] = {tag::abdc, tag::abdec, tag::abdefc};
    static const tag blk_ng[] = {tag::OIw8i8o, tag::OIhw8i8o, tag::OIdhw8i8o};
    static const tag blk_g[]
            = {tag::gOIw8i8o, tag::gOIhw8i8o, tag::gOIdhw8i8o};
    const int k = groups ? nd - 4 : nd - 3;
    if (f == fmt_t::cl) return memory::desc(d, t, groups ? cl_g[k] : cl_ng[k]);
    return memory::desc(d, t, groups ? blk_g[k] : blk_ng[k]);
}

rr::dtype to_rr(dt d)
{
    switch (d) {
        case dt::bf16: return rr::dtype::bf16;
        case dt::f16: return rr::dtype::f16;
        case dt::s32: return rr::dtype::s32;
        case dt::s8: return rr::dtype::s8;
        case dt::u8: return rr::dtype::u8;
        default: return rr::dtype::f32;
    }
}

rr::layout_t layout_of(const memory::desc &md)
{
    rr::layout_t l;
    l.ndims = md.get_ndims();
    const auto dims = md.get_dims();
    const auto padded = md.get_padded_dims();
    const auto poffs = md.get_padded_offsets();
    const auto strides = md.get_strides();
    for (int d = 0; d < l.ndims; ++d) {
        l.dims[d] = dims[d];
        l.padded[d] = padded[d];
        l.padded_offsets[d] = poffs[d];
        l.strides[d] = strides[d];
    }
    l.offset0 = md.get_submemory_offset();
    l.nblks = md.get_inner_nblks();
    const auto blks = md.get_inner_blks();
    const auto idxs = md.get_inner_idxs();
    for (int k = 0; k < l.nblks; ++k) {
        l.blks[k] = blks[k];
        l.idxs[k] = (int)idxs[k];
    }
    return l;
}

// Logical (row-major) values in and out of a memory of any layout.
void write(memory &m, const std::vector<double> &v, dt as = dt::undef)
{
    const auto md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype t = to_rr(as == dt::undef ? md.get_data_type() : as);
    char *p = static_cast<char *>(m.get_data_handle());
    std::memset(p, 0, md.get_size());
    size_t i = 0;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        rr::store(t, p, rr::offset(l, pos), v[i++]);
    });
}

std::vector<double> read(const memory &m, dt as = dt::undef)
{
    const auto md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype t = to_rr(as == dt::undef ? md.get_data_type() : as);
    const char *p = static_cast<const char *>(m.get_data_handle());
    std::vector<double> v;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        v.push_back(rr::load(t, p, rr::offset(l, pos)));
    });
    return v;
}

// Deterministic values k * step, k integer in [lo, hi]: exact in every
// data type the tests use.
std::vector<double> gen(int64_t n, int seed, int lo, int hi, double step)
{
    std::vector<double> v(n);
    uint32_t x = 0x9e3779b9u * (uint32_t)(seed + 1);
    for (int64_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v[i] = (lo + (int)(x % (uint32_t)(hi - lo + 1))) * step;
    }
    return v;
}

struct quant_t {
    std::vector<float> src_scale, wei_scale, dst_scale;
    int wei_scale_mask = 0;
    std::vector<int32_t> src_zp, dst_zp;
    int src_zp_mask = 0, dst_zp_mask = 0;
    bool empty() const
    {
        return src_scale.empty() && wei_scale.empty() && dst_scale.empty()
                && src_zp.empty() && dst_zp.empty();
    }
};

struct po_t {
    enum kind_t { eltwise, sum, binary, prelu } kind = eltwise;
    algorithm alg = algorithm::eltwise_relu;
    float alpha = 0.f, beta = 0.f, scale = 1.f;
    int32_t zp = 0;
    dt sum_dt = dt::undef;
    int mask = 0; // binary: -1 full tensor; prelu / binary: dims that vary
    dt src1_dt = dt::f32;
};

int full_mask(const memory::dims &dd, int mask)
{
    return mask < 0 ? (1 << dd.size()) - 1 : mask;
}

memory::dims masked_dims(const memory::dims &dd, int mask)
{
    memory::dims d = dd;
    for (size_t i = 0; i < d.size(); ++i)
        if (!((full_mask(dd, mask) >> i) & 1)) d[i] = 1;
    return d;
}

primitive_attr build_attr(
        const quant_t &q, const std::vector<po_t> &po, const memory::dims &dd)
{
    primitive_attr attr;
    if (!q.src_scale.empty()) attr.set_scales_mask(DNNL_ARG_SRC, 0);
    if (!q.wei_scale.empty())
        attr.set_scales_mask(DNNL_ARG_WEIGHTS, q.wei_scale_mask);
    if (!q.dst_scale.empty()) attr.set_scales_mask(DNNL_ARG_DST, 0);
    if (!q.src_zp.empty())
        attr.set_zero_points_mask(DNNL_ARG_SRC, q.src_zp_mask);
    if (!q.dst_zp.empty())
        attr.set_zero_points_mask(DNNL_ARG_DST, q.dst_zp_mask);
    post_ops ops;
    for (const auto &e : po) {
        switch (e.kind) {
            case po_t::eltwise: ops.append_eltwise(e.alg, e.alpha, e.beta); break;
            case po_t::sum: ops.append_sum(e.scale, e.zp, e.sum_dt); break;
            case po_t::binary: {
                const memory::dims d = masked_dims(dd, e.mask);
                memory::dims strides(d.size(), 0);
                int64_t st = 1;
                for (int i = (int)d.size() - 1; i >= 0; --i) {
                    strides[i] = st;
                    st *= d[i];
                }
                ops.append_binary(e.alg, memory::desc(d, e.src1_dt, strides));
                break;
            }
            case po_t::prelu: ops.append_prelu(e.mask); break;
        }
    }
    attr.set_post_ops(ops);
    return attr;
}

memory vec_mem(const std::vector<float> &v)
{
    memory m(memory::desc({(int64_t)v.size()}, dt::f32, tag::a), eng());
    std::memcpy(m.get_data_handle(), v.data(), v.size() * sizeof(float));
    return m;
}
memory vec_mem(const std::vector<int32_t> &v)
{
    memory m(memory::desc({(int64_t)v.size()}, dt::s32, tag::a), eng());
    std::memcpy(m.get_data_handle(), v.data(), v.size() * sizeof(int32_t));
    return m;
}

void add_quant_args(const quant_t &q, std::unordered_map<int, memory> &args)
{
    if (!q.src_scale.empty())
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = vec_mem(q.src_scale);
    if (!q.wei_scale.empty())
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] = vec_mem(q.wei_scale);
    if (!q.dst_scale.empty())
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = vec_mem(q.dst_scale);
    if (!q.src_zp.empty())
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] = vec_mem(q.src_zp);
    if (!q.dst_zp.empty())
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST] = vec_mem(q.dst_zp);
}

// Creates the binary / prelu tensors of a chain; returns the reference's
// view of the chain.
std::vector<conv_ref::post_op_t> add_po_args(const std::vector<po_t> &po,
        std::unordered_map<int, memory> &args, const memory::dims &dd)
{
    std::vector<conv_ref::post_op_t> r;
    for (size_t i = 0; i < po.size(); ++i) {
        const po_t &e = po[i];
        conv_ref::post_op_t x;
        x.alg = (dnnl_alg_kind_t)e.alg;
        x.alpha = e.alpha, x.beta = e.beta, x.scale = e.scale;
        x.zero_point = e.zp;
        switch (e.kind) {
            case po_t::eltwise: x.kind = conv_ref::post_op_t::eltwise; break;
            case po_t::sum:
                x.kind = conv_ref::post_op_t::sum;
                x.scale = e.scale;
                break;
            case po_t::binary:
            case po_t::prelu: {
                x.kind = e.kind == po_t::binary ? conv_ref::post_op_t::binary
                                                : conv_ref::post_op_t::prelu;
                x.mask = full_mask(dd, e.mask);
                const memory::dims d = masked_dims(dd, e.mask);
                int64_t n = 1;
                for (auto v : d)
                    n *= v;
                x.data = gen(n, 20 + (int)i, -4, 4, 0.5);
                const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i)
                        | (e.kind == po_t::binary ? DNNL_ARG_SRC_1
                                                  : DNNL_ARG_WEIGHTS);
                memory::dims strides(d.size());
                int64_t st = 1;
                for (int k = (int)d.size() - 1; k >= 0; --k) {
                    strides[k] = st;
                    st *= d[k];
                }
                memory m(memory::desc(d,
                                 e.kind == po_t::binary ? e.src1_dt : dt::f32,
                                 strides),
                        eng());
                write(m, x.data);
                args[arg] = m;
                break;
            }
        }
        r.push_back(x);
    }
    return r;
}

conv_ref::quant_t ref_quant(const quant_t &q)
{
    conv_ref::quant_t r;
    if (!q.src_scale.empty()) r.src_scale = q.src_scale[0];
    r.wei_scale.assign(q.wei_scale.begin(), q.wei_scale.end());
    r.dst_scale.assign(q.dst_scale.begin(), q.dst_scale.end());
    r.dst_zp = q.dst_zp;
    return r;
}

ref::compare_opts_t tol_for(dt d, bool loose)
{
    ref::compare_opts_t o;
    if (is_int(d)) {
        o.tol.abs = loose ? 1.0 : 0.0;
    } else if (d == dt::f32) {
        o.tol.rel = loose ? 2e-5 : 1e-6;
        o.tol.abs = loose ? 1e-5 : 1e-6;
    } else {
        o.tol.ulps = 2;
        o.tol.abs = 1e-3;
    }
    return o;
}

void check(const std::vector<double> &got, const std::vector<double> &expect,
        dt d, const ref::compare_opts_t &o)
{
    ASSERT_EQ(got.size(), expect.size());
    std::vector<float> g(got.begin(), got.end());
    auto r = ref::compare(g.data(), expect.data(), g.size(),
            (dnnl_data_type_t)d, o);
    EXPECT_TRUE(r.ok()) << r.summary() << " first error at "
                        << (r.first_errors.empty() ? 0 : r.first_errors[0].index)
                        << " expected "
                        << (r.first_errors.empty() ? 0 : r.first_errors[0].expected)
                        << " got "
                        << (r.first_errors.empty() ? 0 : r.first_errors[0].got);
}

// ---- forward ---------------------------------------------------------------

struct fwd_case_t {
    shape_t sh;
    fmt_t src_fmt = fmt_t::plain, wei_fmt = fmt_t::plain, dst_fmt = fmt_t::plain;
    dt sdt = dt::f32, wdt = dt::f32, ddt = dt::f32, bdt = dt::f32;
    bool bias = true;
    algorithm alg = algorithm::convolution_direct;
    quant_t q;
    std::vector<po_t> po;
    int skip_impls = 0; // run the implementation after this many
    memory::dims wei_strides; // weights by strides instead of wei_fmt
};

void run_fwd(const fwd_case_t &t)
{
    SCOPED_TRACE(t.sh.name);
    const shape_t &s = t.sh;
    const conv_ref::prb_t p = to_prb(s, false);
    const memory::dims sd = act_dims(s, s.ic, s.in), dd = act_dims(s, s.oc, out_sp(s, false));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    auto src_md = make_md(sd, t.sdt, t.src_fmt, false);
    auto wei_md = t.wei_strides.empty()
            ? make_wei_md(wd, t.wdt, t.wei_fmt, s.g > 1)
            : memory::desc(wd, t.wdt, t.wei_strides);
    auto dst_md = make_md(dd, t.ddt, t.dst_fmt, false);
    auto bias_md = t.bias ? memory::desc({s.oc}, t.bdt, tag::a) : memory::desc();

    primitive_attr attr = build_attr(t.q, t.po, dd);
    convolution_forward::primitive_desc pd;
    ASSERT_NO_THROW(pd = convolution_forward::primitive_desc(eng(),
                            prop_kind::forward_inference, t.alg, src_md,
                            wei_md, bias_md, dst_md, s.strides(), s.dilates(),
                            s.pad_l(), s.pad_r(), attr));
    EXPECT_EQ(pd.get_algorithm(), algorithm::convolution_direct);
    for (int i = 0; i < t.skip_impls; ++i)
        ASSERT_TRUE(pd.next_impl());

    const bool int_src = t.sdt == dt::u8 || t.sdt == dt::s8;
    auto src_v = gen(p.src_size(), 1, int_src ? (t.sdt == dt::u8 ? 0 : -6) : -8,
            int_src ? 9 : 8, int_src ? 1.0 : 0.25);
    auto wei_v = gen(p.wei_size(), 2, -6, 6, int_src ? 1.0 : 0.25);
    auto bias_v = gen(s.oc, 3, -8, 8, is_int(t.bdt) ? 1.0 : 0.5);
    auto dst_old = gen(p.dst_size(), 4, t.ddt == dt::u8 ? 0 : -10, 10,
            is_int(t.ddt) ? 1.0 : 0.5);

    memory src(pd.src_desc(), eng()), wei(pd.weights_desc(), eng());
    memory dst(pd.dst_desc(), eng());
    write(src, src_v);
    write(wei, wei_v);
    write(dst, dst_old);
    // The previous dst as a sum post-op reads it.
    dt sum_dt = t.ddt;
    for (const auto &e : t.po)
        if (e.kind == po_t::sum && e.sum_dt != dt::undef) sum_dt = e.sum_dt;
    const auto old_for_sum = read(dst, sum_dt);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src},
            {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}};
    std::vector<double> bias_stored;
    if (t.bias) {
        memory bias(pd.bias_desc(), eng());
        write(bias, bias_v);
        bias_stored = read(bias);
        args[DNNL_ARG_BIAS] = bias;
    }
    add_quant_args(t.q, args);
    const auto rpo = add_po_args(t.po, args, dd);

    convolution_forward(pd).execute(strm(), args);
    strm().wait();

    // Reference.
    std::vector<double> shifted = src_v;
    if (!t.q.src_zp.empty()) {
        const int64_t sp = p.isp();
        for (int64_t i = 0; i < (int64_t)shifted.size(); ++i) {
            const int64_t c = (i / sp) % s.ic;
            shifted[i] -= t.q.src_zp[t.q.src_zp_mask ? c : 0];
        }
    }
    std::vector<double> expect;
    conv_ref::conv_fwd(p, shifted, wei_v, expect);
    conv_ref::finish(expect, (int)dd.size(), dd.data(), ref_quant(t.q),
            t.bias ? &bias_stored : nullptr, rpo, old_for_sum);
    check(read(dst), expect, t.ddt,
            tol_for(t.ddt, !t.po.empty() || !t.q.empty()));
}

shape_t shp(const char *name, int64_t mb, int64_t g, int64_t ic, int64_t oc,
        std::vector<int64_t> in, std::vector<int64_t> k,
        std::vector<int64_t> st = {}, std::vector<int64_t> dl = {},
        std::vector<int64_t> pl = {}, std::vector<int64_t> pr = {})
{
    shape_t s;
    s.name = name;
    s.mb = mb, s.g = g, s.ic = ic, s.oc = oc;
    s.in = in, s.k = k;
    const size_t n = in.size();
    s.s = st.empty() ? std::vector<int64_t>(n, 1) : st;
    s.d = dl.empty() ? std::vector<int64_t>(n, 0) : dl;
    s.pl = pl.empty() ? std::vector<int64_t>(n, 0) : pl;
    s.pr = pr.empty() ? s.pl : pr;
    return s;
}

std::vector<shape_t> shapes()
{
    return {
            shp("2d_basic", 2, 1, 3, 5, {7, 6}, {3, 3}, {}, {}, {1, 1}),
            shp("2d_1x1", 2, 1, 8, 16, {5, 5}, {1, 1}),
            shp("2d_1x1_s2", 1, 1, 6, 4, {7, 7}, {1, 1}, {2, 2}),
            shp("2d_stride_asym_pad", 1, 1, 4, 6, {9, 8}, {3, 3}, {2, 2}, {},
                    {1, 0}, {0, 1}),
            shp("2d_dilated", 1, 1, 3, 4, {9, 9}, {3, 3}, {1, 1}, {1, 2},
                    {2, 2}),
            shp("2d_groups", 2, 2, 4, 6, {6, 5}, {3, 2}, {1, 1}, {}, {1, 0}),
            shp("2d_depthwise", 2, 8, 8, 8, {7, 7}, {3, 3}, {1, 1}, {},
                    {1, 1}),
            shp("2d_depthwise_s2", 1, 5, 5, 5, {8, 9}, {3, 3}, {2, 2}, {},
                    {1, 1}, {0, 1}),
            shp("2d_odd_1x1x1", 1, 1, 1, 1, {1, 1}, {1, 1}),
            shp("2d_big_pad", 1, 1, 2, 3, {3, 3}, {2, 2}, {1, 1}, {}, {2, 2},
                    {2, 2}),
            shp("1d", 2, 1, 5, 3, {11}, {3}, {2}, {1}, {1}),
            shp("1d_groups", 1, 3, 6, 3, {8}, {2}, {1}, {}, {1}),
            shp("3d", 1, 1, 3, 4, {4, 5, 5}, {2, 3, 3}, {1, 2, 1}, {},
                    {0, 1, 1}),
            shp("3d_depthwise", 1, 4, 4, 4, {3, 4, 4}, {3, 3, 3}, {1, 1, 1},
                    {}, {1, 1, 1}),
            // Rows wider than a 16-lane vector, unit and 2x width strides
            // with padding (the vectorised channels-first gathering), and
            // a 3x stride (the generic one).
            shp("2d_wide_rows", 1, 1, 3, 8, {6, 41}, {3, 5}, {1, 1}, {},
                    {1, 2}),
            shp("2d_first_layer_s2", 1, 1, 3, 8, {23, 37}, {7, 7}, {2, 2},
                    {}, {3, 3}, {2, 3}),
            shp("2d_stride3", 1, 1, 2, 3, {10, 20}, {3, 3}, {3, 3}, {},
                    {1, 1}),
            // Large enough to run on several threads.
            shp("2d_threads", 2, 1, 16, 32, {14, 13}, {3, 3}, {1, 1}, {},
                    {1, 1}),
            shp("2d_threads_dw", 2, 32, 32, 32, {28, 28}, {3, 3}, {1, 1},
                    {}, {1, 1}),
            shp("2d_threads_mb1", 1, 1, 24, 32, {15, 14}, {3, 3}, {1, 1},
                    {}, {1, 1}),
            // Depthwise with two 16-channel blocks and a tail, dilated,
            // rows wide enough for 8-point blocks inside the padding.
            shp("2d_depthwise_wide_dil", 2, 35, 35, 35, {9, 30}, {3, 3},
                    {1, 1}, {1, 1}, {2, 2}),
    };
}

TEST(Convolution, ForwardShapesPlain)
{
    for (const auto &s : shapes()) {
        fwd_case_t t;
        t.sh = s;
        run_fwd(t);
    }
}

TEST(Convolution, ForwardShapesPlainNoBias)
{
    for (const auto &s : shapes()) {
        fwd_case_t t;
        t.sh = s;
        t.bias = false;
        run_fwd(t);
    }
}

TEST(Convolution, ForwardShapesChannelsLastNoBias)
{
    for (const auto &s : shapes()) {
        fwd_case_t t;
        t.sh = s;
        t.src_fmt = t.dst_fmt = fmt_t::cl;
        t.bias = false;
        run_fwd(t);
    }
}

TEST(Convolution, ForwardShapesAny)
{
    for (const auto &s : shapes()) {
        fwd_case_t t;
        t.sh = s;
        t.src_fmt = t.wei_fmt = t.dst_fmt = fmt_t::any;
        run_fwd(t);
    }
}

TEST(Convolution, ForwardShapesBlocked)
{
    for (const auto &s : shapes()) {
        fwd_case_t t;
        t.sh = s;
        t.src_fmt = t.dst_fmt = fmt_t::blocked;
        t.wei_fmt = s.g == s.ic && s.g == s.oc && s.g > 1 ? fmt_t::plain
                                                          : fmt_t::blocked;
        run_fwd(t);
    }
}

TEST(Convolution, ForwardMixedLayouts)
{
    fwd_case_t t;
    t.sh = shp("mixed", 2, 1, 4, 6, {6, 6}, {3, 3}, {1, 1}, {}, {1, 1});
    t.src_fmt = fmt_t::plain;
    t.dst_fmt = fmt_t::cl;
    t.wei_fmt = fmt_t::any;
    run_fwd(t);
    t.src_fmt = fmt_t::cl;
    t.dst_fmt = fmt_t::plain;
    t.wei_fmt = fmt_t::blocked;
    run_fwd(t);
}

TEST(Convolution, ForwardAutoReportsDirect)
{
    fwd_case_t t;
    t.sh = shapes()[0];
    t.alg = algorithm::convolution_auto;
    run_fwd(t);
}

TEST(Convolution, ForwardLowPrecision)
{
    for (dt d : {dt::bf16, dt::f16}) {
        for (const auto &s : {shapes()[0], shapes()[5], shapes()[6]}) {
            for (dt out : {d, dt::f32}) {
                fwd_case_t t;
                t.sh = s;
                t.sdt = t.wdt = d;
                t.ddt = out;
                t.bdt = dt::f32;
                t.src_fmt = t.dst_fmt = fmt_t::cl;
                run_fwd(t);
                t.src_fmt = t.wei_fmt = t.dst_fmt = fmt_t::any;
                t.bdt = d;
                run_fwd(t);
            }
        }
    }
}

TEST(Convolution, ForwardInt8)
{
    const std::vector<shape_t> ss = {shapes()[0], shapes()[1], shapes()[3],
            shapes()[5], shapes()[6], shapes()[10]};
    for (const auto &s : ss)
        for (dt sdt : {dt::u8, dt::s8})
            for (dt ddt : {dt::s32, dt::f32, dt::s8, dt::u8})
                for (fmt_t f : {fmt_t::plain, fmt_t::cl}) {
                    fwd_case_t t;
                    t.sh = s;
                    t.sdt = sdt;
                    t.wdt = dt::s8;
                    t.ddt = ddt;
                    t.bdt = dt::f32;
                    t.src_fmt = t.dst_fmt = f;
                    t.q.src_scale = {0.5f};
                    t.q.wei_scale = {0.25f};
                    t.q.dst_scale = {2.f};
                    run_fwd(t);
                }
}

TEST(Convolution, ForwardInt8ScalesAndZeroPoints)
{
    for (const auto &s : {shapes()[0], shapes()[1], shapes()[5], shapes()[6],
                 shapes()[12]}) {
        for (fmt_t f : {fmt_t::plain, fmt_t::cl}) {
            fwd_case_t t;
            t.sh = s;
            t.sdt = dt::u8;
            t.wdt = dt::s8;
            t.ddt = dt::s8;
            t.bdt = dt::s32;
            t.src_fmt = t.dst_fmt = f;
            // Per output channel weights scales.
            t.q.wei_scale_mask = s.g > 1 ? 3 : 1;
            for (int64_t c = 0; c < s.oc; ++c)
                t.q.wei_scale.push_back(0.125f * (1 + c % 3));
            t.q.src_scale = {1.5f};
            t.q.src_zp = {3};
            t.q.dst_zp = {-2};
            run_fwd(t);
            // Per-channel zero points.
            t.q.src_zp_mask = 2;
            t.q.src_zp.clear();
            for (int64_t c = 0; c < s.ic; ++c)
                t.q.src_zp.push_back((int32_t)(c % 4));
            t.q.dst_zp_mask = 2;
            t.q.dst_zp.clear();
            for (int64_t c = 0; c < s.oc; ++c)
                t.q.dst_zp.push_back((int32_t)(c % 3) - 1);
            t.ddt = dt::u8;
            run_fwd(t);
            // A source zero point the source type cannot hold.
            t.q.src_zp_mask = 0;
            t.q.src_zp = {300};
            t.q.dst_zp_mask = 0;
            t.q.dst_zp = {0};
            t.ddt = dt::f32;
            run_fwd(t);
        }
    }
}

TEST(Convolution, ForwardEltwisePostOps)
{
    struct e_t {
        algorithm a;
        float alpha, beta;
    };
    const std::vector<e_t> algs = {{algorithm::eltwise_relu, 0.f, 0.f},
            {algorithm::eltwise_relu, 0.1f, 0.f},
            {algorithm::eltwise_tanh, 0.f, 0.f},
            {algorithm::eltwise_elu, 0.5f, 0.f},
            {algorithm::eltwise_square, 0.f, 0.f},
            {algorithm::eltwise_abs, 0.f, 0.f},
            {algorithm::eltwise_sqrt, 0.f, 0.f},
            {algorithm::eltwise_linear, 0.5f, -1.f},
            {algorithm::eltwise_soft_relu, 1.f, 0.f},
            {algorithm::eltwise_hardsigmoid, 0.2f, 0.5f},
            {algorithm::eltwise_logistic, 0.f, 0.f},
            {algorithm::eltwise_exp, 0.f, 0.f},
            {algorithm::eltwise_gelu_tanh, 0.f, 0.f},
            {algorithm::eltwise_swish, 1.f, 0.f},
            {algorithm::eltwise_log, 0.f, 0.f},
            {algorithm::eltwise_clip, -2.f, 3.f},
            {algorithm::eltwise_clip_v2, -1.f, 2.f},
            {algorithm::eltwise_pow, 0.5f, 2.f},
            {algorithm::eltwise_gelu_erf, 0.f, 0.f},
            {algorithm::eltwise_round, 0.f, 0.f},
            {algorithm::eltwise_mish, 0.f, 0.f},
            {algorithm::eltwise_hardswish, 0.2f, 0.5f}};
    for (const auto &e : algs) {
        fwd_case_t t;
        t.sh = shapes()[0];
        po_t po;
        po.kind = po_t::eltwise;
        po.alg = e.a;
        po.alpha = e.alpha;
        po.beta = e.beta;
        // sqrt / log need positive inputs: a linear shift first.
        if (e.a == algorithm::eltwise_sqrt || e.a == algorithm::eltwise_log) {
            po_t sq;
            sq.kind = po_t::eltwise;
            sq.alg = algorithm::eltwise_abs;
            t.po.push_back(sq);
            po_t lin;
            lin.kind = po_t::eltwise;
            lin.alg = algorithm::eltwise_linear;
            lin.alpha = 1.f;
            lin.beta = 1.f;
            t.po.push_back(lin);
        }
        // Keep exp-like algorithms in range.
        if (e.a == algorithm::eltwise_exp || e.a == algorithm::eltwise_soft_relu
                || e.a == algorithm::eltwise_mish) {
            po_t lin;
            lin.kind = po_t::eltwise;
            lin.alg = algorithm::eltwise_linear;
            lin.alpha = 0.05f;
            lin.beta = 0.f;
            t.po.push_back(lin);
        }
        t.po.push_back(po);
        SCOPED_TRACE(std::to_string((int)e.a));
        run_fwd(t);
        t.src_fmt = t.dst_fmt = fmt_t::cl;
        run_fwd(t);
    }
}

TEST(Convolution, ForwardSumBinaryPreluPostOps)
{
    for (const auto &s : {shapes()[0], shapes()[5], shapes()[6], shapes()[10],
                 shapes()[12]}) {
        for (fmt_t f : {fmt_t::plain, fmt_t::cl, fmt_t::blocked}) {
            fwd_case_t t;
            t.sh = s;
            t.src_fmt = t.dst_fmt = f;
            po_t sum;
            sum.kind = po_t::sum;
            sum.scale = 0.5f;
            po_t b1;
            b1.kind = po_t::binary;
            b1.alg = algorithm::binary_add;
            b1.mask = 2; // per channel
            po_t b2;
            b2.kind = po_t::binary;
            b2.alg = algorithm::binary_mul;
            b2.mask = -1; // full tensor
            po_t b3;
            b3.kind = po_t::binary;
            b3.alg = algorithm::binary_max;
            b3.mask = 0; // scalar
            po_t pr;
            pr.kind = po_t::prelu;
            pr.mask = 2;
            po_t pr0;
            pr0.kind = po_t::prelu;
            pr0.mask = 0;
            po_t relu;
            relu.kind = po_t::eltwise;
            relu.alg = algorithm::eltwise_relu;
            t.po = {sum, b1, relu};
            run_fwd(t);
            t.po = {b2, pr, b3};
            run_fwd(t);
            t.po = {pr0, sum};
            run_fwd(t);
            // Binary broadcast over spatial dims only (mask: n and w).
            po_t b4;
            b4.kind = po_t::binary;
            b4.alg = algorithm::binary_sub;
            b4.mask = 1 | (1 << (1 + (int)s.in.size()));
            b4.src1_dt = dt::bf16;
            t.po = {b4};
            run_fwd(t);
        }
    }
}

// u8 and s8 sources with a common source zero point (and a destination
// scale and zero point into u8 / s8), channels last and `any` weights
// with input channels in quads: the BRGEMM convolution
// where the machine has VNNI (its per-call correction covers only the
// taps inside the source, so padded borders are checked too), the GEMM
// otherwise; both against the reference.
TEST(Convolution, ForwardInt8SourceZeroPointWithPadding)
{
    const shape_t shapes_q[] = {
            shp("2d_pad", 2, 1, 8, 20, {7, 6}, {3, 3}, {}, {}, {1, 1}),
            shp("2d_s2_asym", 1, 1, 12, 70, {9, 8}, {3, 3}, {2, 2}, {},
                    {1, 0}, {0, 1}),
            shp("1d_dil", 2, 1, 4, 9, {11}, {3}, {1}, {1}, {2}),
            shp("2d_1x1", 2, 1, 16, 16, {5, 5}, {1, 1}),
    };
    for (const auto &s : shapes_q)
        for (dt sdt : {dt::u8, dt::s8}) {
            fwd_case_t t;
            t.sh = s;
            t.sdt = sdt;
            t.wdt = dt::s8;
            t.ddt = dt::f32;
            t.bias = false;
            t.src_fmt = t.dst_fmt = fmt_t::cl;
            t.wei_fmt = fmt_t::any;
            t.q.src_scale = {0.5f};
            t.q.src_zp = {sdt == dt::u8 ? 3 : -2};
            run_fwd(t);
            // Quantized output: dst scale and zero point after the bias.
            t.ddt = sdt;
            t.bias = true;
            t.q.dst_scale = {2.f};
            t.q.dst_zp = {sdt == dt::u8 ? 5 : -3};
            run_fwd(t);
        }
}

TEST(Convolution, ForwardInt8SumWithZeroPoint)
{
    fwd_case_t t;
    t.sh = shapes()[0];
    t.sdt = dt::u8;
    t.wdt = dt::s8;
    t.ddt = dt::u8;
    t.q.src_scale = {0.5f};
    t.q.dst_zp = {5};
    po_t sum;
    sum.kind = po_t::sum;
    sum.scale = 2.f;
    sum.zp = 3;
    po_t relu;
    relu.kind = po_t::eltwise;
    relu.alg = algorithm::eltwise_relu;
    t.po = {sum, relu};
    run_fwd(t);
    // Sum reading the u8 destination as s8.
    t.ddt = dt::u8;
    t.po[0].zp = 0;
    t.po[0].sum_dt = dt::s8;
    t.q.dst_zp.clear();
    run_fwd(t);
}

// Plain weights whose dims of one element have strides out of line with
// the others (any stride is valid for them). The implicit GEMM packed its
// f32 panels with the stride of the innermost reduction dim even when that
// dim had one element, reading past the weights (fuzz_primitive_desc under
// ASan: f16 weights 5x5x1x1 through pack_a_f32<f16>).
TEST(Convolution, ForwardWeightsUnitDimStrides)
{
    for (dt d : {dt::f16, dt::bf16, dt::f32}) {
        fwd_case_t t;
        t.sdt = t.wdt = d;
        t.bias = false;
        // nchw: reduction order (ic, kh, kw); kw of one element, stride 5.
        t.sh = shp("ncsp_1x1", 6, 1, 5, 5, {4, 4}, {1, 1}, {2, 2}, {},
                {1, 1});
        t.wei_strides = {5, 1, 1, 5};
        run_fwd(t);
        // nhwc: reduction order (kh, kw, ic); ic and kw of one element.
        t.sh = shp("nspc_3x1", 2, 1, 1, 4, {5, 3}, {3, 1}, {1, 1}, {},
                {1, 0});
        t.src_fmt = t.dst_fmt = fmt_t::cl;
        t.wei_strides = {3, 7, 1, 9};
        run_fwd(t);
    }
}

TEST(Convolution, ForwardZeroBatch)
{
    shape_t s = shapes()[0];
    s.mb = 0;
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, false));
    auto pd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::plain, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::plain, s.g > 1),
            make_md(dd, dt::f32, fmt_t::plain, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r());
    memory src(pd.src_desc(), eng()), wei(pd.weights_desc(), eng()),
            dst(pd.dst_desc(), eng());
    EXPECT_NO_THROW(convolution_forward(pd).execute(strm(),
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                    {DNNL_ARG_DST, dst}}));
}

// Empty batches and images in the shape the BRGEMM convolutions take
// (channels last, 64 channels): every propagation kind is created and runs
// as a no-op. The BRGEMM plans divided by the zero point count before they
// declined such problems.
TEST(Convolution, EmptyProblemsInEveryDirection)
{
    using tag = memory::format_tag;
    for (int zero = 0; zero < 3; ++zero)
        for (bool any : {false, true}) {
            SCOPED_TRACE("zero dim " + std::to_string(zero) + (any ? " any" : ""));
            const memory::dim mb = zero == 0 ? 0 : 2, h = zero == 1 ? 0 : 8,
                              w = zero == 2 ? 0 : 8;
            const tag t = any ? tag::any : tag::nhwc;
            memory::desc smd({mb, 64, h, w}, dt::f32, t),
                    wmd({64, 64, 3, 3}, dt::f32, any ? tag::any : tag::hwio),
                    dmd({mb, 64, h, w}, dt::f32, t), bmd({64}, dt::f32, tag::a);
            const memory::dims one = {1, 1};
            convolution_forward::primitive_desc fwd;
            ASSERT_NO_THROW(fwd = convolution_forward::primitive_desc(eng(),
                                    prop_kind::forward_training,
                                    algorithm::convolution_direct, smd, wmd,
                                    bmd, dmd, one, one, one));
            memory src(fwd.src_desc(), eng()), wei(fwd.weights_desc(), eng()),
                    bias(fwd.bias_desc(), eng()), dst(fwd.dst_desc(), eng());
            EXPECT_NO_THROW(convolution_forward(fwd).execute(strm(),
                    {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                            {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}}));
            convolution_backward_data::primitive_desc bwd_d;
            ASSERT_NO_THROW(bwd_d = convolution_backward_data::primitive_desc(
                                    eng(), algorithm::convolution_direct, smd,
                                    wmd, dmd, one, one, one, fwd));
            memory dsrc(bwd_d.diff_src_desc(), eng()),
                    wei_d(bwd_d.weights_desc(), eng()),
                    ddst(bwd_d.diff_dst_desc(), eng());
            EXPECT_NO_THROW(convolution_backward_data(bwd_d).execute(strm(),
                    {{DNNL_ARG_DIFF_SRC, dsrc}, {DNNL_ARG_WEIGHTS, wei_d},
                            {DNNL_ARG_DIFF_DST, ddst}}));
            convolution_backward_weights::primitive_desc bwd_w;
            ASSERT_NO_THROW(bwd_w = convolution_backward_weights::primitive_desc(
                                    eng(), algorithm::convolution_direct, smd,
                                    wmd, bmd, dmd, one, one, one, fwd));
            memory src_w(bwd_w.src_desc(), eng()),
                    dwei(bwd_w.diff_weights_desc(), eng()),
                    dbias(bwd_w.diff_bias_desc(), eng()),
                    ddst_w(bwd_w.diff_dst_desc(), eng());
            EXPECT_NO_THROW(convolution_backward_weights(bwd_w).execute(strm(),
                    {{DNNL_ARG_SRC, src_w}, {DNNL_ARG_DIFF_WEIGHTS, dwei},
                            {DNNL_ARG_DIFF_BIAS, dbias},
                            {DNNL_ARG_DIFF_DST, ddst_w}}));
            strm().wait();
        }
}

// ---- backward --------------------------------------------------------------

void run_bwd_data(const shape_t &s, fmt_t act_fmt, fmt_t wei_fmt, dt d,
        dt out_dt)
{
    SCOPED_TRACE(s.name);
    const conv_ref::prb_t p = to_prb(s, false);
    const memory::dims sd = act_dims(s, s.ic, s.in), dd = act_dims(s, s.oc, out_sp(s, false));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    auto diff_src_md = make_md(sd, out_dt, act_fmt, false);
    auto wei_md = make_wei_md(wd, d, wei_fmt, s.g > 1);
    auto diff_dst_md = make_md(dd, d, act_fmt, false);
    auto hint = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::convolution_direct,
            make_md(sd, d, act_fmt, false), wei_md, diff_dst_md, s.strides(),
            s.dilates(), s.pad_l(), s.pad_r());
    convolution_backward_data::primitive_desc pd;
    ASSERT_NO_THROW(pd = convolution_backward_data::primitive_desc(eng(),
                            algorithm::convolution_direct, diff_src_md,
                            wei_md, diff_dst_md, s.strides(), s.dilates(),
                            s.pad_l(), s.pad_r(), hint));
    auto dd_v = gen(p.dst_size(), 5, -8, 8, 0.25);
    auto wei_v = gen(p.wei_size(), 6, -6, 6, 0.25);
    memory diff_dst(pd.diff_dst_desc(), eng()), wei(pd.weights_desc(), eng());
    memory diff_src(pd.diff_src_desc(), eng());
    write(diff_dst, dd_v);
    write(wei, wei_v);
    write(diff_src, gen(p.src_size(), 7, -3, 3, 1.0));
    convolution_backward_data(pd).execute(strm(),
            {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_WEIGHTS, wei},
                    {DNNL_ARG_DIFF_SRC, diff_src}});
    strm().wait();
    std::vector<double> expect;
    conv_ref::conv_bwd_data(p, dd_v, wei_v, expect);
    check(read(diff_src), expect, out_dt, tol_for(out_dt, false));
}

void run_bwd_weights(const shape_t &s, fmt_t act_fmt, fmt_t wei_fmt, dt d,
        dt wdt, bool bias)
{
    SCOPED_TRACE(s.name);
    const conv_ref::prb_t p = to_prb(s, false);
    const memory::dims sd = act_dims(s, s.ic, s.in), dd = act_dims(s, s.oc, out_sp(s, false));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    auto src_md = make_md(sd, d, act_fmt, false);
    auto diff_wei_md = make_wei_md(wd, wdt, wei_fmt, s.g > 1);
    auto diff_dst_md = make_md(dd, d, act_fmt, false);
    auto diff_bias_md = bias ? memory::desc({s.oc}, wdt, tag::a) : memory::desc();
    auto hint = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::convolution_direct,
            src_md, make_wei_md(wd, d, wei_fmt, s.g > 1), diff_dst_md, s.strides(),
            s.dilates(), s.pad_l(), s.pad_r());
    convolution_backward_weights::primitive_desc pd;
    ASSERT_NO_THROW(pd = convolution_backward_weights::primitive_desc(eng(),
                            algorithm::convolution_direct, src_md,
                            diff_wei_md, diff_bias_md, diff_dst_md,
                            s.strides(), s.dilates(), s.pad_l(), s.pad_r(),
                            hint));
    auto src_v = gen(p.src_size(), 8, -8, 8, 0.25);
    auto dd_v = gen(p.dst_size(), 9, -8, 8, 0.25);
    memory src(pd.src_desc(), eng()), diff_dst(pd.diff_dst_desc(), eng());
    memory diff_wei(pd.diff_weights_desc(), eng());
    write(src, src_v);
    write(diff_dst, dd_v);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src},
            {DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_DIFF_WEIGHTS, diff_wei}};
    memory diff_bias;
    if (bias) {
        diff_bias = memory(pd.diff_bias_desc(), eng());
        args[DNNL_ARG_DIFF_BIAS] = diff_bias;
    }
    convolution_backward_weights(pd).execute(strm(), args);
    strm().wait();
    std::vector<double> ew, eb;
    conv_ref::conv_bwd_weights(p, src_v, dd_v, ew, bias ? &eb : nullptr);
    check(read(diff_wei), ew, wdt, tol_for(wdt, false));
    if (bias) check(read(diff_bias), eb, wdt, tol_for(wdt, false));
}

TEST(Convolution, BackwardData)
{
    for (const auto &s : shapes()) {
        run_bwd_data(s, fmt_t::plain, fmt_t::plain, dt::f32, dt::f32);
        run_bwd_data(s, fmt_t::cl, fmt_t::any, dt::f32, dt::f32);
        run_bwd_data(s, fmt_t::any, fmt_t::any, dt::f32, dt::f32);
    }
    run_bwd_data(shapes()[0], fmt_t::blocked, fmt_t::blocked, dt::f32, dt::f32);
    run_bwd_data(shapes()[5], fmt_t::cl, fmt_t::plain, dt::bf16, dt::bf16);
    run_bwd_data(shapes()[3], fmt_t::plain, fmt_t::any, dt::bf16, dt::f32);
    run_bwd_data(shapes()[0], fmt_t::any, fmt_t::any, dt::f16, dt::f16);
}

TEST(Convolution, BackwardWeights)
{
    for (const auto &s : shapes()) {
        run_bwd_weights(s, fmt_t::plain, fmt_t::plain, dt::f32, dt::f32, true);
        run_bwd_weights(s, fmt_t::cl, fmt_t::any, dt::f32, dt::f32, false);
        run_bwd_weights(s, fmt_t::any, fmt_t::any, dt::f32, dt::f32, true);
    }
    run_bwd_weights(shapes()[0], fmt_t::blocked, fmt_t::blocked, dt::f32,
            dt::f32, true);
    run_bwd_weights(shapes()[5], fmt_t::cl, fmt_t::plain, dt::bf16, dt::bf16,
            true);
    run_bwd_weights(shapes()[3], fmt_t::plain, fmt_t::any, dt::bf16, dt::f32,
            true);
    run_bwd_weights(shapes()[1], fmt_t::any, fmt_t::any, dt::f16, dt::f32,
            true);
}

// ---- descriptors, queries, errors -----------------------------------------

// Training reuses the weights layout the forward descriptor chose (a
// blocked one) in the backward passes.
TEST(Convolution, BackwardWithForwardWeightsLayout)
{
    const shape_t s = shapes()[5]; // groups
    const conv_ref::prb_t p = to_prb(s, false);
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, false));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    auto fwd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::plain, false),
            make_wei_md(wd, dt::f32, fmt_t::any, true),
            make_md(dd, dt::f32, fmt_t::plain, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r());
    const memory::desc wmd = fwd.weights_desc();
    auto bwd_d = convolution_backward_data::primitive_desc(eng(),
            algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::plain, false), wmd,
            make_md(dd, dt::f32, fmt_t::plain, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r(), fwd);
    auto bwd_w = convolution_backward_weights::primitive_desc(eng(),
            algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::plain, false), wmd,
            make_md(dd, dt::f32, fmt_t::plain, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r(), fwd);
    auto src_v = gen(p.src_size(), 41, -8, 8, 0.25);
    auto dd_v = gen(p.dst_size(), 42, -8, 8, 0.25);
    auto wei_v = gen(p.wei_size(), 43, -6, 6, 0.25);
    memory src(bwd_w.src_desc(), eng()), diff_dst(bwd_d.diff_dst_desc(), eng());
    memory wei(wmd, eng()), diff_src(bwd_d.diff_src_desc(), eng());
    memory diff_wei(bwd_w.diff_weights_desc(), eng());
    write(src, src_v);
    write(diff_dst, dd_v);
    write(wei, wei_v);
    // Garbage where the blocked layout pads: it must come back zero.
    std::memset(diff_wei.get_data_handle(), 0x7f, wmd.get_size());
    convolution_backward_data(bwd_d).execute(strm(),
            {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_WEIGHTS, wei},
                    {DNNL_ARG_DIFF_SRC, diff_src}});
    convolution_backward_weights(bwd_w).execute(strm(),
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, diff_dst},
                    {DNNL_ARG_DIFF_WEIGHTS, diff_wei}});
    strm().wait();
    std::vector<double> eds, edw;
    conv_ref::conv_bwd_data(p, dd_v, wei_v, eds);
    conv_ref::conv_bwd_weights(p, src_v, dd_v, edw, nullptr);
    check(read(diff_src), eds, dt::f32, tol_for(dt::f32, false));
    check(read(diff_wei), edw, dt::f32, tol_for(dt::f32, false));
    // Padding of the blocked diff weights is zero.
    const float *raw = static_cast<const float *>(diff_wei.get_data_handle());
    const size_t n = wmd.get_size() / sizeof(float);
    double sum_all = 0, sum_logical = 0;
    for (size_t i = 0; i < n; ++i)
        sum_all += std::fabs(raw[i]);
    for (double v : read(diff_wei))
        sum_logical += std::fabs(v);
    EXPECT_NEAR(sum_all, sum_logical, 1e-3 * (1 + sum_logical));
}

TEST(Convolution, QueriesAndAnyFormats)
{
    const shape_t s
            = shp("q", 2, 2, 4, 6, {9, 8}, {3, 2}, {2, 1}, {1, 0}, {2, 1}, {1, 0});
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, false));
    auto pd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::convolution_auto,
            make_md(sd, dt::f32, fmt_t::any, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::any, s.g > 1),
            memory::desc({s.oc}, dt::f32, tag::any),
            make_md(dd, dt::f32, fmt_t::any, false), s.strides(), s.dilates(),
            s.pad_l(), s.pad_r());
    EXPECT_EQ(pd.get_algorithm(), algorithm::convolution_direct);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    EXPECT_EQ(pd.get_strides(), s.strides());
    EXPECT_EQ(pd.get_dilations(), s.dilates());
    EXPECT_EQ(pd.get_padding_l(), s.pad_l());
    EXPECT_EQ(pd.get_padding_r(), s.pad_r());
    EXPECT_EQ(pd.src_desc().get_dims(), sd);
    EXPECT_EQ(pd.dst_desc().get_dims(), dd);
    EXPECT_EQ(pd.bias_desc().get_dims(), memory::dims({s.oc}));
    EXPECT_NE(pd.src_desc().get_format_kind(), memory::format_kind::any);
    EXPECT_NE(pd.weights_desc().get_format_kind(), memory::format_kind::any);
    EXPECT_NE(pd.dst_desc().get_format_kind(), memory::format_kind::any);
    EXPECT_EQ(pd.bias_desc().get_format_kind(), memory::format_kind::blocked);
    const std::string impl = pd.impl_info_str();
    EXPECT_FALSE(impl.empty());
    // A query through the C API returns the resolved algorithm.
    dnnl_alg_kind_t alg;
    EXPECT_EQ(dnnl_primitive_desc_query(pd.get(), dnnl_query_alg_kind, 0, &alg),
            dnnl_success);
    EXPECT_EQ(alg, dnnl_convolution_direct);
    // The same request with the resolved algorithm gives the same choice.
    auto pd2 = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::any, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::any, s.g > 1),
            memory::desc({s.oc}, dt::f32, tag::any),
            make_md(dd, dt::f32, fmt_t::any, false), s.strides(), s.dilates(),
            s.pad_l(), s.pad_r());
    EXPECT_EQ(pd2.impl_info_str(), impl);
    EXPECT_TRUE(pd2.weights_desc() == pd.weights_desc());
    // Every implementation the iterator offers is reachable.
    auto pd3 = pd;
    int n = 1;
    while (pd3.next_impl())
        ++n;
    EXPECT_GE(n, 1);
    // Backward descriptors report diff mds and no forward ones.
    auto bwd = convolution_backward_weights::primitive_desc(eng(),
            algorithm::convolution_auto,
            make_md(sd, dt::f32, fmt_t::any, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::any, s.g > 1),
            memory::desc({s.oc}, dt::f32, tag::any),
            make_md(dd, dt::f32, fmt_t::any, false), s.strides(), s.dilates(),
            s.pad_l(), s.pad_r(), pd);
    EXPECT_EQ(bwd.get_algorithm(), algorithm::convolution_direct);
    EXPECT_EQ(bwd.get_prop_kind(), prop_kind::backward_weights);
    EXPECT_EQ(bwd.diff_bias_desc().get_dims(), memory::dims({s.oc}));
    EXPECT_EQ(bwd.diff_weights_desc().get_dims(), wei_dims(s, s.oc, s.ic));
    EXPECT_EQ(bwd.dst_desc().get_ndims(), 0);
}

TEST(Convolution, DepthwiseHasSpecialisedImplementation)
{
    const shape_t s = shapes()[6];
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, false));
    auto pd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::cl, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::any, s.g > 1),
            make_md(dd, dt::f32, fmt_t::cl, false), s.strides(), s.dilates(),
            s.pad_l(), s.pad_r());
    const std::string first = pd.impl_info_str();
    ASSERT_TRUE(pd.next_impl());
    EXPECT_NE(pd.impl_info_str(), first);
    // Both implementations compute the right result, in both layouts,
    // with and without an epilogue, for f32 and int8.
    for (int skip : {0, 1})
        for (fmt_t f : {fmt_t::cl, fmt_t::plain})
            for (bool bias : {false, true}) {
                fwd_case_t t;
                t.sh = s;
                t.skip_impls = skip;
                t.src_fmt = t.dst_fmt = f;
                t.bias = bias;
                run_fwd(t);
                t.sdt = dt::u8;
                t.wdt = dt::s8;
                t.ddt = dt::s8;
                t.q.src_zp = {2};
                t.q.dst_scale = {4.f};
                run_fwd(t);
            }
}

// Depthwise forward over fewer rows than the threads want splits rows
// into channel blocks (7 rows of 7x7, 520 channels: two blocks with a
// tail on two threads); each unit converts only its channels of an int8
// source, the zero point per channel included.
TEST(Convolution, DepthwiseFewRowsSplitByChannels)
{
    const shape_t s = shp("2d_depthwise_few_rows", 1, 520, 520, 520, {7, 7},
            {3, 3}, {1, 1}, {}, {1, 1});
    for (bool bias : {false, true}) {
        fwd_case_t t;
        t.sh = s;
        t.src_fmt = t.dst_fmt = fmt_t::cl;
        t.bias = bias;
        run_fwd(t);
        t.sdt = dt::u8;
        t.wdt = dt::s8;
        t.ddt = dt::f32;
        t.q.src_zp = {3};
        run_fwd(t);
    }
    // Backward weights over as many channels: the threads' partial sums
    // (5,200 of them with the bias) are added by the team in slices.
    run_bwd_weights(s, fmt_t::cl, fmt_t::plain, dt::f32, dt::f32, true);
}

// Depthwise backward runs on the direct channels-last f32 kernels (other
// layouts and data types through copies), bf16 correctly too.
TEST(Convolution, DepthwiseBackwardIsDirect)
{
    for (const auto &s : shapes()) {
        if (s.g != s.ic || s.g != s.oc || s.g == 1) continue;
        SCOPED_TRACE(s.name);
        const memory::dims sd = act_dims(s, s.ic, s.in),
                           dd = act_dims(s, s.oc, out_sp(s, false));
        for (dt d : {dt::f32, dt::bf16})
            for (fmt_t f : {fmt_t::cl, fmt_t::plain}) {
                const auto a = make_md(sd, d, f, false),
                           b = make_md(dd, d, f, false),
                           w = make_wei_md(wei_dims(s, s.oc, s.ic), d,
                                   fmt_t::any, true);
                auto hint = convolution_forward::primitive_desc(eng(),
                        prop_kind::forward_training,
                        algorithm::convolution_direct, a, w, b, s.strides(),
                        s.dilates(), s.pad_l(), s.pad_r());
                auto bd = convolution_backward_data::primitive_desc(eng(),
                        algorithm::convolution_direct, a, w, b, s.strides(),
                        s.dilates(), s.pad_l(), s.pad_r(), hint);
                auto bw = convolution_backward_weights::primitive_desc(eng(),
                        algorithm::convolution_direct, a, w, b, s.strides(),
                        s.dilates(), s.pad_l(), s.pad_r(), hint);
                EXPECT_EQ(std::string(bd.impl_info_str()).rfind("dw:direct:", 0),
                        0u)
                        << bd.impl_info_str();
                EXPECT_EQ(std::string(bw.impl_info_str()).rfind("dw:direct:", 0),
                        0u)
                        << bw.impl_info_str();
            }
        run_bwd_data(s, fmt_t::plain, fmt_t::any, dt::bf16, dt::bf16);
        run_bwd_data(s, fmt_t::cl, fmt_t::any, dt::bf16, dt::f32);
        run_bwd_weights(s, fmt_t::cl, fmt_t::plain, dt::bf16, dt::bf16, true);
        run_bwd_weights(s, fmt_t::plain, fmt_t::any, dt::bf16, dt::f32, true);
    }
}

TEST(Convolution, UserScratchpad)
{
    fwd_case_t t;
    t.sh = shapes()[0];
    const shape_t &s = t.sh;
    const conv_ref::prb_t p = to_prb(s, false);
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, false));
    primitive_attr attr;
    attr.set_scratchpad_mode(scratchpad_mode::user);
    auto pd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::blocked, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::blocked, s.g > 1),
            make_md(dd, dt::f32, fmt_t::blocked, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r(), attr);
    memory scratch(pd.scratchpad_desc(), eng());
    auto src_v = gen(p.src_size(), 1, -8, 8, 0.25);
    auto wei_v = gen(p.wei_size(), 2, -6, 6, 0.25);
    memory src(pd.src_desc(), eng()), wei(pd.weights_desc(), eng()),
            dst(pd.dst_desc(), eng());
    write(src, src_v);
    write(wei, wei_v);
    convolution_forward(pd).execute(strm(),
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst},
                    {DNNL_ARG_SCRATCHPAD, scratch}});
    strm().wait();
    std::vector<double> expect;
    conv_ref::conv_fwd(p, src_v, wei_v, expect);
    check(read(dst), expect, dt::f32, tol_for(dt::f32, false));
}

TEST(Convolution, ConcurrentExecutionOfOnePrimitive)
{
    const shape_t s = shapes()[0];
    const conv_ref::prb_t p = to_prb(s, false);
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, false));
    auto pd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::plain, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::plain, false),
            make_md(dd, dt::f32, fmt_t::plain, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r());
    convolution_forward prim(pd);
    auto src_v = gen(p.src_size(), 31, -8, 8, 0.25);
    auto wei_v = gen(p.wei_size(), 32, -6, 6, 0.25);
    memory wei(pd.weights_desc(), eng());
    write(wei, wei_v);
    std::vector<double> expect;
    conv_ref::conv_fwd(p, src_v, wei_v, expect);
    std::vector<std::vector<double>> results(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            stream st(eng());
            memory src(pd.src_desc(), eng()), dst(pd.dst_desc(), eng());
            write(src, src_v);
            for (int i = 0; i < 3; ++i)
                prim.execute(st, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                                         {DNNL_ARG_DST, dst}});
            st.wait();
            results[t] = read(dst);
        });
    for (auto &th : threads)
        th.join();
    for (const auto &r : results)
        check(r, expect, dt::f32, tol_for(dt::f32, false));
}

// Creates a forward descriptor through the C API; returns the status.
dnnl_status_t try_fwd(const memory::dims &sd, const memory::dims &wd,
        const memory::dims &bd, const memory::dims &dd,
        const memory::dims &st, const memory::dims &dl,
        const memory::dims &pl, const memory::dims &pr,
        dnnl_alg_kind_t alg = dnnl_convolution_direct, dt sdt = dt::f32,
        dt wdt = dt::f32, dt ddt = dt::f32, const_dnnl_primitive_attr_t attr = nullptr,
        dnnl_engine_t e = nullptr)
{
    memory::desc s(sd, sdt, memory::format_tag::any);
    memory::desc w(wd, wdt, memory::format_tag::any);
    memory::desc b = bd.empty() ? memory::desc() : memory::desc(bd, dt::f32, tag::any);
    memory::desc d(dd, ddt, memory::format_tag::any);
    dnnl_primitive_desc_t pd = nullptr;
    dnnl_status_t st_ = dnnl_convolution_forward_primitive_desc_create(&pd,
            e ? e : eng().get(), dnnl_forward_inference, alg, s.get(),
            w.get(), bd.empty() ? nullptr : b.get(), d.get(), st.data(),
            dl.data(), pl.data(), pr.data(), attr);
    if (pd) dnnl_primitive_desc_destroy(pd);
    return st_;
}

TEST(Convolution, BadParametersRejected)
{
    const memory::dims s = {1, 4, 5, 5}, w = {6, 4, 3, 3}, d = {1, 6, 5, 5};
    const memory::dims one = {1, 1}, zero = {0, 0};
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one), dnnl_success);
    // Inconsistent spatial size.
    EXPECT_EQ(try_fwd(s, w, {6}, {1, 6, 4, 5}, one, zero, one, one),
            dnnl_invalid_arguments);
    // Channels inconsistent with weights.
    EXPECT_EQ(try_fwd({1, 3, 5, 5}, w, {6}, d, one, zero, one, one),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd(s, w, {6}, {1, 7, 5, 5}, one, zero, one, one),
            dnnl_invalid_arguments);
    // Bad bias.
    EXPECT_EQ(try_fwd(s, w, {5}, d, one, zero, one, one),
            dnnl_invalid_arguments);
    // Zero stride, negative padding, negative dilation.
    EXPECT_EQ(try_fwd(s, w, {6}, d, {0, 1}, zero, one, one),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd(s, w, {6}, {1, 6, 3, 3}, one, zero, {-1, -1}, {0, 0}),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, {-1, 0}, one, one),
            dnnl_invalid_arguments);
    // Dilation changes the output size.
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, {1, 1}, one, one),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd(s, w, {6}, {1, 6, 3, 3}, one, {1, 1}, one, one),
            dnnl_success);
    // Ranks.
    EXPECT_EQ(try_fwd({1, 4, 5}, w, {6}, {1, 6, 5}, {1}, {0}, {1}, {1}),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd({1, 4}, {6, 4}, {6}, {1, 6}, {}, {}, {}, {}),
            dnnl_invalid_arguments);
    // Groups: 5D weights must divide channels.
    EXPECT_EQ(try_fwd(s, {2, 3, 2, 3, 3}, {6}, d, one, zero, one, one),
            dnnl_success);
    EXPECT_EQ(try_fwd(s, {3, 2, 2, 3, 3}, {6}, d, one, zero, one, one),
            dnnl_invalid_arguments);
    // Batch mismatch.
    EXPECT_EQ(try_fwd(s, w, {6}, {2, 6, 5, 5}, one, zero, one, one),
            dnnl_invalid_arguments);
    // Algorithms: winograd is not implemented, garbage is invalid.
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one,
                      dnnl_convolution_winograd),
            dnnl_unimplemented);
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one, dnnl_eltwise_relu),
            dnnl_invalid_arguments);
    // Data type combinations no implementation handles.
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one,
                      dnnl_convolution_direct, dt::u8, dt::u8, dt::f32),
            dnnl_unimplemented);
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one,
                      dnnl_convolution_direct, dt::f32, dt::s32, dt::f32),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one,
                      dnnl_convolution_direct, dt::bf16, dt::f16, dt::f32),
            dnnl_unimplemented);
    // Null arguments.
    dnnl_primitive_desc_t pd = nullptr;
    memory::desc md(s, dt::f32, tag::any);
    const dnnl_dim_t st[2] = {1, 1}, p[2] = {1, 1};
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng().get(),
                      dnnl_forward_inference, dnnl_convolution_direct,
                      md.get(), nullptr, nullptr, md.get(), st, nullptr, p, p,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng().get(),
                      dnnl_backward_data, dnnl_convolution_direct, md.get(),
                      md.get(), nullptr, md.get(), st, nullptr, p, p, nullptr),
            dnnl_invalid_arguments);
    // Unsupported attributes: scales on f32, post-ops on backward.
    primitive_attr a;
    a.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one,
                      dnnl_convolution_direct, dt::f32, dt::f32, dt::f32,
                      a.get()),
            dnnl_unimplemented);
    primitive_attr a2;
    a2.set_scales_mask(DNNL_ARG_WEIGHTS, 2);
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one,
                      dnnl_convolution_direct, dt::u8, dt::s8, dt::f32,
                      a2.get()),
            dnnl_unimplemented);
    post_ops dw;
    dw.append_dw(memory::data_type::f32, memory::data_type::f32,
            memory::data_type::f32, 3, 1, 1);
    primitive_attr a3;
    a3.set_post_ops(dw);
    // The depthwise post-op (test_conv_fused_dw.cpp): 2D without groups.
    EXPECT_EQ(try_fwd(s, w, {6}, d, one, zero, one, one,
                      dnnl_convolution_direct, dt::f32, dt::f32, dt::f32,
                      a3.get()),
            dnnl_success);
    EXPECT_EQ(try_fwd(s, {2, 3, 2, 3, 3}, {6}, d, one, zero, one, one,
                      dnnl_convolution_direct, dt::f32, dt::f32, dt::f32,
                      a3.get()),
            dnnl_unimplemented);
    post_ops relu;
    relu.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr a4;
    a4.set_post_ops(relu);
    dnnl_primitive_desc_t bpd = nullptr;
    memory::desc ws(w, dt::f32, tag::any), ds(d, dt::f32, tag::any);
    EXPECT_EQ(dnnl_convolution_backward_data_primitive_desc_create(&bpd,
                      eng().get(), dnnl_convolution_direct, md.get(), ws.get(),
                      ds.get(), st, nullptr, p, p, nullptr, a4.get()),
            dnnl_unimplemented);
}

TEST(Convolution, MissingExecutionArgumentsRejected)
{
    fwd_case_t t;
    t.sh = shapes()[0];
    const shape_t &s = t.sh;
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, false));
    primitive_attr attr;
    post_ops po;
    po.append_binary(algorithm::binary_add, memory::desc(dd, dt::f32, tag::nchw));
    attr.set_post_ops(po);
    auto pd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::plain, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::plain, s.g > 1),
            make_md(dd, dt::f32, fmt_t::plain, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r(), attr);
    memory src(pd.src_desc(), eng()), wei(pd.weights_desc(), eng()),
            dst(pd.dst_desc(), eng());
    convolution_forward prim(pd);
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, src.get()},
            {DNNL_ARG_WEIGHTS, wei.get()}, {DNNL_ARG_DST, dst.get()}};
    EXPECT_EQ(dnnl_primitive_execute(prim.get(), strm().get(), 3, args),
            dnnl_invalid_arguments);
    // PReLU weights missing.
    post_ops pr;
    pr.append_prelu(1 << 1);
    primitive_attr pattr;
    pattr.set_post_ops(pr);
    auto ppd = convolution_forward::primitive_desc(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            make_md(sd, dt::f32, fmt_t::plain, false),
            make_wei_md(wei_dims(s, s.oc, s.ic), dt::f32, fmt_t::plain, s.g > 1),
            make_md(dd, dt::f32, fmt_t::plain, false), s.strides(),
            s.dilates(), s.pad_l(), s.pad_r(), pattr);
    convolution_forward pprim(ppd);
    EXPECT_EQ(dnnl_primitive_execute(pprim.get(), strm().get(), 3, args),
            dnnl_invalid_arguments);
}

// The gpu engine takes Winograd for 3x3 unit-stride kernels only (as
// oneDNN's; tests/ocl/test_ocl_convolution.cpp checks its results).
TEST(Convolution, GpuEngineWinogradOnlyWhereTaken)
{
    if (dnnl_engine_get_count(dnnl_gpu) == 0) GTEST_SKIP();
    dnnl_engine_t g = nullptr;
    ASSERT_EQ(dnnl_engine_create(&g, dnnl_gpu, 0), dnnl_success);
    const memory::dims s = {1, 4, 5, 5}, w = {6, 4, 3, 3}, d = {1, 6, 5, 5};
    EXPECT_EQ(try_fwd(s, w, {6}, d, {1, 1}, {0, 0}, {1, 1}, {1, 1},
                      dnnl_convolution_direct, dt::f32, dt::f32, dt::f32,
                      nullptr, g),
            dnnl_success);
    EXPECT_EQ(try_fwd(s, w, {6}, d, {1, 1}, {0, 0}, {1, 1}, {1, 1},
                      dnnl_convolution_winograd, dt::f32, dt::f32, dt::f32,
                      nullptr, g),
            dnnl_success);
    EXPECT_EQ(try_fwd(s, w, {6}, {1, 6, 3, 3}, {2, 2}, {0, 0}, {1, 1},
                      {1, 1}, dnnl_convolution_winograd, dt::f32, dt::f32,
                      dt::f32, nullptr, g),
            dnnl_unimplemented);
    dnnl_engine_destroy(g);
}

} // namespace
