// Deconvolution primitive tests: forward (with bias, post-ops, int8 with
// scales and zero points), backward data and backward weights (with bias)
// over strides, dilations, asymmetric padding, groups, depthwise and
// 1D/2D/3D shapes in plain, channels-last, blocked and `any` layouts;
// queries and rejected parameters. Compared with the naive references in
// tests/reference/conv_ref.*.
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/compare.hpp"
#include "reference/conv_ref.hpp"
#include "reference/reorder_ref.hpp"

using namespace dnnl;

namespace {

// ---- test glue (memories, descriptors, attributes) -----------------------
// (the same glue as test_convolution.cpp)

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

// ---- deconvolution ----------------------------------------------------------

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

// `in` is the deconvolution's source size.
std::vector<shape_t> shapes()
{
    return {
            shp("2d_s2", 2, 1, 4, 3, {4, 5}, {3, 3}, {2, 2}, {}, {1, 1}),
            shp("2d_s1", 1, 1, 3, 5, {5, 4}, {3, 3}, {1, 1}, {}, {1, 1}),
            shp("2d_1x1", 2, 1, 6, 4, {3, 3}, {1, 1}),
            shp("2d_asym_dil", 1, 1, 2, 3, {5, 6}, {3, 2}, {2, 1}, {1, 0},
                    {1, 0}, {0, 1}),
            shp("2d_groups", 1, 2, 4, 6, {4, 4}, {2, 2}, {2, 2}),
            shp("2d_depthwise", 2, 4, 4, 4, {5, 5}, {3, 3}, {2, 2}, {},
                    {1, 1}),
            shp("1d", 2, 1, 3, 2, {7}, {4}, {3}, {}, {1}),
            shp("3d", 1, 1, 2, 3, {3, 3, 4}, {2, 3, 3}, {2, 1, 2}, {},
                    {0, 1, 1}),
    };
}

struct fwd_case_t {
    shape_t sh;
    fmt_t act_fmt = fmt_t::plain, wei_fmt = fmt_t::plain;
    dt sdt = dt::f32, wdt = dt::f32, ddt = dt::f32, bdt = dt::f32;
    bool bias = true;
    quant_t q;
    std::vector<po_t> po;
};

void run_fwd(const fwd_case_t &t)
{
    SCOPED_TRACE(t.sh.name);
    const shape_t &s = t.sh;
    const conv_ref::prb_t p = to_prb(s, true);
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, true));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    primitive_attr attr = build_attr(t.q, t.po, dd);
    deconvolution_forward::primitive_desc pd;
    ASSERT_NO_THROW(pd = deconvolution_forward::primitive_desc(eng(),
                            prop_kind::forward_inference,
                            algorithm::deconvolution_direct,
                            make_md(sd, t.sdt, t.act_fmt, false),
                            make_wei_md(wd, t.wdt, t.wei_fmt, s.g > 1),
                            t.bias ? memory::desc({s.oc}, t.bdt, tag::a)
                                   : memory::desc(),
                            make_md(dd, t.ddt, t.act_fmt, false), s.strides(),
                            s.dilates(), s.pad_l(), s.pad_r(), attr));
    EXPECT_EQ(pd.get_algorithm(), algorithm::deconvolution_direct);
    const bool int_src = t.sdt == dt::u8 || t.sdt == dt::s8;
    auto src_v = gen(p.src_size(), 11, t.sdt == dt::u8 ? 0 : -8, 8,
            int_src ? 1.0 : 0.25);
    auto wei_v = gen(p.wei_size(), 12, -6, 6, int_src ? 1.0 : 0.25);
    auto bias_v = gen(s.oc, 13, -8, 8, is_int(t.bdt) ? 1.0 : 0.5);
    memory src(pd.src_desc(), eng()), wei(pd.weights_desc(), eng());
    memory dst(pd.dst_desc(), eng());
    write(src, src_v);
    write(wei, wei_v);
    write(dst, gen(p.dst_size(), 14, t.ddt == dt::u8 ? 0 : -10, 10,
                       is_int(t.ddt) ? 1.0 : 0.5));
    const auto old = read(dst);
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
    deconvolution_forward(pd).execute(strm(), args);
    strm().wait();

    std::vector<double> shifted = src_v;
    if (!t.q.src_zp.empty())
        for (int64_t i = 0; i < (int64_t)shifted.size(); ++i) {
            const int64_t c = (i / p.isp()) % s.ic;
            shifted[i] -= t.q.src_zp[t.q.src_zp_mask ? c : 0];
        }
    std::vector<double> expect;
    conv_ref::deconv_fwd(p, shifted, wei_v, expect);
    conv_ref::finish(expect, (int)dd.size(), dd.data(), ref_quant(t.q),
            t.bias ? &bias_stored : nullptr, rpo, old);
    check(read(dst), expect, t.ddt,
            tol_for(t.ddt, !t.po.empty() || !t.q.empty()));
}

