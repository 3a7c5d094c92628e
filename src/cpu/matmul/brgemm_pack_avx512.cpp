// dnnl-isa: avx512_core
// Packing f32 weights whose K runs are contiguous (weights stored N x K,
// as an inner product's (OC, IC) rows or a matmul's transposed `ba`)
// into the BRGEMM panels: 16 x 16 blocks transposed in registers, so
// every load reads a whole cache line of one column's K run and every
// store writes a whole panel row segment. Entered through the table of
// brgemm_matmul_pack.cpp.
#include "cpu/matmul/brgemm_matmul_pack.hpp"

#include <immintrin.h>

#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

// r[i] (16 floats of row i) become the columns: pairs of rows
// interleaved, then quads within each 128-bit lane (lane l of u[4g + c]
// then holds rows 4g..4g+3 at column 4l + c), then the lanes gathered
// across the four row groups. (The zero-masked forms with every lane
// kept: GCC 12 warns about the unmasked ones' undefined pass-through.)
inline void transpose_16x16(__m512 r[16]) {
    constexpr __mmask16 all = 0xffff;
    __m512 t[16], u[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_maskz_unpacklo_ps(all, r[i], r[i + 1]);
        t[i + 1] = _mm512_maskz_unpackhi_ps(all, r[i], r[i + 1]);
    }
    for (int g = 0; g < 4; ++g) {
        const __m512 *q = t + 4 * g;
        u[4 * g + 0] = _mm512_maskz_shuffle_ps(all, q[0], q[2], 0x44);
        u[4 * g + 1] = _mm512_maskz_shuffle_ps(all, q[0], q[2], 0xee);
        u[4 * g + 2] = _mm512_maskz_shuffle_ps(all, q[1], q[3], 0x44);
        u[4 * g + 3] = _mm512_maskz_shuffle_ps(all, q[1], q[3], 0xee);
    }
    for (int c = 0; c < 4; ++c) {
        const __m512 x0 = u[c], x1 = u[4 + c], x2 = u[8 + c], x3 = u[12 + c];
        const __m512 a = _mm512_maskz_shuffle_f32x4(all, x0, x1, 0x44);
        const __m512 b = _mm512_maskz_shuffle_f32x4(all, x2, x3, 0x44);
        const __m512 d = _mm512_maskz_shuffle_f32x4(all, x0, x1, 0xee);
        const __m512 e = _mm512_maskz_shuffle_f32x4(all, x2, x3, 0xee);
        r[c] = _mm512_maskz_shuffle_f32x4(all, a, b, 0x88);
        r[4 + c] = _mm512_maskz_shuffle_f32x4(all, a, b, 0xdd);
        r[8 + c] = _mm512_maskz_shuffle_f32x4(all, d, e, 0x88);
        r[12 + c] = _mm512_maskz_shuffle_f32x4(all, d, e, 0xdd);
    }
}

} // namespace

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
            transpose_16x16(r);
            for (dim_t i = 0; i < kk; ++i)
                _mm512_storeu_ps(out + (k0 + i) * panel, r[i]);
        }
    }
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
