// The CPU GEMM core through its public entry points dnnl_sgemm,
// dnnl_gemm_u8s8s32 and dnnl_gemm_s8s8s32, against the naive references
// (tests/reference/gemm_ref.*): shapes around the microkernel tiles and
// cache blocks, both transposes, leading dimensions larger than needed,
// alpha / beta / offsets, and argument checking. Inputs are multiples of
// 1/4 so that the f32 results are exact.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "reference/gemm_ref.hpp"

namespace {

struct shape_t {
    int64_t M, N, K;
};

const shape_t shapes[] = {{1, 1, 1}, {1, 17, 5}, {5, 1, 9}, {6, 16, 8},
        {12, 32, 7}, {13, 33, 31}, {7, 45, 129}, {64, 64, 64}, {100, 3, 257},
        {3, 100, 2}, {130, 129, 400}, {250, 70, 33}};

std::vector<float> random_f32(size_t n, std::mt19937 &gen) {
    std::uniform_int_distribution<int> d(-8, 8);
    std::vector<float> v(n);
    for (auto &x : v)
        x = d(gen) * 0.25f;
    return v;
}

bool tr(char t) { return t == 'T' || t == 't'; }

void check_sgemm(char ta, char tb, const shape_t &s, float alpha, float beta,
        int64_t pad, std::mt19937 &gen) {
    SCOPED_TRACE(std::string("sgemm ") + ta + tb + " M=" + std::to_string(s.M)
            + " N=" + std::to_string(s.N) + " K=" + std::to_string(s.K)
            + " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta));
    const int64_t lda = (tr(ta) ? s.M : s.K) + pad;
    const int64_t ldb = (tr(tb) ? s.K : s.N) + pad;
    const int64_t ldc = s.N + pad;
    const int64_t a_rows = tr(ta) ? s.K : s.M, b_rows = tr(tb) ? s.N : s.K;
    auto A = random_f32(std::max<int64_t>(a_rows * lda, 1), gen);
    auto B = random_f32(std::max<int64_t>(b_rows * ldb, 1), gen);
    auto C = random_f32(std::max<int64_t>(s.M * ldc, 1), gen);
    if (beta == 0)
        for (auto &c : C)
            c = NAN; // must not be read
    std::vector<double> ref(C.begin(), C.end());
    ASSERT_EQ(dnnl_sgemm(ta, tb, s.M, s.N, s.K, alpha, A.data(), lda, B.data(), ldb,
                      beta, C.data(), ldc),
            dnnl_success);
    gemm_ref::sgemm(ta, tb, s.M, s.N, s.K, alpha, A.data(), lda, B.data(), ldb,
            beta, ref.data(), ldc);
    int errors = 0;
    for (int64_t i = 0; i < s.M && errors < 5; ++i)
        for (int64_t j = 0; j < s.N && errors < 5; ++j) {
            const double e = ref[i * ldc + j], g = C[i * ldc + j];
            if (std::fabs(e - g) <= 1e-6 * (1 + std::fabs(e))) continue;
            ++errors;
            ADD_FAILURE() << "C(" << i << "," << j << ") got " << g << " expected " << e;
        }
    // Padding columns of C are untouched.
    if (pad > 0 && beta != 0)
        for (int64_t i = 0; i < s.M; ++i)
            for (int64_t j = s.N; j < ldc; ++j)
                ASSERT_EQ(ref[i * ldc + j], (double)C[i * ldc + j]);
}

TEST(Gemm, SgemmSweep) {
    std::mt19937 gen(42);
    for (const auto &s : shapes)
        for (char ta : {'N', 'T'})
            for (char tb : {'n', 't'})
                check_sgemm(ta, tb, s, 1.f, 0.f, (s.M + s.N) % 3, gen);
}

TEST(Gemm, SgemmAlphaBeta) {
    std::mt19937 gen(43);
    const float ab[][2] = {{1.f, 1.f}, {0.5f, 2.f}, {-2.f, 0.f}, {0.f, 0.5f}, {0.f, 0.f}};
    for (const auto &v : ab)
        for (const shape_t &s : {shape_t {9, 21, 14}, shape_t {40, 70, 300}})
            check_sgemm('N', 'T', s, v[0], v[1], 2, gen);
}

TEST(Gemm, SgemmLarge) {
    std::mt19937 gen(44);
    check_sgemm('N', 'N', {37, 3200, 300}, 1.f, 0.f, 0, gen);
    check_sgemm('T', 'N', {300, 40, 1100}, 1.f, 1.f, 0, gen);
}

// Rows M <= 4 take the unpacked small-M path: column chunks, column
// ranges of whole rows of B, or (column range, K range) items summed
// through per-thread partials when N is too narrow for every thread to
// stream long runs of B's rows; B by columns ('t') splits N only.
TEST(Gemm, SgemmSmallMSplits) {
    std::mt19937 gen(45);
    const shape_t nk[] = {{0, 300, 1000}, {0, 4100, 130}, {0, 8300, 200},
            {0, 33000, 130}, {0, 700, 100}, {0, 1029, 4097}};
    for (int64_t M = 1; M <= 4; ++M)
        for (const auto &x : nk) {
            const shape_t s{M, x.N, x.K};
            check_sgemm('N', 'N', s, 1.f, 0.f, 1, gen);
            check_sgemm('N', 'N', s, 0.5f, 2.f, 0, gen);
            if (x.N <= 4100) check_sgemm('N', 'T', s, 1.f, 0.5f, 3, gen);
        }
}

TEST(Gemm, SgemmZeroSizes) {
    float c[4] = {1, 2, 3, 4};
    const float a[4] = {1, 1, 1, 1};
    EXPECT_EQ(dnnl_sgemm('N', 'N', 0, 2, 2, 1.f, a, 2, a, 2, 0.f, c, 2), dnnl_success);
    EXPECT_EQ(c[0], 1.f);
    // K == 0: oneDNN leaves C as it is (no beta scaling).
    EXPECT_EQ(dnnl_sgemm('N', 'N', 2, 2, 0, 1.f, a, 1, a, 2, 2.f, c, 2), dnnl_success);
    EXPECT_EQ(c[0], 1.f);
    EXPECT_EQ(c[3], 4.f);
    // alpha == 0: C = beta * C (A and B are not read).
    EXPECT_EQ(dnnl_sgemm('N', 'N', 2, 2, 2, 0.f, a, 2, a, 2, 2.f, c, 2), dnnl_success);
    EXPECT_EQ(c[0], 2.f);
    EXPECT_EQ(c[3], 8.f);
    int32_t ci[4] = {1, 2, 3, 4}, co[2] = {10, 20};
    const uint8_t ua[4] = {1, 1, 1, 1};
    const int8_t sb[4] = {1, 1, 1, 1};
    EXPECT_EQ(dnnl_gemm_u8s8s32('N', 'N', 'F', 2, 2, 0, 1.f, ua, 1, 0, sb, 2, 0,
                      2.f, ci, 2, co),
            dnnl_success);
    EXPECT_EQ(ci[3], 4);
    EXPECT_EQ(dnnl_gemm_u8s8s32('N', 'N', 'F', 2, 2, 2, 0.f, ua, 2, 0, sb, 2, 0,
                      1.f, ci, 2, co),
            dnnl_success);
    EXPECT_EQ(ci[0], 11);
    EXPECT_EQ(ci[3], 14);
    // Bad arguments are reported even with K == 0.
    EXPECT_EQ(dnnl_sgemm('N', 'N', 2, 2, 0, 1.f, a, 0, a, 2, 2.f, c, 2),
            dnnl_invalid_arguments);
}

TEST(Gemm, SgemmInvalidArguments) {
    float x[16] = {};
    EXPECT_EQ(dnnl_sgemm('X', 'N', 2, 2, 2, 1.f, x, 2, x, 2, 0.f, x, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sgemm('N', 'N', -1, 2, 2, 1.f, x, 2, x, 2, 0.f, x, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sgemm('N', 'N', 2, 2, 3, 1.f, x, 2, x, 2, 0.f, x, 2),
            dnnl_invalid_arguments); // lda < K
    EXPECT_EQ(dnnl_sgemm('N', 'T', 2, 3, 2, 1.f, x, 2, x, 1, 0.f, x, 3),
            dnnl_invalid_arguments); // ldb < K for transposed B
    EXPECT_EQ(dnnl_sgemm('N', 'N', 2, 3, 2, 1.f, x, 2, x, 3, 0.f, x, 2),
            dnnl_invalid_arguments); // ldc < N
}

template <typename TA>
void check_igemm(char ta, char tb, char offc, const shape_t &s, float alpha,
        float beta, int ao, int bo, std::mt19937 &gen) {
    SCOPED_TRACE(std::string(std::is_signed<TA>::value ? "s8s8 " : "u8s8 ") + ta
            + tb + offc + " M=" + std::to_string(s.M) + " N=" + std::to_string(s.N)
            + " K=" + std::to_string(s.K) + " alpha=" + std::to_string(alpha)
            + " beta=" + std::to_string(beta));
    const int64_t lda = (tr(ta) ? s.M : s.K) + 1;
    const int64_t ldb = (tr(tb) ? s.K : s.N) + 2;
    const int64_t ldc = s.N + 1;
    const int64_t a_rows = tr(ta) ? s.K : s.M, b_rows = tr(tb) ? s.N : s.K;
    std::uniform_int_distribution<int> da(std::is_signed<TA>::value ? -128 : 0,
            std::is_signed<TA>::value ? 127 : 255);
    std::uniform_int_distribution<int> db(-128, 127), dc(-1000, 1000);
    std::vector<TA> A(std::max<int64_t>(a_rows * lda, 1));
    std::vector<int8_t> B(std::max<int64_t>(b_rows * ldb, 1));
    std::vector<int32_t> C(std::max<int64_t>(s.M * ldc, 1));
    for (auto &x : A)
        x = (TA)da(gen);
    for (auto &x : B)
        x = (int8_t)db(gen);
    for (auto &x : C)
        x = dc(gen);
    const int64_t nco = (offc == 'F') ? 1 : (offc == 'C' ? s.M : s.N);
    std::vector<int32_t> co(std::max<int64_t>(nco, 1));
    for (auto &x : co)
        x = dc(gen);
    std::vector<double> ref(C.begin(), C.end());
    dnnl_status_t st;
    if (std::is_signed<TA>::value)
        st = dnnl_gemm_s8s8s32(ta, tb, offc, s.M, s.N, s.K, alpha,
                (const int8_t *)A.data(), lda, (int8_t)ao, B.data(), ldb, (int8_t)bo,
                beta, C.data(), ldc, co.data());
    else
        st = dnnl_gemm_u8s8s32(ta, tb, offc, s.M, s.N, s.K, alpha,
                (const uint8_t *)A.data(), lda, (uint8_t)ao, B.data(), ldb,
                (int8_t)bo, beta, C.data(), ldc, co.data());
    ASSERT_EQ(st, dnnl_success);
    gemm_ref::gemm_x8x8s32(ta, tb, offc, s.M, s.N, s.K, alpha, A.data(), lda, ao,
            B.data(), ldb, bo, beta, ref.data(), ldc, co.data());
    int errors = 0;
    for (int64_t i = 0; i < s.M && errors < 5; ++i)
        for (int64_t j = 0; j < s.N && errors < 5; ++j) {
            double e = std::round(ref[i * ldc + j]); // half away from zero
            e = std::min(std::max(e, -2147483648.0), 2147483647.0);
            const double g = C[i * ldc + j];
            // Non-unit alpha / beta are applied in floating point.
            const double tol = (alpha == 1.f && (beta == 0.f || beta == 1.f))
                    ? 0
                    : 1e-6 * std::fabs(e) + 1;
            if (std::fabs(e - g) <= tol) continue;
            ++errors;
            ADD_FAILURE() << "C(" << i << "," << j << ") got " << g << " expected " << e;
        }
}

TEST(Gemm, IntegerSweep) {
    std::mt19937 gen(7);
    for (const auto &s : shapes)
        for (char ta : {'N', 'T'})
            for (char tb : {'N', 'T'}) {
                check_igemm<uint8_t>(ta, tb, 'F', s, 1.f, 0.f, 0, 0, gen);
                check_igemm<int8_t>(ta, tb, 'F', s, 1.f, 0.f, 0, 0, gen);
            }
}

TEST(Gemm, IntegerOffsetsAlphaBeta) {
    std::mt19937 gen(8);
    const shape_t s {23, 37, 71};
    for (char oc : {'F', 'C', 'R'}) {
        check_igemm<uint8_t>('N', 'N', oc, s, 1.f, 1.f, 12, -3, gen);
        check_igemm<int8_t>('T', 'N', oc, s, 1.f, 0.f, -5, 7, gen);
        check_igemm<uint8_t>('N', 'T', oc, s, 0.5f, 0.f, 128, 0, gen);
        check_igemm<int8_t>('N', 'N', oc, s, 2.f, -1.f, 0, 1, gen);
        check_igemm<uint8_t>('T', 'T', oc, s, 0.f, 1.f, 3, 3, gen);
    }
}

TEST(Gemm, IntegerInvalidArguments) {
    uint8_t a[16] = {};
    int8_t b[16] = {};
    int32_t c[16] = {}, co = 0;
    EXPECT_EQ(dnnl_gemm_u8s8s32('N', 'N', 'X', 2, 2, 2, 1.f, a, 2, 0, b, 2, 0, 0.f,
                      c, 2, &co),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_gemm_u8s8s32('N', 'Q', 'F', 2, 2, 2, 1.f, a, 2, 0, b, 2, 0, 0.f,
                      c, 2, &co),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_gemm_s8s8s32('N', 'N', 'F', 2, 2, 4, 1.f, (int8_t *)a, 2, 0, b,
                      2, 0, 0.f, c, 2, &co),
            dnnl_invalid_arguments);
}

} // namespace
