// Recurrent primitives on the gpu engine against the naive reference
// (tests/reference/rnn_ref, through rnn_glue.hpp's check(), the CPU
// tests' driver): every cell kind, direction and 1 or 2 layers, forward
// inference, training and backward; vanilla activations, LSTM peephole and
// projection, absent states and bias, ntc / ldgoi layouts, bf16 and f16,
// the tiled GEMM kernel;
// workspace and `any` queries, and what the gpu engine refuses.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <gtest/gtest.h>

#include "../primitives/rnn_glue.hpp"
#include "gpu_primitive_fixture.hpp"

using namespace dnnl;
using namespace rnn_glue;

namespace {

const engine::kind gpu_kind = engine::kind::gpu;

class OclRnn : public gpu_primitive_test {};

} // namespace

TEST_F(OclRnn, CellsDirectionsLayers) {
    check_cells_directions_layers(gpu_kind);
}

TEST_F(OclRnn, VanillaActivations) {
    for (act_t a : {act_t::relu, act_t::tanh, act_t::logistic}) {
        auto p = prob(cell_t::vanilla, dir_t::l2r, 1, 3, 2, 4);
        p.act = a;
        p.alpha = a == act_t::relu ? 0.25 : 0;
        check(p, opts_t(), 7, gpu_kind);
    }
}

TEST_F(OclRnn, LstmPeepholeProjection) {
    check_lstm_peephole_projection(gpu_kind);
}

TEST_F(OclRnn, OptionalStatesLayouts) {
    check_optional_states_layouts(gpu_kind);
}

TEST_F(OclRnn, SingleStepWithDifferentIterChannels) {
    for (cell_t c : {cell_t::vanilla, cell_t::lstm}) {
        auto p = prob(c, dir_t::l2r, 1, 1, 2, 4);
        p.SIC = 6;
        check(p, opts_t(), 7, gpu_kind);
    }
}

// The tiled GEMM kernel a GPU picks, forced on any device: every GEMM role
// of an LSTM with peephole and projection, forward and backward (split-K
// is the GEMM family's own, tested with matmul).
TEST_F(OclRnn, TiledGemms) {
    forced_gemm_t f("tiled", nullptr);
    auto p = prob(cell_t::lstm, dir_t::l2r, 1, 3, 2, 5);
    p.peephole = p.projection = true;
    p.DIC = p.SIC = 4;
    check(p, opts_t(), 7, gpu_kind);
}

TEST_F(OclRnn, Bf16AndF16) {
    // The cells only see f32 states: one cell of each GEMM shape (the
    // recurrent GEMM adding to the gates, GRU's two, LBR's apart).
    check_bf16_f16(gpu_kind, 1,
            {cell_t::vanilla, cell_t::lstm, cell_t::gru, cell_t::lbr_augru});
}

TEST_F(OclRnn, QueriesWorkspaceAndAny) {
    auto p = prob(cell_t::lstm, dir_t::concat, 2, 3, 2, 5);
    mds_t m = make_mds(p, opts_t(), memory::format_tag::any);
    auto inf = make_fwd(eng, prop_kind::forward_inference, p, m);
    auto tr = make_fwd(eng, prop_kind::forward_training, p, m);
    EXPECT_EQ(inf.workspace_desc().get_size(), 0u);
    EXPECT_GT(tr.workspace_desc().get_size(), 0u);
    EXPECT_GT(inf.scratchpad_desc().get_size(), 0u);
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    EXPECT_EQ(tr.query_md(query::exec_arg_md, DNNL_ARG_WEIGHTS_LAYER),
            md(m.wl.get_dims(), f32, tag::ldigo));
    auto bwd = make_bwd(eng, p, m, m, tr);
    EXPECT_EQ(bwd.query_md(query::exec_arg_md, DNNL_ARG_WEIGHTS_ITER),
            md(m.wi.get_dims(), f32, tag::ldgoi));
    EXPECT_EQ(bwd.query_md(query::exec_arg_md, DNNL_ARG_DIFF_WEIGHTS_ITER),
            md(m.wi.get_dims(), f32, tag::ldigo));
    EXPECT_EQ(bwd.query_md(query::exec_arg_md, DNNL_ARG_WORKSPACE),
            tr.workspace_desc());
    EXPECT_NE(
            std::string(tr.impl_info_str()).find("ocl:rnn"), std::string::npos);
}

TEST_F(OclRnn, Refused) {
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    // (int8 problems and their refusals: RnnInt8.* in
    // tests/primitives/test_rnn_int8.cpp, on every engine.)
    // Blocked weights.
    const md fsl({3, 2, 4}, f32, tag::tnc),
            wb({1, 1, 4, 3, 4}, f32, tag::ldgOi32o);
    EXPECT_EQ(status_of([&] {
        gru_forward::primitive_desc(eng, prop_kind::forward_inference,
                rnn_direction::unidirectional_left2right, fsl, md(), wb, wb,
                md(), fsl, md());
    }),
            dnnl_unimplemented);
    // Bad descriptors are rejected before any engine is asked.
    const md w4({1, 1, 4, 3, 4}, f32, tag::ldigo);
    EXPECT_EQ(status_of([&] {
        gru_forward::primitive_desc(eng, prop_kind::forward_inference,
                rnn_direction::unidirectional_left2right, fsl, md(), w4, w4,
                md(), md({3, 2, 5}, f32, tag::tnc), md());
    }),
            dnnl_invalid_arguments);
}

#endif
