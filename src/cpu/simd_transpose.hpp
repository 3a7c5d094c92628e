// In-register transposes shared by the kernels that move 4-byte elements
// between layouts (the reorder's tiles, the convolution's source
// transposition). Compiled into the per-ISA files that include it; empty
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

} // namespace cpu
} // namespace impl
} // namespace dnnl
