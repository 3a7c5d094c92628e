// C API: the BLAS-like GEMM functions dnnl_sgemm, dnnl_gemm_u8s8s32 and
// dnnl_gemm_s8s8s32 (row-major, run on the calling thread's OpenMP pool).
#include "oneapi/dnnl/dnnl.h"

#include "cpu/gemm/gemm.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
        dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda, const float *B,
        dnnl_dim_t ldb, float beta, float *C, dnnl_dim_t ldc) {
    return cpu::gemm::sgemm(
            transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

dnnl_status_t dnnl_gemm_u8s8s32(char transa, char transb, char offsetc,
        dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
        dnnl_dim_t lda, uint8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    return cpu::gemm::gemm_u8s8s32(transa, transb, offsetc, M, N, K, alpha, A,
            lda, ao, B, ldb, bo, beta, C, ldc, co);
}

dnnl_status_t dnnl_gemm_s8s8s32(char transa, char transb, char offsetc,
        dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
        dnnl_dim_t lda, int8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    return cpu::gemm::gemm_s8s8s32(transa, transb, offsetc, M, N, K, alpha, A,
            lda, ao, B, ldb, bo, beta, C, ldc, co);
}
