// PReLU primitive tests: forward and backward with every broadcast kind of
// the weights (scalar, per channel, across channels, any subset, full),
// diff_weights reduced over their own broadcast dims, plain /
// channels-last / blocked layouts with padding, data types, `any`
// layouts, queries, bad parameters and the gpu engine; compared with
// tests/reference/prelu_ref.*.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "tensor_glue.hpp"
#include <unordered_map>

#include "reference/prelu_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

void check(const memory::desc &src, const memory::desc &w,
        const memory::desc &dst, const memory::desc *dw = nullptr,
        unsigned seed = 1) {
    SCOPED_TRACE("src " + describe(src) + " w " + describe(w));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const auto dims = dims_of(src), wd = dims_of(w);
    const auto sv = random_values(count(dims), src.get_data_type(), gen);
    const auto wv = random_values(count(wd), w.get_data_type(), gen, -2, 2);
    prelu_forward::primitive_desc fwd(
            eng, prop_kind::forward_training, src, w, dst);
    const auto wmd = fwd.weights_desc(), dmd = fwd.dst_desc();
    const dt ddt = dmd.get_data_type();
    const auto expected = prelu_ref::forward(sv, dims, wv, wd);
    for_each_impl(fwd, [&](const prelu_forward::primitive_desc &ipd) {
        memory ms = to_memory(eng, src, sv), mw = to_memory(eng, wmd, wv),
               md(dmd, eng);
        fill_padding(md, 3);
        prelu_forward(ipd).execute(
                strm, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw},
                              {DNNL_ARG_DST, md}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(md), expected, ddt, tol_for(ddt)));
        EXPECT_TRUE(padding_is_zero(md));
    });

    // Backward: diff tensors follow src and weights (or the given dw).
    const dt bdt =
            src.get_data_type() == dt::s8 || src.get_data_type() == dt::u8
                    ? dt::f32
                    : src.get_data_type();
    const memory::desc any(src.get_dims(), bdt, tag::any);
    const memory::desc dwd =
            dw ? *dw : memory::desc(w.get_dims(), dt::f32, tag::any);
    prelu_backward::primitive_desc bwd(eng, src, wmd, any, dwd, any, fwd);
    const auto ddmd = bwd.diff_dst_desc(), dsmd = bwd.diff_src_desc(),
               dwmd = bwd.diff_weights_desc();
    const auto ddv =
            random_values(count(dims), ddmd.get_data_type(), gen, -2, 2);
    std::vector<double> eds, edw;
    prelu_ref::backward(sv, dims, wv, wd, ddv, dims_of(dwmd), eds, edw);
    // diff_weights sums many products: allow for f32 accumulation.
    const double n_red = (double)count(dims) / (double)count(dims_of(dwmd));
    for_each_impl(bwd, [&](const prelu_backward::primitive_desc &ipd) {
        memory ms = to_memory(eng, src, sv), mw = to_memory(eng, wmd, wv),
               mdd = to_memory(eng, ddmd, ddv), mds(dsmd, eng), mdw(dwmd, eng);
        fill_padding(mds, 3);
        fill_padding(mdw, 3);
        prelu_backward(ipd).execute(strm,
                {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw},
                        {DNNL_ARG_DIFF_DST, mdd}, {DNNL_ARG_DIFF_SRC, mds},
                        {DNNL_ARG_DIFF_WEIGHTS, mdw}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(mds), eds, dsmd.get_data_type(),
                tol_for(dsmd.get_data_type())));
        EXPECT_TRUE(matches(from_memory(mdw), edw, dwmd.get_data_type(),
                tol_for(dwmd.get_data_type(), 1e-6 * n_red, 1e-5 * n_red)));
        EXPECT_TRUE(padding_is_zero(mds));
        EXPECT_TRUE(padding_is_zero(mdw));
    });
}

