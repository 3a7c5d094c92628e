// Unit tests of the shared math module (src/common/math/eltwise_math.hpp)
// and of the data type conversions (src/common/float_convert.hpp): the
// elementary functions' accuracy, every eltwise algorithm forward and
// backward and every binary operation against the double-precision
// reference, parameter validation, and exhaustive/bit-exact conversion
// checks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "reference/eltwise_ref.hpp"

namespace m = dnnl::impl::math;
using dnnl::impl::data_type_t;

namespace {

// Distance in float ulps between got and the exact value.
double ulp_error(float got, double exact) {
    if (std::isnan(exact)) return std::isnan(got) ? 0 : 1e30;
    if (std::isinf(exact)) return (double)got == exact ? 0 : 1e30;
    const float e = (float)exact;
    if (std::isinf(e))
        return std::isinf(got) && (got > 0) == (e > 0) ? 0 : 1e30;
    int ex = std::ilogb(e == 0 ? std::numeric_limits<float>::min() : e);
    if (ex < -126) ex = -126;
    const double ulp = std::ldexp(1.0, ex - 23);
    return std::fabs((double)got - exact) / ulp;
}

template <typename F, typename R>
double max_ulp_error(F f, R ref, float lo, float hi, int n = 200000) {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> u(lo, hi);
    double worst = 0;
    for (int i = 0; i < n; ++i) {
        const float x = u(gen);
        worst = std::max(worst, ulp_error(f(x), ref((double)x)));
    }
    return worst;
}

float bits_to_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

} // namespace

TEST(EltwiseMath, ElementaryFunctionAccuracy) {
    auto expd = [](double x) { return std::exp(x); };
    EXPECT_LE(max_ulp_error(m::exp_f, expd, -87.f, 88.f), 2.0);
    EXPECT_LE(max_ulp_error(m::exp_f, expd, -103.f, -87.f), 2.0); // subnormal
    auto expm1d = [](double x) { return std::expm1(x); };
    EXPECT_LE(max_ulp_error(m::expm1_nonpos_f, expm1d, -100.f, 0.f), 2.0);
    EXPECT_LE(max_ulp_error(m::expm1_nonpos_f, expm1d, -3.f, 0.f), 2.0);
    EXPECT_LE(max_ulp_error(m::expm1_nonpos_f, expm1d, -1e-3f, 0.f), 2.0);
    EXPECT_LE(max_ulp_error(
                      m::log_f, [](double x) { return std::log(x); }, 1e-30f,
                      1e30f),
            2.0);
    EXPECT_LE(
            max_ulp_error(
                    m::log_f, [](double x) { return std::log(x); }, 0.25f, 4.f),
            2.0);
    EXPECT_LE(max_ulp_error(
                      m::log1p_f, [](double x) { return std::log1p(x); }, -0.5f,
                      2.f),
            2.0);
    EXPECT_LE(max_ulp_error(
                      m::tanh_f, [](double x) { return std::tanh(x); }, -12.f,
                      12.f),
            4.0);
    EXPECT_LE(max_ulp_error(
                      m::tanh_f, [](double x) { return std::tanh(x); }, -1e-3f,
                      1e-3f),
            4.0);
    EXPECT_LE(max_ulp_error(
                      m::logistic_f,
                      [](double x) { return 1 / (1 + std::exp(-x)); }, -80.f,
                      40.f),
            4.0);
    EXPECT_LE(
            max_ulp_error(
                    m::erf_f, [](double x) { return std::erf(x); }, -5.f, 5.f),
            8.0);
    EXPECT_LE(max_ulp_error(
                      m::erfc_f, [](double x) { return std::erfc(x); }, -2.f,
                      9.f),
            12.0);
    EXPECT_LE(max_ulp_error(
                      m::softplus_f,
                      [](double x) {
                          return x > 0 ? x + std::log1p(std::exp(-x))
                                       : std::log1p(std::exp(x));
                      },
                      -80.f, 80.f),
            4.0);
}

