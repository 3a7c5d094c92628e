// Shared by the RNN tests of every engine (tests/primitives/test_rnn.cpp on
// CPU, tests/ocl/test_ocl_rnn.cpp on the gpu engine): problem descriptors
// through the C++ API, random inputs, and check(), which runs forward
// inference, forward training and backward of one problem on an engine and
// compares every output with the naive reference (tests/reference/rnn_ref).
#pragma once

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

namespace rnn_glue {

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
    // chose: the GEMM's packed panels when DHC allows). The backward's
    // weights are always `any`.
    bool any_weights = false;
};

struct mds_t {
    md src_layer, src_iter, src_iter_c, att, wl, wi, wp, wproj, bias, dst_layer,
            dst_iter, dst_iter_c;
};

inline algorithm act_alg(act_t a) {
    return a == act_t::relu ? algorithm::eltwise_relu
            : a == act_t::tanh ? algorithm::eltwise_tanh
                               : algorithm::eltwise_logistic;
}

inline rnn_direction dir_of(dir_t d) {
    switch (d) {
        case dir_t::l2r: return rnn_direction::unidirectional_left2right;
        case dir_t::r2l: return rnn_direction::unidirectional_right2left;
        case dir_t::concat: return rnn_direction::bidirectional_concat;
        default: return rnn_direction::bidirectional_sum;
    }
}

inline mds_t make_mds(const rnn_ref::problem_t &p, const opts_t &o, memory::format_tag wtag) {
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

inline primitive_desc make_fwd(const engine &eng, prop_kind prop, const rnn_ref::problem_t &p,
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
inline primitive_desc make_bwd(const engine &eng, const rnn_ref::problem_t &p, const mds_t &m,
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

inline std::vector<double> rnd(size_t n, std::mt19937 &g, double lo = -0.5, double hi = 0.5) {
    // Multiples of 1/64: exact in f32, bf16 and f16 alike.
    std::uniform_int_distribution<int> u((int)(lo * 64), (int)(hi * 64));
    std::vector<double> v(n);
    for (auto &x : v) x = u(g) / 64.0;
    return v;
}

inline std::vector<float> as_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

inline std::vector<double> as_f64(const std::vector<float> &v) {
    return std::vector<double>(v.begin(), v.end());
}

inline size_t nelems(const md &d) {
    return d.get_ndims() ? (size_t)count(d.get_dims()) : 0;
}

// Random inputs for a problem (absent tensors stay empty).
inline rnn_ref::tensors_t make_inputs(const rnn_ref::problem_t &p, const mds_t &m, unsigned seed) {
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
    explicit run_t(engine::kind k = engine::kind::cpu) : eng(k, 0), s(eng) {}
    engine eng;
    stream s;
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

inline ::testing::AssertionResult close(const std::vector<double> &got,
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

inline std::string name_of(const rnn_ref::problem_t &p) {
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
// `ek`: the engine kind the primitives run on (the reference is the same).
inline void check(const rnn_ref::problem_t &p, const opts_t &o = {}, unsigned seed = 7,
        engine::kind ek = engine::kind::cpu) {
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

    run_t r(ek);
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
        run_t x(ek);
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
        // ldgoi, oneDNN's choice; f32 on the CPU engine may pick the GEMM
        // core's packed W^T panels (ldgIo<NR>i) when the input channels
        // are whole panels.
        for (const md *w : {&bm.wl, &bm.wi}) {
            const bool cpu_f32 = ek == engine::kind::cpu && o.dt == memory::data_type::f32;
            auto as = [&](tag t) { return md(w->get_dims(), w->get_data_type(), t); };
            EXPECT_TRUE(*w == as(tag::ldgoi)
                    || (cpu_f32 && (*w == as(tag::ldgIo32i) || *w == as(tag::ldgIo16i))));
        }
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

inline rnn_ref::problem_t prob(cell_t c, dir_t d, int64_t L, int64_t T, int64_t N, int64_t C) {
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


// Every cell kind x direction x 1 and 2 layers (AUGRU: left-to-right and
// one layer, as oneDNN allows).
inline void check_cells_directions_layers(engine::kind ek) {
    for (cell_t c : all_cells)
        for (dir_t d : all_dirs) {
            const bool augru = c == cell_t::augru || c == cell_t::lbr_augru;
            if (augru && d != dir_t::l2r) continue;
            for (int64_t L : {1, 2}) {
                if (augru && L > 1) continue;
                auto p = prob(c, d, L, 3, 2, 5);
                if (L == 1) p.SLC = 7; // the first layer's input differs
                check(p, opts_t(), 7, ek);
            }
        }
}

// Every cell without src_iter, dst_iter and bias, then with ntc layer
// tensors and ldgoi forward weights.
inline void check_optional_states_layouts(engine::kind ek) {
    for (cell_t c : all_cells) {
        auto p = prob(c, dir_t::l2r, 1, 4, 3, 5);
        opts_t o;
        o.src_iter = false;
        o.dst_iter = false;
        o.bias = false;
        check(p, o, 7, ek);
        opts_t o2;
        o2.ntc = true;
        o2.ldgoi = true;
        check(p, o2, 7, ek);
    }
}

// LSTM with every combination of peephole and projection.
inline void check_lstm_peephole_projection(engine::kind ek) {
    for (bool peep : {false, true})
        for (bool proj : {false, true}) {
            auto p = prob(cell_t::lstm, dir_t::concat, 2, 3, 2, 6);
            p.peephole = peep;
            p.projection = proj;
            if (proj) p.DIC = p.SIC = p.SLC = 4;
            check(p, opts_t(), 7, ek);
        }
}

// bf16 and f16 for `cells` (LSTM with peephole), L layers where the cell
// allows.
inline void check_bf16_f16(
        engine::kind ek, int64_t L, const std::vector<cell_t> &cells) {
    for (auto dt : {memory::data_type::bf16, memory::data_type::f16})
        for (cell_t c : cells) {
            const bool augru = c == cell_t::augru || c == cell_t::lbr_augru;
            auto p = prob(c, augru ? dir_t::l2r : dir_t::concat, augru ? 1 : L, 3, 2, 6);
            if (c == cell_t::lstm) p.peephole = true;
            opts_t o;
            o.dt = dt;
            SCOPED_TRACE(dt == memory::data_type::bf16 ? "bf16" : "f16");
            check(p, o, 7, ek);
        }
}

} // namespace rnn_glue
