// The gpu convolution / deconvolution test runner (see ocl_conv_glue.hpp).
#include "ocl_conv_glue.hpp"

#include <random>

namespace ocl_conv_glue {

using dt = memory::data_type;

std::vector<int64_t> out_sp(const shape_t &s, bool deconv) {
    std::vector<int64_t> o(s.in.size());
    for (size_t i = 0; i < o.size(); ++i) {
        const int64_t kr = (s.k[i] - 1) * (s.d[i] + 1) + 1;
        o[i] = deconv ? (s.in[i] - 1) * s.s[i] + kr - s.pl[i] - s.pr[i]
                      : (s.in[i] - kr + s.pl[i] + s.pr[i]) / s.s[i] + 1;
    }
    return o;
}

conv_ref::prb_t to_prb(const shape_t &s, bool deconv) {
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

memory::desc act_md(const memory::dims &d, dt t, fmt_t f) {
    static const tag plain[] = {tag::ncw, tag::nchw, tag::ncdhw};
    static const tag cl[] = {tag::nwc, tag::nhwc, tag::ndhwc};
    static const tag blk[] = {tag::nCw8c, tag::nChw8c, tag::nCdhw8c};
    const int k = (int)d.size() - 3;
    switch (f) {
    case fmt_t::plain:
        return memory::desc(d, t, plain[k]);
    case fmt_t::cl:
        return memory::desc(d, t, cl[k]);
    case fmt_t::blocked:
        return memory::desc(d, t, blk[k]);
    default:
        return memory::desc(d, t, tag::any);
    }
}

memory::desc wei_md(const memory::dims &d, dt t, fmt_t f, bool groups) {
    // Weights ranks 3..6; channels-last puts output channels innermost.
    static const tag plain[] = {tag::abc, tag::abcd, tag::abcde, tag::abcdef};
    static const tag cl_ng[] = {tag::cba, tag::cdba, tag::cdeba};
    static const tag cl_g[] = {tag::adcb, tag::adecb, tag::adefcb};
    static const tag blk_ng[] = {tag::OIw8i8o, tag::OIhw8i8o, tag::OIdhw8i8o};
    static const tag blk_g[] = {tag::gOIw8i8o, tag::gOIhw8i8o, tag::gOIdhw8i8o};
    const int nd = (int)d.size();
    const int k = groups ? nd - 4 : nd - 3;
    switch (f) {
    case fmt_t::plain:
        return memory::desc(d, t, plain[nd - 3]);
    case fmt_t::cl:
        return memory::desc(d, t, groups ? cl_g[k] : cl_ng[k]);
    case fmt_t::blocked:
        return memory::desc(d, t, groups ? blk_g[k] : blk_ng[k]);
    default:
        return memory::desc(d, t, tag::any);
    }
}

namespace {

bool is_int(dt d) {
    return d == dt::s8 || d == dt::u8 || d == dt::s32;
}

memory::dims act_dims(
        const shape_t &s, int64_t c, const std::vector<int64_t> &sp) {
    memory::dims d = {s.mb, c};
    d.insert(d.end(), sp.begin(), sp.end());
    return d;
}

// (g,) oc / g, ic / g, spatial: the same for both operations in oneDNN.
memory::dims wei_dims(const shape_t &s) {
    memory::dims d;
    if (s.g > 1) d.push_back(s.g);
    d.push_back(s.oc / s.g);
    d.push_back(s.ic / s.g);
    d.insert(d.end(), s.k.begin(), s.k.end());
    return d;
}

// Values exact in `t`: small integers for int8, quarter steps otherwise;
// f64 gets bits below f32's precision (so f32 arithmetic would show).
std::vector<double> values(int64_t n, dt t, std::mt19937 &gen) {
    if (t == dt::f64) {
        std::uniform_real_distribution<double> u(-4, 4);
        std::vector<double> v((size_t)n);
        for (auto &x : v) x = u(gen);
        return v;
    }
    if (t == dt::u8) return random_values(n, t, gen, 0, 9);
    if (t == dt::s8) return random_values(n, t, gen, -6, 9);
    if (t == dt::s32) return random_values(n, t, gen, -20, 20);
    return random_values(n, t, gen, -4, 4);
}

dnnl::primitive_attr build_attr(
        const case_t &c, const memory::dims &dd, std::vector<memory::dims> &b) {
    dnnl::primitive_attr attr;
    if (c.user_scratchpad)
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const quant_t &q = c.q;
    const int per_oc_wei = c.sh.g > 1 ? 3 : 1;
    if (q.src_scale != 0.f) attr.set_scales_mask(DNNL_ARG_SRC, 0);
    if (!q.wei_scale.empty())
        attr.set_scales_mask(
                DNNL_ARG_WEIGHTS, q.wei_scale.size() > 1 ? per_oc_wei : 0);
    if (!q.dst_scale.empty())
        attr.set_scales_mask(DNNL_ARG_DST, q.dst_scale.size() > 1 ? 2 : 0);
    if (!q.src_zp.empty())
        attr.set_zero_points_mask(DNNL_ARG_SRC, q.src_zp.size() > 1 ? 2 : 0);
    if (!q.dst_zp.empty())
        attr.set_zero_points_mask(DNNL_ARG_DST, q.dst_zp.size() > 1 ? 2 : 0);
    if (!q.wei_zp.empty()) attr.set_zero_points_mask(DNNL_ARG_WEIGHTS, 0);
    dnnl::post_ops ops;
    for (const po_t &e : c.po) {
        if (e.what == po_t::eltwise) ops.append_eltwise(e.alg, e.alpha, e.beta);
        if (e.what == po_t::sum) ops.append_sum(e.scale, e.zp);
        if (e.what == po_t::binary) {
            memory::dims d = dd;
            for (size_t i = 0; i < d.size(); ++i)
                if (!((e.mask >> i) & 1)) d[i] = 1;
            b.push_back(d);
            ops.append_binary(e.alg, plain_f32(d));
        }
    }
    attr.set_post_ops(ops);
    return attr;
}

struct problem_t {
    memory::dims sd, wd, dd;
    memory::desc src, wei, dst, bias;
};

problem_t make_problem(const case_t &c) {
    problem_t p;
    const shape_t &s = c.sh;
    p.sd = act_dims(s, s.ic, s.in);
    p.dd = act_dims(s, s.oc, out_sp(s, c.deconv));
    p.wd = wei_dims(s);
    p.src = act_md(p.sd, c.src, c.act);
    p.dst = act_md(p.dd, c.dst, c.act);
    p.wei = wei_md(p.wd, c.weights, c.wei, s.g > 1);
    if (c.bias) p.bias = memory::desc({s.oc}, c.bias_dt, tag::a);
    return p;
}

// The forward primitive descriptor (also the hint of backward ones).
dnnl::primitive_desc fwd_pd(const case_t &c, const problem_t &p,
        const dnnl::primitive_attr &attr, bool hint) {
    const shape_t &s = c.sh;
    // A hint in f32: a backward pass's types need not form a forward one.
    const memory::desc src = hint ? act_md(p.sd, dt::f32, c.act) : p.src;
    const memory::desc dst = hint ? act_md(p.dd, dt::f32, c.act) : p.dst;
    const memory::desc wei =
            hint ? wei_md(p.wd, dt::f32, c.wei, s.g > 1) : p.wei;
    const memory::desc bias =
            hint && c.bias ? memory::desc({s.oc}, dt::f32, tag::a) : p.bias;
    if (c.deconv)
        return dnnl::deconvolution_forward::primitive_desc(gpu(),
                prop_kind::forward_training, algorithm::deconvolution_direct,
                src, wei, bias, dst, s.s, s.d, s.pl, s.pr, attr);
    return dnnl::convolution_forward::primitive_desc(gpu(),
            prop_kind::forward_training,
            c.winograd && !hint ? algorithm::convolution_winograd
                                : algorithm::convolution_direct,
            src, wei, bias, dst, s.s, s.d, s.pl, s.pr, attr);
}

dnnl::primitive_desc make_pd(
        const case_t &c, const problem_t &p, const dnnl::primitive_attr &attr) {
    const shape_t &s = c.sh;
    if (c.kind == kind_t::fwd) return fwd_pd(c, p, attr, false);
    const auto hint = fwd_pd(c, p, dnnl::primitive_attr(), true);
    if (c.kind == kind_t::bwd_d) {
        if (c.deconv)
            return dnnl::deconvolution_backward_data::primitive_desc(gpu(),
                    algorithm::deconvolution_direct, p.src, p.wei, p.dst, s.s,
                    s.d, s.pl, s.pr,
                    dnnl::deconvolution_forward::primitive_desc(hint.get()));
        return dnnl::convolution_backward_data::primitive_desc(gpu(),
                algorithm::convolution_direct, p.src, p.wei, p.dst, s.s, s.d,
                s.pl, s.pr,
                dnnl::convolution_forward::primitive_desc(hint.get()));
    }
    if (c.deconv)
        return dnnl::deconvolution_backward_weights::primitive_desc(gpu(),
                algorithm::deconvolution_direct, p.src, p.wei, p.bias, p.dst,
                s.s, s.d, s.pl, s.pr,
                dnnl::deconvolution_forward::primitive_desc(hint.get()));
    return dnnl::convolution_backward_weights::primitive_desc(gpu(),
            algorithm::convolution_direct, p.src, p.wei, p.bias, p.dst, s.s,
            s.d, s.pl, s.pr,
            dnnl::convolution_forward::primitive_desc(hint.get()));
}

// Runs `pd` with `args` and the scratchpad it asks for, if any.
void execute(
        const dnnl::primitive_desc &pd, std::unordered_map<int, memory> args) {
    const memory::desc sp = pd.scratchpad_desc();
    if (sp.get_size() > 0) args[DNNL_ARG_SCRATCHPAD] = memory(sp, gpu());
    dnnl::primitive(pd).execute(gpu_stream(), args);
    gpu_stream().wait();
}

memory vec(const std::vector<double> &v, dt t) {
    return to_memory(gpu(), memory::desc({(int64_t)v.size()}, t, tag::a), v);
}

// Checks an output against the reference; blocked outputs must carry
// zeros in their padding.
void expect_output(const memory &m, const std::vector<double> &expect, dt t,
        double rel, const char *what, double abs_ = 1e-6) {
    const bool f64 = t == dt::f64; // computed in double
    EXPECT_TRUE(matches(from_memory(m), expect, t,
            tol_for(t, f64 ? 1e-13 : rel, f64 ? 1e-13 : abs_)))
            << what << ": " << describe(m.get_desc());
    EXPECT_TRUE(padding_is_zero(m)) << what << " padding";
}

void run_fwd(const case_t &c, const problem_t &p,
        const dnnl::primitive_desc &pd, std::mt19937 &gen,
        const std::vector<memory::dims> &bin_dims) {
    const shape_t &s = c.sh;
    const conv_ref::prb_t r = to_prb(s, c.deconv);
    const auto src_v = values(r.src_size(), c.src, gen);
    const auto wei_v = values(r.wei_size(), c.weights, gen);
    const auto bias_v = values(s.oc, c.bias_dt, gen);
    const auto old_v = values(r.dst_size(), c.dst, gen);
    memory dst = to_memory(gpu(), pd.query_md(dnnl::query::dst_md), old_v);
    std::unordered_map<int, memory> args = {
            {DNNL_ARG_SRC,
                    to_memory(gpu(), pd.query_md(dnnl::query::src_md), src_v)},
            {DNNL_ARG_WEIGHTS,
                    to_memory(gpu(), pd.query_md(dnnl::query::weights_md),
                            wei_v)},
            {DNNL_ARG_DST, dst}};
    if (c.bias)
        args[DNNL_ARG_BIAS] = to_memory(
                gpu(), pd.query_md(dnnl::query::weights_md, 1), bias_v);

    conv_ref::quant_t rq;
    const quant_t &q = c.q;
    auto as_d = [](const auto &v) {
        return std::vector<double>(v.begin(), v.end());
    };
    if (q.src_scale != 0.f) {
        rq.src_scale = q.src_scale;
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = vec({q.src_scale}, dt::f32);
    }
    if (!q.wei_scale.empty()) {
        rq.wei_scale = as_d(q.wei_scale);
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] =
                vec(rq.wei_scale, dt::f32);
    }
    if (!q.dst_scale.empty()) {
        rq.dst_scale = as_d(q.dst_scale);
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = vec(rq.dst_scale, dt::f32);
    }
    if (!q.src_zp.empty())
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] =
                vec(as_d(q.src_zp), dt::s32);
    if (!q.dst_zp.empty()) {
        rq.dst_zp = q.dst_zp;
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST] =
                vec(as_d(q.dst_zp), dt::s32);
    }
    if (!q.wei_zp.empty())
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS] =
                vec(as_d(q.wei_zp), dt::s32);
    std::vector<conv_ref::post_op_t> rpo;
    size_t nb = 0;
    for (size_t i = 0; i < c.po.size(); ++i) {
        const po_t &e = c.po[i];
        conv_ref::post_op_t x;
        x.alg = (dnnl_alg_kind_t)e.alg;
        x.alpha = e.alpha, x.beta = e.beta, x.scale = e.scale;
        x.zero_point = e.zp;
        x.kind = e.what == po_t::eltwise ? conv_ref::post_op_t::eltwise
                 : e.what == po_t::sum   ? conv_ref::post_op_t::sum
                                         : conv_ref::post_op_t::binary;
        if (e.what == po_t::binary) {
            const memory::dims &d = bin_dims[nb++];
            x.mask = e.mask;
            x.data = random_values(
                    count(dims_of(plain_f32(d))), dt::f32, gen, -2, 2);
            args[DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1] =
                    to_memory(gpu(), plain_f32(d), x.data);
        }
        rpo.push_back(x);
    }

    execute(pd, args);

    std::vector<double> shifted = src_v;
    if (!q.src_zp.empty())
        for (size_t i = 0; i < shifted.size(); ++i) {
            const int64_t ch = (int64_t)(i / r.isp()) % s.ic;
            shifted[i] -= q.src_zp[q.src_zp.size() > 1 ? ch : 0];
        }
    // The weights' zero point the same way (padding contributes nothing).
    std::vector<double> wei_shifted = wei_v;
    if (!q.wei_zp.empty())
        for (double &w : wei_shifted) w -= q.wei_zp[0];
    std::vector<double> expect;
    if (c.deconv)
        conv_ref::deconv_fwd(r, shifted, wei_shifted, expect);
    else
        conv_ref::conv_fwd(r, shifted, wei_shifted, expect);
    const auto bias_stored =
            c.bias ? from_memory(args[DNNL_ARG_BIAS]) : std::vector<double>();
    conv_ref::finish(expect, (int)p.dd.size(), p.dd.data(), rq,
            c.bias ? &bias_stored : nullptr, rpo, old_v);
    // Winograd's transforms add and subtract the products before summing
    // them: a few more roundings than the direct sum.
    if (c.winograd)
        expect_output(dst, expect, c.dst, 1e-5, "dst", 1e-4);
    else
        expect_output(dst, expect, c.dst, c.po.empty() ? 1e-6 : 1e-5, "dst");
}

