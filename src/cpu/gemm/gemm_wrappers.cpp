// BLAS-like row-major wrappers over the generic GEMM entry points:
// sgemm, bf16/f16 GEMMs and the integer GEMMs with the alpha/beta/offset
// semantics of dnnl_gemm_u8s8s32 and dnnl_gemm_s8s8s32.
#include "cpu/gemm/gemm.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "common/float_convert.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {

bool is_trans(char t) { return t == 'T' || t == 't'; }
bool valid_trans(char t) {
    return t == 'N' || t == 'n' || t == 'T' || t == 't';
}

// Element strides of op(X) for a row-major X with leading dimension ld.
void op_strides(char trans, dim_t ld, dim_t &rs, dim_t &cs) {
    if (is_trans(trans)) {
        rs = 1;
        cs = ld;
    } else {
        rs = ld;
        cs = 1;
    }
}

status_t check_shape(char transa, char transb, dim_t M, dim_t N, dim_t K,
        dim_t lda, dim_t ldb, dim_t ldc) {
    if (!valid_trans(transa) || !valid_trans(transb))
        return dnnl_invalid_arguments;
    if (M < 0 || N < 0 || K < 0) return dnnl_invalid_arguments;
    const dim_t a_cols = is_trans(transa) ? M : K;
    const dim_t b_cols = is_trans(transb) ? K : N;
    if (lda < std::max<dim_t>(1, a_cols)) return dnnl_invalid_arguments;
    if (ldb < std::max<dim_t>(1, b_cols)) return dnnl_invalid_arguments;
    if (ldc < std::max<dim_t>(1, N)) return dnnl_invalid_arguments;
    return dnnl_success;
}

status_t gemm_f32_rowmajor(char transa, char transb, dim_t M, dim_t N,
        dim_t K, float alpha, const void *A, data_type_t a_dt, dim_t lda,
        const void *B, data_type_t b_dt, dim_t ldb, float beta, float *C,
        dim_t ldc, const float *bias, bias_kind_t bias_kind,
        const gemm_post_f32_t &post, bool parallel) {
    DNNL_CHECK(check_shape(transa, transb, M, N, K, lda, ldb, ldc));
    gemm_f32_args_t g;
    g.M = M;
    g.N = N;
    g.K = K;
    g.a = A;
    g.a_dt = a_dt;
    op_strides(transa, lda, g.a_rs, g.a_cs);
    g.b = B;
    g.b_dt = b_dt;
    op_strides(transb, ldb, g.b_rs, g.b_cs);
    g.c = C;
    g.ldc = ldc;
    g.alpha = alpha;
    g.beta = beta;
    g.bias = bias;
    g.bias_kind = bias_kind;
    g.post = post;
    g.parallel = parallel;
    // alpha == 0: op(A) op(B) does not contribute (and is not read).
    if (alpha == 0.f) g.K = 0;
    return gemm_f32(g);
}

template <typename TA, typename TB>
status_t gemm_x8x8s32(char transa, char transb, char offsetc, dim_t M,
        dim_t N, dim_t K, float alpha, const TA *A, dim_t lda, int32_t ao,
        const TB *B, dim_t ldb, int32_t bo, float beta, int32_t *C, dim_t ldc,
        const int32_t *co, bool parallel, data_type_t a_dt,
        data_type_t b_dt) {
    DNNL_CHECK(check_shape(transa, transb, M, N, K, lda, ldb, ldc));
    const char oc = (char)std::toupper((unsigned char)offsetc);
    if (oc != 'F' && oc != 'C' && oc != 'R') return dnnl_invalid_arguments;
    if (M == 0 || N == 0) return dnnl_success;
    if (!C || !co || (K > 0 && (!A || !B))) return dnnl_invalid_arguments;

    gemm_s32_args_t g;
    g.M = M;
    g.N = N;
    g.K = alpha == 0.f ? 0 : K;
    g.a = A;
    g.a_dt = a_dt;
    g.a_zp = ao;
    op_strides(transa, lda, g.a_rs, g.a_cs);
    g.b = B;
    g.b_dt = b_dt;
    g.b_zp = bo;
    op_strides(transb, ldb, g.b_rs, g.b_cs);
    g.parallel = parallel;

    // Integer fast path: C = acc (+ C) + co exactly.
    const bool exact = alpha == 1.f && (beta == 0.f || beta == 1.f);
    if (exact) {
        g.c = C;
        g.ldc = ldc;
        g.accumulate = beta == 1.f;
        if (oc == 'F') {
            if (co[0] != 0)
                g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, int32_t *c,
                                 dim_t ldc_) {
                    for (dim_t i = 0; i < m; ++i)
                        for (dim_t j = 0; j < n; ++j)
                            c[i * ldc_ + j] = (int32_t)(
                                    (uint32_t)c[i * ldc_ + j] + (uint32_t)co[0]);
                };
        } else {
            g.bias = co;
            g.bias_kind = oc == 'C' ? bias_kind_t::per_row : bias_kind_t::per_col;
        }
        return gemm_s32(g);
    }

    // General path: accumulate into a scratch matrix, then combine in
    // floating point with rounding and saturation.
    std::unique_ptr<int32_t, decltype(&std::free)> tmp(
            (int32_t *)std::aligned_alloc(64,
                    ((size_t)M * N * sizeof(int32_t) + 63) / 64 * 64),
            &std::free);
    if (!tmp) return dnnl_out_of_memory;
    g.c = tmp.get();
    g.ldc = N;
    g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, int32_t *acc,
                     dim_t ldacc) {
        for (dim_t i = 0; i < m; ++i)
            for (dim_t j = 0; j < n; ++j) {
                const dim_t gi = m0 + i, gj = n0 + j;
                const int32_t off = oc == 'F' ? co[0]
                        : oc == 'C'           ? co[gi]
                                              : co[gj];
                int32_t &c = C[gi * ldc + gj];
                double v = (double)alpha * acc[i * ldacc + j];
                if (beta != 0.f) v += (double)beta * c;
                v += off;
                v = std::round(v); // half away from zero, as oneDNN
                v = v < -2147483648.0 ? -2147483648.0 : v;
                v = v > 2147483647.0 ? 2147483647.0 : v;
                c = (int32_t)v;
            }
    };
    return gemm_s32(g);
}

} // namespace

