// oneDNN's packed-GEMM functions and dnnl_gemm_bf16bf16f32 (see
// gemm_pack_api.hpp) over the row-major BLAS-like wrappers: a column-major
// C = op(A) op(B) is the row-major C^T = op(B)^T op(A)^T, so every compute
// call swaps A with B, M with N, and the 'C' / 'R' offset kinds.
#include "cpu/gemm/gemm_pack_api.hpp"

#include <cctype>
#include <cstring>

#include "cpu/gemm/gemm.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

namespace {

char up(const char *c) { return (char)std::toupper((unsigned char)*c); }

// One operand to pack: op(X) is rows x cols, X column-major with `ld`.
struct operand_t {
    bool trans = false;
    dim_t rows = 0, cols = 0, ld = 0;
};

status_t pack_operand(const char *identifier, const char *transa,
        const char *transb, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, operand_t &op) {
    if (!identifier || !transa || !transb || !M || !N || !K || !lda || !ldb)
        return dnnl_invalid_arguments;
    const char id = up(identifier), ta = up(transa), tb = up(transb);
    if ((id != 'A' && id != 'B') || (ta != 'N' && ta != 'T')
            || (tb != 'N' && tb != 'T') || *M < 0 || *N < 0 || *K < 0)
        return dnnl_invalid_arguments;
    const bool a = id == 'A';
    op.trans = (a ? ta : tb) == 'T';
    op.rows = a ? *M : *K;
    op.cols = a ? *K : *N;
    op.ld = a ? *lda : *ldb;
    const dim_t stored_rows = op.trans ? op.cols : op.rows;
    return op.ld >= (stored_rows > 1 ? stored_rows : 1) ? dnnl_success
                                                         : dnnl_invalid_arguments;
}

template <typename T>
status_t get_size(const char *identifier, const char *transa,
        const char *transb, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, size_t *size, bool *pack) {
    operand_t op;
    DNNL_CHECK(pack_operand(identifier, transa, transb, M, N, K, lda, ldb, op));
    if (!size) return dnnl_invalid_arguments;
    *size = (size_t)(op.rows * op.cols) * sizeof(T);
    if (pack) *pack = true;
    return dnnl_success;
}

// op(X) densely, column-major (element (r, c) at r + c * rows).
template <typename T>
status_t pack(const char *identifier, const char *transa, const char *transb,
        const dim_t *M, const dim_t *N, const dim_t *K, const dim_t *lda,
        const dim_t *ldb, const T *src, T *dst) {
    operand_t op;
    DNNL_CHECK(pack_operand(identifier, transa, transb, M, N, K, lda, ldb, op));
    if (op.rows * op.cols == 0) return dnnl_success;
    if (!src || !dst) return dnnl_invalid_arguments;
    for (dim_t c = 0; c < op.cols; ++c)
        for (dim_t r = 0; r < op.rows; ++r)
            dst[r + c * op.rows] = op.trans ? src[c + r * op.ld] : src[r + c * op.ld];
    return dnnl_success;
}

// The row-major call of a column-major compute: trans flags with 'P'
// resolved to a dense untransposed operand, and leading dimensions.
struct rowmajor_t {
    char ta = 'N', tb = 'N', offsetc = 'F';
    dim_t M = 0, N = 0, K = 0, lda = 0, ldb = 0, ldc = 0;
};

status_t to_rowmajor(const char *transa, const char *transb,
        const char *offsetc, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, const dim_t *ldc, rowmajor_t &r) {
    if (!transa || !transb || !M || !N || !K || !lda || !ldb || !ldc)
        return dnnl_invalid_arguments;
    r.ta = up(transa);
    r.tb = up(transb);
    r.M = *M;
    r.N = *N;
    r.K = *K;
    r.lda = *lda;
    r.ldb = *ldb;
    r.ldc = *ldc;
    if (r.ta == 'P') { // packed op(A): M x K column-major
        r.ta = 'N';
        r.lda = r.M > 1 ? r.M : 1;
    }
    if (r.tb == 'P') { // packed op(B): K x N column-major
        r.tb = 'N';
        r.ldb = r.K > 1 ? r.K : 1;
    }
    if (offsetc) {
        const char oc = up(offsetc);
        r.offsetc = oc == 'C' ? 'R' : oc == 'R' ? 'C' : oc;
    }
    return gemm::check_gemm_args(r.tb, r.ta, r.N, r.M, r.K, r.ldb, r.lda, r.ldc,
            offsetc ? r.offsetc : 0);
}

} // namespace

dnnl_status_t sgemm_pack_get_size(const char *identifier, const char *transa,
        const char *transb, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, size_t *size, bool *pack) {
    return get_size<float>(identifier, transa, transb, M, N, K, lda, ldb, size, pack);
}
dnnl_status_t gemm_bf16bf16f32_pack_get_size(const char *identifier,
        const char *transa, const char *transb, const dim_t *M, const dim_t *N,
        const dim_t *K, const dim_t *lda, const dim_t *ldb, size_t *size,
        bool *pack) {
    return get_size<uint16_t>(
            identifier, transa, transb, M, N, K, lda, ldb, size, pack);
}
dnnl_status_t gemm_s8u8s32_pack_get_size(const char *identifier,
        const char *transa, const char *transb, const dim_t *M, const dim_t *N,
        const dim_t *K, const dim_t *lda, const dim_t *ldb, size_t *size,
        bool *pack) {
    return get_size<uint8_t>(
            identifier, transa, transb, M, N, K, lda, ldb, size, pack);
}
dnnl_status_t gemm_s8s8s32_pack_get_size(const char *identifier,
        const char *transa, const char *transb, const dim_t *M, const dim_t *N,
        const dim_t *K, const dim_t *lda, const dim_t *ldb, size_t *size,
        bool *pack) {
    return get_size<uint8_t>(
            identifier, transa, transb, M, N, K, lda, ldb, size, pack);
}