void run_bwd_d(
        const case_t &c, const dnnl::primitive_desc &pd, std::mt19937 &gen) {
    const conv_ref::prb_t r = to_prb(c.sh, c.deconv);
    const auto dd_v = values(r.dst_size(), c.dst, gen);
    const auto wei_v = values(r.wei_size(), c.weights, gen);
    memory ds(pd.query_md(dnnl::query::diff_src_md), gpu());
    fill_padding(ds, 7); // must come back as zeros
    execute(pd, {{DNNL_ARG_DIFF_DST,
                         to_memory(gpu(), pd.query_md(dnnl::query::diff_dst_md),
                                 dd_v)},
                        {DNNL_ARG_WEIGHTS,
                                to_memory(gpu(),
                                        pd.query_md(dnnl::query::weights_md),
                                        wei_v)},
                        {DNNL_ARG_DIFF_SRC, ds}});
    std::vector<double> expect;
    if (c.deconv)
        conv_ref::deconv_bwd_data(r, dd_v, wei_v, expect);
    else
        conv_ref::conv_bwd_data(r, dd_v, wei_v, expect);
    expect_output(ds, expect, c.src, 1e-6, "diff_src");
}

void run_bwd_w(
        const case_t &c, const dnnl::primitive_desc &pd, std::mt19937 &gen) {
    const conv_ref::prb_t r = to_prb(c.sh, c.deconv);
    const auto src_v = values(r.src_size(), c.src, gen);
    const auto dd_v = values(r.dst_size(), c.dst, gen);
    memory dw(pd.query_md(dnnl::query::diff_weights_md), gpu());
    fill_padding(dw, 7);
    std::unordered_map<int, memory> args = {
            {DNNL_ARG_SRC,
                    to_memory(gpu(), pd.query_md(dnnl::query::src_md), src_v)},
            {DNNL_ARG_DIFF_DST,
                    to_memory(gpu(), pd.query_md(dnnl::query::diff_dst_md),
                            dd_v)},
            {DNNL_ARG_DIFF_WEIGHTS, dw}};
    memory db;
    if (c.bias) {
        db = memory(pd.query_md(dnnl::query::diff_weights_md, 1), gpu());
        args[DNNL_ARG_DIFF_BIAS] = db;
    }
    execute(pd, args);
    std::vector<double> expect_w, expect_b;
    if (c.deconv)
        conv_ref::deconv_bwd_weights(
                r, src_v, dd_v, expect_w, c.bias ? &expect_b : nullptr);
    else
        conv_ref::conv_bwd_weights(
                r, src_v, dd_v, expect_w, c.bias ? &expect_b : nullptr);
    expect_output(dw, expect_w, c.weights, 1e-6, "diff_weights");
    if (c.bias) expect_output(db, expect_b, c.bias_dt, 1e-6, "diff_bias");
}

} // namespace