TEST(Deconvolution, Forward)
{
    for (const auto &s : shapes())
        for (fmt_t f : {fmt_t::plain, fmt_t::cl, fmt_t::any, fmt_t::blocked}) {
            SCOPED_TRACE("format " + std::to_string((int)f));
            fwd_case_t t;
            t.sh = s;
            t.act_fmt = f;
            t.wei_fmt = f == fmt_t::cl ? fmt_t::plain : f;
            if (f == fmt_t::blocked && s.g == s.ic && s.g > 1)
                t.wei_fmt = fmt_t::plain;
            t.bias = f != fmt_t::cl;
            run_fwd(t);
        }
}

TEST(Deconvolution, ForwardLowPrecisionAndPostOps)
{
    for (dt d : {dt::bf16, dt::f16}) {
        fwd_case_t t;
        t.sh = shapes()[0];
        t.sdt = t.wdt = t.ddt = d;
        t.act_fmt = fmt_t::cl;
        run_fwd(t);
        t.ddt = dt::f32;
        t.act_fmt = t.wei_fmt = fmt_t::any;
        run_fwd(t);
    }
    fwd_case_t t;
    t.sh = shapes()[4];
    po_t sum;
    sum.kind = po_t::sum;
    sum.scale = 0.5f;
    po_t b;
    b.kind = po_t::binary;
    b.alg = algorithm::binary_mul;
    b.mask = 2;
    po_t e;
    e.kind = po_t::eltwise;
    e.alg = algorithm::eltwise_tanh;
    po_t pr;
    pr.kind = po_t::prelu;
    pr.mask = 15; // every dim of a 4D destination
    t.po = {sum, b, e, pr};
    run_fwd(t);
    t.act_fmt = fmt_t::cl;
    pr.mask = 0;
    t.po = {pr, sum};
    run_fwd(t);
}

TEST(Deconvolution, ForwardInt8)
{
    for (const auto &s : {shapes()[0], shapes()[2], shapes()[4], shapes()[5]})
        for (fmt_t f : {fmt_t::plain, fmt_t::cl})
            for (dt ddt : {dt::f32, dt::s8, dt::u8, dt::s32}) {
                fwd_case_t t;
                t.sh = s;
                t.act_fmt = f;
                t.sdt = dt::u8;
                t.wdt = dt::s8;
                t.ddt = ddt;
                t.q.src_scale = {0.5f};
                t.q.wei_scale_mask = s.g > 1 ? 3 : 1;
                for (int64_t c = 0; c < s.oc; ++c)
                    t.q.wei_scale.push_back(0.25f * (1 + c % 2));
                t.q.dst_scale = {2.f};
                t.q.src_zp = {4};
                t.q.dst_zp = {ddt == dt::u8 ? 3 : -1};
                if (ddt == dt::s32) t.q.dst_zp.clear();
                run_fwd(t);
                t.q.src_zp_mask = 2;
                t.q.src_zp.clear();
                for (int64_t c = 0; c < s.ic; ++c)
                    t.q.src_zp.push_back((int32_t)c % 3);
                run_fwd(t);
            }
}