dnnl_status_t sgemm_pack(const char *identifier, const char *transa,
        const char *transb, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, const float *src, float *dst) {
    return pack(identifier, transa, transb, M, N, K, lda, ldb, src, dst);
}
dnnl_status_t gemm_bf16bf16f32_pack(const char *identifier, const char *transa,
        const char *transb, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, const bfloat16_t *src,
        bfloat16_t *dst) {
    return pack(identifier, transa, transb, M, N, K, lda, ldb,
            reinterpret_cast<const uint16_t *>(src),
            reinterpret_cast<uint16_t *>(dst));
}
dnnl_status_t gemm_s8u8s32_pack(const char *identifier, const char *transa,
        const char *transb, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, const void *src, void *dst) {
    return pack(identifier, transa, transb, M, N, K, lda, ldb,
            static_cast<const uint8_t *>(src), static_cast<uint8_t *>(dst));
}
dnnl_status_t gemm_s8s8s32_pack(const char *identifier, const char *transa,
        const char *transb, const dim_t *M, const dim_t *N, const dim_t *K,
        const dim_t *lda, const dim_t *ldb, const void *src, void *dst) {
    return pack(identifier, transa, transb, M, N, K, lda, ldb,
            static_cast<const uint8_t *>(src), static_cast<uint8_t *>(dst));
}

dnnl_status_t sgemm_compute(const char *transa, const char *transb,
        const dim_t *M, const dim_t *N, const dim_t *K, const float *A,
        const dim_t *lda, const float *B, const dim_t *ldb, const float *beta,
        float *C, const dim_t *ldc) {
    rowmajor_t r;
    DNNL_CHECK(to_rowmajor(transa, transb, nullptr, M, N, K, lda, ldb, ldc, r));
    if (!beta) return dnnl_invalid_arguments;
    if (r.K == 0 || r.M == 0 || r.N == 0) return dnnl_success;
    return gemm::sgemm(r.tb, r.ta, r.N, r.M, r.K, 1.f, B, r.ldb, A, r.lda,
            *beta, C, r.ldc);
}

dnnl_status_t gemm_bf16bf16f32_compute(const char *transa, const char *transb,
        const dim_t *M, const dim_t *N, const dim_t *K, const bfloat16_t *A,
        const dim_t *lda, const bfloat16_t *B, const dim_t *ldb,
        const float *beta, float *C, const dim_t *ldc) {
    rowmajor_t r;
    DNNL_CHECK(to_rowmajor(transa, transb, nullptr, M, N, K, lda, ldb, ldc, r));
    if (!beta) return dnnl_invalid_arguments;
    if (r.K == 0 || r.M == 0 || r.N == 0) return dnnl_success;
    return gemm::gemm_bf16bf16f32(r.tb, r.ta, r.N, r.M, r.K, 1.f,
            reinterpret_cast<const uint16_t *>(B), r.ldb,
            reinterpret_cast<const uint16_t *>(A), r.lda, *beta, C, r.ldc);
}

dnnl_status_t gemm_s8u8s32_compute(const char *transa, const char *transb,
        const char *offsetc, const dim_t *M, const dim_t *N, const dim_t *K,
        const int8_t *A, const dim_t *lda, const uint8_t *B, const dim_t *ldb,
        const float *beta, int32_t *C, const dim_t *ldc, const int32_t *co) {
    rowmajor_t r;
    DNNL_CHECK(to_rowmajor(transa, transb, offsetc, M, N, K, lda, ldb, ldc, r));
    if (!beta || !offsetc) return dnnl_invalid_arguments;
    if (r.K == 0 || r.M == 0 || r.N == 0) return dnnl_success;
    return gemm::gemm_u8s8s32(r.tb, r.ta, r.offsetc, r.N, r.M, r.K, 1.f, B,
            r.ldb, 0, A, r.lda, 0, *beta, C, r.ldc, co);
}

dnnl_status_t gemm_s8s8s32_compute(const char *transa, const char *transb,
        const char *offsetc, const dim_t *M, const dim_t *N, const dim_t *K,
        const int8_t *A, const dim_t *lda, const int8_t *B, const dim_t *ldb,
        const float *beta, int32_t *C, const dim_t *ldc, const int32_t *co) {
    rowmajor_t r;
    DNNL_CHECK(to_rowmajor(transa, transb, offsetc, M, N, K, lda, ldb, ldc, r));
    if (!beta || !offsetc) return dnnl_invalid_arguments;
    if (r.K == 0 || r.M == 0 || r.N == 0) return dnnl_success;
    return gemm::gemm_s8s8s32(r.tb, r.ta, r.offsetc, r.N, r.M, r.K, 1.f, B,
            r.ldb, 0, A, r.lda, 0, *beta, C, r.ldc, co);
}

} // namespace cpu
} // namespace impl
} // namespace dnnl

extern "C" dnnl_status_t dnnl_gemm_bf16bf16f32(char transa, char transb,
        dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha,
        const dnnl::impl::bfloat16_t *A, dnnl_dim_t lda,
        const dnnl::impl::bfloat16_t *B, dnnl_dim_t ldb, float beta, float *C,
        dnnl_dim_t ldc) {
    using namespace dnnl::impl::cpu;
    DNNL_CHECK(gemm::check_gemm_args(transa, transb, M, N, K, lda, ldb, ldc));
    if (K == 0) return dnnl_success; // C untouched, as dnnl_sgemm
    return gemm::gemm_bf16bf16f32(transa, transb, M, N, K, alpha,
            reinterpret_cast<const uint16_t *>(A), lda,
            reinterpret_cast<const uint16_t *>(B), ldb, beta, C, ldc);
}
