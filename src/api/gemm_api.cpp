// C API: the BLAS-like GEMM functions dnnl_sgemm, dnnl_gemm_u8s8s32 and
// dnnl_gemm_s8s8s32 (row-major, run on the calling thread's OpenMP pool).
//
// As in oneDNN, a call with K == 0 leaves C untouched (after the argument
// checks) instead of scaling it by beta.
#include "oneapi/dnnl/dnnl.h"

#include "cpu/gemm/gemm.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
        dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda, const float *B,
        dnnl_dim_t ldb, float beta, float *C, dnnl_dim_t ldc) {
    DNNL_CHECK(cpu::gemm::check_gemm_args(transa, transb, M, N, K, lda, ldb, ldc));
    if (K == 0) return dnnl_success;
    return cpu::gemm::sgemm(
            transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

dnnl_status_t dnnl_gemm_u8s8s32(char transa, char transb, char offsetc,
        dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
        dnnl_dim_t lda, uint8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    DNNL_CHECK(cpu::gemm::check_gemm_args(
            transa, transb, M, N, K, lda, ldb, ldc, offsetc));
    if (K == 0) return dnnl_success;
    return cpu::gemm::gemm_u8s8s32(transa, transb, offsetc, M, N, K, alpha, A,
            lda, ao, B, ldb, bo, beta, C, ldc, co);
}

dnnl_status_t dnnl_gemm_s8s8s32(char transa, char transb, char offsetc,
        dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
        dnnl_dim_t lda, int8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    DNNL_CHECK(cpu::gemm::check_gemm_args(
            transa, transb, M, N, K, lda, ldb, ldc, offsetc));
    if (K == 0) return dnnl_success;
    return cpu::gemm::gemm_s8s8s32(transa, transb, offsetc, M, N, K, alpha, A,
            lda, ao, B, ldb, bo, beta, C, ldc, co);
}