void run_bwd_data(const shape_t &s, fmt_t f, fmt_t wf, dt d)
{
    SCOPED_TRACE(s.name);
    const conv_ref::prb_t p = to_prb(s, true);
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, true));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    auto hint = deconvolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::deconvolution_direct,
            make_md(sd, d, f, false), make_wei_md(wd, d, wf, s.g > 1),
            make_md(dd, d, f, false), s.strides(), s.dilates(), s.pad_l(),
            s.pad_r());
    deconvolution_backward_data::primitive_desc pd;
    ASSERT_NO_THROW(pd = deconvolution_backward_data::primitive_desc(eng(),
                            algorithm::deconvolution_direct,
                            make_md(sd, d, f, false),
                            make_wei_md(wd, d, wf, s.g > 1),
                            make_md(dd, d, f, false), s.strides(),
                            s.dilates(), s.pad_l(), s.pad_r(), hint));
    auto dd_v = gen(p.dst_size(), 15, -8, 8, 0.25);
    auto wei_v = gen(p.wei_size(), 16, -6, 6, 0.25);
    memory diff_dst(pd.diff_dst_desc(), eng()), wei(pd.weights_desc(), eng());
    memory diff_src(pd.diff_src_desc(), eng());
    write(diff_dst, dd_v);
    write(wei, wei_v);
    deconvolution_backward_data(pd).execute(strm(),
            {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_WEIGHTS, wei},
                    {DNNL_ARG_DIFF_SRC, diff_src}});
    strm().wait();
    std::vector<double> expect;
    conv_ref::deconv_bwd_data(p, dd_v, wei_v, expect);
    check(read(diff_src), expect, d, tol_for(d, false));
}

void run_bwd_weights(const shape_t &s, fmt_t f, fmt_t wf, dt d, bool bias)
{
    SCOPED_TRACE(s.name);
    const conv_ref::prb_t p = to_prb(s, true);
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, true));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    auto hint = deconvolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::deconvolution_direct,
            make_md(sd, d, f, false), make_wei_md(wd, d, wf, s.g > 1),
            make_md(dd, d, f, false), s.strides(), s.dilates(), s.pad_l(),
            s.pad_r());
    deconvolution_backward_weights::primitive_desc pd;
    ASSERT_NO_THROW(pd = deconvolution_backward_weights::primitive_desc(eng(),
                            algorithm::deconvolution_direct,
                            make_md(sd, d, f, false),
                            make_wei_md(wd, d, wf, s.g > 1),
                            bias ? memory::desc({s.oc}, d, tag::a)
                                 : memory::desc(),
                            make_md(dd, d, f, false), s.strides(),
                            s.dilates(), s.pad_l(), s.pad_r(), hint));
    auto src_v = gen(p.src_size(), 17, -8, 8, 0.25);
    auto dd_v = gen(p.dst_size(), 18, -8, 8, 0.25);
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
    deconvolution_backward_weights(pd).execute(strm(), args);
    strm().wait();
    std::vector<double> ew, eb;
    conv_ref::deconv_bwd_weights(p, src_v, dd_v, ew, bias ? &eb : nullptr);
    check(read(diff_wei), ew, d, tol_for(d, false));
    if (bias) check(read(diff_bias), eb, d, tol_for(d, false));
}

TEST(Deconvolution, BackwardData)
{
    for (const auto &s : shapes())
        for (fmt_t f : {fmt_t::plain, fmt_t::cl, fmt_t::any})
            run_bwd_data(s, f, f == fmt_t::cl ? fmt_t::plain : f, dt::f32);
    run_bwd_data(shapes()[0], fmt_t::blocked, fmt_t::blocked, dt::f32);
    run_bwd_data(shapes()[0], fmt_t::cl, fmt_t::any, dt::bf16);
}

TEST(Deconvolution, BackwardWeights)
{
    for (const auto &s : shapes())
        for (fmt_t f : {fmt_t::plain, fmt_t::cl, fmt_t::any})
            run_bwd_weights(s, f, f == fmt_t::cl ? fmt_t::plain : f, dt::f32,
                    f != fmt_t::cl);
    run_bwd_weights(shapes()[0], fmt_t::blocked, fmt_t::blocked, dt::f32, true);
    run_bwd_weights(shapes()[4], fmt_t::cl, fmt_t::any, dt::bf16, true);
}

