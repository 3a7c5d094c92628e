// The packed-GEMM functions oneDNN exports for its own test programs,
// declared here as such a program declares them (C++ names in
// dnnl::impl::cpu, column-major), so the test also proves they are exported
// from libdnnl.so.3; and dnnl_gemm_bf16bf16f32. Results against a naive
// column-major product computed here.
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

namespace dnnl {
namespace impl {
struct bfloat16_t;
namespace cpu {
dnnl_status_t sgemm_pack_get_size(const char *identifier, const char *transa,
        const char *transb, const dnnl_dim_t *M, const dnnl_dim_t *N,
        const dnnl_dim_t *K, const dnnl_dim_t *lda, const dnnl_dim_t *ldb,
        size_t *size, bool *pack);
dnnl_status_t sgemm_pack(const char *identifier, const char *transa,
        const char *transb, const dnnl_dim_t *M, const dnnl_dim_t *N,
        const dnnl_dim_t *K, const dnnl_dim_t *lda, const dnnl_dim_t *ldb,
        const float *src, float *dst);
dnnl_status_t sgemm_compute(const char *transa, const char *transb,
        const dnnl_dim_t *M, const dnnl_dim_t *N, const dnnl_dim_t *K,
        const float *A, const dnnl_dim_t *lda, const float *B,
        const dnnl_dim_t *ldb, const float *beta, float *C,
        const dnnl_dim_t *ldc);
dnnl_status_t gemm_s8u8s32_pack_get_size(const char *identifier,
        const char *transa, const char *transb, const dnnl_dim_t *M,
        const dnnl_dim_t *N, const dnnl_dim_t *K, const dnnl_dim_t *lda,
        const dnnl_dim_t *ldb, size_t *size, bool *pack);
dnnl_status_t gemm_s8u8s32_pack(const char *identifier, const char *transa,
        const char *transb, const dnnl_dim_t *M, const dnnl_dim_t *N,
        const dnnl_dim_t *K, const dnnl_dim_t *lda, const dnnl_dim_t *ldb,
        const void *src, void *dst);
dnnl_status_t gemm_s8u8s32_compute(const char *transa, const char *transb,
        const char *offsetc, const dnnl_dim_t *M, const dnnl_dim_t *N,
        const dnnl_dim_t *K, const int8_t *A, const dnnl_dim_t *lda,
        const uint8_t *B, const dnnl_dim_t *ldb, const float *beta, int32_t *C,
        const dnnl_dim_t *ldc, const int32_t *co);
} // namespace cpu
} // namespace impl
} // namespace dnnl

extern "C" dnnl_status_t dnnl_gemm_bf16bf16f32(char transa, char transb,
        dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha,
        const dnnl::impl::bfloat16_t *A, dnnl_dim_t lda,
        const dnnl::impl::bfloat16_t *B, dnnl_dim_t ldb, float beta, float *C,
        dnnl_dim_t ldc);

