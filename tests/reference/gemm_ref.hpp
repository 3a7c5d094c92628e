// Naive references of the BLAS-like GEMM functions (dnnl_sgemm and the
// integer dnnl_gemm_*s8s32), in double precision / exact 64-bit integers,
// row-major. Written without any library code.
#pragma once

#include <cstdint>

namespace gemm_ref {

// C = alpha * op(A) * op(B) + beta * C; op(X) = X^T when trans is 'T'/'t'.
// With beta == 0, C is not read.
void sgemm(char transa, char transb, int64_t M, int64_t N, int64_t K,
        double alpha, const float *A, int64_t lda, const float *B, int64_t ldb,
        double beta, double *C, int64_t ldc);

// C = alpha * (op(A) - ao) * (op(B) - bo) + beta * C + co, before rounding
// and saturation; offsetc 'F' (co[0]), 'C' (co[i]: a column of offsets,
// one per row) or 'R' (co[j]: a row of offsets, one per column).
// TA, TB: uint8_t or int8_t.
template <typename TA, typename TB>
void gemm_x8x8s32(char transa, char transb, char offsetc, int64_t M,
        int64_t N, int64_t K, double alpha, const TA *A, int64_t lda, int ao,
        const TB *B, int64_t ldb, int bo, double beta, double *C, int64_t ldc,
        const int32_t *co);

} // namespace gemm_ref
