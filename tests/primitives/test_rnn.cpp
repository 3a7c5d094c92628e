// Recurrent primitive tests: every cell kind (vanilla RNN with each
// activation, LSTM with and without peephole and projection, GRU, LBR-GRU,
// AUGRU, LBR-AUGRU), direction, layer count and layout against
// tests/reference/rnn_ref.*, forward inference and training and backward;
// the reference backward against finite differences of the reference
// forward; queries, `any` resolution, diff weights accumulation and the
// overwrite flag, bad descriptors and the gpu engine.
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "tensor_glue.hpp"

#include "reference/rnn_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;
using rnn_ref::act_t;
using rnn_ref::cell_t;
using rnn_ref::dir_t;

using md = memory::desc;
using dims = memory::dims;

struct opts_t {
    bool ntc = false; // src/dst layer given as ntc
    bool ldgoi = false; // forward weights given as ldgoi
    bool src_iter = true, dst_iter = true, bias = true;
    // Data type of the layer / iteration tensors and weights (bias f32,
    // peephole f32 as oneDNN wants; diffs always f32).
    memory::data_type dt = memory::data_type::f32;
    // Forward weights given as `any` (reordered into what the primitive
    // chose: the GEMM's packed panels when DHC allows).
    bool any_weights = false;
};

struct mds_t {
    md src_layer, src_iter, src_iter_c, att, wl, wi, wp, wproj, bias, dst_layer,
            dst_iter, dst_iter_c;
};

algorithm act_alg(act_t a) {
    return a == act_t::relu ? algorithm::eltwise_relu
            : a == act_t::tanh ? algorithm::eltwise_tanh
                               : algorithm::eltwise_logistic;
}

rnn_direction dir_of(dir_t d) {
    switch (d) {
        case dir_t::l2r: return rnn_direction::unidirectional_left2right;
        case dir_t::r2l: return rnn_direction::unidirectional_right2left;
        case dir_t::concat: return rnn_direction::bidirectional_concat;
        default: return rnn_direction::bidirectional_sum;
    }
}

mds_t make_mds(const rnn_ref::problem_t &p, const opts_t &o, memory::format_tag wtag) {
    using tag = memory::format_tag;
    const auto f = o.dt;
    const auto f32 = memory::data_type::f32;
    const int64_t L = p.L, D = p.D(), G = p.G(), H = p.DHC;
    mds_t m;
    const tag lt = o.ntc ? tag::ntc : tag::tnc;
    m.src_layer = md({p.T, p.N, p.SLC}, f, lt);
    m.dst_layer = md({p.T, p.N, p.DLC()}, f, lt);
    if (o.src_iter) {
        m.src_iter = md({L, D, p.N, p.SIC}, f, tag::ldnc);
        if (p.cell == cell_t::lstm) m.src_iter_c = md({L, D, p.N, H}, f32, tag::ldnc);
    }
    if (o.dst_iter) {
        m.dst_iter = md({L, D, p.N, p.DIC}, f, tag::ldnc);
        if (p.cell == cell_t::lstm) m.dst_iter_c = md({L, D, p.N, H}, f32, tag::ldnc);
    }
    if (p.augru()) m.att = md({p.T, p.N, 1}, f, tag::tnc);
    m.wl = md({L, D, p.SLC, G, H}, f, wtag);
    m.wi = md({L, D, p.SIC, G, H}, f, wtag);
    if (p.peephole) m.wp = md({L, D, 3, H}, f32, tag::ldgo);
    if (p.projection) m.wproj = md({L, D, H, p.DIC}, f, tag::ldio);
    if (o.bias) m.bias = md({L, D, G + (p.lbr() ? 1 : 0), H}, f32, tag::ldgo);
    return m;
}

primitive_desc make_fwd(const engine &eng, prop_kind prop, const rnn_ref::problem_t &p,
        const mds_t &m) {
    const auto dir = dir_of(p.dir);
    switch (p.cell) {
        case cell_t::vanilla:
            return vanilla_rnn_forward::primitive_desc(eng, prop, act_alg(p.act), dir,
                    m.src_layer, m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter,
                    (float)p.alpha);
        case cell_t::lstm:
            return lstm_forward::primitive_desc(eng, prop, dir, m.src_layer, m.src_iter,
                    m.src_iter_c, m.wl, m.wi, m.wp, m.wproj, m.bias, m.dst_layer,
                    m.dst_iter, m.dst_iter_c);
        case cell_t::gru:
            return gru_forward::primitive_desc(eng, prop, dir, m.src_layer, m.src_iter,
                    m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter);
        case cell_t::lbr_gru:
            return lbr_gru_forward::primitive_desc(eng, prop, dir, m.src_layer,
                    m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter);
        case cell_t::augru:
            return augru_forward::primitive_desc(eng, prop, dir, m.src_layer, m.src_iter,
                    m.att, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter);
        default:
            return lbr_augru_forward::primitive_desc(eng, prop, dir, m.src_layer,
                    m.src_iter, m.att, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter);
    }
}