namespace {

namespace cpu = dnnl::impl::cpu;

// Column-major op(X)(r, c) of a matrix with leading dimension ld.
template <typename T>
double at(const std::vector<T> &x, bool trans, dnnl_dim_t r, dnnl_dim_t c,
        dnnl_dim_t ld) {
    return trans ? (double)x[c + r * ld] : (double)x[r + c * ld];
}

TEST(GemmPackExports, SgemmPackedAAndB) {
    const dnnl_dim_t M = 5, N = 7, K = 9, lda = K + 1, ldb = K + 2, ldc = M + 3;
    // transa 'T': A stored K x M; transb 'N': B stored K x N.
    std::vector<float> A(lda * M), B(ldb * N), C(ldc * N, 1.f);
    for (size_t i = 0; i < A.size(); ++i)
        A[i] = (float)((int)(i * 7 % 11) - 5);
    for (size_t i = 0; i < B.size(); ++i)
        B[i] = (float)((int)(i * 5 % 13) - 6);
    size_t sa = 0, sb = 0;
    bool pack = false;
    ASSERT_EQ(cpu::sgemm_pack_get_size(
                      "A", "T", "N", &M, &N, &K, &lda, &ldb, &sa, &pack),
            dnnl_success);
    EXPECT_TRUE(pack);
    ASSERT_EQ(cpu::sgemm_pack_get_size(
                      "B", "T", "N", &M, &N, &K, &lda, &ldb, &sb, nullptr),
            dnnl_success);
    std::vector<float> pa(sa / sizeof(float)), pb(sb / sizeof(float));
    ASSERT_EQ(cpu::sgemm_pack("A", "T", "N", &M, &N, &K, &lda, &ldb, A.data(),
                      pa.data()),
            dnnl_success);
    ASSERT_EQ(cpu::sgemm_pack("B", "T", "N", &M, &N, &K, &lda, &ldb, B.data(),
                      pb.data()),
            dnnl_success);
    const float beta = 0.5f;
    // Both packed, then only A packed.
    for (int variant = 0; variant < 2; ++variant) {
        std::vector<float> c = C;
        const char *tb = variant == 0 ? "P" : "N";
        const float *b = variant == 0 ? pb.data() : B.data();
        ASSERT_EQ(cpu::sgemm_compute("P", tb, &M, &N, &K, pa.data(), &lda, b,
                          &ldb, &beta, c.data(), &ldc),
                dnnl_success);
        for (dnnl_dim_t j = 0; j < N; ++j)
            for (dnnl_dim_t i = 0; i < M; ++i) {
                double want = beta * C[i + j * ldc];
                for (dnnl_dim_t k = 0; k < K; ++k)
                    want += at(A, true, i, k, lda) * at(B, false, k, j, ldb);
                EXPECT_FLOAT_EQ(c[i + j * ldc], (float)want) << i << "," << j;
            }
    }
    // Bad arguments are a status.
    EXPECT_EQ(cpu::sgemm_pack_get_size(
                      "X", "T", "N", &M, &N, &K, &lda, &ldb, &sa, nullptr),
            dnnl_invalid_arguments);
    const dnnl_dim_t small = 1;
    EXPECT_EQ(cpu::sgemm_pack("A", "T", "N", &M, &N, &K, &small, &ldb,
                      A.data(), pa.data()),
            dnnl_invalid_arguments);
}

TEST(GemmPackExports, S8u8s32PackedB) {
    const dnnl_dim_t M = 4, N = 6, K = 10, lda = M, ldb = K, ldc = M;
    std::vector<int8_t> A(lda * K);
    std::vector<uint8_t> B(ldb * N);
    for (size_t i = 0; i < A.size(); ++i)
        A[i] = (int8_t)((int)(i * 37 % 255) - 127);
    for (size_t i = 0; i < B.size(); ++i)
        B[i] = (uint8_t)(i * 53 % 256);
    size_t sb = 0;
    ASSERT_EQ(cpu::gemm_s8u8s32_pack_get_size(
                      "B", "N", "N", &M, &N, &K, &lda, &ldb, &sb, nullptr),
            dnnl_success);
    std::vector<uint8_t> pb(sb);
    ASSERT_EQ(cpu::gemm_s8u8s32_pack("B", "N", "N", &M, &N, &K, &lda, &ldb,
                      B.data(), pb.data()),
            dnnl_success);
    std::vector<int32_t> C(ldc * N, 0);
    const std::vector<int32_t> co = {1, 2, 3, 4, 5, 6}; // 'R': one per column
    const float beta = 0.f;
    ASSERT_EQ(cpu::gemm_s8u8s32_compute("N", "P", "R", &M, &N, &K, A.data(),
                      &lda, pb.data(), &ldb, &beta, C.data(), &ldc, co.data()),
            dnnl_success);
    for (dnnl_dim_t j = 0; j < N; ++j)
        for (dnnl_dim_t i = 0; i < M; ++i) {
            int64_t want = co[j];
            for (dnnl_dim_t k = 0; k < K; ++k)
                want += (int64_t)A[i + k * lda] * B[k + j * ldb];
            EXPECT_EQ(C[i + j * ldc], (int32_t)want) << i << "," << j;
        }
}

TEST(GemmPackExports, GemmBf16Bf16F32) {
    // Row-major like dnnl_sgemm; bf16 values exact in 8 bits of mantissa.
    const dnnl_dim_t M = 3, N = 4, K = 5;
    auto bf16 = [](float f) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        return (uint16_t)(u >> 16);
    };
    std::vector<uint16_t> A(M * K), B(K * N);
    std::vector<float> af(M * K), bf(K * N), C(M * N, 0.f);
    for (size_t i = 0; i < A.size(); ++i)
        A[i] = bf16(af[i] = (float)((int)(i % 7) - 3));
    for (size_t i = 0; i < B.size(); ++i)
        B[i] = bf16(bf[i] = (float)((int)(i % 5) - 2) * 0.5f);
    using bf16_t = dnnl::impl::bfloat16_t;
    ASSERT_EQ(dnnl_gemm_bf16bf16f32('N', 'N', M, N, K, 1.f,
                      reinterpret_cast<const bf16_t *>(A.data()), K,
                      reinterpret_cast<const bf16_t *>(B.data()), N, 0.f,
                      C.data(), N),
            dnnl_success);
    for (dnnl_dim_t i = 0; i < M; ++i)
        for (dnnl_dim_t j = 0; j < N; ++j) {
            float want = 0;
            for (dnnl_dim_t k = 0; k < K; ++k)
                want += af[i * K + k] * bf[k * N + j];
            EXPECT_FLOAT_EQ(C[i * N + j], want);
        }
    EXPECT_EQ(dnnl_gemm_bf16bf16f32('X', 'N', M, N, K, 1.f, nullptr, K,
                      nullptr, N, 0.f, C.data(), N),
            dnnl_invalid_arguments);
}

} // namespace