void run_case(const case_t &c) {
    SCOPED_TRACE(c.sh.name);
    const problem_t p = make_problem(c);
    std::vector<memory::dims> bin_dims;
    const dnnl::primitive_attr attr = build_attr(c, p.dd, bin_dims);
    dnnl::primitive_desc pd;
    ASSERT_NO_THROW(pd = make_pd(c, p, attr));
    std::mt19937 gen(7);
    switch (c.kind) {
    case kind_t::fwd:
        run_fwd(c, p, pd, gen, bin_dims);
        break;
    case kind_t::bwd_d:
        run_bwd_d(c, pd, gen);
        break;
    case kind_t::bwd_w:
        run_bwd_w(c, pd, gen);
        break;
    }
}

dnnl_status_t create_status(const case_t &c) {
    const problem_t p = make_problem(c);
    std::vector<memory::dims> bin_dims;
    const dnnl::primitive_attr attr = build_attr(c, p.dd, bin_dims);
    return status_of([&] { make_pd(c, p, attr); });
}

void run_f64_sweep(const std::vector<shape_t> &shapes, bool deconv) {
    for (kind_t kind : {kind_t::fwd, kind_t::bwd_d, kind_t::bwd_w})
        for (const shape_t &sh : shapes)
            for (fmt_t f : {fmt_t::plain, fmt_t::cl}) {
                case_t c;
                c.sh = sh;
                c.deconv = deconv;
                c.kind = kind;
                c.act = c.wei = f;
                c.src = c.weights = c.dst = c.bias_dt = dt::f64;
                run_case(c);
            }
    case_t c;
    c.sh = shapes[0];
    c.deconv = deconv;
    c.src = c.weights = c.dst = c.bias_dt = dt::f64;
    c.po.push_back(po_t());
    EXPECT_EQ(create_status(c), dnnl_unimplemented);
    c.po.clear();
    c.dst = dt::f32;
    EXPECT_NE(create_status(c), dnnl_success);
}

} // namespace ocl_conv_glue
