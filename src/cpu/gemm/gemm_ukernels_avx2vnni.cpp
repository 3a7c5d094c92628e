// dnnl-isa: avx2_vnni
// AVX-VNNI GEMM microkernel: s32 6x16 on u8 x s8 quads with the
// VEX-encoded vpdpbusd (four products per int32 lane, no saturation), for
// AVX2 machines with AVX-VNNI and AVX-512 machines limited to 256-bit
// vectors. Compiled for AVX-VNNI as a whole so the template inlines it.
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

struct s32c4_avx2vnni_t {
    using vec = __m256i;
    static constexpr int width = 8;
    static vec zero() { return _mm256_setzero_si256(); }
    static vec loadb(const int8_t *p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    }
    static vec loadc(const int32_t *p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    }
    static void store(int32_t *p, vec v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
    }
    static vec bcast4(const uint8_t *p) {
        int32_t v;
        __builtin_memcpy(&v, p, sizeof(v));
        return _mm256_set1_epi32(v);
    }
    static vec dot(vec acc, vec a, vec b) { return _mm256_dpbusd_avx_epi32(acc, a, b); }
    static vec add(vec a, vec b) { return _mm256_add_epi32(a, b); }
};

template <int ROWS>
void c4_rows(dim_t kq, const uint8_t *a, const int8_t *b, int32_t *c,
        dim_t ldc, dim_t n, bool accumulate) {
    s32c4_ukernel_impl<s32c4_avx2vnni_t, 6, 2, ROWS>(kq, a, b, c, ldc, n, accumulate);
}

} // namespace

const s32c4_ukernel_f s32_gemm_6x16c4__avx2vnni[6] = {c4_rows<1>, c4_rows<2>,
        c4_rows<3>, c4_rows<4>, c4_rows<5>, c4_rows<6>};

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