// Backward descriptor: forward descriptors `m`, diffs `dm` (the same
// shapes), the forward hint.
primitive_desc make_bwd(const engine &eng, const rnn_ref::problem_t &p, const mds_t &m,
        const mds_t &dm, const primitive_desc &hint) {
    const auto dir = dir_of(p.dir);
    const auto b = prop_kind::backward;
    switch (p.cell) {
        case cell_t::vanilla:
            return vanilla_rnn_backward::primitive_desc(eng, b, act_alg(p.act), dir,
                    m.src_layer, m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter,
                    dm.src_layer, dm.src_iter, dm.wl, dm.wi, dm.bias, dm.dst_layer,
                    dm.dst_iter, (float)p.alpha,
                    vanilla_rnn_forward::primitive_desc(hint.get()));
        case cell_t::lstm:
            return lstm_backward::primitive_desc(eng, b, dir, m.src_layer, m.src_iter,
                    m.src_iter_c, m.wl, m.wi, m.wp, m.wproj, m.bias, m.dst_layer,
                    m.dst_iter, m.dst_iter_c, dm.src_layer, dm.src_iter, dm.src_iter_c,
                    dm.wl, dm.wi, dm.wp, dm.wproj, dm.bias, dm.dst_layer, dm.dst_iter,
                    dm.dst_iter_c, lstm_forward::primitive_desc(hint.get()));
        case cell_t::gru:
            return gru_backward::primitive_desc(eng, b, dir, m.src_layer, m.src_iter,
                    m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, dm.src_layer,
                    dm.src_iter, dm.wl, dm.wi, dm.bias, dm.dst_layer, dm.dst_iter,
                    gru_forward::primitive_desc(hint.get()));
        case cell_t::lbr_gru:
            return lbr_gru_backward::primitive_desc(eng, b, dir, m.src_layer, m.src_iter,
                    m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, dm.src_layer,
                    dm.src_iter, dm.wl, dm.wi, dm.bias, dm.dst_layer, dm.dst_iter,
                    lbr_gru_forward::primitive_desc(hint.get()));
        case cell_t::augru:
            return augru_backward::primitive_desc(eng, b, dir, m.src_layer, m.src_iter,
                    m.att, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, dm.src_layer,
                    dm.src_iter, dm.att, dm.wl, dm.wi, dm.bias, dm.dst_layer,
                    dm.dst_iter, augru_forward::primitive_desc(hint.get()));
        default:
            return lbr_augru_backward::primitive_desc(eng, b, dir, m.src_layer,
                    m.src_iter, m.att, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter,
                    dm.src_layer, dm.src_iter, dm.att, dm.wl, dm.wi, dm.bias,
                    dm.dst_layer, dm.dst_iter,
                    lbr_augru_forward::primitive_desc(hint.get()));
    }
}

std::vector<double> rnd(size_t n, std::mt19937 &g, double lo = -0.5, double hi = 0.5) {
    // Multiples of 1/64: exact in f32, bf16 and f16 alike.
    std::uniform_int_distribution<int> u((int)(lo * 64), (int)(hi * 64));
    std::vector<double> v(n);
    for (auto &x : v) x = u(g) / 64.0;
    return v;
}

std::vector<float> as_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

std::vector<double> as_f64(const std::vector<float> &v) {
    return std::vector<double>(v.begin(), v.end());
}

size_t nelems(const md &d) {
    return d.get_ndims() ? (size_t)count(d.get_dims()) : 0;
}

// Random inputs for a problem (absent tensors stay empty).
rnn_ref::tensors_t make_inputs(const rnn_ref::problem_t &p, const mds_t &m, unsigned seed) {
    std::mt19937 g(seed);
    rnn_ref::tensors_t t;
    t.src_layer = rnd(nelems(m.src_layer), g, -1, 1);
    t.src_iter = rnd(nelems(m.src_iter), g, -1, 1);
    t.src_iter_c = rnd(nelems(m.src_iter_c), g, -1, 1);
    t.attention = rnd(nelems(m.att), g, 0, 1);
    t.weights_layer = rnd(nelems(m.wl), g);
    t.weights_iter = rnd(nelems(m.wi), g);
    t.peephole = rnd(nelems(m.wp), g);
    t.projection = rnd(nelems(m.wproj), g);
    t.bias = rnd(nelems(m.bias), g);
    return t;
}

struct run_t {
    engine eng {engine::kind::cpu, 0};
    stream s {eng};
    std::unordered_map<int, memory> args;
    void put(int arg, const md &d, const std::vector<double> &v) {
        if (!d.get_ndims()) return;
        args[arg] = to_mem(as_f32(v), d, eng, s);
    }
    void out(int arg, const md &d) {
        if (!d.get_ndims()) return;
        args[arg] = memory(d, eng);
    }
    std::vector<double> get(int arg) { return as_f64(from_mem(args.at(arg), eng, s)); }
};

::testing::AssertionResult close(const std::vector<double> &got,
        const std::vector<double> &ref, double tol, const char *what) {
    if (got.size() != ref.size())
        return ::testing::AssertionFailure()
                << what << ": size " << got.size() << " vs " << ref.size();
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(got[i] - ref[i]) <= tol * (1 + std::fabs(ref[i]))))
            return ::testing::AssertionFailure() << what << "[" << i << "]: got "
                                                 << got[i] << " expected " << ref[i];
    return ::testing::AssertionSuccess();
}

std::string name_of(const rnn_ref::problem_t &p) {
    static const char *cells[] = {"vanilla", "lstm", "gru", "lbr_gru", "augru", "lbr_augru"};
    static const char *dirs[] = {"l2r", "r2l", "concat", "sum"};
    return std::string(cells[(int)p.cell]) + " " + dirs[(int)p.dir] + " L" + std::to_string(p.L)
            + " T" + std::to_string(p.T) + " N" + std::to_string(p.N) + " slc"
            + std::to_string(p.SLC) + " sic" + std::to_string(p.SIC) + " dhc"
            + std::to_string(p.DHC) + " dic" + std::to_string(p.DIC)
            + (p.peephole ? " peephole" : "") + (p.projection ? " projection" : "");
}