TEST(EltwiseMath, ElementarySpecialValues) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(m::exp_f(-inf), 0.f);
    EXPECT_EQ(m::exp_f(inf), inf);
    EXPECT_EQ(m::exp_f(89.f), inf);
    EXPECT_EQ(m::exp_f(0.f), 1.f);
    EXPECT_TRUE(std::isnan(m::exp_f(nan)));
    EXPECT_EQ(m::log_f(0.f), -inf);
    EXPECT_EQ(m::log_f(inf), inf);
    EXPECT_EQ(m::log_f(1.f), 0.f);
    EXPECT_TRUE(std::isnan(m::log_f(-1.f)));
    EXPECT_TRUE(std::isnan(m::log_f(nan)));
    EXPECT_EQ(m::tanh_f(inf), 1.f);
    EXPECT_EQ(m::tanh_f(-inf), -1.f);
    EXPECT_TRUE(std::signbit(m::tanh_f(-0.f)));
    EXPECT_TRUE(std::isnan(m::tanh_f(nan)));
    EXPECT_EQ(m::logistic_f(inf), 1.f);
    EXPECT_EQ(m::logistic_f(-inf), 0.f);
    EXPECT_TRUE(std::isnan(m::logistic_f(nan)));
    EXPECT_EQ(m::erf_f(inf), 1.f);
    EXPECT_EQ(m::erf_f(-inf), -1.f);
    EXPECT_EQ(m::erfc_f(20.f), 0.f);
    EXPECT_EQ(m::expm1_nonpos_f(-inf), -1.f);
    EXPECT_TRUE(std::isnan(m::expm1_nonpos_f(nan)));
    EXPECT_EQ(m::round_f(2.5f), 2.f);
    EXPECT_EQ(m::round_f(3.5f), 4.f);
    EXPECT_EQ(m::round_f(-2.5f), -2.f);
    EXPECT_TRUE(std::signbit(m::round_f(-0.3f)));
    EXPECT_EQ(m::round_f(1e20f), 1e20f);
}

namespace {

struct math_case_t {
    dnnl_alg_kind_t alg;
    float alpha, beta, lo, hi;
};

const math_case_t math_cases[] = {
        {dnnl_eltwise_relu, 0.f, 0.f, -5, 5},
        {dnnl_eltwise_relu, -0.3f, 0.f, -5, 5},
        {dnnl_eltwise_tanh, 0.f, 0.f, -8, 8},
        {dnnl_eltwise_elu, 1.5f, 0.f, -8, 4},
        {dnnl_eltwise_square, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_abs, 0.f, 0.f, -5, 5},
        {dnnl_eltwise_sqrt, 0.f, 0.f, 0.001f, 100},
        {dnnl_eltwise_linear, -2.f, 0.75f, -5, 5},
        {dnnl_eltwise_soft_relu, 1.f, 0.f, -30, 30},
        {dnnl_eltwise_soft_relu, 3.f, 0.f, -30, 30},
        {dnnl_eltwise_hardsigmoid, 0.25f, 0.4f, -6, 6},
        {dnnl_eltwise_logistic, 0.f, 0.f, -20, 20},
        {dnnl_eltwise_exp, 0.f, 0.f, -20, 20},
        {dnnl_eltwise_gelu_tanh, 0.f, 0.f, -6, 6},
        {dnnl_eltwise_swish, 1.f, 0.f, -20, 20},
        {dnnl_eltwise_swish, -0.5f, 0.f, -20, 20},
        {dnnl_eltwise_log, 0.f, 0.f, 0.001f, 1000},
        {dnnl_eltwise_clip, -0.5f, 1.5f, -3, 3},
        {dnnl_eltwise_clip_v2, -0.5f, 1.5f, -3, 3},
        {dnnl_eltwise_pow, 1.5f, 2.5f, 0.01f, 5},
        {dnnl_eltwise_pow, -1.f, 3.f, -3, 3},
        {dnnl_eltwise_gelu_erf, 0.f, 0.f, -8, 8},
        {dnnl_eltwise_round, 0.f, 0.f, -50, 50},
        {dnnl_eltwise_mish, 0.f, 0.f, -20, 20},
        {dnnl_eltwise_hardswish, 0.2f, 0.5f, -6, 6},
        {dnnl_eltwise_relu_use_dst_for_bwd, 0.2f, 0.f, -5, 5},
        {dnnl_eltwise_tanh_use_dst_for_bwd, 0.f, 0.f, -8, 8},
        {dnnl_eltwise_elu_use_dst_for_bwd, 0.7f, 0.f, -8, 4},
        {dnnl_eltwise_sqrt_use_dst_for_bwd, 0.f, 0.f, 0.001f, 100},
        {dnnl_eltwise_logistic_use_dst_for_bwd, 0.f, 0.f, -20, 20},
        {dnnl_eltwise_exp_use_dst_for_bwd, 0.f, 0.f, -20, 20},
        {dnnl_eltwise_clip_v2_use_dst_for_bwd, -0.5f, 1.5f, -3, 3},
};

bool close(double got, double exp, double rel, double abs) {
    if (std::isnan(exp)) return std::isnan(got);
    if (std::isinf(exp)) return got == exp;
    return std::fabs(got - exp) <= abs + rel * std::fabs(exp);
}

} // namespace

