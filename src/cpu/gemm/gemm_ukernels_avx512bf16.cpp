// dnnl-isa: avx512_core_bf16
// AVX-512 BF16 GEMM microkernel: f32 12x32 accumulated from pairs of bf16
// with vdpbf16ps (two products per f32 lane). Used for bf16 inputs and for
// f32 inputs under fpmath mode bf16. Compiled for AVX512_BF16 as a whole.
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

struct bf16_avx512_t {
    using vec = __m512;
    using pvec = __m512bh;
    static constexpr int width = 16;
    static vec zero() { return _mm512_setzero_ps(); }
    static vec load(const float *p) { return _mm512_loadu_ps(p); }
    static void store(float *p, vec v) { _mm512_storeu_ps(p, v); }
    static vec set1(float x) { return _mm512_set1_ps(x); }
    static vec fma(vec a, vec b, vec c) { return _mm512_fmadd_ps(a, b, c); }
    static vec mul(vec a, vec b) { return _mm512_mul_ps(a, b); }
    static vec add(vec a, vec b) { return _mm512_add_ps(a, b); }
    static pvec loadp(const int16_t *p) { return (pvec)_mm512_loadu_si512(p); }
    static pvec bcast2(const int16_t *p) {
        int32_t v;
        __builtin_memcpy(&v, p, sizeof(v));
        return (pvec)_mm512_set1_epi32(v);
    }
    static vec dot(vec acc, pvec a, pvec b) { return _mm512_dpbf16_ps(acc, a, b); }
};

} // namespace

void f32_gemm_12x32c2__avx512bf16(dim_t kp, const int16_t *a, const int16_t *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta) {
    f32c2_ukernel_impl<bf16_avx512_t, 12, 2>(kp, a, b, c, ldc, m, n, alpha, beta);
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
