// Binary select as a post-op (dnnl_post_ops_append_binary_v2): the C API's
// rules for the third input, matmul and inner product applying
//   dst = cond > 0 ? dst : src1
// with src1 and the s8 condition broadcast, checked against plain loops;
// implementations without it refuse the attribute.
#include <cstdint>
#include <cstring>
#include <random>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

dnnl_memory_desc_t c_md(const memory::desc &d) {
    return d.get();
}

TEST(PostOpSelect, CApiRules) {
    const memory::desc src1({4, 3}, dt::f32, tag::ab),
            cond({4, 3}, dt::s8, tag::ab), cond_f32({4, 3}, dt::f32, tag::ab),
            rt({DNNL_RUNTIME_DIM_VAL, 3}, dt::s8, tag::ab);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    // Select needs its condition, of known dims; the v1 call has none.
    EXPECT_EQ(dnnl_post_ops_append_binary_v2(
                      po, dnnl_binary_select, c_md(src1), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_append_binary_v2(
                      po, dnnl_binary_select, c_md(src1), c_md(rt)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_select, c_md(src1)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_len(po), 0);
    // As in oneDNN, a third input to another algorithm is ignored, and the
    // condition may be of any data type (non-zero selects).
    ASSERT_EQ(dnnl_post_ops_append_binary_v2(
                      po, dnnl_binary_mul, c_md(src1), c_md(cond)),
            dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary_v2(
                      po, dnnl_binary_select, c_md(src1), c_md(cond)),
            dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary_v2(
                      po, dnnl_binary_select, c_md(src1), c_md(cond_f32)),
            dnnl_success);
    dnnl_alg_kind_t alg;
    const_dnnl_memory_desc_t s1 = nullptr, s2 = nullptr;
    ASSERT_EQ(dnnl_post_ops_get_params_binary_v2(po, 1, &alg, &s1, &s2),
            dnnl_success);
    EXPECT_EQ(alg, dnnl_binary_select);
    EXPECT_TRUE(dnnl_memory_desc_equal(s1, c_md(src1)));
    EXPECT_TRUE(dnnl_memory_desc_equal(s2, c_md(cond)));
    ASSERT_EQ(dnnl_post_ops_get_params_binary_v2(po, 0, &alg, &s1, &s2),
            dnnl_success);
    EXPECT_EQ(alg, dnnl_binary_mul);
    int nd = -1;
    ASSERT_EQ(dnnl_memory_desc_query(s2, dnnl_query_ndims_s32, &nd),
            dnnl_success);
    EXPECT_EQ(nd, 0); // no third input kept
    EXPECT_EQ(dnnl_post_ops_get_params_binary_v2(po, 3, &alg, &s1, &s2),
            dnnl_invalid_arguments);
    dnnl_post_ops_destroy(po);
}

struct select_case_t {
    memory::dims src1_dims, cond_dims;
};

// dst(m, n) = cond(m|0, n|0) > 0 ? acc(m, n) : src1(m|0, n|0)
std::vector<float> select_ref(const std::vector<float> &acc,
        const std::vector<float> &src1, const std::vector<int8_t> &cond,
        memory::dim M, memory::dim N, const select_case_t &c) {
    std::vector<float> out(M * N);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            const auto at = [&](const memory::dims &d) {
                return (d[0] == 1 ? 0 : m) * d[1] + (d[1] == 1 ? 0 : n);
            };
            // Negative conditions select src1 (oneDNN's CPU post-op).
            out[m * N + n] = cond[at(c.cond_dims)] > 0 ? acc[m * N + n]
                                                       : src1[at(c.src1_dims)];
        }
    return out;
}

class PostOpSelectMatmul : public ::testing::TestWithParam<select_case_t> {};

TEST_P(PostOpSelectMatmul, MatchesLoops) {
    const auto c = GetParam();
    const memory::dim M = 7, K = 5, N = 6;
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> val(-1.f, 1.f);
    auto fill = [&](std::vector<float> &v) {
        for (auto &x : v) x = val(gen);
    };
    std::vector<float> a(M * K), b(K * N),
            src1(c.src1_dims[0] * c.src1_dims[1]);
    fill(a);
    fill(b);
    fill(src1);
    std::vector<int8_t> cond(c.cond_dims[0] * c.cond_dims[1]);
    for (size_t i = 0; i < cond.size(); ++i)
        cond[i] = (int8_t)((i * 7) % 3 - 1);

    const memory::desc a_md({M, K}, dt::f32, tag::ab),
            b_md({K, N}, dt::f32, tag::ab), d_md({M, N}, dt::f32, tag::ab),
            s1_md(c.src1_dims, dt::f32, tag::ab),
            c_md(c.cond_dims, dt::s8, tag::ab);
    post_ops po;
    dnnl_post_ops_t cpo = po.get();
    ASSERT_EQ(dnnl_post_ops_append_binary_v2(
                      cpo, dnnl_binary_select, s1_md.get(), c_md.get()),
            dnnl_success);
    primitive_attr attr;
    attr.set_post_ops(po);
    matmul::primitive_desc pd(eng(), a_md, b_md, d_md, attr);
    EXPECT_EQ(pd.query_md(query::exec_arg_md,
                      DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_2),
            c_md);
    memory am(a_md, eng(), a.data()), bm(b_md, eng(), b.data()),
            s1m(s1_md, eng(), src1.data()), cm(c_md, eng(), cond.data());
    std::vector<float> out(M * N);
    memory dm(d_md, eng(), out.data());
    stream s(eng());
    matmul prim(pd);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, am},
            {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, dm},
            {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, s1m},
            {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_2, cm}};
    prim.execute(s, args);
    s.wait();
    std::vector<float> acc(M * N, 0.f);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim k = 0; k < K; ++k)
                acc[m * N + n] += a[m * K + k] * b[k * N + n];
    const auto want = select_ref(acc, src1, cond, M, N, c);
    for (size_t i = 0; i < out.size(); ++i)
        ASSERT_NEAR(out[i], want[i], 1e-5f) << i;

    // Without the condition the execution is refused.
    args.erase(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_2);
    EXPECT_THROW(prim.execute(s, args), error);
}

INSTANTIATE_TEST_SUITE_P(Broadcasts, PostOpSelectMatmul,
        ::testing::Values(select_case_t{{7, 6}, {7, 6}},
                select_case_t{{1, 6}, {7, 1}}, select_case_t{{7, 1}, {1, 6}},
                select_case_t{{1, 1}, {7, 6}}));

TEST(PostOpSelect, InnerProduct) {
    const memory::dim MB = 4, IC = 6, OC = 5;
    std::vector<float> src(MB * IC), wei(OC * IC), src1(OC), out(MB * OC);
    for (size_t i = 0; i < src.size(); ++i) src[i] = (float)((int)(i % 5) - 2);
    for (size_t i = 0; i < wei.size(); ++i) wei[i] = (float)((int)(i % 3) - 1);
    for (size_t i = 0; i < src1.size(); ++i) src1[i] = 100.f + (float)i;
    std::vector<int8_t> cond(MB * OC);
    for (size_t i = 0; i < cond.size(); ++i) cond[i] = (int8_t)(i % 2);
    const memory::desc s_md({MB, IC}, dt::f32, tag::ab),
            w_md({OC, IC}, dt::f32, tag::ab), d_md({MB, OC}, dt::f32, tag::ab),
            s1_md({1, OC}, dt::f32, tag::ab), c_md({MB, OC}, dt::s8, tag::ab);
    post_ops po;
    ASSERT_EQ(dnnl_post_ops_append_binary_v2(
                      po.get(), dnnl_binary_select, s1_md.get(), c_md.get()),
            dnnl_success);
    primitive_attr attr;
    attr.set_post_ops(po);
    inner_product_forward::primitive_desc pd(
            eng(), prop_kind::forward_inference, s_md, w_md, d_md, attr);
    memory sm(s_md, eng(), src.data()), wm(w_md, eng(), wei.data()),
            dm(d_md, eng(), out.data()), s1m(s1_md, eng(), src1.data()),
            cm(c_md, eng(), cond.data());
    stream s(eng());
    inner_product_forward(pd).execute(s,
            {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, dm},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, s1m},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_2, cm}});
    s.wait();
    for (memory::dim m = 0; m < MB; ++m)
        for (memory::dim o = 0; o < OC; ++o) {
            float acc = 0.f;
            for (memory::dim i = 0; i < IC; ++i)
                acc += src[m * IC + i] * wei[o * IC + i];
            const float want = cond[m * OC + o] ? acc : src1[o];
            EXPECT_FLOAT_EQ(out[m * OC + o], want) << m << "," << o;
        }
}

// The OpenCL engine applies select post-ops in its shared post-op code:
// matmul and eltwise, against the same loops.
void fill_gpu(memory &m, const void *src, size_t bytes) {
    void *p = m.map_data<void>();
    std::memcpy(p, src, bytes);
    m.unmap_data(p);
}

TEST(PostOpSelectGpu, MatmulAndEltwise) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no gpu";
    engine g(engine::kind::gpu, 0);
    stream s(g);
    const memory::dim M = 5, K = 4, N = 6;
    std::vector<float> a(M * K), b(K * N), src1(N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = (float)((int)(i % 7) - 3);
    for (size_t i = 0; i < b.size(); ++i) b[i] = (float)((int)(i % 5) - 2);
    for (size_t i = 0; i < src1.size(); ++i) src1[i] = 50.f + (float)i;
    std::vector<int8_t> cond(M);
    for (size_t i = 0; i < cond.size(); ++i) cond[i] = (int8_t)(i % 2);
    const memory::desc a_md({M, K}, dt::f32, tag::ab),
            b_md({K, N}, dt::f32, tag::ab), d_md({M, N}, dt::f32, tag::ab),
            s1_md({1, N}, dt::f32, tag::ab), c_md({M, 1}, dt::s8, tag::ab);
    post_ops po;
    ASSERT_EQ(dnnl_post_ops_append_binary_v2(
                      po.get(), dnnl_binary_select, s1_md.get(), c_md.get()),
            dnnl_success);
    primitive_attr attr;
    attr.set_post_ops(po);
    memory am(a_md, g), bm(b_md, g), dm(d_md, g), s1m(s1_md, g), cm(c_md, g);
    fill_gpu(am, a.data(), a.size() * 4);
    fill_gpu(bm, b.data(), b.size() * 4);
    fill_gpu(s1m, src1.data(), src1.size() * 4);
    fill_gpu(cm, cond.data(), cond.size());
    const int s1_arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
    const int c_arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_2;
    matmul(matmul::primitive_desc(g, a_md, b_md, d_md, attr))
            .execute(
                    s, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm},
                               {DNNL_ARG_DST, dm}, {s1_arg, s1m}, {c_arg, cm}});
    s.wait();
    std::vector<float> out(M * N);
    float *p = dm.map_data<float>();
    std::memcpy(out.data(), p, out.size() * 4);
    dm.unmap_data(p);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            float acc = 0.f;
            for (memory::dim k = 0; k < K; ++k)
                acc += a[m * K + k] * b[k * N + n];
            EXPECT_FLOAT_EQ(out[m * N + n], cond[m] ? acc : src1[n])
                    << m << "," << n;
        }

    // Eltwise (relu) with the same post-op, in place on a.
    const memory::desc e_md({M, N}, dt::f32, tag::ab);
    memory em(e_md, g);
    std::vector<float> x(M * N);
    for (size_t i = 0; i < x.size(); ++i) x[i] = (float)((int)(i % 9) - 4);
    fill_gpu(em, x.data(), x.size() * 4);
    eltwise_forward(
            eltwise_forward::primitive_desc(g, prop_kind::forward_inference,
                    algorithm::eltwise_relu, e_md, e_md, 0.f, 0.f, attr))
            .execute(s, {{DNNL_ARG_SRC, em}, {DNNL_ARG_DST, em}, {s1_arg, s1m},
                                {c_arg, cm}});
    s.wait();
    p = em.map_data<float>();
    std::memcpy(out.data(), p, out.size() * 4);
    em.unmap_data(p);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            const float relu = x[m * N + n] > 0.f ? x[m * N + n] : 0.f;
            EXPECT_FLOAT_EQ(out[m * N + n], cond[m] ? relu : src1[n])
                    << m << "," << n;
        }
}

// Every CPU primitive oneDNN 3.13 applies select post-ops on: the same
// primitive without the post-op gives `acc`, and the post-op must give
//   dst = cond != 0 ? acc : src1
// with src1 and the condition broadcast per dimension (tests/primitives/
// test_post_op_select_kinds.cpp).

} // namespace
