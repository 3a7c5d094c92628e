// --rnn: recurrent primitives, forward (inference, training) and backward.
//   --prop=FWD_I,FWD_D,BWD_DW --cfg=f32|bf16|f16 (read as --dt, as for the
//   other drivers); int8 LSTM / GRU inference: --cfg=u8u8u8u8, u8u8u8f32,
//   f32u8f32u8, f32u8f32f32 (src_iter, src_layer, dst_iter, dst_layer;
//   s8 weights; data scale 64, shift 128, per gate-and-channel weight
//   scales), timed only (--mode=C skips them: tests/primitives checks
//   int8 against an integer reference)
//   --alg=VANILLA_RNN,VANILLA_LSTM,VANILLA_GRU,LBR_GRU,VANILLA_AUGRU,LBR_AUGRU
//   --direction=left2right,right2left,concat,sum
//   --activation=TANH,RELU,LOGISTIC --alpha --with-peephole --with-projection
//   --mb --attr-scratchpad=library|user (no other attribute)
//   lXtXmbXsicXslcXdhcXdicX[n"name"] (benchdnn's RNN descriptor; missing
//   slc / dhc / dic copy sic, dic copies dhc; l and t default to 1)
// Performance of BWD_DW times the backward pass only (one forward
// training pass fills the workspace before).
#include <memory>
#include <unordered_map>

#include "drivers.hpp"
#include "reference/rnn_ref.hpp"

namespace bd {
namespace {

using rnn_ref::cell_t;

bool str2cell(const std::string &s, cell_t &c) {
    const std::string a = lower(s);
    if (a == "vanilla_rnn") return c = cell_t::vanilla, true;
    if (a == "vanilla_lstm") return c = cell_t::lstm, true;
    if (a == "vanilla_gru") return c = cell_t::gru, true;
    if (a == "lbr_gru") return c = cell_t::lbr_gru, true;
    if (a == "vanilla_augru") return c = cell_t::augru, true;
    if (a == "lbr_augru") return c = cell_t::lbr_augru, true;
    return false;
}

bool str2direction(const std::string &s, rnn_ref::dir_t &d, dnnl::rnn_direction &cd) {
    const std::string a = lower(s);
    using rd = dnnl::rnn_direction;
    if (a == "left2right") return d = rnn_ref::dir_t::l2r, cd = rd::unidirectional_left2right, true;
    if (a == "right2left") return d = rnn_ref::dir_t::r2l, cd = rd::unidirectional_right2left, true;
    if (a == "concat") return d = rnn_ref::dir_t::concat, cd = rd::bidirectional_concat, true;
    if (a == "sum") return d = rnn_ref::dir_t::sum, cd = rd::bidirectional_sum, true;
    return false;
}

bool str2act(const std::string &s, rnn_ref::act_t &a, dnnl::algorithm &alg) {
    const std::string x = lower(s);
    if (x == "tanh") return a = rnn_ref::act_t::tanh, alg = dnnl::algorithm::eltwise_tanh, true;
    if (x == "relu") return a = rnn_ref::act_t::relu, alg = dnnl::algorithm::eltwise_relu, true;
    if (x == "logistic")
        return a = rnn_ref::act_t::logistic, alg = dnnl::algorithm::eltwise_logistic, true;
    return false;
}

// The descriptors of one problem, forward tensors and (backward) diffs.
struct mds_t {
    dnnl::memory::desc sl, si, sic, att, wl, wi, wp, wproj, b, dl, di, dic;
};

// Data types of an int8 configuration: src_iter, src_layer, dst_iter,
// dst_layer (oneDNN benchdnn's --cfg names); weights s8.
struct int8_cfg_t {
    dt_t si, sl, di, dl;
};

bool str2int8_cfg(const std::string &s, int8_cfg_t &c) {
    const dt_t u8 = dt_t::u8, f32 = dt_t::f32;
    if (s == "u8u8u8u8") return c = {u8, u8, u8, u8}, true;
    if (s == "u8u8u8f32") return c = {u8, u8, u8, f32}, true;
    if (s == "f32u8f32u8") return c = {f32, u8, f32, u8}, true;
    if (s == "f32u8f32f32") return c = {f32, u8, f32, f32}, true;
    return false;
}

mds_t make_mds(const rnn_ref::problem_t &p, dt_t dt, bool any_weights);

// int8 descriptors: the f32 problem's shapes with the configuration's
// types (bias and cell states f32).
mds_t make_int8_mds(const rnn_ref::problem_t &p, const int8_cfg_t &c) {
    // Weights ldigo (a plain s8 layout both libraries take; `any` would
    // be a packed layout that only a quantizing reorder fills).
    mds_t m = make_mds(p, dt_t::f32, false);
    auto retype = [](dnnl::memory::desc &d, dt_t t) {
        if (d.get_ndims()) d = dnnl::memory::desc(d.get_dims(), t, d.get_strides());
    };
    retype(m.sl, c.sl);
    retype(m.dl, c.dl);
    retype(m.si, c.si);
    retype(m.di, c.di);
    retype(m.wl, dt_t::s8);
    retype(m.wi, dt_t::s8);
    retype(m.wproj, dt_t::s8);
    return m;
}

mds_t make_mds(const rnn_ref::problem_t &p, dt_t dt, bool any_weights) {
    using tag = tag_t;
    const dt_t f32 = dt_t::f32;
    const int64_t L = p.L, D = p.D(), G = p.G(), H = p.DHC, N = p.N;
    const tag wt = any_weights ? tag::any : tag::ldigo;
    const bool lstm = p.cell == cell_t::lstm;
    mds_t m;
    m.sl = {{p.T, N, p.SLC}, dt, tag::tnc};
    m.dl = {{p.T, N, p.DLC()}, dt, tag::tnc};
    m.si = {{L, D, N, p.SIC}, dt, tag::ldnc};
    m.di = {{L, D, N, p.DIC}, dt, tag::ldnc};
    if (lstm) m.sic = {{L, D, N, H}, f32, tag::ldnc}, m.dic = {{L, D, N, H}, f32, tag::ldnc};
    if (p.augru()) m.att = {{p.T, N, 1}, dt, tag::tnc};
    m.wl = {{L, D, p.SLC, G, H}, dt, wt};
    m.wi = {{L, D, p.SIC, G, H}, dt, wt};
    if (p.peephole) m.wp = {{L, D, 3, H}, f32, tag::ldgo};
    if (p.projection) m.wproj = {{L, D, H, p.DIC}, dt, tag::ldio};
    m.b = {{L, D, G + (p.lbr() ? 1 : 0), H}, f32, tag::ldgo};
    return m;
}

// The attribute of --attr-scratchpad (the driver's only attribute knob
// for RNN): a user scratchpad that case_t allocates once, or the library's.
dnnl::primitive_attr scratchpad_attr(const problem_t &prb) {
    dnnl::primitive_attr a;
    if (prb.get("attr-scratchpad") == "user")
        a.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return a;
}

dnnl::primitive_desc_base make_fwd(const dnnl::engine &eng, dnnl::prop_kind prop,
        const rnn_ref::problem_t &p, dnnl::rnn_direction dir, dnnl::algorithm act,
        const mds_t &m, const dnnl::primitive_attr &attr = dnnl::primitive_attr()) {
    using namespace dnnl;
    switch (p.cell) {
        case cell_t::vanilla:
            return vanilla_rnn_forward::primitive_desc(eng, prop, act, dir, m.sl, m.si, m.wl,
                    m.wi, m.b, m.dl, m.di, (float)p.alpha, attr);
        case cell_t::lstm:
            return lstm_forward::primitive_desc(eng, prop, dir, m.sl, m.si, m.sic, m.wl, m.wi,
                    m.wp, m.wproj, m.b, m.dl, m.di, m.dic, attr);
        case cell_t::gru:
            return gru_forward::primitive_desc(eng, prop, dir, m.sl, m.si, m.wl, m.wi, m.b,
                    m.dl, m.di, attr);
        case cell_t::lbr_gru:
            return lbr_gru_forward::primitive_desc(eng, prop, dir, m.sl, m.si, m.wl, m.wi,
                    m.b, m.dl, m.di, attr);
        case cell_t::augru:
            return augru_forward::primitive_desc(eng, prop, dir, m.sl, m.si, m.att, m.wl,
                    m.wi, m.b, m.dl, m.di, attr);
        default:
            return lbr_augru_forward::primitive_desc(eng, prop, dir, m.sl, m.si, m.att, m.wl,
                    m.wi, m.b, m.dl, m.di, attr);
    }
}

dnnl::primitive_desc_base make_bwd(const dnnl::engine &eng, const rnn_ref::problem_t &p,
        dnnl::rnn_direction dir, dnnl::algorithm act, const mds_t &m, const mds_t &d,
        const dnnl::primitive_desc_base &hint, const dnnl::primitive_attr &attr) {
    using namespace dnnl;
    const auto b = prop_kind::backward;
    switch (p.cell) {
        case cell_t::vanilla:
            return vanilla_rnn_backward::primitive_desc(eng, b, act, dir, m.sl, m.si, m.wl,
                    m.wi, m.b, m.dl, m.di, d.sl, d.si, d.wl, d.wi, d.b, d.dl, d.di,
                    (float)p.alpha, vanilla_rnn_forward::primitive_desc(hint.get()), attr);
        case cell_t::lstm:
            return lstm_backward::primitive_desc(eng, b, dir, m.sl, m.si, m.sic, m.wl, m.wi,
                    m.wp, m.wproj, m.b, m.dl, m.di, m.dic, d.sl, d.si, d.sic, d.wl, d.wi,
                    d.wp, d.wproj, d.b, d.dl, d.di, d.dic,
                    lstm_forward::primitive_desc(hint.get()), attr);
        case cell_t::gru:
            return gru_backward::primitive_desc(eng, b, dir, m.sl, m.si, m.wl, m.wi, m.b,
                    m.dl, m.di, d.sl, d.si, d.wl, d.wi, d.b, d.dl, d.di,
                    gru_forward::primitive_desc(hint.get()), attr);
        case cell_t::lbr_gru:
            return lbr_gru_backward::primitive_desc(eng, b, dir, m.sl, m.si, m.wl, m.wi, m.b,
                    m.dl, m.di, d.sl, d.si, d.wl, d.wi, d.b, d.dl, d.di,
                    lbr_gru_forward::primitive_desc(hint.get()), attr);
        case cell_t::augru:
            return augru_backward::primitive_desc(eng, b, dir, m.sl, m.si, m.att, m.wl, m.wi,
                    m.b, m.dl, m.di, d.sl, d.si, d.att, d.wl, d.wi, d.b, d.dl, d.di,
                    augru_forward::primitive_desc(hint.get()), attr);
        default:
            return lbr_augru_backward::primitive_desc(eng, b, dir, m.sl, m.si, m.att, m.wl,
                    m.wi, m.b, m.dl, m.di, d.sl, d.si, d.att, d.wl, d.wi, d.b, d.dl, d.di,
                    lbr_augru_forward::primitive_desc(hint.get()), attr);
    }
}

bool parse_rnn_desc(const std::string &s, rnn_ref::problem_t &p, std::string &why) {
    std::map<std::string, std::string> kv;
    if (!parse_named_desc(s, kv)) return why = "bad descriptor", false;
    auto get = [&](const char *k, int64_t def) {
        int64_t v = def;
        auto it = kv.find(k);
        if (it != kv.end() && !parse_int(it->second, v)) v = -1;
        return v;
    };
    p.L = get("l", 1);
    p.T = get("t", 1);
    p.N = get("mb", 2);
    p.SIC = get("sic", 0);
    p.SLC = get("slc", p.SIC);
    p.DHC = get("dhc", p.SIC);
    p.DIC = get("dic", p.DHC);
    for (int64_t v : {p.L, p.T, p.N, p.SIC, p.SLC, p.DHC, p.DIC})
        if (v <= 0) return why = "bad or missing dims", false;
    return true;
}

// Operations of one execution: the GEMMs (2 flops per multiply-add).
double gemm_ops(const rnn_ref::problem_t &p, bool bwd) {
    double ops = 0;
    for (int64_t l = 0; l < p.L; ++l) {
        const double in = l == 0 ? p.SLC : p.DIC;
        double per_step = 2.0 * p.N * p.G() * p.DHC * (in + p.SIC);
        if (p.projection) per_step += 2.0 * p.N * p.DHC * p.DIC;
        ops += per_step * p.T * p.D();
    }
    return bwd ? 2 * ops : ops;
}

// int8 LSTM / GRU inference, timed (no int8 reference in the driver).
void run_int8(const problem_t &prb, res_t &res, const rnn_ref::problem_t &p,
        dnnl::rnn_direction dir, const int8_cfg_t &cfg, const std::string &prop) {
    if (prop != "fwd_i") return res.skip("int8 is forward inference only");
    if (p.cell != cell_t::lstm && p.cell != cell_t::gru)
        return res.skip("int8 is LSTM and GRU only");
    if (G.mode == mode_t::corr)
        return res.skip("int8 is timed only (tests/primitives checks it)");
    const mds_t m = make_int8_mds(p, cfg);
    const float data_scale = 64.f, data_shift = 128.f;
    std::vector<float> wscales((size_t)(p.G() * p.DHC));
    for (size_t i = 0; i < wscales.size(); ++i) wscales[i] = 100.f + (float)(i % 7);
    dnnl::primitive_attr attr;
    attr.set_rnn_data_qparams(data_scale, data_shift);
    attr.set_rnn_weights_qparams((1 << 3) | (1 << 4), wscales);
    if (p.projection) attr.set_rnn_weights_projection_qparams(0, {100.f});
    attr.set_scratchpad_mode(scratchpad_attr(prb).get_scratchpad_mode());
    case_t c(prb, res);
    res.ops = gemm_ops(p, false);
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            return make_fwd(c.eng, dnnl::prop_kind::forward_inference, p, dir,
                    dnnl::algorithm::eltwise_tanh, m, attr);
        }))
        return;
    auto fill = [&](int arg, double lo, double hi, uint64_t seed) {
        const auto md = c.pd.query_md(dnnl::query::exec_arg_md, arg);
        if (!md.get_ndims()) return;
        c.add(arg, md).write(fill_real(nelems(md.get_dims()), lo, hi, md.get_data_type(), seed));
    };
    fill(DNNL_ARG_SRC_LAYER, 64, 192, 1);
    fill(DNNL_ARG_SRC_ITER, cfg.si == dt_t::f32 ? -1 : 64, cfg.si == dt_t::f32 ? 1 : 192, 2);
    fill(DNNL_ARG_SRC_ITER_C, -1, 1, 3);
    fill(DNNL_ARG_WEIGHTS_LAYER, -60, 60, 5);
    fill(DNNL_ARG_WEIGHTS_ITER, -60, 60, 6);
    fill(DNNL_ARG_WEIGHTS_PROJECTION, -60, 60, 8);
    fill(DNNL_ARG_BIAS, -0.5, 0.5, 9);
    for (int arg : {DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C}) {
        const auto md = c.pd.query_md(dnnl::query::exec_arg_md, arg);
        if (md.get_ndims()) c.add(arg, md).memset(0);
    }
    c.execute();
}