// Forward (inference and training) and backward of one problem against
// the reference.
void check(const rnn_ref::problem_t &p, const opts_t &o = {}, unsigned seed = 7) {
    SCOPED_TRACE(name_of(p));
    using tag = memory::format_tag;
    const mds_t m = make_mds(p, o, o.ldgoi ? tag::ldgoi : tag::ldigo);
    rnn_ref::tensors_t t = make_inputs(p, m, seed);
    rnn_ref::tensors_t ref = t;
    if (!o.src_iter) ref.src_iter.clear(), ref.src_iter_c.clear();
    if (!o.bias) ref.bias.clear();
    rnn_ref::forward(p, ref);
    // f32: f32 arithmetic; bf16 / f16: outputs rounded to the type (the
    // states stay f32 inside).
    const bool low = o.dt != memory::data_type::f32;
    const double tol = !low ? 2e-5 : o.dt == memory::data_type::bf16 ? 2e-2 : 4e-3;

    run_t r;
    auto fill_inputs = [&](run_t &x, const mds_t &mm) {
        x.put(DNNL_ARG_SRC_LAYER, mm.src_layer, t.src_layer);
        x.put(DNNL_ARG_SRC_ITER, mm.src_iter, t.src_iter);
        x.put(DNNL_ARG_SRC_ITER_C, mm.src_iter_c, t.src_iter_c);
        x.put(DNNL_ARG_AUGRU_ATTENTION, mm.att, t.attention);
        x.put(DNNL_ARG_WEIGHTS_LAYER, mm.wl, t.weights_layer);
        x.put(DNNL_ARG_WEIGHTS_ITER, mm.wi, t.weights_iter);
        x.put(DNNL_ARG_WEIGHTS_PEEPHOLE, mm.wp, t.peephole);
        x.put(DNNL_ARG_WEIGHTS_PROJECTION, mm.wproj, t.projection);
        x.put(DNNL_ARG_BIAS, mm.bias, t.bias);
    };
    for (prop_kind prop : {prop_kind::forward_inference, prop_kind::forward_training}) {
        mds_t mf = m;
        if (o.any_weights) {
            mf.wl = md(m.wl.get_dims(), m.wl.get_data_type(), tag::any);
            mf.wi = md(m.wi.get_dims(), m.wi.get_data_type(), tag::any);
        }
        auto pd = make_fwd(r.eng, prop, p, mf);
        mf.wl = pd.query_md(query::exec_arg_md, DNNL_ARG_WEIGHTS_LAYER);
        mf.wi = pd.query_md(query::exec_arg_md, DNNL_ARG_WEIGHTS_ITER);
        EXPECT_EQ(pd.workspace_desc().get_size() > 0, prop == prop_kind::forward_training);
        run_t x;
        fill_inputs(x, mf);
        x.out(DNNL_ARG_DST_LAYER, m.dst_layer);
        x.out(DNNL_ARG_DST_ITER, m.dst_iter);
        x.out(DNNL_ARG_DST_ITER_C, m.dst_iter_c);
        if (prop == prop_kind::forward_training)
            x.out(DNNL_ARG_WORKSPACE, pd.workspace_desc());
        primitive(pd).execute(x.s, x.args);
        x.s.wait();
        EXPECT_TRUE(close(x.get(DNNL_ARG_DST_LAYER), ref.dst_layer, tol, "dst_layer"));
        if (o.dst_iter) {
            EXPECT_TRUE(close(x.get(DNNL_ARG_DST_ITER), ref.dst_iter, tol, "dst_iter"));
            if (p.cell == cell_t::lstm)
                EXPECT_TRUE(close(x.get(DNNL_ARG_DST_ITER_C), ref.dst_iter_c, tol, "dst_iter_c"));
        }
        if (prop == prop_kind::forward_inference) continue;

        // Backward with the training workspace.
        std::mt19937 g(seed + 1);
        rnn_ref::diffs_t df;
        df.dst_layer = rnd(ref.dst_layer.size(), g, -1, 1);
        if (o.dst_iter) {
            df.dst_iter = rnd(ref.dst_iter.size(), g, -1, 1);
            if (p.cell == cell_t::lstm) df.dst_iter_c = rnd(ref.dst_iter_c.size(), g, -1, 1);
        }
        rnn_ref::backward(p, ref, df);
        opts_t od = o;
        od.dt = memory::data_type::f32;
        mds_t dm = make_mds(p, od, tag::ldigo);
        const mds_t any_w = [&] {
            mds_t a = m;
            a.wl = md(m.wl.get_dims(), m.wl.get_data_type(), tag::any);
            a.wi = md(m.wi.get_dims(), m.wi.get_data_type(), tag::any);
            return a;
        }();
        auto bpd = make_bwd(r.eng, p, any_w, dm, pd);
        // The backward weights in the layout the implementation chose.
        mds_t bm = m;
        bm.wl = bpd.query_md(query::exec_arg_md, DNNL_ARG_WEIGHTS_LAYER);
        bm.wi = bpd.query_md(query::exec_arg_md, DNNL_ARG_WEIGHTS_ITER);
        EXPECT_EQ(bm.wl, md(m.wl.get_dims(), m.wl.get_data_type(), tag::ldgoi));
        EXPECT_EQ(bpd.query_md(query::exec_arg_md, DNNL_ARG_WORKSPACE), pd.workspace_desc());
        fill_inputs(x, bm);
        // dst_layer / dst_iter / workspace: the training run's outputs.
        x.put(DNNL_ARG_DIFF_DST_LAYER, dm.dst_layer, df.dst_layer);
        x.put(DNNL_ARG_DIFF_DST_ITER, dm.dst_iter, df.dst_iter);
        x.put(DNNL_ARG_DIFF_DST_ITER_C, dm.dst_iter_c, df.dst_iter_c);
        // Diff weights accumulate (no flags through the C++ API): start
        // them from a known pattern.
        std::mt19937 g2(seed + 2);
        std::unordered_map<int, std::vector<double>> init;
        auto dw_out = [&](int arg, const md &d) {
            if (!d.get_ndims()) return;
            init[arg] = rnd(nelems(d), g2, -1, 1);
            x.put(arg, d, init[arg]);
        };
        x.out(DNNL_ARG_DIFF_SRC_LAYER, dm.src_layer);
        x.out(DNNL_ARG_DIFF_SRC_ITER, dm.src_iter);
        x.out(DNNL_ARG_DIFF_SRC_ITER_C, dm.src_iter_c);
        x.out(DNNL_ARG_DIFF_AUGRU_ATTENTION, dm.att);
        dw_out(DNNL_ARG_DIFF_WEIGHTS_LAYER, dm.wl);
        dw_out(DNNL_ARG_DIFF_WEIGHTS_ITER, dm.wi);
        dw_out(DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE, dm.wp);
        dw_out(DNNL_ARG_DIFF_WEIGHTS_PROJECTION, dm.wproj);
        dw_out(DNNL_ARG_DIFF_BIAS, dm.bias);
        primitive(bpd).execute(x.s, x.args);
        x.s.wait();
        const double btol = !low ? 1e-4 : 10 * tol;
        EXPECT_TRUE(close(x.get(DNNL_ARG_DIFF_SRC_LAYER), df.src_layer, btol, "diff_src_layer"));
        if (o.src_iter) {
            EXPECT_TRUE(close(x.get(DNNL_ARG_DIFF_SRC_ITER), df.src_iter, btol, "diff_src_iter"));
            if (p.cell == cell_t::lstm)
                EXPECT_TRUE(close(x.get(DNNL_ARG_DIFF_SRC_ITER_C), df.src_iter_c, btol,
                        "diff_src_iter_c"));
        }
        if (p.augru())
            EXPECT_TRUE(close(x.get(DNNL_ARG_DIFF_AUGRU_ATTENTION), df.attention, btol,
                    "diff_attention"));
        auto expect_dw = [&](int arg, const std::vector<double> &want, const char *what) {
            if (!init.count(arg)) return;
            std::vector<double> w = want;
            for (size_t i = 0; i < w.size(); ++i)
                w[i] += init[arg][i];
            EXPECT_TRUE(close(x.get(arg), w, btol, what));
        };
        expect_dw(DNNL_ARG_DIFF_WEIGHTS_LAYER, df.weights_layer, "diff_weights_layer");
        expect_dw(DNNL_ARG_DIFF_WEIGHTS_ITER, df.weights_iter, "diff_weights_iter");
        expect_dw(DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE, df.peephole, "diff_weights_peephole");
        expect_dw(DNNL_ARG_DIFF_WEIGHTS_PROJECTION, df.projection, "diff_weights_projection");
        expect_dw(DNNL_ARG_DIFF_BIAS, df.bias, "diff_bias");
    }
}

