// dnnl-isa: avx2
// AVX2 GEMM microkernels: f32 6x16 with FMA (12 ymm accumulators) and s32
// 6x16 on int16 pairs with vpmaddwd.
#include <immintrin.h>

#include <cstdint>

#include "common/c_types.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"

#include "cpu/gemm/gemm_ukernel_impl.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {
namespace {

struct f32_avx2_t {
    using vec = __m256;
    static constexpr int width = 8;
    static vec zero() { return _mm256_setzero_ps(); }
    static vec load(const float *p) { return _mm256_loadu_ps(p); }
    // 8 bf16 values as f32 (a bf16 is an f32's upper half).
    static vec load(const uint16_t *p) {
        const __m128i h = _mm_loadu_si128((const __m128i *)p);
        return _mm256_castsi256_ps(
                _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
    }
    static void store(float *p, vec v) { _mm256_storeu_ps(p, v); }
    static vec bcast(const float *p) { return _mm256_broadcast_ss(p); }
    static vec set1(float x) { return _mm256_set1_ps(x); }
    static vec fma(vec a, vec b, vec c) { return _mm256_fmadd_ps(a, b, c); }
    static vec mul(vec a, vec b) { return _mm256_mul_ps(a, b); }
    static vec add(vec a, vec b) { return _mm256_add_ps(a, b); }
    static float hsum(vec a) {
        __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
        s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        s = _mm_add_ss(s, _mm_movehdup_ps(s));
        return _mm_cvtss_f32(s);
    }
};

struct s32_avx2_t {
    using vec = __m256i;
    static constexpr int width = 8;
    static vec zero() { return _mm256_setzero_si256(); }
    static vec load(const int16_t *p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    }
    static vec loadc(const int32_t *p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    }
    static void store(int32_t *p, vec v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
    }
    static vec bcast2(const int16_t *p) {
        int32_t v;
        __builtin_memcpy(&v, p, sizeof(v));
        return _mm256_set1_epi32(v);
    }
    static vec dot(vec acc, vec a, vec b) {
        return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
    }
    static vec add(vec a, vec b) { return _mm256_add_epi32(a, b); }
};

} // namespace

void f32_gemm_6x16__avx2_fma(dim_t k, const float *a, const float *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next) {
    f32_ukernel_thirds<f32_avx2_t, 6, 2>(k, a, b, c, ldc, m, n, alpha, beta, b_next);
}

const f32_gemv_desc_t f32_gemv__avx2_fma = {
        {f32_gemv_n_impl<f32_avx2_t, 1>, f32_gemv_n_impl<f32_avx2_t, 2>,
                f32_gemv_n_impl<f32_avx2_t, 3>, f32_gemv_n_impl<f32_avx2_t, 4>},
        {f32_gemv_t_impl<f32_avx2_t, 1>, f32_gemv_t_impl<f32_avx2_t, 2>,
                f32_gemv_t_impl<f32_avx2_t, 3>, f32_gemv_t_impl<f32_avx2_t, 4>},
        {f32_gemv_n_impl<f32_avx2_t, 1, uint16_t>,
                f32_gemv_n_impl<f32_avx2_t, 2, uint16_t>,
                f32_gemv_n_impl<f32_avx2_t, 3, uint16_t>,
                f32_gemv_n_impl<f32_avx2_t, 4, uint16_t>}};

void s32_gemm_6x16c2__avx2(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate) {
    s32_ukernel_impl<s32_avx2_t, 6, 2>(kp, a, b, c, ldc, m, n, accumulate);
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
