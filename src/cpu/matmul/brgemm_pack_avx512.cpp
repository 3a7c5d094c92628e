// dnnl-isa: avx512_core
// Packing f32 weights whose K runs are contiguous (weights stored N x K,
// as an inner product's (OC, IC) rows or a matmul's transposed `ba`)
// into the BRGEMM panels, and transposing an f32 matrix: 16 x 16 blocks
// transposed in registers, so every load reads a whole cache line of one
// row and every store writes a whole cache line. Entered through the
// tables of brgemm_matmul_pack.cpp.
#include "cpu/matmul/brgemm_matmul_pack.hpp"

#include <immintrin.h>

#include "cpu/isa_unit.hpp"
#include "cpu/simd_transpose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

void DNNL_ISA_NAME(pack_f32_k_contiguous)(
        float *o, const float *w, const pack_src_t &s, dim_t kn) {
    const dim_t panel = s.panel, wn = s.wn;
    const dim_t n_cols = (s.n + panel - 1) / panel * panel;
    // 16 columns at a time (panels are whole vectors wide), each column's
    // K run streamed front to back.
    for (dim_t j0 = 0; j0 < n_cols; j0 += 16) {
        const dim_t nj = s.n - j0 < 16 ? (s.n > j0 ? s.n - j0 : 0) : 16;
        float *out = o + (j0 / panel) * s.pstride + j0 % panel;
        const float *col[16];
        for (dim_t j = 0; j < 16; ++j)
            col[j] = j < nj ? w + (j0 + j) * wn : nullptr;
        for (dim_t k0 = 0; k0 < kn; k0 += 16) {
            const dim_t kk = kn - k0 < 16 ? kn - k0 : 16;
            const __mmask16 m = (__mmask16)((1u << kk) - 1);
            __m512 r[16];
            for (int j = 0; j < 16; ++j) {
                if (!col[j]) {
                    r[j] = _mm512_setzero_ps();
                    continue;
                }
                _mm_prefetch((const char *)(col[j] + k0 + 64), _MM_HINT_T0);
                r[j] = _mm512_maskz_loadu_ps(m, col[j] + k0);
            }
            transpose_16x16_ps(r);
            for (dim_t i = 0; i < kk; ++i)
                _mm512_storeu_ps(out + (k0 + i) * panel, r[i]);
        }
    }
}

void DNNL_ISA_NAME(transpose_f32)(const float *src, dim_t lds, dim_t rows,
        dim_t cols, float *dst, dim_t ldd) {
    for (dim_t r0 = 0; r0 < rows; r0 += 16) {
        const dim_t nr = rows - r0 < 16 ? rows - r0 : 16;
        for (dim_t c0 = 0; c0 < cols; c0 += 16) {
            const dim_t nc = cols - c0 < 16 ? cols - c0 : 16;
            const __mmask16 m = (__mmask16)((1u << nc) - 1);
            __m512 r[16];
            for (int i = 0; i < 16; ++i)
                r[i] = i < nr ? _mm512_maskz_loadu_ps(
                                        m, src + (r0 + i) * lds + c0)
                              : _mm512_setzero_ps();
            transpose_16x16_ps(r);
            const __mmask16 mr = (__mmask16)((1u << nr) - 1);
            for (dim_t j = 0; j < nc; ++j)
                _mm512_mask_storeu_ps(dst + (c0 + j) * ldd + r0, mr, r[j]);
        }
    }
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
