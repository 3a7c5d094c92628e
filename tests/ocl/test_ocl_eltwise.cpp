// Eltwise on the gpu engine against the naive reference: every algorithm
// forward and backward, plain / channels-last / blocked (padded) / mixed
// layouts, f32 / bf16 / f16 / s8 / f8, and fused binary post-ops.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_debug.h"
#include "reference/eltwise_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

bool have_gpu() {
    return dnnl_engine_get_count(dnnl_gpu) > 0;
}

// The engine of the running test (a static one would keep the device's
// default context alive for the whole binary).
engine g_engine;
engine &gpu() {
    return g_engine;
}

struct alg_case_t {
    algorithm alg;
    float alpha, beta;
    double lo, hi;
};

const alg_case_t alg_cases[] = {
        {algorithm::eltwise_relu, 0.f, 0.f, -5, 5},
        {algorithm::eltwise_relu, 0.25f, 0.f, -5, 5},
        {algorithm::eltwise_tanh, 0.f, 0.f, -6, 6},
        {algorithm::eltwise_elu, 0.5f, 0.f, -6, 4},
        {algorithm::eltwise_square, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_abs, 0.f, 0.f, -5, 5},
        {algorithm::eltwise_sqrt, 0.f, 0.f, 0.01, 50},
        {algorithm::eltwise_linear, 1.5f, -0.5f, -5, 5},
        {algorithm::eltwise_soft_relu, 0.5f, 0.f, -20, 20},
        {algorithm::eltwise_hardsigmoid, 0.2f, 0.5f, -5, 5},
        {algorithm::eltwise_logistic, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_exp, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_gelu_tanh, 0.f, 0.f, -6, 6},
        {algorithm::eltwise_swish, 0.5f, 0.f, -10, 10},
        {algorithm::eltwise_log, 0.f, 0.f, 0.01, 100},
        {algorithm::eltwise_clip, -1.f, 2.5f, -4, 4},
        {algorithm::eltwise_clip_v2, -1.f, 2.5f, -4, 4},
        {algorithm::eltwise_pow, 1.5f, 3.f, -3, 3},
        {algorithm::eltwise_pow, 2.f, 0.5f, 0.1, 5},
        {algorithm::eltwise_gelu_erf, 0.f, 0.f, -6, 6},
        {algorithm::eltwise_round, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_mish, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_hardswish, 1.f / 6, 0.5f, -6, 6},
        {algorithm::eltwise_relu_use_dst_for_bwd, 0.1f, 0.f, -5, 5},
        {algorithm::eltwise_tanh_use_dst_for_bwd, 0.f, 0.f, -6, 6},
        {algorithm::eltwise_elu_use_dst_for_bwd, 1.f, 0.f, -6, 4},
        {algorithm::eltwise_sqrt_use_dst_for_bwd, 0.f, 0.f, 0.01, 50},
        {algorithm::eltwise_logistic_use_dst_for_bwd, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_exp_use_dst_for_bwd, 0.f, 0.f, -10, 10},
        {algorithm::eltwise_clip_v2_use_dst_for_bwd, -1.f, 2.5f, -4, 4},
};

dnnl_alg_kind_t c_alg(algorithm a) {
    return static_cast<dnnl_alg_kind_t>(a);
}

// Values quantised to quarter steps so that every type holds them.
std::vector<double> source_values(size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (auto &x : v) x = std::round(u(gen) * 4) / 4;
    // Keep strictly positive domains positive after rounding.
    if (lo > 0)
        for (auto &x : v) x = std::max(x, lo);
    return v;
}

// Relative tolerance per stored type (OpenCL built-ins are within a few
// ulps; 16-bit and 8-bit floats round once: one of their ulps).
double rel_tol(memory::data_type d) {
    switch (d) {
        case memory::data_type::bf16: return 1.0 / 64;
        case memory::data_type::f16: return 1.0 / 512;
        case memory::data_type::f8_e5m2: return 1.0 / 4;
        case memory::data_type::f8_e4m3: return 1.0 / 8;
        case memory::data_type::f32: return 2e-5;
        default: return 0;
    }
}