TEST(EltwiseMath, EveryAlgorithmForwardAndBackward) {
    std::mt19937 gen(7);
    for (const auto &c : math_cases) {
        std::uniform_real_distribution<float> u(c.lo, c.hi);
        std::uniform_real_distribution<float> g(-3, 3);
        int fwd_errors = 0, bwd_errors = 0;
        for (int i = 0; i < 20000; ++i) {
            const float s = u(gen);
            const float dd = g(gen);
            const float y = m::eltwise_fwd(c.alg, s, c.alpha, c.beta);
            const double ey = eltwise_ref::fwd(c.alg, s, c.alpha, c.beta);
            if (!close(y, ey, 2e-6, 1e-7) && fwd_errors++ < 3)
                ADD_FAILURE() << "fwd alg " << c.alg << " s " << s << " got "
                              << y << " expected " << ey;
            if (c.alg == dnnl_eltwise_round) continue;
            // Backward of the *_use_dst algorithms reads the forward result.
            const bool use_dst = eltwise_ref::use_dst(c.alg);
            const float v = use_dst ? y : s;
            const float r = m::eltwise_bwd(c.alg, dd, v, c.alpha, c.beta);
            const double er = eltwise_ref::bwd(c.alg, dd, v, c.alpha, c.beta);
            if (!close(r, er, 5e-6, 1e-6) && bwd_errors++ < 3)
                ADD_FAILURE() << "bwd alg " << c.alg << " dd " << dd << " v "
                              << v << " got " << r << " expected " << er;
        }
    }
}

TEST(EltwiseMath, BinaryOperations) {
    const dnnl_alg_kind_t algs[] = {dnnl_binary_add, dnnl_binary_mul,
            dnnl_binary_max, dnnl_binary_min, dnnl_binary_div, dnnl_binary_sub,
            dnnl_binary_ge, dnnl_binary_gt, dnnl_binary_le, dnnl_binary_lt,
            dnnl_binary_eq, dnnl_binary_ne};
    const float vals[] = {-2.5f, -1.f, 0.f, 0.5f, 1.f, 3.f};
    for (auto alg : algs)
        for (float a : vals)
            for (float b : vals) {
                const double e = eltwise_ref::binary(alg, a, b);
                const float got = m::binary_op(alg, a, b);
                EXPECT_TRUE(close(got, (float)e, 0, 0)
                            || (std::isinf(e) && std::isinf(got)))
                        << "alg " << alg << " " << a << " " << b;
            }
    EXPECT_EQ(m::binary_op(dnnl_binary_select, 1.f, 2.f, 1.f), 1.f);
    EXPECT_EQ(m::binary_op(dnnl_binary_select, 1.f, 2.f, 0.f), 2.f);
}

TEST(EltwiseMath, ParameterValidation) {
    EXPECT_TRUE(m::eltwise_params_ok(dnnl_f32, dnnl_eltwise_relu, -1.f, 0));
    EXPECT_TRUE(m::eltwise_params_ok(dnnl_s8, dnnl_eltwise_relu, 0.f, 0));
    EXPECT_TRUE(m::eltwise_params_ok(dnnl_u8, dnnl_eltwise_linear, 2.f, 1));
    EXPECT_FALSE(m::eltwise_params_ok(dnnl_s8, dnnl_eltwise_tanh, 0, 0));
    EXPECT_FALSE(m::eltwise_params_ok(
            dnnl_s32, dnnl_eltwise_relu_use_dst_for_bwd, 0, 0));
    EXPECT_FALSE(m::eltwise_params_ok(dnnl_bf16, dnnl_eltwise_round, 0, 0));
    EXPECT_TRUE(m::eltwise_params_ok(dnnl_f32, dnnl_eltwise_round, 0, 0));
    EXPECT_FALSE(m::eltwise_params_ok(dnnl_f32, dnnl_eltwise_clip, 1.f, 0.f));
    EXPECT_TRUE(m::eltwise_params_ok(dnnl_f32, dnnl_eltwise_clip, 1.f, 1.f));
    EXPECT_FALSE(m::eltwise_params_ok(
            dnnl_f32, dnnl_eltwise_clip_v2_use_dst_for_bwd, 1.f, 0.f));
    EXPECT_FALSE(m::eltwise_params_ok(
            dnnl_f32, dnnl_eltwise_relu_use_dst_for_bwd, -0.1f, 0));
    EXPECT_FALSE(m::eltwise_params_ok(
            dnnl_f32, dnnl_eltwise_elu_use_dst_for_bwd, -0.1f, 0));
    EXPECT_FALSE(m::eltwise_params_ok(dnnl_f32, dnnl_binary_add, 0, 0));
    EXPECT_FALSE(m::eltwise_params_ok(dnnl_f32, (dnnl_alg_kind_t)53, 0, 0));
    EXPECT_TRUE(m::eltwise_fwd_preserves_zero(dnnl_eltwise_relu, 0, 0));
    EXPECT_FALSE(m::eltwise_fwd_preserves_zero(dnnl_eltwise_logistic, 0, 0));
    EXPECT_TRUE(m::eltwise_fwd_preserves_zero(dnnl_eltwise_linear, 3, 0));
    EXPECT_FALSE(m::eltwise_fwd_preserves_zero(dnnl_eltwise_linear, 3, 1));
}

