// oneDNN's packed-GEMM functions (C++ names in dnnl::impl::cpu, exported as
// oneDNN exports them because its own test programs link against them) and
// dnnl_gemm_bf16bf16f32. Column-major (Fortran) convention, as in oneDNN:
//   *_pack_get_size: bytes of a packed A ("A") or B ("B") operand;
//   *_pack:          packs op(A) or op(B);
//   *_compute:       C = op(A) * op(B) + beta * C, where trans 'P' says that
//                    operand is packed.
// A packed operand is op(X) stored densely in column-major order (A: M x K,
// B: K x N): a private layout, read only by *_compute.
#pragma once

#include <cstddef>
#include <cstdint>

#include "oneapi/dnnl/dnnl_types.h"

namespace dnnl {
namespace impl {
// Named only for the exported signatures (the symbols carry the type's
// name); the data is raw 16-bit bf16.
struct bfloat16_t;
namespace cpu {
using pack_dim_t = dnnl_dim_t;

#define DNNL_PACK_GET_SIZE(name) \
    dnnl_status_t DNNL_API name(const char *identifier, const char *transa, \
            const char *transb, const pack_dim_t *M, const pack_dim_t *N, \
            const pack_dim_t *K, const pack_dim_t *lda, const pack_dim_t *ldb, \
            size_t *size, bool *pack = nullptr);
DNNL_PACK_GET_SIZE(sgemm_pack_get_size)
DNNL_PACK_GET_SIZE(gemm_bf16bf16f32_pack_get_size)
DNNL_PACK_GET_SIZE(gemm_s8u8s32_pack_get_size)
DNNL_PACK_GET_SIZE(gemm_s8s8s32_pack_get_size)
#undef DNNL_PACK_GET_SIZE

dnnl_status_t DNNL_API sgemm_pack(const char *identifier, const char *transa,
        const char *transb, const pack_dim_t *M, const pack_dim_t *N,
        const pack_dim_t *K, const pack_dim_t *lda, const pack_dim_t *ldb,
        const float *src, float *dst);
dnnl_status_t DNNL_API gemm_bf16bf16f32_pack(const char *identifier,
        const char *transa, const char *transb, const pack_dim_t *M,
        const pack_dim_t *N, const pack_dim_t *K, const pack_dim_t *lda,
        const pack_dim_t *ldb, const bfloat16_t *src, bfloat16_t *dst);
dnnl_status_t DNNL_API gemm_s8u8s32_pack(const char *identifier,
        const char *transa, const char *transb, const pack_dim_t *M,
        const pack_dim_t *N, const pack_dim_t *K, const pack_dim_t *lda,
        const pack_dim_t *ldb, const void *src, void *dst);
dnnl_status_t DNNL_API gemm_s8s8s32_pack(const char *identifier,
        const char *transa, const char *transb, const pack_dim_t *M,
        const pack_dim_t *N, const pack_dim_t *K, const pack_dim_t *lda,
        const pack_dim_t *ldb, const void *src, void *dst);

dnnl_status_t DNNL_API sgemm_compute(const char *transa, const char *transb,
        const pack_dim_t *M, const pack_dim_t *N, const pack_dim_t *K,
        const float *A, const pack_dim_t *lda, const float *B,
        const pack_dim_t *ldb, const float *beta, float *C,
        const pack_dim_t *ldc);
dnnl_status_t DNNL_API gemm_bf16bf16f32_compute(const char *transa,
        const char *transb, const pack_dim_t *M, const pack_dim_t *N,
        const pack_dim_t *K, const bfloat16_t *A, const pack_dim_t *lda,
        const bfloat16_t *B, const pack_dim_t *ldb, const float *beta,
        float *C, const pack_dim_t *ldc);
dnnl_status_t DNNL_API gemm_s8u8s32_compute(const char *transa,
        const char *transb, const char *offsetc, const pack_dim_t *M,
        const pack_dim_t *N, const pack_dim_t *K, const int8_t *A,
        const pack_dim_t *lda, const uint8_t *B, const pack_dim_t *ldb,
        const float *beta, int32_t *C, const pack_dim_t *ldc,
        const int32_t *co);
dnnl_status_t DNNL_API gemm_s8s8s32_compute(const char *transa,
        const char *transb, const char *offsetc, const pack_dim_t *M,
        const pack_dim_t *N, const pack_dim_t *K, const int8_t *A,
        const pack_dim_t *lda, const int8_t *B, const pack_dim_t *ldb,
        const float *beta, int32_t *C, const pack_dim_t *ldc,
        const int32_t *co);

} // namespace cpu
} // namespace impl
} // namespace dnnl

// Row-major like dnnl_sgemm, bf16 inputs (raw 16-bit storage), f32 output.
extern "C" dnnl_status_t DNNL_API dnnl_gemm_bf16bf16f32(char transa,
        char transb, dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha,
        const dnnl::impl::bfloat16_t *A, dnnl_dim_t lda,
        const dnnl::impl::bfloat16_t *B, dnnl_dim_t ldb, float beta, float *C,
        dnnl_dim_t ldc);