void expect_close(const std::vector<double> &got, const std::vector<double> &exp,
        memory::data_type d, const std::string &what) {
    ASSERT_EQ(got.size(), exp.size());
    const double rel = rel_tol(d);
    const double abs_tol = d == memory::data_type::f32 ? 1e-5 : rel;
    int errors = 0;
    for (size_t i = 0; i < got.size() && errors < 5; ++i) {
        double e = exp[i], g = got[i];
        if (std::isnan(e) && std::isnan(g)) continue;
        if (d == memory::data_type::s8)
            e = std::max(-128.0, std::min(127.0, std::nearbyint(e)));
        if (std::fabs(g - e) <= abs_tol + rel * std::fabs(e)) continue;
        ++errors;
        ADD_FAILURE() << what << ": element " << i << " got " << g
                      << " expected " << e;
    }
}

void run_fwd(const alg_case_t &c, const memory::desc &src_md,
        const memory::desc &dst_md, unsigned seed) {
    stream s(gpu());
    const auto n = (size_t)count(dims_of(src_md));
    const auto sv = source_values(n, c.lo, c.hi, seed);
    eltwise_forward::primitive_desc pd(gpu(), prop_kind::forward_training,
            c.alg, src_md, dst_md, c.alpha, c.beta);
    memory src = to_memory(gpu(), src_md, sv);
    const auto stored = from_memory(src); // rounded to the source type
    memory dst = to_memory(gpu(), pd.dst_desc(),
            std::vector<double>(n, 7.0), 0x5a);
    fill_padding(dst, 3.0);
    eltwise_forward(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    std::vector<double> exp(n);
    for (size_t i = 0; i < n; ++i)
        exp[i] = eltwise_ref::fwd(c_alg(c.alg), stored[i], c.alpha, c.beta);
    expect_close(from_memory(dst), exp, dst_md.get_data_type(),
            std::string("fwd ") + pd.impl_info_str() + " " + describe(src_md)
                    + " -> " + describe(dst_md));
    EXPECT_TRUE(padding_is_zero(dst)) << "dst padding";
}

void run_bwd(const alg_case_t &c, const memory::desc &md, unsigned seed) {
    stream s(gpu());
    const auto n = (size_t)count(dims_of(md));
    const bool use_dst = eltwise_ref::use_dst(c_alg(c.alg));
    const auto sv = source_values(n, c.lo, c.hi, seed);
    std::vector<double> data(n);
    for (size_t i = 0; i < n; ++i)
        data[i] = use_dst ? eltwise_ref::fwd(c_alg(c.alg), sv[i], c.alpha, c.beta)
                          : sv[i];
    const auto dd = source_values(n, -2, 2, seed + 1);
    eltwise_forward::primitive_desc hint(gpu(), prop_kind::forward_training,
            c.alg, md, md, c.alpha, c.beta);
    eltwise_backward::primitive_desc pd(
            gpu(), c.alg, md, md, md, c.alpha, c.beta, hint);
    memory data_m = to_memory(gpu(), md, data);
    memory dd_m = to_memory(gpu(), md, dd);
    memory ds_m = to_memory(gpu(), md, std::vector<double>(n, 9.0));
    eltwise_backward(pd).execute(s,
            {{use_dst ? DNNL_ARG_DST : DNNL_ARG_SRC, data_m},
                    {DNNL_ARG_DIFF_DST, dd_m}, {DNNL_ARG_DIFF_SRC, ds_m}});
    s.wait();
    // The reference sees the stored (rounded) data.
    const auto stored = from_memory(data_m);
    std::vector<double> exp(n);
    for (size_t i = 0; i < n; ++i)
        exp[i] = eltwise_ref::bwd(c_alg(c.alg), dd[i], stored[i], c.alpha, c.beta);
    expect_close(from_memory(ds_m), exp, md.get_data_type(),
            std::string("bwd ") + pd.impl_info_str() + " " + describe(md));
}

class ocl_eltwise : public ::testing::Test {
protected:
    void SetUp() override {
        if (!have_gpu()) GTEST_SKIP() << "no OpenCL device";
        g_engine = engine(engine::kind::gpu, 0);
    }
    void TearDown() override { g_engine = engine(); }
};

} // namespace

