// GEMM references; see gemm_ref.hpp.
#include "reference/gemm_ref.hpp"

namespace gemm_ref {

namespace {
bool tr(char t) { return t == 'T' || t == 't'; }
} // namespace

void sgemm(char transa, char transb, int64_t M, int64_t N, int64_t K,
        double alpha, const float *A, int64_t lda, const float *B, int64_t ldb,
        double beta, double *C, int64_t ldc) {
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            double s = 0;
            for (int64_t k = 0; k < K; ++k) {
                const double a = tr(transa) ? A[k * lda + i] : A[i * lda + k];
                const double b = tr(transb) ? B[j * ldb + k] : B[k * ldb + j];
                s += a * b;
            }
            double &c = C[i * ldc + j];
            c = alpha * s + (beta == 0 ? 0.0 : beta * c);
        }
}

template <typename TA, typename TB>
void gemm_x8x8s32(char transa, char transb, char offsetc, int64_t M,
        int64_t N, int64_t K, double alpha, const TA *A, int64_t lda, int ao,
        const TB *B, int64_t ldb, int bo, double beta, double *C, int64_t ldc,
        const int32_t *co) {
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            int64_t s = 0;
            for (int64_t k = 0; k < K; ++k) {
                const int64_t a = tr(transa) ? A[k * lda + i] : A[i * lda + k];
                const int64_t b = tr(transb) ? B[j * ldb + k] : B[k * ldb + j];
                s += (a - ao) * (b - bo);
            }
            const char oc = offsetc;
            // 'C': a column of offsets (one per row), 'R': a row of
            // offsets (one per column).
            const double off = (oc == 'F' || oc == 'f') ? co[0]
                    : (oc == 'C' || oc == 'c')          ? co[i]
                                                        : co[j];
            double &c = C[i * ldc + j];
            c = alpha * (double)s + (beta == 0 ? 0.0 : beta * c) + off;
        }
}

template void gemm_x8x8s32<uint8_t, int8_t>(char, char, char, int64_t,
        int64_t, int64_t, double, const uint8_t *, int64_t, int,
        const int8_t *, int64_t, int, double, double *, int64_t,
        const int32_t *);
template void gemm_x8x8s32<int8_t, int8_t>(char, char, char, int64_t,
        int64_t, int64_t, double, const int8_t *, int64_t, int,
        const int8_t *, int64_t, int, double, double *, int64_t,
        const int32_t *);

} // namespace gemm_ref