rnn_ref::problem_t prob(cell_t c, dir_t d, int64_t L, int64_t T, int64_t N, int64_t C) {
    rnn_ref::problem_t p;
    p.cell = c;
    p.dir = d;
    p.L = L, p.T = T, p.N = N;
    p.SLC = p.SIC = p.DHC = p.DIC = C;
    return p;
}

const cell_t all_cells[] = {cell_t::vanilla, cell_t::lstm, cell_t::gru, cell_t::lbr_gru,
        cell_t::augru, cell_t::lbr_augru};
const dir_t all_dirs[] = {dir_t::l2r, dir_t::r2l, dir_t::concat, dir_t::sum};

} // namespace

TEST(Rnn, CellsDirectionsLayers) {
    for (cell_t c : all_cells)
        for (dir_t d : all_dirs) {
            const bool augru = c == cell_t::augru || c == cell_t::lbr_augru;
            if (augru && d != dir_t::l2r) continue; // oneDNN: l2r, one layer
            for (int64_t L : {1, 2}) {
                if (augru && L > 1) continue;
                auto p = prob(c, d, L, 3, 2, 5);
                if (L == 1) p.SLC = 7; // the first layer's input differs
                check(p);
            }
        }
}

TEST(Rnn, VanillaActivations) {
    for (act_t a : {act_t::relu, act_t::tanh, act_t::logistic}) {
        auto p = prob(cell_t::vanilla, dir_t::concat, 2, 4, 3, 6);
        p.act = a;
        p.alpha = a == act_t::relu ? 0.25 : 0;
        check(p);
    }
}

TEST(Rnn, LstmPeepholeProjection) {
    for (bool peep : {false, true})
        for (bool proj : {false, true}) {
            auto p = prob(cell_t::lstm, dir_t::concat, 2, 3, 2, 6);
            p.peephole = peep;
            p.projection = proj;
            if (proj) p.DIC = p.SIC = p.SLC = 4;
            check(p);
        }
}

TEST(Rnn, OptionalStatesLayoutsFlags) {
    for (cell_t c : all_cells) {
        auto p = prob(c, dir_t::l2r, 1, 4, 3, 5);
        opts_t o;
        o.src_iter = false;
        o.dst_iter = false;
        o.bias = false;
        check(p, o);
        opts_t o2;
        o2.ntc = true;
        o2.ldgoi = true;
        check(p, o2);
    }
}