TEST_F(ocl_eltwise, every_algorithm_forward_and_backward) {
    const memory::desc md({2, 3, 5, 7}, memory::data_type::f32,
            memory::format_tag::nchw);
    unsigned seed = 1;
    for (const auto &c : alg_cases) {
        SCOPED_TRACE(dnnl_alg_kind2str(c_alg(c.alg)));
        if (!eltwise_ref::use_dst(c_alg(c.alg))) run_fwd(c, md, md, seed++);
        if (c.alg != algorithm::eltwise_round) run_bwd(c, md, seed++);
    }
}

TEST_F(ocl_eltwise, layouts_and_data_types) {
    using dt = memory::data_type;
    using tg = memory::format_tag;
    const alg_case_t relu {algorithm::eltwise_relu, 0.5f, 0.f, -5, 5};
    const alg_case_t gelu {algorithm::eltwise_gelu_erf, 0.f, 0.f, -4, 4};
    const memory::dims d4 = {2, 19, 3, 5};
    // Same layout (linear path), blocked with padding.
    run_fwd(relu, {d4, dt::f32, tg::nhwc}, {d4, dt::f32, tg::nhwc}, 11);
    run_fwd(relu, {d4, dt::f32, tg::nChw8c}, {d4, dt::f32, tg::nChw8c}, 12);
    run_fwd(gelu, {d4, dt::f32, tg::nChw16c}, {d4, dt::f32, tg::nChw16c}, 13);
    run_fwd(relu, {{70001}, dt::f32, tg::a}, {{70001}, dt::f32, tg::a}, 15);
    // 16-bit and integer storage.
    run_fwd(gelu, {d4, dt::bf16, tg::nchw}, {d4, dt::bf16, tg::nchw}, 17);
    run_fwd(gelu, {d4, dt::f16, tg::nchw}, {d4, dt::f16, tg::nchw}, 18);
    run_fwd(relu, {d4, dt::s8, tg::nchw}, {d4, dt::s8, tg::nchw}, 19);
    run_bwd(gelu, {d4, dt::bf16, tg::nchw}, 21);
    run_bwd(gelu, {d4, dt::f16, tg::nChw8c}, 22);
    run_bwd(relu, {d4, dt::f32, tg::nhwc}, 23);
    run_fwd(gelu, {d4, dt::f8_e5m2, tg::nchw}, {d4, dt::f8_e5m2, tg::nchw}, 24);
    run_bwd(gelu, {d4, dt::f8_e5m2, tg::nchw}, 27);
    run_bwd(relu, {d4, dt::f8_e4m3, tg::nChw8c}, 28);
    // More dims than layout_t holds: dense tensors only.
    const memory::dims d7 = {2, 3, 2, 3, 2, 3, 5};
    run_fwd(gelu, {d7, dt::f32, tg::abcdefg}, {d7, dt::f32, tg::abcdefg}, 29);
    run_bwd(gelu, {d7, dt::f32, tg::abcdefg}, 30);
    // dst of another type or layout than src: refused, as oneDNN does.
    auto refused = [&](const memory::desc &s, const memory::desc &d) {
        EXPECT_THROW(eltwise_forward::primitive_desc(gpu(),
                             prop_kind::forward_inference, relu.alg, s, d,
                             relu.alpha, relu.beta),
                dnnl::error);
    };
    refused({d4, dt::f32, tg::nchw}, {d4, dt::f32, tg::nhwc});
    refused({d4, dt::f32, tg::nchw}, {d4, dt::bf16, tg::nchw});
    refused({d4, dt::f8_e4m3, tg::nhwc}, {d4, dt::f32, tg::nhwc});
    refused({d7, dt::f32, tg::abcdefg},
            memory::desc(d7, dt::f32, memory::dims {180, 360, 90, 30, 15, 5, 1}));
    const memory::dims d12 = {2, 1, 2, 3, 1, 3, 1, 2, 1, 3, 2, 5};
    run_fwd(relu, {d12, dt::f16, tg::abcdefghijkl},
            {d12, dt::f16, tg::abcdefghijkl}, 31);
}