// ---- conversions
// ---------------------------------------------------------------

// The compiler's _Float16 is the reference where it has one (GCC 12 on
// x86-64; clang 14, the sanitizer builds' compiler, has none there): the
// comparisons with it are left out without it, the round trip and the
// fixed cases stay.
#ifdef __FLT16_MANT_DIG__
#define DNNL_TEST_HAS_FLOAT16 1
#endif

TEST(FloatConvert, F16AllValuesRoundTrip) {
    for (uint32_t h = 0; h < 65536; ++h) {
        const float f = dnnl::impl::f16_to_f32((uint16_t)h);
        const bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
#ifdef DNNL_TEST_HAS_FLOAT16
        _Float16 r;
        const uint16_t hh = (uint16_t)h;
        std::memcpy(&r, &hh, 2);
        const float rf = (float)r;
        EXPECT_EQ(std::isnan(rf), nan) << h;
        if (!nan) EXPECT_EQ(f, rf) << h;
#endif
        if (nan) {
            EXPECT_TRUE(std::isnan(f)) << h;
            continue;
        }
        EXPECT_EQ(dnnl::impl::f32_to_f16(f), h) << h;
    }
    EXPECT_EQ(dnnl::impl::f16_to_f32(0x3c00), 1.f);
    EXPECT_EQ(dnnl::impl::f16_to_f32(0x0001), std::ldexp(1.f, -24));
    EXPECT_EQ(dnnl::impl::f16_to_f32(0xfbff), -65504.f);
}

#ifdef DNNL_TEST_HAS_FLOAT16
TEST(FloatConvert, F32ToF16MatchesCompiler) {
    std::mt19937 gen(3);
    for (int i = 0; i < 2000000; ++i) {
        const float f = bits_to_float(gen());
        const _Float16 r = (_Float16)f;
        uint16_t rb;
        std::memcpy(&rb, &r, 2);
        const uint16_t got = dnnl::impl::f32_to_f16(f);
        if (std::isnan(f)) {
            EXPECT_EQ(got & 0x7c00, 0x7c00);
            EXPECT_NE(got & 0x3ff, 0);
            continue;
        }
        ASSERT_EQ(got, rb) << std::hexfloat << f;
    }
}
#endif

TEST(FloatConvert, F32ToF16Ties) {
    // Ties and the overflow threshold.
    EXPECT_EQ(dnnl::impl::f32_to_f16(65504.f), 0x7bff);
    EXPECT_EQ(dnnl::impl::f32_to_f16(65519.f), 0x7bff);
    EXPECT_EQ(dnnl::impl::f32_to_f16(65520.f), 0x7c00);
    EXPECT_EQ(dnnl::impl::f32_to_f16(std::ldexp(1.f, -25)), 0); // tie to even
    EXPECT_EQ(dnnl::impl::f32_to_f16(std::ldexp(3.f, -25)), 2);
}

