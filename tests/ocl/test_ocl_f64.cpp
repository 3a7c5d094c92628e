// f64 on the gpu engine, where oneDNN's gpu engine takes it: reorder,
// eltwise, matmul, inner product, convolution, deconvolution, pooling and
// layer normalization. Each against the double-precision reference with
// a tolerance far below f32's precision, so a kernel that computed in
// float would fail; values not representable in f32 where the reference
// takes doubles. Devices without cl_khr_fp64 skip (the primitives then
// answer dnnl_unimplemented, checked too).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "gpu_primitive_fixture.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "reference/eltwise_ref.hpp"
#include "reference/lnorm_ref.hpp"
#include "reference/pool_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;
using tag = memory::format_tag;

namespace {

// Doubles with bits below f32's precision (any f32 rounding shows).
std::vector<double> random_doubles(
        size_t n, double lo, double hi, unsigned seed) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (auto &x : v) x = u(gen) + std::ldexp(1.0, -40);
    return v;
}

// |got - expected| <= abs + rel * |expected| everywhere.
::testing::AssertionResult close(const std::vector<double> &got,
        const std::vector<double> &expected, double rel, double abs_ = 0) {
    if (got.size() != expected.size())
        return ::testing::AssertionFailure()
               << "size " << got.size() << " vs " << expected.size();
    for (size_t i = 0; i < got.size(); ++i) {
        const double g = got[i], e = expected[i];
        if (std::isnan(g) && std::isnan(e)) continue;
        if (std::fabs(g - e) <= abs_ + rel * std::fabs(e)) continue;
        return ::testing::AssertionFailure() << "[" << i << "] got " << g
                                             << " expected " << e
                                             << " (diff " << g - e << ")";
    }
    return ::testing::AssertionSuccess();
}

class OclF64 : public gpu_primitive_test {
protected:
    void SetUp() override {
        gpu_primitive_test::SetUp();
        if (IsSkipped()) return;
        if (!device_has_fp64(eng)) GTEST_SKIP() << "no cl_khr_fp64";
    }
    memory mem(const memory::desc &md, const std::vector<double> &v) {
        return to_memory(eng, md, v);
    }
    void run(const primitive &p, const std::unordered_map<int, memory> &args) {
        p.execute(strm, args);
        strm.wait();
    }
};

// ---- reorder

TEST_F(OclF64, ReorderKeepsEveryBit) {
    const memory::dims dims = {3, 19, 5, 4};
    const memory::desc plain(dims, dt::f64, tag::nchw);
    const auto v = random_doubles((size_t)count(dims), -1e3, 1e3, 1);
    memory src = mem(plain, v);
    for (tag t : {tag::nhwc, tag::nChw16c, tag::nchw}) {
        const memory::desc md(dims, dt::f64, t);
        memory dst(md, eng);
        run(reorder(src, dst), {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
        EXPECT_EQ(from_memory(dst), v) << describe(md);
        EXPECT_TRUE(padding_is_zero(dst));
    }
    // To and from the cpu engine.
    engine cpu(engine::kind::cpu, 0);
    memory host(plain, cpu), back(memory::desc(dims, dt::f64, tag::nhwc), eng);
    reorder(src, host).execute(strm, src, host);
    reorder(host, back).execute(strm, host, back); // no wait between
    strm.wait();
    EXPECT_EQ(from_memory(host), v);
    EXPECT_EQ(from_memory(back), v);
}

TEST_F(OclF64, ReorderConvertsToAndFromEveryType) {
    const memory::dims dims = {2, 3, 4, 5};
    const size_t n = (size_t)count(dims);
    std::mt19937 gen(3);
    for (dt other : {dt::f32, dt::bf16, dt::f16, dt::s32, dt::s8, dt::u8}) {
        SCOPED_TRACE(dt_name(other));
        // Values every type holds: exact both ways.
        const auto v = random_values((int64_t)n, other, gen, -8, 8);
        memory a = mem(memory::desc(dims, dt::f64, tag::nchw), v);
        memory b(memory::desc(dims, other, tag::nhwc), eng);
        memory c(memory::desc(dims, dt::f64, tag::nChw8c), eng);
        run(reorder(a, b), {{DNNL_ARG_FROM, a}, {DNNL_ARG_TO, b}});
        run(reorder(b, c), {{DNNL_ARG_FROM, b}, {DNNL_ARG_TO, c}});
        EXPECT_EQ(from_memory(b), v);
        EXPECT_EQ(from_memory(c), v);
    }
    // Rounding to nearest even and saturation of the integers, in double
    // (s32's range exceeds f32's integers).
    const std::vector<double> in = {2.5, -2.5, 3.5, 2147483646.75, 3e9, -3e9,
            16777217.0, -0.5};
    const memory::desc d1({(memory::dim)in.size()}, dt::f64, tag::a);
    memory a = mem(d1, in);
    memory i32(memory::desc({(memory::dim)in.size()}, dt::s32, tag::a), eng);
    run(reorder(a, i32), {{DNNL_ARG_FROM, a}, {DNNL_ARG_TO, i32}});
    EXPECT_EQ(from_memory(i32),
            (std::vector<double> {2, -2, 4, 2147483647, 2147483647,
                    -2147483648.0, 16777217, -0}));
    memory f32(memory::desc({(memory::dim)in.size()}, dt::f32, tag::a), eng);
    run(reorder(a, f32), {{DNNL_ARG_FROM, a}, {DNNL_ARG_TO, f32}});
    const auto got = from_memory(f32);
    for (size_t i = 0; i < in.size(); ++i)
        EXPECT_EQ(got[i], (double)(float)in[i]) << i;
}

// ---- eltwise

struct elt_case_t {
    algorithm alg;
    float alpha, beta;
    double lo, hi;
};

const elt_case_t elt_cases[] = {
        {algorithm::eltwise_relu, 0.25f, 0.f, -5, 5},
        {algorithm::eltwise_tanh, 0.f, 0.f, -4, 4},
        {algorithm::eltwise_elu, 0.5f, 0.f, -4, 4},
        {algorithm::eltwise_square, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_abs, 0.f, 0.f, -5, 5},
        {algorithm::eltwise_sqrt, 0.f, 0.f, 0.01, 50},
        {algorithm::eltwise_linear, 1.5f, -0.5f, -5, 5},
        {algorithm::eltwise_soft_relu, 0.5f, 0.f, -10, 10},
        {algorithm::eltwise_hardsigmoid, 0.2f, 0.5f, -5, 5},
        {algorithm::eltwise_logistic, 0.f, 0.f, -8, 8},
        {algorithm::eltwise_exp, 0.f, 0.f, -8, 8},
        {algorithm::eltwise_gelu_tanh, 0.f, 0.f, -4, 4},
        {algorithm::eltwise_swish, 0.5f, 0.f, -8, 8},
        {algorithm::eltwise_log, 0.f, 0.f, 0.01, 100},
        {algorithm::eltwise_clip, -1.f, 2.5f, -4, 4},
        {algorithm::eltwise_clip_v2, -1.f, 2.5f, -4, 4},
        {algorithm::eltwise_pow, 1.5f, 3.f, -3, 3},
        {algorithm::eltwise_gelu_erf, 0.f, 0.f, -4, 4},
        {algorithm::eltwise_mish, 0.f, 0.f, -8, 8},
        {algorithm::eltwise_hardswish, 1.f / 6, 0.5f, -6, 6},
        {algorithm::eltwise_logistic_use_dst_for_bwd, 0.f, 0.f, -8, 8},
        {algorithm::eltwise_exp_use_dst_for_bwd, 0.f, 0.f, -8, 8},
};

TEST_F(OclF64, EltwiseForwardAndBackward) {
    const memory::dims dims = {2, 5, 7, 3};
    const size_t n = (size_t)count(dims);
    unsigned seed = 10;
    for (const auto &c : elt_cases) {
        const auto a = static_cast<dnnl_alg_kind_t>(c.alg);
        SCOPED_TRACE(std::to_string((int)a));
        // Blocked (padded) and plain: the layout kernel and the dense one.
        for (tag t : {tag::nchw, tag::nChw8c}) {
            const memory::desc md(dims, dt::f64, t);
            const auto sv = random_doubles(n, c.lo, c.hi, ++seed);
            std::vector<double> fwd(n);
            for (size_t i = 0; i < n; ++i)
                fwd[i] = eltwise_ref::fwd(a, sv[i], c.alpha, c.beta);
            eltwise_forward::primitive_desc fpd(eng,
                    prop_kind::forward_training, c.alg, md, md, c.alpha,
                    c.beta);
            memory src = mem(md, sv), dst(md, eng);
            run(eltwise_forward(fpd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
            EXPECT_TRUE(close(from_memory(dst), fwd, 1e-12, 1e-14))
                    << fpd.impl_info_str() << " " << describe(md);

            const auto dd = random_doubles(n, -2, 2, ++seed);
            const bool from_dst = eltwise_ref::use_dst(a);
            std::vector<double> bwd(n);
            for (size_t i = 0; i < n; ++i)
                bwd[i] = eltwise_ref::bwd(a, dd[i], from_dst ? fwd[i] : sv[i],
                        c.alpha, c.beta);
            eltwise_backward::primitive_desc bpd(eng, c.alg, md, md, md,
                    c.alpha, c.beta, fpd);
            memory ddm = mem(md, dd), ds(md, eng);
            run(eltwise_backward(bpd),
                    {{from_dst ? DNNL_ARG_DST : DNNL_ARG_SRC,
                             from_dst ? dst : src},
                            {DNNL_ARG_DIFF_DST, ddm}, {DNNL_ARG_DIFF_SRC, ds}});
            EXPECT_TRUE(close(from_memory(ds), bwd, 1e-10, 1e-13))
                    << bpd.impl_info_str() << " " << describe(md);
        }
    }
}

TEST_F(OclF64, EltwiseRefusesPostOps) {
    const memory::desc md({4, 8}, dt::f64, tag::ab);
    post_ops po;
    po.append_binary(algorithm::binary_add, md);
    primitive_attr attr;
    attr.set_post_ops(po);
    EXPECT_THROW(eltwise_forward::primitive_desc(eng,
                         prop_kind::forward_inference,
                         algorithm::eltwise_relu, md, md, 0.f, 0.f, attr),
            dnnl::error);
}

// ---- matmul and inner product

// C(M x N) = A(M x K) . B(K x N) (+ bias(N)), all dense row-major.
std::vector<double> gemm_ref(int64_t M, int64_t N, int64_t K,
        const std::vector<double> &a, const std::vector<double> &b,
        const std::vector<double> &bias) {
    std::vector<double> c((size_t)(M * N));
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            double acc = bias.empty() ? 0 : bias[(size_t)n];
            for (int64_t k = 0; k < K; ++k)
                acc += a[(size_t)(m * K + k)] * b[(size_t)(k * N + n)];
            c[(size_t)(m * N + n)] = acc;
        }
    return c;
}

// The transpose of a rows x cols row-major matrix.
std::vector<double> transposed(
        const std::vector<double> &v, int64_t rows, int64_t cols) {
    std::vector<double> t(v.size());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
            t[(size_t)(c * rows + r)] = v[(size_t)(r * cols + c)];
    return t;
}

TEST_F(OclF64, MatmulWithBiasBatchesAndTransposedWeights) {
    const int64_t B = 3, M = 5, N = 17, K = 37;
    const auto a = random_doubles((size_t)(B * M * K), -1, 1, 21);
    const auto w = random_doubles((size_t)(K * N), -1, 1, 22);
    const auto bias = random_doubles((size_t)N, -1, 1, 23);
    std::vector<double> expected;
    for (int64_t b = 0; b < B; ++b) {
        const std::vector<double> ab(a.begin() + b * M * K,
                a.begin() + (b + 1) * M * K);
        const auto c = gemm_ref(M, N, K, ab, w, bias);
        expected.insert(expected.end(), c.begin(), c.end());
    }
    // Weights broadcast over the batch, row-major and transposed (acb).
    for (tag wtag : {tag::abc, tag::acb}) {
        const memory::desc src_md({B, M, K}, dt::f64, tag::abc);
        const memory::desc wei_md({1, K, N}, dt::f64, wtag);
        const memory::desc bias_md({1, 1, N}, dt::f64, tag::abc);
        const memory::desc dst_md({B, M, N}, dt::f64, tag::abc);
        matmul::primitive_desc pd(eng, src_md, wei_md, bias_md, dst_md);
        EXPECT_NE(std::string(pd.impl_info_str()).find("f64"), std::string::npos)
                << pd.impl_info_str();
        memory src = mem(src_md, a), wei = mem(wei_md, w),
               bm = mem(bias_md, bias), dst(dst_md, eng);
        run(matmul(pd), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                                {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, dst}});
        EXPECT_TRUE(close(from_memory(dst), expected, 1e-13, 1e-13))
                << pd.impl_info_str();
    }
}

TEST_F(OclF64, MatmulRefusesMixedTypesAndAttributes) {
    const memory::desc a({4, 8}, dt::f64, tag::ab), b({8, 3}, dt::f64, tag::ab),
            c({4, 3}, dt::f64, tag::ab), c32({4, 3}, dt::f32, tag::ab),
            b32({8, 3}, dt::f32, tag::ab);
    EXPECT_THROW(matmul::primitive_desc(eng, a, b, c32), dnnl::error);
    EXPECT_THROW(matmul::primitive_desc(eng, a, b32, c), dnnl::error);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    EXPECT_THROW(matmul::primitive_desc(eng, a, b, c, attr), dnnl::error);
    primitive_attr scales;
    scales.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_THROW(matmul::primitive_desc(eng, a, b, c, scales), dnnl::error);
    // A user scratchpad is no attribute of the computation.
    primitive_attr user;
    user.set_scratchpad_mode(scratchpad_mode::user);
    EXPECT_NO_THROW(matmul::primitive_desc(eng, a, b, c, user));
    // The cpu engine has no f64 (as oneDNN's): unimplemented, not invalid.
    engine cpu(engine::kind::cpu, 0);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, cpu.get(), a.get(),
                      b.get(), nullptr, c.get(), nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
}

TEST_F(OclF64, InnerProductForwardAndBackward) {
    const int64_t MB = 6, IC = 5, H = 3, W = 2, OC = 11, K = IC * H * W;
    const memory::desc src_md({MB, IC, H, W}, dt::f64, tag::nchw);
    const memory::desc wei_md({OC, IC, H, W}, dt::f64, tag::oihw);
    const memory::desc bias_md({OC}, dt::f64, tag::x);
    const memory::desc dst_md({MB, OC}, dt::f64, tag::nc);
    const auto sv = random_doubles((size_t)(MB * K), -1, 1, 31);
    const auto wv = random_doubles((size_t)(OC * K), -1, 1, 32);
    const auto bv = random_doubles((size_t)OC, -1, 1, 33);
    const auto ddv = random_doubles((size_t)(MB * OC), -1, 1, 34);
    memory src = mem(src_md, sv), wei = mem(wei_md, wv), bias = mem(bias_md, bv);

    inner_product_forward::primitive_desc fpd(eng, prop_kind::forward_training,
            src_md, wei_md, bias_md, dst_md);
    memory dst(dst_md, eng);
    run(inner_product_forward(fpd), {{DNNL_ARG_SRC, src},
                                            {DNNL_ARG_WEIGHTS, wei},
                                            {DNNL_ARG_BIAS, bias},
                                            {DNNL_ARG_DST, dst}});
    // dst = src (MB x K) . wei^T (K x OC) + bias
    EXPECT_TRUE(close(from_memory(dst),
            gemm_ref(MB, OC, K, sv, transposed(wv, OC, K), bv), 1e-13, 1e-13));

    memory dd = mem(dst_md, ddv), ds(src_md, eng);
    inner_product_backward_data::primitive_desc dpd(
            eng, src_md, wei_md, dst_md, fpd);
    run(inner_product_backward_data(dpd),
            {{DNNL_ARG_DIFF_DST, dd}, {DNNL_ARG_WEIGHTS, wei},
                    {DNNL_ARG_DIFF_SRC, ds}});
    EXPECT_TRUE(close(from_memory(ds), gemm_ref(MB, K, OC, ddv, wv, {}), 1e-13,
            1e-13));

    memory dw(wei_md, eng), db(bias_md, eng);
    inner_product_backward_weights::primitive_desc wpd(
            eng, src_md, wei_md, bias_md, dst_md, fpd);
    run(inner_product_backward_weights(wpd),
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, dd},
                    {DNNL_ARG_DIFF_WEIGHTS, dw}, {DNNL_ARG_DIFF_BIAS, db}});
    EXPECT_TRUE(close(from_memory(dw),
            gemm_ref(OC, K, MB, transposed(ddv, MB, OC), sv, {}), 1e-13,
            1e-13));
    std::vector<double> dbias((size_t)OC, 0.0);
    for (int64_t m = 0; m < MB; ++m)
        for (int64_t o = 0; o < OC; ++o)
            dbias[(size_t)o] += ddv[(size_t)(m * OC + o)];
    EXPECT_TRUE(close(from_memory(db), dbias, 1e-13, 1e-13));
}

// ---- pooling

TEST_F(OclF64, PoolingForwardAndBackward) {
    // 2 x 5 x 7 x 6, 3x3 windows, stride 2, padding 1: windows that the
    // padding cuts (the average's divisor differs for exclude).
    pool_ref::desc_t d;
    d.mb = 2, d.c = 5, d.nsp = 2;
    d.in[0] = 7, d.in[1] = 6;
    d.k[0] = d.k[1] = 3;
    d.stride[0] = d.stride[1] = 2;
    d.pad[0] = d.pad[1] = 1;
    d.out[0] = 4, d.out[1] = 3;
    const memory::dims sd = {2, 5, 7, 6}, dd = {2, 5, 4, 3};
    const size_t ns = (size_t)count(sd), nd = (size_t)count(dd);
    std::mt19937 gen(41);
    // Distinct quarter steps (no ties for max) exact in f32 (the reference
    // takes floats); the averages' divisions then show f32 arithmetic.
    std::vector<double> sv(ns);
    for (size_t i = 0; i < ns; ++i) sv[i] = (double)((i * 37) % ns) / 4 - 40;
    const auto dv = random_values((int64_t)nd, dt::f32, gen, -4, 4);
    const std::vector<float> sf(sv.begin(), sv.end()), df(dv.begin(), dv.end());
    for (algorithm alg : {algorithm::pooling_max,
                 algorithm::pooling_avg_include_padding,
                 algorithm::pooling_avg_exclude_padding})
        for (tag t : {tag::nchw, tag::nhwc}) {
            SCOPED_TRACE(std::to_string((int)alg) + " " + std::to_string((int)t));
            d.alg = static_cast<dnnl_alg_kind_t>(alg);
            std::vector<double> fwd(nd), bwd(ns);
            pool_ref::forward(d, sf.data(), fwd.data());
            pool_ref::backward(d, sf.data(), df.data(), bwd.data());
            const memory::desc smd(sd, dt::f64, t), dmd(dd, dt::f64, t);
            pooling_forward::primitive_desc fpd(eng,
                    prop_kind::forward_training, alg, smd, dmd, {2, 2},
                    {3, 3}, {0, 0}, {1, 1}, {1, 1});
            memory src = mem(smd, sv), dst(dmd, eng);
            std::unordered_map<int, memory> args
                    = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
            memory ws;
            if (fpd.workspace_desc().get_size() != 0) {
                ws = memory(fpd.workspace_desc(), eng);
                args[DNNL_ARG_WORKSPACE] = ws;
            }
            run(pooling_forward(fpd), args);
            EXPECT_TRUE(close(from_memory(dst), fwd, 1e-15, 0))
                    << fpd.impl_info_str();

            pooling_backward::primitive_desc bpd(eng, alg, smd, dmd, {2, 2},
                    {3, 3}, {0, 0}, {1, 1}, {1, 1}, fpd);
            memory ddm = mem(dmd, dv), ds(smd, eng);
            std::unordered_map<int, memory> bargs
                    = {{DNNL_ARG_DIFF_DST, ddm}, {DNNL_ARG_DIFF_SRC, ds}};
            if (ws) bargs[DNNL_ARG_WORKSPACE] = ws;
            run(pooling_backward(bpd), bargs);
            EXPECT_TRUE(close(from_memory(ds), bwd, 1e-15, 1e-15))
                    << bpd.impl_info_str();
        }
}

// ---- layer normalization

TEST_F(OclF64, LayerNormForwardAndBackward) {
    const int64_t rows = 30, C = 37;
    const memory::dims dims = {6, 5, C};
    const float eps = 1e-5f;
    std::mt19937 gen(51);
    // Quarter steps (the reference takes floats); the statistics, the
    // division and the square root show f32 arithmetic.
    const auto sv = random_values(rows * C, dt::f32, gen, -8, 8);
    const auto scv = random_values(C, dt::f32, gen, -2, 2);
    const auto shv = random_values(C, dt::f32, gen, -2, 2);
    const auto ddv = random_values(rows * C, dt::f32, gen, -2, 2);
    const std::vector<float> sf(sv.begin(), sv.end()), scf(scv.begin(), scv.end()),
            shf(shv.begin(), shv.end()), ddf(ddv.begin(), ddv.end());
    lnorm_ref::desc_t d;
    d.rows = rows, d.c = C, d.eps = eps, d.scale = d.shift = true;
    std::vector<double> dst_ref((size_t)(rows * C)), mean_ref((size_t)rows),
            var_ref((size_t)rows);
    lnorm_ref::forward(d, sf.data(), scf.data(), shf.data(), nullptr, nullptr,
            dst_ref.data(), mean_ref.data(), var_ref.data());

    const auto flags = normalization_flags::use_scale
            | normalization_flags::use_shift;
    const memory::desc stat_md({6, 5}, dt::f32, tag::ab);
    const memory::desc ss_md({C}, dt::f32, tag::a);
    // Rows contiguous (read in place) and transposed (staged).
    for (tag t : {tag::abc, tag::acb}) {
        SCOPED_TRACE(std::to_string((int)t));
        const memory::desc md(dims, dt::f64, t);
        layer_normalization_forward::primitive_desc fpd(eng,
                prop_kind::forward_training, md, md, stat_md, eps, flags);
        memory src = mem(md, sv), dst(md, eng), mean(stat_md, eng),
               var(stat_md, eng), sc = mem(ss_md, scv), sh = mem(ss_md, shv);
        run(layer_normalization_forward(fpd),
                {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                        {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                        {DNNL_ARG_SCALE, sc}, {DNNL_ARG_SHIFT, sh}});
        EXPECT_TRUE(close(from_memory(dst), dst_ref, 1e-12, 1e-12))
                << fpd.impl_info_str();
        // Saved statistics are f32.
        EXPECT_TRUE(close(from_memory(mean), mean_ref, 1e-6, 1e-7));
        EXPECT_TRUE(close(from_memory(var), var_ref, 1e-6, 1e-7));

        // Backward from the saved (f32) statistics.
        const auto mv = from_memory(mean), vv = from_memory(var);
        const std::vector<float> mf(mv.begin(), mv.end()), vf(vv.begin(), vv.end());
        std::vector<double> ds_ref((size_t)(rows * C)), dsc_ref((size_t)C),
                dsh_ref((size_t)C);
        lnorm_ref::backward(d, sf.data(), mf.data(), vf.data(), ddf.data(),
                scf.data(), ds_ref.data(), dsc_ref.data(), dsh_ref.data());
        layer_normalization_backward::primitive_desc bpd(eng,
                prop_kind::backward, md, md, md, stat_md, eps, flags, fpd);
        memory dd = mem(md, ddv), ds(md, eng), dsc(ss_md, eng), dsh(ss_md, eng);
        run(layer_normalization_backward(bpd),
                {{DNNL_ARG_SRC, src}, {DNNL_ARG_MEAN, mean},
                        {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_DIFF_DST, dd},
                        {DNNL_ARG_SCALE, sc}, {DNNL_ARG_DIFF_SRC, ds},
                        {DNNL_ARG_DIFF_SCALE, dsc}, {DNNL_ARG_DIFF_SHIFT, dsh}});
        EXPECT_TRUE(close(from_memory(ds), ds_ref, 1e-11, 1e-12))
                << bpd.impl_info_str();
        // diff scale / shift are f32.
        EXPECT_TRUE(close(from_memory(dsc), dsc_ref, 1e-5, 1e-5));
        EXPECT_TRUE(close(from_memory(dsh), dsh_ref, 1e-6, 1e-6));
    }
}

} // namespace

#endif
