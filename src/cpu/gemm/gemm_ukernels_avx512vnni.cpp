// dnnl-isa: avx512_core_vnni
// AVX-512 VNNI GEMM microkernels: s32 12x32 on int16 pairs with vpdpwssd
// (multiply pairs and accumulate in one instruction) and s32 12x32 on
// u8 x s8 quads with vpdpbusd (four products per lane and instruction).
// Compiled for VNNI as a whole, so the shared kernel templates inline
// their dot products.
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

struct s32_avx512vnni_t {
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
    static vec dot(vec acc, vec a, vec b) { return _mm512_dpwssd_epi32(acc, a, b); }
    static vec add(vec a, vec b) { return _mm512_add_epi32(a, b); }
};

struct s32c4_avx512vnni_t {
    using vec = __m512i;
    static constexpr int width = 16;
    static vec zero() { return _mm512_setzero_si512(); }
    static vec loadb(const int8_t *p) { return _mm512_loadu_si512(p); }
    static vec loadc(const int32_t *p) { return _mm512_loadu_si512(p); }
    static void store(int32_t *p, vec v) { _mm512_storeu_si512(p, v); }
    static vec bcast4(const uint8_t *p) {
        int32_t v;
        __builtin_memcpy(&v, p, sizeof(v));
        return _mm512_set1_epi32(v);
    }
    static vec dot(vec acc, vec a, vec b) { return _mm512_dpbusd_epi32(acc, a, b); }
    static vec add(vec a, vec b) { return _mm512_add_epi32(a, b); }
};

template <int ROWS>
void c4_rows(dim_t kq, const uint8_t *a, const int8_t *b, int32_t *c,
        dim_t ldc, dim_t n, bool accumulate) {
    s32c4_ukernel_impl<s32c4_avx512vnni_t, 12, 2, ROWS>(kq, a, b, c, ldc, n, accumulate);
}

} // namespace

const s32c4_ukernel_f s32_gemm_12x32c4__avx512vnni[12] = {c4_rows<1>,
        c4_rows<2>, c4_rows<3>, c4_rows<4>, c4_rows<5>, c4_rows<6>,
        c4_rows<7>, c4_rows<8>, c4_rows<9>, c4_rows<10>, c4_rows<11>,
        c4_rows<12>};

void s32_gemm_12x32c2__avx512vnni(dim_t kp, const int16_t *a,
        const int16_t *b, int32_t *c, dim_t ldc, dim_t m, dim_t n,
        bool accumulate) {
    s32_ukernel_impl<s32_avx512vnni_t, 12, 2>(kp, a, b, c, ldc, m, n, accumulate);
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