TEST(Rnn, AnyForwardWeightsPacked) {
    // DHC a multiple of the GEMM's panel width: `any` becomes the packed
    // ldgOi<NR>o layout (reorders fill it); T = 1 and T > 1.
    for (cell_t c : all_cells) {
        const bool augru = c == cell_t::augru || c == cell_t::lbr_augru;
        for (int64_t T : {1, 3}) {
            auto p = prob(c, augru ? dir_t::l2r : dir_t::concat, augru ? 1 : 2, T, 3, 64);
            if (c == cell_t::lstm) p.projection = true, p.DIC = p.SIC = p.SLC = 32;
            opts_t o;
            o.any_weights = true;
            check(p, o);
        }
    }
    using tag = memory::format_tag;
    engine eng(engine::kind::cpu, 0);
    const auto f = memory::data_type::f32;
    const md l({3, 2, 64}, f, tag::tnc), w({1, 1, 64, 3, 64}, f, tag::any);
    auto pd = gru_forward::primitive_desc(eng, prop_kind::forward_inference,
            rnn_direction::unidirectional_left2right, l, md(), w, w, md(), l, md());
    const auto wl = pd.weights_layer_desc();
    EXPECT_TRUE(wl == md(w.get_dims(), f, tag::ldgOi32o) || wl == md(w.get_dims(), f, tag::ldgOi16o)
            || wl == md(w.get_dims(), f, tag::ldigo));
}

TEST(Rnn, SingleStepWithDifferentIterChannels) {
    // T == 1: the initial state may have its own channel count.
    for (cell_t c : {cell_t::vanilla, cell_t::lstm}) {
        auto p = prob(c, dir_t::sum, 1, 1, 2, 4);
        p.SIC = 3;
        p.SLC = 5;
        check(p);
    }
}

TEST(Rnn, LargerShapesThreaded) {
    auto p = prob(cell_t::lstm, dir_t::l2r, 2, 5, 17, 300);
    check(p);
    auto q = prob(cell_t::lbr_gru, dir_t::concat, 1, 4, 9, 260);
    check(q);
}

TEST(Rnn, DiffWeightsOverwriteFlag) {
    // Through the C API: the C++ constructors pass no flags.
    using tag = memory::format_tag;
    auto p = prob(cell_t::gru, dir_t::l2r, 1, 3, 2, 4);
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const mds_t m = make_mds(p, opts_t(), tag::ldigo);
    auto fwd = make_fwd(eng, prop_kind::forward_training, p, m);
    dnnl_primitive_desc_t c_bwd = nullptr;
    ASSERT_EQ(dnnl_gru_backward_primitive_desc_create(&c_bwd, eng.get(), dnnl_backward,
                      dnnl_unidirectional_left2right, m.src_layer.get(), m.src_iter.get(),
                      m.wl.get(), m.wi.get(), m.bias.get(), m.dst_layer.get(),
                      m.dst_iter.get(), m.src_layer.get(), m.src_iter.get(), m.wl.get(),
                      m.wi.get(), m.bias.get(), m.dst_layer.get(), m.dst_iter.get(),
                      dnnl_rnn_flags_diff_weights_overwrite, fwd.get(), nullptr),
            dnnl_success);
    // The C++ descriptor takes a clone, as oneDNN's does; the C handle
    // stays ours to destroy.
    gru_backward::primitive_desc bwd(c_bwd);
    ASSERT_EQ(dnnl_primitive_desc_destroy(c_bwd), dnnl_success);
    rnn_ref::tensors_t t = make_inputs(p, m, 3);
    rnn_ref::forward(p, t);
    std::mt19937 g(4);
    rnn_ref::diffs_t df;
    df.dst_layer = rnd(t.dst_layer.size(), g);
    df.dst_iter = rnd(t.dst_iter.size(), g);
    rnn_ref::backward(p, t, df);
    run_t x;
    x.put(DNNL_ARG_SRC_LAYER, m.src_layer, t.src_layer);
    x.put(DNNL_ARG_SRC_ITER, m.src_iter, t.src_iter);
    x.put(DNNL_ARG_WEIGHTS_LAYER, bwd.weights_layer_desc(), t.weights_layer);
    x.put(DNNL_ARG_WEIGHTS_ITER, bwd.weights_iter_desc(), t.weights_iter);
    x.put(DNNL_ARG_BIAS, m.bias, t.bias);
    x.out(DNNL_ARG_DST_LAYER, m.dst_layer);
    x.out(DNNL_ARG_DST_ITER, m.dst_iter);
    x.out(DNNL_ARG_WORKSPACE, fwd.workspace_desc());
    // The forward pass fills the workspace the backward reads.
    {
        auto fargs = x.args;
        x.args[DNNL_ARG_WEIGHTS_LAYER] = to_mem(as_f32(t.weights_layer), m.wl, x.eng, x.s);
        x.args[DNNL_ARG_WEIGHTS_ITER] = to_mem(as_f32(t.weights_iter), m.wi, x.eng, x.s);
        primitive(fwd).execute(x.s, x.args);
        x.s.wait();
        x.args[DNNL_ARG_WEIGHTS_LAYER] = fargs[DNNL_ARG_WEIGHTS_LAYER];
        x.args[DNNL_ARG_WEIGHTS_ITER] = fargs[DNNL_ARG_WEIGHTS_ITER];
    }
    x.put(DNNL_ARG_DIFF_DST_LAYER, m.dst_layer, df.dst_layer);
    x.put(DNNL_ARG_DIFF_DST_ITER, m.dst_iter, df.dst_iter);
    x.out(DNNL_ARG_DIFF_SRC_LAYER, m.src_layer);
    x.out(DNNL_ARG_DIFF_SRC_ITER, m.src_iter);
    // Garbage in the diff weights: overwritten, not accumulated.
    x.put(DNNL_ARG_DIFF_WEIGHTS_LAYER, bwd.diff_weights_layer_desc(),
            std::vector<double>(t.weights_layer.size(), 1e3));
    x.put(DNNL_ARG_DIFF_WEIGHTS_ITER, bwd.diff_weights_iter_desc(),
            std::vector<double>(t.weights_iter.size(), 1e3));
    x.put(DNNL_ARG_DIFF_BIAS, m.bias, std::vector<double>(t.bias.size(), 1e3));
    primitive(bwd).execute(x.s, x.args);
    x.s.wait();
    EXPECT_TRUE(close(x.get(DNNL_ARG_DIFF_WEIGHTS_LAYER), df.weights_layer, 1e-4, "dwl"));
    EXPECT_TRUE(close(x.get(DNNL_ARG_DIFF_WEIGHTS_ITER), df.weights_iter, 1e-4, "dwi"));
    EXPECT_TRUE(close(x.get(DNNL_ARG_DIFF_BIAS), df.bias, 1e-4, "dbias"));
}

// The reference backward against central differences of the reference
// forward of loss = sum(dst * diff_dst) over all outputs.
TEST(Rnn, ReferenceBackwardMatchesFiniteDifferences) {
    for (cell_t c : all_cells)
        for (dir_t d : {dir_t::l2r, dir_t::concat, dir_t::sum}) {
            const bool augru = c == cell_t::augru || c == cell_t::lbr_augru;
            if (augru && d != dir_t::l2r) continue;
            auto p = prob(c, d, augru ? 1 : 2, 3, 2, 3);
            if (c == cell_t::lstm) p.peephole = true;
            if (c == cell_t::vanilla) p.act = act_t::logistic;
            SCOPED_TRACE(name_of(p));
            const mds_t m = make_mds(p, opts_t(), memory::format_tag::ldigo);
            rnn_ref::tensors_t t = make_inputs(p, m, 11);
            rnn_ref::tensors_t f = t;
            rnn_ref::forward(p, f);
            std::mt19937 g(12);
            rnn_ref::diffs_t df;
            df.dst_layer = rnd(f.dst_layer.size(), g, -1, 1);
            df.dst_iter = rnd(f.dst_iter.size(), g, -1, 1);
            df.dst_iter_c = rnd(f.dst_iter_c.size(), g, -1, 1);
            rnn_ref::backward(p, t, df);
            auto loss = [&](const rnn_ref::tensors_t &x) {
                rnn_ref::tensors_t y = x;
                rnn_ref::forward(p, y);
                double s = 0;
                for (size_t i = 0; i < y.dst_layer.size(); ++i) s += y.dst_layer[i] * df.dst_layer[i];
                for (size_t i = 0; i < y.dst_iter.size(); ++i) s += y.dst_iter[i] * df.dst_iter[i];
                for (size_t i = 0; i < y.dst_iter_c.size(); ++i)
                    s += y.dst_iter_c[i] * df.dst_iter_c[i];
                return s;
            };
            auto fd_check = [&](std::vector<double> rnn_ref::tensors_t::*field,
                                    const std::vector<double> &grad, const char *what) {
                const auto &base = t.*field;
                for (size_t i = 0; i < base.size(); ++i) {
                    const double h = 1e-5;
                    rnn_ref::tensors_t a = t, b = t;
                    (a.*field)[i] += h;
                    (b.*field)[i] -= h;
                    const double fd = (loss(a) - loss(b)) / (2 * h);
                    ASSERT_NEAR(grad[i], fd, 1e-6 * (1 + std::fabs(fd))) << what << "[" << i << "]";
                }
            };
            fd_check(&rnn_ref::tensors_t::src_layer, df.src_layer, "src_layer");
            fd_check(&rnn_ref::tensors_t::src_iter, df.src_iter, "src_iter");
            fd_check(&rnn_ref::tensors_t::weights_layer, df.weights_layer, "weights_layer");
            fd_check(&rnn_ref::tensors_t::weights_iter, df.weights_iter, "weights_iter");
            fd_check(&rnn_ref::tensors_t::bias, df.bias, "bias");
            if (c == cell_t::lstm) {
                fd_check(&rnn_ref::tensors_t::src_iter_c, df.src_iter_c, "src_iter_c");
                fd_check(&rnn_ref::tensors_t::peephole, df.peephole, "peephole");
            }
            if (augru) fd_check(&rnn_ref::tensors_t::attention, df.attention, "attention");
        }
    // Projection.
    auto p = prob(cell_t::lstm, dir_t::l2r, 1, 3, 2, 3);
    p.projection = true;
    p.DIC = p.SIC = 2;
    rnn_ref::tensors_t t = make_inputs(p, make_mds(p, opts_t(), memory::format_tag::ldigo), 5);
    rnn_ref::tensors_t f = t;
    rnn_ref::forward(p, f);
    rnn_ref::diffs_t df;
    df.dst_layer.assign(f.dst_layer.size(), 1);
    rnn_ref::backward(p, t, df);
    for (size_t i = 0; i < t.projection.size(); ++i) {
        rnn_ref::tensors_t a = t, b = t;
        a.projection[i] += 1e-5;
        b.projection[i] -= 1e-5;
        rnn_ref::forward(p, a);
        rnn_ref::forward(p, b);
        double s = 0;
        for (size_t k = 0; k < a.dst_layer.size(); ++k) s += a.dst_layer[k] - b.dst_layer[k];
        EXPECT_NEAR(df.projection[i], s / 2e-5, 1e-6);
    }
}