TEST_F(ocl_eltwise, binary_post_ops) {
    stream s(gpu());
    const memory::dims d = {2, 5, 3, 4};
    const memory::desc md(d, memory::data_type::f32, memory::format_tag::nchw);
    const memory::desc per_c({1, 5, 1, 1}, memory::data_type::f32,
            memory::format_tag::nchw);
    const memory::desc full(d, memory::data_type::f32, memory::format_tag::nhwc);
    post_ops po;
    po.append_binary(algorithm::binary_mul, per_c);
    po.append_binary(algorithm::binary_add, full);
    primitive_attr attr;
    attr.set_post_ops(po);
    eltwise_forward::primitive_desc pd(gpu(), prop_kind::forward_inference,
            algorithm::eltwise_tanh, md, md, 0.f, 0.f, attr);
    const size_t n = (size_t)count(d);
    const auto sv = source_values(n, -3, 3, 31);
    const auto cv = source_values(5, -2, 2, 32);
    const auto fv = source_values(n, -2, 2, 33);
    memory src = to_memory(gpu(), md, sv);
    memory dst = to_memory(gpu(), md, std::vector<double>(n, 0));
    memory c_m = to_memory(gpu(), per_c, cv);
    memory f_m = to_memory(gpu(), full, fv);
    eltwise_forward(pd).execute(s,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, c_m},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, f_m}});
    s.wait();
    std::vector<double> exp(n);
    for (size_t i = 0; i < n; ++i) {
        const size_t c = (i / 12) % 5;
        exp[i] = std::tanh(sv[i]) * cv[c] + fv[i];
    }
    expect_close(from_memory(dst), exp, memory::data_type::f32, "post-ops");
}

TEST_F(ocl_eltwise, rejects_unsupported_attributes_and_bad_arguments) {
    const memory::desc md({4, 4}, memory::data_type::f32, memory::format_tag::ab);
    // Scales are not an eltwise attribute.
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_NE(dnnl_eltwise_forward_primitive_desc_create(&pd, gpu().get(),
                      dnnl_forward_inference, dnnl_eltwise_relu, md.get(),
                      md.get(), 0.f, 0.f, attr.get()),
            dnnl_success);
    EXPECT_EQ(pd, nullptr);
    // Seven dims in two layouts: layout_t holds six.
    const memory::dims d7 = {2, 3, 2, 3, 2, 3, 5};
    const memory::desc a7(d7, memory::data_type::f32,
            memory::format_tag::abcdefg);
    const memory::desc b7(d7, memory::data_type::f32,
            memory::dims {1, 2, 6, 12, 36, 72, 216});
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, gpu().get(),
                      dnnl_forward_inference, dnnl_eltwise_relu, a7.get(),
                      b7.get(), 0.f, 0.f, nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
    // A CPU memory passed to a gpu primitive, and a too-small memory.
    eltwise_forward::primitive_desc epd(gpu(), prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
    eltwise_forward prim(epd);
    stream s(gpu());
    engine cpu(engine::kind::cpu, 0);
    memory cpu_mem(md, cpu), gpu_mem(md, gpu());
    memory small(memory::desc({2, 2}, memory::data_type::f32,
                         memory::format_tag::ab),
            gpu());
    dnnl_exec_arg_t bad_engine[] = {{DNNL_ARG_SRC, cpu_mem.get()},
            {DNNL_ARG_DST, gpu_mem.get()}};
    EXPECT_EQ(dnnl_primitive_execute(prim.get(), s.get(), 2, bad_engine),
            dnnl_invalid_arguments);
    dnnl_exec_arg_t too_small[] = {{DNNL_ARG_SRC, small.get()},
            {DNNL_ARG_DST, gpu_mem.get()}};
    EXPECT_EQ(dnnl_primitive_execute(prim.get(), s.get(), 2, too_small),
            dnnl_invalid_arguments);
}

#endif