TEST(Deconvolution, QueriesAndBadParameters)
{
    const shape_t s = shapes()[3];
    const memory::dims sd = act_dims(s, s.ic, s.in),
                       dd = act_dims(s, s.oc, out_sp(s, true));
    const memory::dims wd = wei_dims(s, s.oc, s.ic);
    auto pd = deconvolution_forward::primitive_desc(eng(),
            prop_kind::forward_training, algorithm::deconvolution_direct,
            make_md(sd, dt::f32, fmt_t::any, false),
            make_wei_md(wd, dt::f32, fmt_t::any, false),
            memory::desc({s.oc}, dt::f32, tag::any),
            make_md(dd, dt::f32, fmt_t::any, false), s.strides(), s.dilates(),
            s.pad_l(), s.pad_r());
    EXPECT_EQ(pd.get_strides(), s.strides());
    EXPECT_EQ(pd.get_dilations(), s.dilates());
    EXPECT_EQ(pd.get_padding_l(), s.pad_l());
    EXPECT_EQ(pd.get_padding_r(), s.pad_r());
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    EXPECT_EQ(pd.weights_desc().get_dims(), wd);
    EXPECT_NE(pd.weights_desc().get_format_kind(), memory::format_kind::any);
    EXPECT_EQ(pd.dst_desc().get_dims(), dd);
    EXPECT_FALSE(std::string(pd.impl_info_str()).empty());

    auto try_create = [&](const memory::dims &src, const memory::dims &wei,
                              const memory::dims &dst, const memory::dims &st,
                              const memory::dims &pl,
                              dnnl_alg_kind_t alg = dnnl_deconvolution_direct) {
        memory::desc a(src, dt::f32, tag::any), w(wei, dt::f32, tag::any),
                d(dst, dt::f32, tag::any);
        dnnl_primitive_desc_t c_pd = nullptr;
        dnnl_status_t r = dnnl_deconvolution_forward_primitive_desc_create(
                &c_pd, eng().get(), dnnl_forward_inference, alg, a.get(),
                w.get(), nullptr, d.get(), st.data(), nullptr, pl.data(),
                pl.data(), nullptr);
        if (c_pd) dnnl_primitive_desc_destroy(c_pd);
        return r;
    };
    // 4x4 -> (4 - 1) * 2 + 3 - 2 = 7
    EXPECT_EQ(try_create({1, 2, 4, 4}, {3, 2, 3, 3}, {1, 3, 7, 7}, {2, 2},
                      {1, 1}),
            dnnl_success);
    EXPECT_EQ(try_create({1, 2, 4, 4}, {3, 2, 3, 3}, {1, 3, 9, 7}, {2, 2},
                      {1, 1}),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create({1, 2, 4, 4}, {3, 3, 3, 3}, {1, 3, 7, 7}, {2, 2},
                      {1, 1}),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create({1, 2, 4, 4}, {3, 2, 3, 3}, {1, 3, 7, 7}, {0, 2},
                      {1, 1}),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create({1, 2, 4, 4}, {3, 2, 3, 3}, {1, 3, 7, 7}, {2, 2},
                      {1, 1}, dnnl_convolution_direct),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create({1, 2, 4, 4}, {3, 2, 3, 3}, {1, 3, 7, 7}, {2, 2},
                      {1, 1}, dnnl_deconvolution_winograd),
            dnnl_unimplemented);
    if (dnnl_engine_get_count(dnnl_gpu) > 0) {
        dnnl_engine_t g = nullptr;
        ASSERT_EQ(dnnl_engine_create(&g, dnnl_gpu, 0), dnnl_success);
        memory::desc a({1, 2, 4, 4}, dt::f32, tag::any),
                w({3, 2, 3, 3}, dt::f32, tag::any),
                d({1, 3, 7, 7}, dt::f32, tag::any);
        const dnnl_dim_t st[2] = {2, 2}, pl[2] = {1, 1};
        dnnl_primitive_desc_t c_pd = nullptr;
        // The gpu engine implements deconvolution (OpenCL).
        EXPECT_EQ(dnnl_deconvolution_forward_primitive_desc_create(&c_pd, g,
                          dnnl_forward_inference, dnnl_deconvolution_direct,
                          a.get(), w.get(), nullptr, d.get(), st, nullptr, pl,
                          pl, nullptr),
                dnnl_success);
        if (c_pd) dnnl_primitive_desc_destroy(c_pd);
        dnnl_engine_destroy(g);
    }
}

} // namespace
