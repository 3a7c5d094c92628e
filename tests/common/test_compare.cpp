// Unit tests of the shared result comparison (tests/reference/compare.*):
// a result one ULP beyond the tolerance is flagged, one within it accepted.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "reference/compare.hpp"

namespace {

// `x` moved by `n` units in the last place of float, away from zero.
float f32_ulps_up(float x, int n) {
    for (int i = 0; i < n; ++i)
        x = std::nextafter(x, std::numeric_limits<float>::infinity());
    return x;
}

ref::compare_opts_t ulps_opts(double ulps) {
    ref::compare_opts_t o;
    o.tol.ulps = ulps;
    return o;
}

TEST(compare, f32_one_ulp_beyond_tolerance_is_flagged) {
    const std::vector<float> expected {1.0f, 3.14159274f, -2.5e-3f, 1234.5f};
    for (int tol_ulps : {0, 1, 4}) {
        std::vector<float> within, beyond;
        for (float e : expected) {
            // Move away from zero in magnitude so that the ULP is constant.
            const float sgn = e < 0 ? -1.f : 1.f;
            within.push_back(sgn * f32_ulps_up(std::fabs(e), tol_ulps));
            beyond.push_back(sgn * f32_ulps_up(std::fabs(e), tol_ulps + 1));
        }
        auto ok = ref::compare(within, expected, dnnl_f32, ulps_opts(tol_ulps));
        EXPECT_TRUE(ok.ok()) << "tolerance " << tol_ulps << ": " << ok.summary();
        auto bad = ref::compare(beyond, expected, dnnl_f32, ulps_opts(tol_ulps));
        EXPECT_EQ(bad.errors, expected.size())
                << "tolerance " << tol_ulps << ": " << bad.summary();
        EXPECT_NEAR(bad.max_ulp_diff, tol_ulps + 1, 1e-9);
    }
}

TEST(compare, bf16_ulp_is_relative_to_destination_type) {
    // bf16 keeps 8 significand bits: around 1.0 its ULP is 2^-7.
    EXPECT_EQ(ref::ulp(1.0, dnnl_bf16), std::ldexp(1.0, -7));
    EXPECT_EQ(ref::ulp(1.0, dnnl_f16), std::ldexp(1.0, -10));
    EXPECT_EQ(ref::ulp(1.0, dnnl_f32), std::ldexp(1.0, -23));
    const float e = 1.5f;
    const float one_ulp = (float)(1.5 + std::ldexp(1.0, -7));
    const float two_ulps = (float)(1.5 + 2 * std::ldexp(1.0, -7));
    EXPECT_TRUE(ref::within_tolerance(one_ulp, e, dnnl_bf16, {0, 0, 1}));
    EXPECT_FALSE(ref::within_tolerance(two_ulps, e, dnnl_bf16, {0, 0, 1}));
    // The same difference is far beyond one f32 ULP.
    EXPECT_FALSE(ref::within_tolerance(one_ulp, e, dnnl_f32, {0, 0, 1}));
}

TEST(compare, reference_is_rounded_to_destination_type) {
    // 1 + 2^-9 rounds to 1.0 in bf16 (ties to even): an exact bf16 result of
    // 1.0 must pass with zero tolerance.
    const float exact = (float)(1.0 + std::ldexp(1.0, -9));
    EXPECT_EQ(ref::round_to_dt(exact, dnnl_bf16), 1.0);
    EXPECT_TRUE(ref::within_tolerance(1.0, exact, dnnl_bf16, {}));
    // Ties to even: 1 + 3 * 2^-8 lies between 1 + 2^-7 and 1 + 2^-6 ...
    EXPECT_EQ(ref::round_to_dt(1.0 + 3 * std::ldexp(1.0, -8), dnnl_bf16),
            1.0 + std::ldexp(1.0, -6));
    // f16 overflows to infinity past 65504 + half an ULP.
    EXPECT_EQ(ref::round_to_dt(65504.0, dnnl_f16), 65504.0);
    EXPECT_TRUE(std::isinf(ref::round_to_dt(65520.0, dnnl_f16)));
}

// As oneDNN converts: e5m2 overflows to infinity, e4m3 (no infinity) to
// NaN past 464, the midpoint above its largest value 448.
TEST(compare, f8_overflow) {
    EXPECT_EQ(ref::round_to_dt(57344.0, dnnl_f8_e5m2), 57344.0);
    EXPECT_TRUE(std::isinf(ref::round_to_dt(70000.0, dnnl_f8_e5m2)));
    EXPECT_EQ(ref::round_to_dt(460.0, dnnl_f8_e4m3), 448.0);
    EXPECT_EQ(ref::round_to_dt(-464.0, dnnl_f8_e4m3), -448.0);
    EXPECT_TRUE(std::isnan(ref::round_to_dt(465.0, dnnl_f8_e4m3)));
    EXPECT_TRUE(std::isnan(ref::round_to_dt(1e6, dnnl_f8_e4m3)));
    EXPECT_TRUE(std::isnan(ref::round_to_dt(
            std::numeric_limits<double>::infinity(), dnnl_f8_e4m3)));
}

TEST(compare, integer_types_saturate_and_round_half_even) {
    EXPECT_EQ(ref::round_to_dt(300.0, dnnl_s8), 127.0);
    EXPECT_EQ(ref::round_to_dt(-300.0, dnnl_s8), -128.0);
    EXPECT_EQ(ref::round_to_dt(-3.0, dnnl_u8), 0.0);
    EXPECT_EQ(ref::round_to_dt(2.5, dnnl_s32), 2.0);
    EXPECT_EQ(ref::round_to_dt(3.5, dnnl_s32), 4.0);
    // Zero tolerance: off by one is an error, exact is fine.
    EXPECT_TRUE(ref::within_tolerance(7, 7.2, dnnl_s8, {}));
    EXPECT_FALSE(ref::within_tolerance(8, 7.2, dnnl_s8, {}));
    // One unit of tolerance accepts the neighbour but not the next one.
    EXPECT_TRUE(ref::within_tolerance(8, 7.2, dnnl_s8, {0, 0, 1}));
    EXPECT_FALSE(ref::within_tolerance(9, 7.2, dnnl_s8, {0, 0, 1}));
}

TEST(compare, relative_and_absolute_tolerances) {
    ref::tolerance_t t;
    t.rel = 1e-3;
    EXPECT_TRUE(ref::within_tolerance(1000.9, 1000.0, dnnl_f64, t));
    EXPECT_FALSE(ref::within_tolerance(1001.1, 1000.0, dnnl_f64, t));
    t = {};
    t.abs = 1e-6;
    EXPECT_TRUE(ref::within_tolerance(5e-7, 0.0, dnnl_f32, t));
    EXPECT_FALSE(ref::within_tolerance(2e-6, 0.0, dnnl_f32, t));
}

TEST(compare, special_values) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(ref::within_tolerance(nan, nan, dnnl_f32, {}));
    EXPECT_FALSE(ref::within_tolerance(1.f, nan, dnnl_f32, {0, 0, 100}));
    EXPECT_FALSE(ref::within_tolerance(nan, 1.f, dnnl_f32, {0, 0, 100}));
    EXPECT_TRUE(ref::within_tolerance(inf, inf, dnnl_f32, {}));
    EXPECT_FALSE(ref::within_tolerance(-inf, inf, dnnl_f32, {}));
}

TEST(compare, reports_first_errors_and_counts) {
    std::vector<float> expected(100, 2.f), got(100, 2.f);
    got[10] = 2.5f;
    got[70] = -2.f;
    auto r = ref::compare(got, expected, dnnl_f32, ulps_opts(1));
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.errors, 2u);
    EXPECT_EQ(r.total, 100u);
    ASSERT_EQ(r.first_errors.size(), 2u);
    EXPECT_EQ(r.first_errors[0].index, 10u);
    EXPECT_EQ(r.first_errors[1].index, 70u);
    EXPECT_DOUBLE_EQ(r.max_abs_diff, 4.0);
}

} // namespace