TEST(Rnn, QueriesAndAnyFormats) {
    using tag = memory::format_tag;
    engine eng(engine::kind::cpu, 0);
    auto p = prob(cell_t::lstm, dir_t::concat, 2, 3, 2, 4);
    p.peephole = true;
    p.projection = true;
    p.DIC = p.SIC = p.SLC = 3;
    mds_t m = make_mds(p, opts_t(), tag::any);
    auto any = [](const md &d) { return md(d.get_dims(), d.get_data_type(), tag::any); };
    m.src_layer = any(m.src_layer);
    m.dst_iter = any(m.dst_iter);
    auto pd = lstm_forward::primitive_desc(eng, prop_kind::forward_training,
            rnn_direction::bidirectional_concat, m.src_layer, m.src_iter, m.src_iter_c, m.wl,
            m.wi, m.wp, m.wproj, m.bias, m.dst_layer, m.dst_iter, m.dst_iter_c);
    const auto f = memory::data_type::f32;
    EXPECT_EQ(pd.weights_layer_desc(), md({2, 2, 3, 4, 4}, f, tag::ldigo));
    EXPECT_EQ(pd.weights_iter_desc(), md({2, 2, 3, 4, 4}, f, tag::ldigo));
    EXPECT_EQ(pd.src_layer_desc(), md({3, 2, 3}, f, tag::tnc));
    EXPECT_EQ(pd.dst_iter_desc(), md({2, 2, 2, 3}, f, tag::ldnc));
    EXPECT_EQ(pd.weights_peephole_desc(), m.wp);
    EXPECT_EQ(pd.weights_projection_desc(), m.wproj);
    EXPECT_EQ(pd.bias_desc(), m.bias);
    // weights_md(i): layer, iter, peephole, projection, bias.
    EXPECT_EQ(pd.query_md(query::weights_md, 2), m.wp);
    EXPECT_EQ(pd.query_md(query::weights_md, 3), m.wproj);
    EXPECT_EQ(pd.query_md(query::weights_md, 4), m.bias);
    EXPECT_EQ(pd.query_md(query::src_md, 2), m.src_iter_c);
    EXPECT_EQ(pd.query_md(query::dst_md, 2), m.dst_iter_c);
    EXPECT_GT(pd.workspace_desc().get_size(), 0u);
    EXPECT_EQ(pd.get_cell_kind(), algorithm::vanilla_lstm);
    EXPECT_EQ(pd.get_direction(), rnn_direction::bidirectional_concat);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    EXPECT_EQ(pd.diff_src_layer_desc(), md());
    EXPECT_EQ(pd.augru_attention_desc(), md());
    auto vp = vanilla_rnn_forward::primitive_desc(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, rnn_direction::unidirectional_left2right,
            md({2, 1, 3}, f, tag::tnc), md(), md({1, 1, 3, 1, 3}, f, tag::any),
            md({1, 1, 3, 1, 3}, f, tag::any), md(), md({2, 1, 3}, f, tag::tnc), md(), 0.5f);
    EXPECT_EQ(vp.get_activation_kind(), algorithm::eltwise_relu);
    EXPECT_EQ(vp.get_alpha(), 0.5f);
    EXPECT_EQ(vp.workspace_desc().get_size(), 0u);
    EXPECT_EQ(vp.src_iter_desc(), md());
    EXPECT_EQ(vp.bias_desc(), md());
    // Backward: weights `any` as ldgoi, their diffs as ldigo.
    const md wa({1, 1, 3, 1, 3}, f, tag::any);
    const md l3({2, 1, 3}, f, tag::tnc);
    auto vf = vanilla_rnn_forward::primitive_desc(eng, prop_kind::forward_training,
            algorithm::eltwise_tanh, rnn_direction::unidirectional_left2right, l3, md(), wa, wa,
            md(), l3, md());
    auto vb = vanilla_rnn_backward::primitive_desc(eng, prop_kind::backward,
            algorithm::eltwise_tanh, rnn_direction::unidirectional_left2right, l3, md(), wa, wa,
            md(), l3, md(), l3, md(), wa, wa, md(), l3, md(), vf);
    EXPECT_EQ(vb.weights_layer_desc(), md({1, 1, 3, 1, 3}, f, tag::ldgoi));
    EXPECT_EQ(vb.diff_weights_iter_desc(), md({1, 1, 3, 1, 3}, f, tag::ldigo));
    EXPECT_EQ(vb.workspace_desc(), vf.workspace_desc());
    EXPECT_EQ(vb.query_md(query::diff_weights_md, 1), vb.diff_weights_iter_desc());
}

