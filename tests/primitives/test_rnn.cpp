// Recurrent primitive tests: every cell kind (vanilla RNN with each
// activation, LSTM with and without peephole and projection, GRU, LBR-GRU,
// AUGRU, LBR-AUGRU), direction, layer count and layout against
// tests/reference/rnn_ref.*, forward inference and training and backward;
// the reference backward against finite differences of the reference
// forward; queries, `any` resolution, diff weights accumulation and the
// overwrite flag, bad descriptors. The problem glue and check() live in
// rnn_glue.hpp (the gpu engine's tests, tests/ocl/test_ocl_rnn.cpp, share
// them).
#include <cmath>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "rnn_glue.hpp"
#include "tensor_glue.hpp"

#include "reference/rnn_ref.hpp"

// The glue's names (it brings dnnl, tensor_glue and the reference's
// kinds along).
using namespace rnn_glue;

TEST(Rnn, CellsDirectionsLayers) {
    check_cells_directions_layers(engine::kind::cpu);
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
    check_lstm_peephole_projection(engine::kind::cpu);
}

TEST(Rnn, OptionalStatesLayoutsFlags) {
    check_optional_states_layouts(engine::kind::cpu);
}

TEST(Rnn, AnyWeightsPacked) {
    // DHC a multiple of the GEMM's panel width: forward `any` becomes the
    // packed ldgOi<NR>o layout, and with input channels that are too,
    // backward `any` the packed W^T panels ldgIo<NR>i (reorders fill
    // both; check() runs the backward on `any` weights); T = 1 and T > 1.
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
    // Backward: packed per weight tensor, by its own input channels (layer
    // 64: packed; iteration 40: ldgoi).
    const md wl_b({1, 1, 64, 4, 40}, f, tag::any), wi_b({1, 1, 40, 4, 40}, f, tag::any);
    const md src({3, 2, 64}, f, tag::tnc), dst({3, 2, 40}, f, tag::tnc);
    auto fpd = lstm_forward::primitive_desc(eng, prop_kind::forward_training,
            rnn_direction::unidirectional_left2right, src, md(), md(), wl_b, wi_b, md(), dst,
            md(), md());
    auto bpd = lstm_backward::primitive_desc(eng, prop_kind::backward,
            rnn_direction::unidirectional_left2right, src, md(), md(), wl_b, wi_b, md(), dst,
            md(), md(), src, md(), md(), wl_b, wi_b, md(), dst, md(), md(), fpd);
    const md bl = bpd.weights_layer_desc(), bi = bpd.weights_iter_desc();
    EXPECT_TRUE(bl == md(wl_b.get_dims(), f, tag::ldgIo32i) || bl == md(wl_b.get_dims(), f, tag::ldgIo16i)
            || bl == md(wl_b.get_dims(), f, tag::ldgoi));
    EXPECT_EQ(bi, md(wi_b.get_dims(), f, tag::ldgoi));
    EXPECT_EQ(bpd.diff_weights_layer_desc(), md(wl_b.get_dims(), f, tag::ldigo));
    // Mixed: packed layer weights, plain iteration weights, against the
    // reference.
    for (cell_t c : {cell_t::lstm, cell_t::gru, cell_t::lbr_gru, cell_t::vanilla}) {
        auto p = prob(c, dir_t::sum, 1, 3, 5, 40);
        p.SLC = 64;
        check(p);
    }
    // Gates longer than the GEMM's K block: each gate's packed segment is
    // walked in several K blocks.
    check(prob(cell_t::gru, dir_t::l2r, 1, 2, 3, 416));
    // Many layers of packed weights with a projection packed per layer
    // after them: the packing buffer starts over at every layer (it grew
    // by one projection a layer and ran into the other scratch buffers:
    // wrong diffs at 16 layers).
    auto deep = prob(cell_t::lstm, dir_t::l2r, 16, 2, 2, 64);
    deep.projection = true;
    deep.DIC = deep.SIC = deep.SLC = 32;
    opts_t o;
    o.any_weights = true;
    check(deep, o);
}

// Weights in packed f32 panels run on the BRGEMM kernels where the ISA
// has them (the implementation name lists the tile before the GEMM
// core's kernel; T = 1 with plain weights packs nothing and names only
// the GEMM core). The shapes make every kind of tile: 29 rows (two full
// 12-row tiles and a tail), 87 rows for the layer GEMMs, states 256
// wide (rows 1 KB apart: A is copied with a padded stride first), and
// the backward's W^T packed per gate (a batch of segments).
TEST(Rnn, WeightGemmsOnBrgemmKernels) {
    engine eng(engine::kind::cpu, 0);
    const auto f = memory::data_type::f32;
    using tag = memory::format_tag;
    const bool has_brgemm = get_effective_cpu_isa() >= cpu_isa::avx2;
    auto name_of = [&](int64_t T, tag wtag) -> std::string {
        const md l({T, 2, 64}, f, tag::tnc), w({1, 1, 64, 4, 64}, f, wtag);
        auto pd = lstm_forward::primitive_desc(eng, prop_kind::forward_inference,
                rnn_direction::unidirectional_left2right, l, md(), md(), w, w, md(), l,
                md(), md());
        return pd.impl_info_str();
    };
    EXPECT_EQ(name_of(3, tag::any).find("brgemm") != std::string::npos, has_brgemm)
            << name_of(3, tag::any);
    EXPECT_EQ(name_of(1, tag::ldigo).find("brgemm"), std::string::npos) << name_of(1, tag::ldigo);
    for (cell_t c : {cell_t::lstm, cell_t::gru, cell_t::lbr_gru, cell_t::vanilla}) {
        opts_t o;
        o.any_weights = true;
        check(prob(c, dir_t::l2r, 1, 3, 29, 256), o);
    }
    // Plain weights packed by the execution, bidirectional, N tails
    // (DHC 40: gates of 160 columns, 5 panels, the last one 32 wide;
    // states of 40 columns, a 8-column tail).
    check(prob(cell_t::lstm, dir_t::concat, 2, 4, 13, 40));
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

TEST(Rnn, Bf16AndF16) {
    check_bf16_f16(engine::kind::cpu, 2,
            std::vector<cell_t>(std::begin(all_cells), std::end(all_cells)));
}
