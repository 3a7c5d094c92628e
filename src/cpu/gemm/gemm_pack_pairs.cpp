// dnnl-isa: avx2
// Packing 8-bit rows into the integer kernels' 16-bit pairs of k (see
// pack_rows_s16 in gemm_pack.hpp): eight rows of sixteen values at a time
// widened to 16 bits, the zero point subtracted, and the 8 x 8 block of
// pairs (32-bit units) transposed in registers, so that each store writes
// one pair of k for eight rows. The scalar loop took about eight
// instructions a pair (2 M pairs of an inner product's weights a call);
// this takes under one. The 256-bit form serves AVX-512 machines too
// (their entry is this one).
#include "cpu/gemm/gemm_pack.hpp"

#include <immintrin.h>

#include "cpu/isa_unit.hpp"
#include "cpu/simd_transpose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {

template <bool is_signed>
__m256i widen(const uint8_t *p) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    return is_signed ? _mm256_cvtepi8_epi16(b) : _mm256_cvtepu8_epi16(b);
}

template <bool is_signed>
int16_t value(const uint8_t *p, dim_t i, int32_t zp) {
    const int32_t v = is_signed ? (int32_t)(int8_t)p[i] : (int32_t)p[i];
    return (int16_t)(v - zp);
}

template <bool is_signed>
void pack(const uint8_t *src, dim_t ld, dim_t nrows, dim_t kc, int32_t zp,
        int width, int16_t *out) {
    const dim_t kp = (kc + 1) / 2;
    const dim_t kp_vec = kc / 16 * 8; // pairs read as whole 16-byte rows
    const __m256i vzp = _mm256_set1_epi16((int16_t)zp);
    // Pairs in the whole output. Panels narrower than 8 rows take full
    // stores where the two extra lanes land inside it: they fall on the
    // next pair's first rows, which are written after (masked stores are
    // microcoded on AMD processors, and made this packer slower than the
    // scalar loop for 6-row panels).
    const dim_t limit = (nrows + width - 1) / width * width * kp;
    for (dim_t r0 = 0; r0 < nrows; r0 += width) {
        int16_t *panel = out + r0 * kp * 2;
        for (int i0 = 0; i0 < width; i0 += 8) {
            const int lanes = width - i0 < 8 ? width - i0 : 8;
            const dim_t left = nrows - r0 - i0;
            const int rows = left <= 0 ? 0 : left < lanes ? (int)left : lanes;
            const uint8_t *row[8];
            for (int i = 0; i < 8; ++i)
                row[i] = i < rows ? src + (r0 + i0 + i) * ld : nullptr;
            const __m256i keep = _mm256_cmpgt_epi32(_mm256_set1_epi32(lanes),
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            for (dim_t p0 = 0; p0 < kp_vec; p0 += 8) {
                __m256 v[8];
                for (int i = 0; i < 8; ++i)
                    v[i] = row[i] ? _mm256_castsi256_ps(_mm256_sub_epi16(
                                   widen<is_signed>(row[i] + 2 * p0), vzp))
                                  : _mm256_setzero_ps();
                transpose_8x8_ps(v);
                for (int j = 0; j < 8; ++j) {
                    const dim_t u = r0 * kp + (p0 + j) * width + i0;
                    int *d = reinterpret_cast<int *>(out + u * 2);
                    if (lanes == 8 || (width < 8 && u + 8 <= limit))
                        _mm256_storeu_si256(reinterpret_cast<__m256i *>(d),
                                _mm256_castps_si256(v[j]));
                    else
                        _mm256_maskstore_epi32(
                                d, keep, _mm256_castps_si256(v[j]));
                }
            }
            // The last pairs (and an odd kc's partner, 0) one at a time.
            for (dim_t p = kp_vec; p < kp; ++p)
                for (int i = 0; i < lanes; ++i) {
                    int16_t *d = panel + (p * width + i0 + i) * 2;
                    d[0] = row[i] ? value<is_signed>(row[i], 2 * p, zp) : 0;
                    d[1] = row[i] && 2 * p + 1 < kc
                                   ? value<is_signed>(row[i], 2 * p + 1, zp)
                                   : 0;
                }
        }
    }
}

void pack_rows(const void *src, bool is_signed, dim_t ld, dim_t nrows, dim_t kc,
        int32_t zp, int width, int16_t *out) {
    const auto *s = static_cast<const uint8_t *>(src);
    if (is_signed)
        pack<true>(s, ld, nrows, kc, zp, width, out);
    else
        pack<false>(s, ld, nrows, kc, zp, width, out);
}

} // namespace

const pack_pairs_kernels_t &DNNL_ISA_NAME(pack_pairs_kernels)() {
    static const pack_pairs_kernels_t k{isa_unit::this_isa_name, pack_rows};
    return k;
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