TEST(Rnn, BadDescriptors) {
    using tag = memory::format_tag;
    engine eng(engine::kind::cpu, 0);
    const auto f = memory::data_type::f32;
    const md sl({3, 2, 4}, f, tag::tnc), dl({3, 2, 4}, f, tag::tnc);
    const md wl({1, 1, 4, 3, 4}, f, tag::ldigo), wi({1, 1, 4, 3, 4}, f, tag::ldigo);
    const md si({1, 1, 2, 4}, f, tag::ldnc);
    const auto fwd = prop_kind::forward_inference;
    const auto l2r = rnn_direction::unidirectional_left2right;
    // Consistent: accepted.
    EXPECT_EQ(status_of([&] { gru_forward::primitive_desc(eng, fwd, l2r, sl, si, wl, wi, md(), dl, si); }),
            dnnl_success);
    // Wrong dst channels.
    EXPECT_EQ(status_of([&] {
        gru_forward::primitive_desc(eng, fwd, l2r, sl, si, wl, wi, md(), md({3, 2, 5}, f, tag::tnc), si);
    }),
            dnnl_invalid_arguments);
    // Wrong gate count (GRU has 3).
    EXPECT_EQ(status_of([&] {
        const md w4({1, 1, 4, 4, 4}, f, tag::ldigo);
        gru_forward::primitive_desc(eng, fwd, l2r, sl, si, w4, w4, md(), dl, si);
    }),
            dnnl_invalid_arguments);
    // Bias of LBR-GRU has 4 gates; GRU's 3-gate bias is refused.
    EXPECT_EQ(status_of([&] {
        lbr_gru_forward::primitive_desc(eng, fwd, l2r, sl, si, wl, wi,
                md({1, 1, 3, 4}, f, tag::ldgo), dl, si);
    }),
            dnnl_invalid_arguments);
    // Backward kind on a forward creator.
    EXPECT_EQ(status_of([&] {
        gru_forward::primitive_desc(eng, prop_kind::backward, l2r, sl, si, wl, wi, md(), dl, si);
    }),
            dnnl_invalid_arguments);
    // AUGRU: left-to-right only.
    const md att({3, 2, 1}, f, tag::tnc);
    EXPECT_EQ(status_of([&] {
        const md w2({1, 2, 4, 3, 4}, f, tag::ldigo), s2({1, 2, 2, 4}, f, tag::ldnc);
        augru_forward::primitive_desc(eng, fwd, rnn_direction::bidirectional_sum, sl, s2, att,
                w2, w2, md(), dl, s2);
    }),
            dnnl_invalid_arguments);
    // LSTM: src_iter without src_iter_c.
    EXPECT_EQ(status_of([&] {
        const md w({1, 1, 4, 4, 4}, f, tag::ldigo);
        lstm_forward::primitive_desc(eng, fwd, l2r, sl, si, md(), w, w, md(), dl, md(), md());
    }),
            dnnl_invalid_arguments);
    // Vanilla RNN with an activation it does not take.
    EXPECT_EQ(status_of([&] {
        const md w({1, 1, 4, 1, 4}, f, tag::ldigo);
        vanilla_rnn_forward::primitive_desc(eng, fwd, algorithm::eltwise_gelu_erf, l2r, sl, si,
                w, w, md(), dl, si);
    }),
            dnnl_invalid_arguments);
    // Null descriptors and engine through the C API.
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_gru_forward_primitive_desc_create(&pd, eng.get(), dnnl_forward_inference,
                      dnnl_unidirectional_left2right, nullptr, nullptr, wl.get(), wi.get(),
                      nullptr, dl.get(), nullptr, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_gru_forward_primitive_desc_create(&pd, nullptr, dnnl_forward_inference,
                      dnnl_unidirectional_left2right, sl.get(), nullptr, wl.get(), wi.get(),
                      nullptr, dl.get(), nullptr, 0, nullptr),
            dnnl_invalid_arguments);
    // A direction value that names no direction (7 stays inside the enum's
    // range of values, so that the cast itself is defined C++).
    EXPECT_EQ(dnnl_gru_forward_primitive_desc_create(&pd, eng.get(), dnnl_forward_inference,
                      (dnnl_rnn_direction_t)7, sl.get(), nullptr, wl.get(), wi.get(), nullptr,
                      dl.get(), nullptr, 0, nullptr),
            dnnl_invalid_arguments);
    // Unknown flags.
    EXPECT_EQ(dnnl_gru_forward_primitive_desc_create(&pd, eng.get(), dnnl_forward_inference,
                      dnnl_unidirectional_left2right, sl.get(), nullptr, wl.get(), wi.get(),
                      nullptr, dl.get(), nullptr, 8, nullptr),
            dnnl_invalid_arguments);
    // Post-ops are not an RNN attribute.
    primitive_attr attr;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0, 0);
    attr.set_post_ops(po);
    EXPECT_EQ(status_of([&] { gru_forward::primitive_desc(eng, fwd, l2r, sl, si, wl, wi, md(), dl, si, attr); }),
            dnnl_unimplemented);
}

TEST(Rnn, GpuEngineIsUnimplemented) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    using tag = memory::format_tag;
    const auto f = memory::data_type::f32;
    const md sl({3, 2, 4}, f, tag::tnc), w({1, 1, 4, 3, 4}, f, tag::ldigo);
    EXPECT_EQ(status_of([&] {
        gru_forward::primitive_desc(eng, prop_kind::forward_inference,
                rnn_direction::unidirectional_left2right, sl, md(), w, w, md(), sl, md());
    }),
            dnnl_unimplemented);
}

TEST(Rnn, Bf16AndF16) {
    for (auto dt : {memory::data_type::bf16, memory::data_type::f16})
        for (cell_t c : all_cells) {
            const bool augru = c == cell_t::augru || c == cell_t::lbr_augru;
            auto p = prob(c, augru ? dir_t::l2r : dir_t::concat, augru ? 1 : 2, 3, 2, 6);
            if (c == cell_t::lstm) p.peephole = true;
            opts_t o;
            o.dt = dt;
            SCOPED_TRACE(dt == memory::data_type::bf16 ? "bf16" : "f16");
            check(p, o);
        }
}
