// In-register transposes shared by the kernels that move 4-byte elements
// between layouts (the reorder's tiles, the convolution's source
// transposition, the BRGEMM weight packing): 8 x 8 with AVX, 16 x 16
// with AVX-512. Compiled into the per-ISA files that include it; empty
// where the file's ISA lacks the instructions.
#pragma once

#include <immintrin.h>

namespace dnnl {
namespace impl {
namespace cpu {

#if defined(__AVX__)
// Rows r[0..7] of an 8 x 8 block of floats become its columns: pairs of
// rows interleaved, then pairs of pairs (each 128-bit half then holds a
// 4 x 4 transpose), the halves exchanged last.
inline void transpose_8x8_ps(__m256 r[8]) {
    __m256 t[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee);
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);
    }
    for (int i = 0; i < 4; ++i) {
        t[i] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x20);
        t[i + 4] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x31);
    }
    for (int i = 0; i < 8; ++i)
        r[i] = t[i];
}
#endif

#if defined(__AVX512F__)
// r[i] (16 floats of row i) become the columns: pairs of rows
// interleaved, then quads within each 128-bit lane (lane l of u[4g + c]
// then holds rows 4g..4g+3 at column 4l + c), then the lanes gathered
// across the four row groups. (The zero-masked forms with every lane
// kept: GCC 12 warns about the unmasked ones' undefined pass-through.)
inline void transpose_16x16_ps(__m512 r[16]) {
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
#endif

} // namespace cpu
} // namespace impl
} // namespace dnnl