status_t check_gemm_args(char transa, char transb, dim_t M, dim_t N, dim_t K,
        dim_t lda, dim_t ldb, dim_t ldc, char offsetc) {
    DNNL_CHECK(check_shape(transa, transb, M, N, K, lda, ldb, ldc));
    if (offsetc) {
        const char oc = (char)std::toupper((unsigned char)offsetc);
        if (oc != 'F' && oc != 'C' && oc != 'R') return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

status_t sgemm(char transa, char transb, dim_t M, dim_t N, dim_t K,
        float alpha, const float *A, dim_t lda, const float *B, dim_t ldb,
        float beta, float *C, dim_t ldc, bool parallel) {
    return gemm_f32_rowmajor(transa, transb, M, N, K, alpha, A, dnnl_f32, lda,
            B, dnnl_f32, ldb, beta, C, ldc, nullptr, bias_kind_t::none,
            nullptr, parallel);
}

status_t sgemm_ex(char transa, char transb, dim_t M, dim_t N, dim_t K,
        float alpha, const float *A, dim_t lda, const float *B, dim_t ldb,
        float beta, float *C, dim_t ldc, const float *bias,
        bias_kind_t bias_kind, const gemm_post_f32_t &post, bool parallel) {
    return gemm_f32_rowmajor(transa, transb, M, N, K, alpha, A, dnnl_f32, lda,
            B, dnnl_f32, ldb, beta, C, ldc, bias, bias_kind, post, parallel);
}

status_t gemm_bf16bf16f32(char transa, char transb, dim_t M, dim_t N,
        dim_t K, float alpha, const uint16_t *A, dim_t lda, const uint16_t *B,
        dim_t ldb, float beta, float *C, dim_t ldc, bool parallel) {
    return gemm_f32_rowmajor(transa, transb, M, N, K, alpha, A, dnnl_bf16, lda,
            B, dnnl_bf16, ldb, beta, C, ldc, nullptr, bias_kind_t::none,
            nullptr, parallel);
}

status_t gemm_f16f16f32(char transa, char transb, dim_t M, dim_t N, dim_t K,
        float alpha, const uint16_t *A, dim_t lda, const uint16_t *B,
        dim_t ldb, float beta, float *C, dim_t ldc, bool parallel) {
    return gemm_f32_rowmajor(transa, transb, M, N, K, alpha, A, dnnl_f16, lda,
            B, dnnl_f16, ldb, beta, C, ldc, nullptr, bias_kind_t::none,
            nullptr, parallel);
}

status_t gemm_u8s8s32(char transa, char transb, char offsetc, dim_t M,
        dim_t N, dim_t K, float alpha, const uint8_t *A, dim_t lda, uint8_t ao,
        const int8_t *B, dim_t ldb, int8_t bo, float beta, int32_t *C,
        dim_t ldc, const int32_t *co, bool parallel) {
    return gemm_x8x8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B,
            ldb, bo, beta, C, ldc, co, parallel, dnnl_u8, dnnl_s8);
}

status_t gemm_s8s8s32(char transa, char transb, char offsetc, dim_t M,
        dim_t N, dim_t K, float alpha, const int8_t *A, dim_t lda, int8_t ao,
        const int8_t *B, dim_t ldb, int8_t bo, float beta, int32_t *C,
        dim_t ldc, const int32_t *co, bool parallel) {
    return gemm_x8x8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B,
            ldb, bo, beta, C, ldc, co, parallel, dnnl_s8, dnnl_s8);
}

status_t gemm_s8u8s32(char transa, char transb, char offsetc, dim_t M,
        dim_t N, dim_t K, float alpha, const int8_t *A, dim_t lda, int8_t ao,
        const uint8_t *B, dim_t ldb, uint8_t bo, float beta, int32_t *C,
        dim_t ldc, const int32_t *co, bool parallel) {
    return gemm_x8x8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B,
            ldb, bo, beta, C, ldc, co, parallel, dnnl_s8, dnnl_u8);
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