const memory::dims src_dims = {2, 19, 3, 5};
const memory::dims weight_dims[] = {{1, 1, 1, 1}, {1, 19, 1, 1}, {2, 19, 3, 5},
        {2, 1, 3, 5}, {1, 19, 3, 1}, {2, 1, 1, 5}, {1, 1, 3, 5}};

} // namespace

TEST(Prelu, BroadcastKindsAndLayouts) {
    for (const auto &wd : weight_dims)
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c})
            for (tag wt : {tag::any, tag::nchw}) {
                const memory::desc src(src_dims, dt::f32, t);
                check(src, memory::desc(wd, dt::f32, wt),
                        memory::desc(src_dims, dt::f32, tag::any));
            }
}

TEST(Prelu, DataTypes) {
    struct c_t {
        dt s, w, d;
    };
    for (const c_t &c : {c_t{dt::bf16, dt::bf16, dt::bf16},
                 c_t{dt::f16, dt::f32, dt::f16},
                 c_t{dt::f32, dt::bf16, dt::f32}, c_t{dt::s8, dt::f32, dt::s8},
                 c_t{dt::u8, dt::f32, dt::u8}})
        for (int wi : {0, 1, 2})
            check(memory::desc(src_dims, c.s, tag::nchw),
                    memory::desc(weight_dims[wi], c.w, tag::any),
                    memory::desc(src_dims, c.d, tag::any), nullptr, 3);
    // dst of another type than src: refused, as oneDNN refuses it.
    engine eng(engine::kind::cpu, 0);
    EXPECT_THROW(prelu_forward::primitive_desc(eng, prop_kind::forward_training,
                         memory::desc(src_dims, dt::f32, tag::nchw),
                         memory::desc(weight_dims[0], dt::f32, tag::any),
                         memory::desc(src_dims, dt::bf16, tag::nchw)),
            dnnl::error);
}

TEST(Prelu, OtherRanksAndSizes) {
    check(memory::desc({37}, dt::f32, tag::a),
            memory::desc({1}, dt::f32, tag::a),
            memory::desc({37}, dt::f32, tag::a));
    check(memory::desc({64, 300}, dt::f32, tag::ab),
            memory::desc({1, 300}, dt::f32, tag::ab),
            memory::desc({64, 300}, dt::f32, tag::ab));
    check(memory::desc({64, 300}, dt::f32, tag::ab),
            memory::desc({64, 1}, dt::f32, tag::ab),
            memory::desc({64, 300}, dt::f32, tag::ab));
    check(memory::desc({2, 3, 4, 5, 6}, dt::f32, tag::ndhwc),
            memory::desc({1, 3, 1, 1, 1}, dt::f32, tag::any),
            memory::desc({2, 3, 4, 5, 6}, dt::f32, tag::any));
    check(memory::desc({4, 64, 30, 30}, dt::f32, tag::nChw16c),
            memory::desc({1, 64, 1, 1}, dt::f32, tag::any),
            memory::desc({4, 64, 30, 30}, dt::f32, tag::any), nullptr, 5);
}

TEST(Prelu, DiffWeightsWithTheirOwnBroadcast) {
    // diff_weights reduced further than the weights broadcast.
    const memory::desc src(src_dims, dt::f32, tag::nchw);
    const memory::desc dw({1, 1, 1, 1}, dt::f32, tag::nchw);
    check(src, memory::desc({1, 19, 1, 1}, dt::f32, tag::nchw), src, &dw, 7);
    const memory::desc dw2({1, 19, 1, 1}, dt::bf16, tag::nchw);
    check(src, memory::desc({2, 19, 3, 5}, dt::f32, tag::nchw), src, &dw2, 7);
}

TEST(Prelu, AnyLayoutsAndQueries) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc src(src_dims, dt::f32, tag::nChw16c);
    prelu_forward::primitive_desc fwd(eng, prop_kind::forward_inference, src,
            memory::desc({1, 19, 1, 1}, dt::f32, tag::any),
            memory::desc(src_dims, dt::f32, tag::any));
    EXPECT_EQ(fwd.weights_desc(),
            memory::desc({1, 19, 1, 1}, dt::f32, tag::nChw16c));
    EXPECT_EQ(fwd.dst_desc(), src);
    EXPECT_EQ(fwd.get_prop_kind(), prop_kind::forward_inference);
    EXPECT_EQ(query_s32(fwd, query::num_of_inputs_s32), 2);
    const memory::desc nhwc(src_dims, dt::f32, tag::nhwc);
    const memory::desc any(src_dims, dt::f32, tag::any);
    const memory::desc wany({1, 19, 1, 1}, dt::f32, tag::any);
    prelu_backward::primitive_desc bwd(eng, nhwc, wany, any, wany, any, fwd);
    EXPECT_EQ(bwd.diff_src_desc(), nhwc);
    EXPECT_EQ(bwd.diff_dst_desc(), nhwc);
    EXPECT_EQ(bwd.weights_desc().get_strides(), (memory::dims{19, 1, 19, 19}));
    EXPECT_EQ(bwd.diff_weights_desc(), bwd.weights_desc());
    EXPECT_EQ(bwd.get_prop_kind(), prop_kind::backward);
    EXPECT_EQ(query_s32(bwd, query::num_of_inputs_s32), 3);
    EXPECT_EQ(query_s32(bwd, query::num_of_outputs_s32), 2);
}

TEST(Prelu, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a(src_dims, dt::f32, tag::nchw),
            w({1, 19, 1, 1}, dt::f32, tag::nchw);
    auto fwd = [&](const memory::desc &s, const memory::desc &ww,
                       const memory::desc &d,
                       prop_kind pk = prop_kind::forward_training) {
        return status_of(
                [&] { prelu_forward::primitive_desc(eng, pk, s, ww, d); });
    };
    EXPECT_EQ(fwd(a, w, a), dnnl_success);
    EXPECT_EQ(fwd(a, memory::desc({1, 2, 1, 1}, dt::f32, tag::nchw), a),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({19}, dt::f32, tag::a), a),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, w, memory::desc({2, 19, 3, 6}, dt::f32, tag::nchw)),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, w, a, prop_kind::backward), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(memory::desc(src_dims, dt::f32, tag::any), w, a),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(memory::desc(src_dims, dt::f64, tag::nchw), w, a),
            dnnl_unimplemented);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(status_of([&] {
        prelu_forward::primitive_desc(
                eng, prop_kind::forward_training, a, w, a, attr);
    }),
            dnnl_unimplemented);
    prelu_forward::primitive_desc hint(
            eng, prop_kind::forward_training, a, w, a);
    EXPECT_EQ(status_of([&] {
        prelu_backward::primitive_desc(eng, a, w, a,
                memory::desc({1, 2, 1, 1}, dt::f32, tag::nchw), a, hint);
    }),
            dnnl_invalid_arguments);
    EXPECT_EQ(status_of([&] {
        prelu_backward::primitive_desc(eng, a, w,
                memory::desc({2, 19, 3, 4}, dt::f32, tag::nchw), w, a, hint);
    }),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(
            dnnl_prelu_forward_primitive_desc_create(&pd, eng.get(),
                    dnnl_forward_training, a.get(), nullptr, a.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, eng.get(), a.get(),
                      w.get(), a.get(), nullptr, a.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    // Backward without a hint is accepted.
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, eng.get(), a.get(),
                      w.get(), a.get(), w.get(), a.get(), nullptr, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
}

// The gpu engine has its own implementation (tests/ocl/test_ocl_prelu.cpp
// checks its results).
TEST(Prelu, GpuEngineHasAnImplementation) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a(src_dims, dt::f32, tag::nchw),
            w({1, 19, 1, 1}, dt::f32, tag::nchw);
    prelu_forward::primitive_desc pd(eng, prop_kind::forward_training, a, w, a);
    EXPECT_EQ(std::string(pd.impl_info_str()).rfind("ocl:", 0), 0u);
}