void run(const problem_t &prb, res_t &res) {
    rnn_ref::problem_t p;
    std::string why;
    if (!parse_rnn_desc(prb.desc, p, why)) return res.fail(why);
    int64_t mb;
    if (parse_int(prb.get("mb"), mb) && mb > 0) p.N = mb;
    if (!str2cell(prb.get("alg"), p.cell)) return res.skip("unknown --alg=" + prb.get("alg"));
    dnnl::rnn_direction dir;
    if (!str2direction(prb.get("direction"), p.dir, dir))
        return res.skip("unknown --direction=" + prb.get("direction"));
    dnnl::algorithm act;
    if (!str2act(prb.get("activation"), p.act, act))
        return res.skip("unknown --activation=" + prb.get("activation"));
    double alpha = 0;
    if (!parse_float(prb.get("alpha"), alpha)) return res.skip("bad --alpha");
    p.alpha = alpha;
    bool peep = false, proj = false;
    if (!parse_bool(prb.get("with-peephole"), peep) || !parse_bool(prb.get("with-projection"), proj))
        return res.skip("bad --with-peephole / --with-projection");
    p.peephole = peep && p.cell == cell_t::lstm;
    p.projection = proj && p.cell == cell_t::lstm;
    if (!p.projection) p.DIC = p.DHC;
    dt_t dt = dt_t::f32;
    const std::string cfg = lower(prb.get("dt"));
    int8_cfg_t i8;
    const bool int8 = str2int8_cfg(cfg, i8);
    if (cfg == "f32" || int8) dt = dt_t::f32;
    else if (cfg == "bf16" || cfg == "bf16f32") dt = dt_t::bf16;
    else if (cfg == "f16") dt = dt_t::f16;
    else return res.skip("--cfg=" + prb.get("dt") + " not supported");
    const std::string prop_s = lower(prb.get("prop"));
    const bool bwd = prop_s == "bwd_dw" || prop_s == "bwd_d";
    if (!bwd && prop_s != "fwd_i" && prop_s != "fwd_d")
        return res.skip("--prop=" + prb.get("prop") + " not supported");
    const auto fprop = prop_s == "fwd_i" ? dnnl::prop_kind::forward_inference
                                         : dnnl::prop_kind::forward_training;
    if (!no_attr(prb, res)) return;
    if (int8) return run_int8(prb, res, p, dir, i8, prop_s);

    const mds_t m = make_mds(p, dt, true);
    const dnnl::primitive_attr sp_attr = scratchpad_attr(prb);
    case_t c(prb, res);
    res.ops = gemm_ops(p, bwd);
    std::unique_ptr<dnnl::primitive_desc_base> hint;
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            if (!bwd) return make_fwd(c.eng, fprop, p, dir, act, m, sp_attr);
            // The workspace-filling forward keeps the library's scratchpad.
            hint.reset(new dnnl::primitive_desc_base(
                    make_fwd(c.eng, dnnl::prop_kind::forward_training, p, dir, act, m)));
            return make_bwd(
                    c.eng, p, dir, act, m, make_mds(p, dt_t::f32, true), *hint, sp_attr);
        }))
        return;

    // Inputs: reals of order 1, rounded to the data type.
    rnn_ref::tensors_t t;
    std::map<int, std::vector<float>> written;
    auto fill = [&](int arg, const dnnl::memory::desc &md, std::vector<double> &v, double lo,
                        double hi, uint64_t seed) {
        if (!md.get_ndims()) return;
        const auto real = c.pd.query_md(dnnl::query::exec_arg_md, arg);
        std::vector<float> f = fill_real(nelems(md.get_dims()), lo, hi, md.get_data_type(), seed);
        c.add(arg, real).write(f);
        written[arg] = f;
        v = to_double(f);
    };
    fill(DNNL_ARG_SRC_LAYER, m.sl, t.src_layer, -1, 1, 1);
    fill(DNNL_ARG_SRC_ITER, m.si, t.src_iter, -1, 1, 2);
    fill(DNNL_ARG_SRC_ITER_C, m.sic, t.src_iter_c, -1, 1, 3);
    fill(DNNL_ARG_AUGRU_ATTENTION, m.att, t.attention, 0, 1, 4);
    fill(DNNL_ARG_WEIGHTS_LAYER, m.wl, t.weights_layer, -0.5, 0.5, 5);
    fill(DNNL_ARG_WEIGHTS_ITER, m.wi, t.weights_iter, -0.5, 0.5, 6);
    fill(DNNL_ARG_WEIGHTS_PEEPHOLE, m.wp, t.peephole, -0.5, 0.5, 7);
    fill(DNNL_ARG_WEIGHTS_PROJECTION, m.wproj, t.projection, -0.5, 0.5, 8);
    fill(DNNL_ARG_BIAS, m.b, t.bias, -0.5, 0.5, 9);
    auto out = [&](int arg) {
        const auto md = c.pd.query_md(dnnl::query::exec_arg_md, arg);
        if (md.get_ndims()) c.add(arg, md).memset(0);
    };
    for (int arg : {DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C, DNNL_ARG_WORKSPACE})
        out(arg);
    const dt_t f32 = dt_t::f32;
    const double rel = dt == f32 ? 1e-4 : dt == dt_t::bf16 ? 2e-2 : 4e-3;
    ref::tolerance_t tol;
    tol.rel = rel;
    tol.abs = rel;
    rnn_ref::diffs_t df;
    if (bwd) {
        // The forward pass that fills the workspace (and dst) first.
        dnnl::primitive fwd(hint->get());
        std::unordered_map<int, dnnl::memory> fargs;
        for (auto &a : c.args)
            fargs[a.first] = a.second.mem;
        // The forward's weights in its own layouts (backward may choose
        // others for `any`).
        std::vector<tensor_t> fw;
        for (int arg : {DNNL_ARG_WEIGHTS_LAYER, DNNL_ARG_WEIGHTS_ITER}) {
            fw.emplace_back(hint->query_md(dnnl::query::exec_arg_md, arg), c.eng);
            fw.back().write(written[arg]);
            fargs[arg] = fw.back().mem;
        }
        fwd.execute(c.strm, fargs);
        c.strm.wait();
        auto dfill = [&](int arg, const dnnl::memory::desc &md, std::vector<double> &v,
                             uint64_t seed) {
            if (!md.get_ndims()) return;
            std::vector<float> f = fill_real(nelems(md.get_dims()), -1, 1, f32, seed);
            c.add(arg, c.pd.query_md(dnnl::query::exec_arg_md, arg)).write(f);
            v = to_double(f);
        };
        dfill(DNNL_ARG_DIFF_DST_LAYER, m.dl, df.dst_layer, 11);
        dfill(DNNL_ARG_DIFF_DST_ITER, m.di, df.dst_iter, 12);
        dfill(DNNL_ARG_DIFF_DST_ITER_C, m.dic, df.dst_iter_c, 13);
        for (int arg : {DNNL_ARG_DIFF_SRC_LAYER, DNNL_ARG_DIFF_SRC_ITER, DNNL_ARG_DIFF_SRC_ITER_C,
                     DNNL_ARG_DIFF_AUGRU_ATTENTION, DNNL_ARG_DIFF_WEIGHTS_LAYER,
                     DNNL_ARG_DIFF_WEIGHTS_ITER, DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
                     DNNL_ARG_DIFF_WEIGHTS_PROJECTION, DNNL_ARG_DIFF_BIAS})
            out(arg); // zero: diff weights accumulate
    }
    if (!c.execute()) return;
    if (!bwd) {
        rnn_ref::forward(p, t);
        c.check("dst_layer", c[DNNL_ARG_DST_LAYER].read(), t.dst_layer, dt, tol);
        c.check("dst_iter", c[DNNL_ARG_DST_ITER].read(), t.dst_iter, dt, tol);
        return;
    }
    rnn_ref::backward(p, t, df);
    tol.rel = tol.abs = 10 * rel;
    c.check("diff_src_layer", c[DNNL_ARG_DIFF_SRC_LAYER].read(), df.src_layer, f32, tol);
    c.check("diff_weights_layer", c[DNNL_ARG_DIFF_WEIGHTS_LAYER].read(), df.weights_layer, f32, tol);
    c.check("diff_weights_iter", c[DNNL_ARG_DIFF_WEIGHTS_ITER].read(), df.weights_iter, f32, tol);
    c.check("diff_bias", c[DNNL_ARG_DIFF_BIAS].read(), df.bias, f32, tol);
}

} // namespace

const driver_t rnn_driver = {"rnn",
        {{"prop", "FWD_D"}, {"dt", "f32"}, {"alg", "VANILLA_RNN"}, {"direction", "left2right"},
                {"activation", "TANH"}, {"alpha", "0"}, {"with-peephole", "false"},
                {"with-projection", "false"}, {"mb", "0"}},
        run};

} // namespace bd