TEST(FloatConvert, Bf16) {
    using dnnl::impl::bf16_to_f32;
    using dnnl::impl::f32_to_bf16;
    EXPECT_EQ(f32_to_bf16(1.f), 0x3f80);
    // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even (1).
    EXPECT_EQ(f32_to_bf16(1.f + std::ldexp(1.f, -8)), 0x3f80);
    EXPECT_EQ(f32_to_bf16(1.f + 3 * std::ldexp(1.f, -8)), 0x3f82);
    EXPECT_EQ(f32_to_bf16(std::numeric_limits<float>::max()), 0x7f80);
    EXPECT_TRUE(std::isnan(bf16_to_f32(f32_to_bf16(std::nanf("")))));
    EXPECT_EQ(bf16_to_f32(0xc000), -2.f);
    std::mt19937 gen(5);
    for (int i = 0; i < 100000; ++i) {
        const float f = bits_to_float(gen());
        if (std::isnan(f)) continue;
        // Reference: nearest bf16 value, ties to even, in double.
        const uint32_t u = [&] {
            uint32_t v;
            std::memcpy(&v, &f, 4);
            return v;
        }();
        const float lo = bits_to_float(u & 0xffff0000u);
        // The next bf16 value away from zero; past the largest finite one
        // it is 2^128 for rounding purposes.
        const double ulp = std::ldexp(1.0, std::max(std::ilogb(lo), -126) - 7);
        const double hi = (double)lo + (std::signbit(lo) ? -ulp : ulp);
        const double dl = std::fabs((double)f - lo), dh = std::fabs(hi - f);
        uint16_t want = (uint16_t)(u >> 16);
        if (dh < dl || (dh == dl && (want & 1))) want = (uint16_t)(want + 1);
        ASSERT_EQ(f32_to_bf16(f), want) << std::hexfloat << f;
    }
}

// Every code but negative zero comes back (that one widens to +0, as in
// oneDNN).
TEST(FloatConvert, F8RoundTrip) {
    for (int v = 0; v < 256; ++v) {
        const int want = v == 0x80 ? 0 : v;
        const float a = dnnl::impl::f8_e5m2_to_f32((uint8_t)v);
        if (!std::isnan(a)) EXPECT_EQ(dnnl::impl::f32_to_f8_e5m2(a), want) << v;
        const float b = dnnl::impl::f8_e4m3_to_f32((uint8_t)v);
        if (!std::isnan(b)) EXPECT_EQ(dnnl::impl::f32_to_f8_e4m3(b), want) << v;
    }
    // Through f16: 2^-17 + 2^-40 rounds to 2^-17 in f16, an e5m2 midpoint,
    // so it ties to even (0), where one rounding would give 2^-16.
    EXPECT_EQ(dnnl::impl::f32_to_f8_e5m2(std::ldexp(1.f, -17)
                      + std::ldexp(1.f, -40)),
            0);
    EXPECT_EQ(dnnl::impl::f8_e4m3_to_f32(0x7e), 448.f);
    EXPECT_EQ(dnnl::impl::f32_to_f8_e4m3(460.f), 0x7e);
    EXPECT_EQ(dnnl::impl::f32_to_f8_e4m3(500.f), 0x7f); // NaN
    EXPECT_EQ(dnnl::impl::f8_e4m3_to_f32(0x01), std::ldexp(1.f, -9));
    EXPECT_EQ(dnnl::impl::f8_e5m2_to_f32(0x7b), 57344.f);
    EXPECT_EQ(dnnl::impl::f32_to_f8_e5m2(70000.f), 0x7c); // inf
}

TEST(FloatConvert, IntegersRoundHalfEvenAndSaturate) {
    using namespace dnnl::impl;
    EXPECT_EQ(f32_to_s8(2.5f), 2);
    EXPECT_EQ(f32_to_s8(3.5f), 4);
    EXPECT_EQ(f32_to_s8(-2.5f), -2);
    EXPECT_EQ(f32_to_s8(200.f), 127);
    EXPECT_EQ(f32_to_s8(-200.f), -128);
    EXPECT_EQ(f32_to_s8(std::nanf("")), 0);
    EXPECT_EQ(f32_to_u8(-3.f), 0);
    EXPECT_EQ(f32_to_u8(254.5f), 254);
    EXPECT_EQ(f32_to_u8(255.5f), 255);
    EXPECT_EQ(f32_to_u8(1e10f), 255);
    EXPECT_EQ(f32_to_s32(1e10f), INT32_MAX);
    EXPECT_EQ(f32_to_s32(-1e10f), INT32_MIN);
    EXPECT_EQ(f32_to_s32(2147483520.f), 2147483520);
    EXPECT_EQ(f32_to_s32(-0.5f), 0);
    EXPECT_EQ(f32_to_s32(1.5f), 2);
    float buf[3] = {1.f, -2.5f, 1e9f};
    int8_t out[3];
    cvt_from_f32(dnnl_s8, buf, out, 3);
    EXPECT_EQ(out[0], 1);
    EXPECT_EQ(out[1], -2);
    EXPECT_EQ(out[2], 127);
    float back[3];
    cvt_to_f32(dnnl_s8, out, back, 3);
    EXPECT_EQ(back[2], 127.f);
    EXPECT_EQ(load_f32(dnnl_s8, out, 1), -2.f);
}
