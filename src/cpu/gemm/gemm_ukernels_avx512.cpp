// dnnl-isa: avx512_core
// AVX-512 GEMM microkernels: f32 12x32 (24 zmm accumulators), the small-M
// f32 kernels and s32 12x32 on int16 pairs with vpmaddwd (avx512bw). The
// VNNI variant lives in its own file so that no code here is compiled with
// VNNI enabled.
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

struct f32_avx512_t {
    using vec = __m512;
    static constexpr int width = 16;
    static vec zero() { return _mm512_setzero_ps(); }
    static vec load(const float *p) { return _mm512_loadu_ps(p); }
    // 16 bf16 values as f32 (a bf16 is an f32's upper half). The maskz
    // forms: GCC warns of the plain ones' undefined pass-through.
    static vec load(const uint16_t *p) {
        const __m256i h = _mm256_loadu_si256((const __m256i *)p);
        const __m512i w = _mm512_maskz_cvtepu16_epi32(0xffff, h);
        return _mm512_castsi512_ps(_mm512_maskz_slli_epi32(0xffff, w, 16));
    }
    static void store(float *p, vec v) { _mm512_storeu_ps(p, v); }
    static vec bcast(const float *p) { return _mm512_set1_ps(*p); }
    static vec set1(float x) { return _mm512_set1_ps(x); }
    static vec fma(vec a, vec b, vec c) { return _mm512_fmadd_ps(a, b, c); }
    static vec mul(vec a, vec b) { return _mm512_mul_ps(a, b); }
    static vec add(vec a, vec b) { return _mm512_add_ps(a, b); }
    // Lanes added by halves through zero-masked shuffles: GCC 12 warns of
    // the undefined pass-through register of _mm512_reduce_add_ps's
    // extracts (and of the plain shuffles') where they are inlined.
    static float hsum(vec a) {
        vec t = _mm512_add_ps(a, _mm512_maskz_shuffle_f32x4(0xffff, a, a, 0x4e));
        t = _mm512_add_ps(t, _mm512_maskz_shuffle_f32x4(0xffff, t, t, 0xb1));
        __m128 x = _mm512_maskz_extractf32x4_ps(0xf, t, 0);
        x = _mm_add_ps(x, _mm_movehl_ps(x, x));
        x = _mm_add_ss(x, _mm_movehdup_ps(x));
        return _mm_cvtss_f32(x);
    }
};

struct s32_avx512bw_t {
    using vec = __m512i;
    static constexpr int width = 16;
    static vec zero() { return _mm512_setzero_si512(); }
    static vec load(const int16_t *p) { return _mm512_loadu_si512(p); }
    static vec loadc(const int32_t *p) { return _mm512_loadu_si512(p); }
    static void store(int32_t *p, vec v) { _mm512_storeu_si512(p, v); }
    static vec bcast2(const int16_t *p) {
        int32_t v;
        __builtin_memcpy(&v, p, sizeof(v));
        return _mm512_set1_epi32(v);
    }
    static vec dot(vec acc, vec a, vec b) {
        return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b));
    }
    static vec add(vec a, vec b) { return _mm512_add_epi32(a, b); }
};

} // namespace

void f32_gemm_12x32__avx512f(dim_t k, const float *a, const float *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next) {
    f32_ukernel_thirds<f32_avx512_t, 12, 2>(k, a, b, c, ldc, m, n, alpha, beta, b_next);
}

const f32_gemv_desc_t f32_gemv__avx512f = {
        {f32_gemv_n_impl<f32_avx512_t, 1>, f32_gemv_n_impl<f32_avx512_t, 2>,
                f32_gemv_n_impl<f32_avx512_t, 3>,
                f32_gemv_n_impl<f32_avx512_t, 4>},
        {f32_gemv_t_impl<f32_avx512_t, 1>, f32_gemv_t_impl<f32_avx512_t, 2>,
                f32_gemv_t_impl<f32_avx512_t, 3>,
                f32_gemv_t_impl<f32_avx512_t, 4>},
        {f32_gemv_n_impl<f32_avx512_t, 1, uint16_t>,
                f32_gemv_n_impl<f32_avx512_t, 2, uint16_t>,
                f32_gemv_n_impl<f32_avx512_t, 3, uint16_t>,
                f32_gemv_n_impl<f32_avx512_t, 4, uint16_t>}};

void s32_gemm_12x32c2__avx512bw(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate) {
    s32_ukernel_impl<s32_avx512bw_t, 12, 2>(kp, a, b, c, ldc, m, n, accumulate);
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl

