// dnnl-isa: base avx2 avx512_core
// Integer products of up to four rows without packing (gemm_ukernels.hpp,
// s32_small_m_desc_t), compiled once per ISA listed above. The t form's
// dot products widen both operands to 16 bits and add products pairwise
// into 32 bits (vpmaddwd: exact for 8-bit values), with intrinsics where
// the ISA has them (the vectorizer multiplied in 16 bits and widened each
// product, twice the instructions); the n form takes two rows of B at a
// time the same way (one vpmaddwd per 8 columns and row of A). Sums go in
// int32 over blocks of k short enough not to overflow (32768 products of
// at most 255 x 255 in magnitude), then into int64.
#include <algorithm>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "cpu/gemm/gemm_ukernels.hpp"
#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {
namespace {

constexpr dim_t kblock = 32768;
// Columns of the n form summed at a time: runs of B's rows long enough to
// stream (64-column runs stepped through memory a row stride at a time,
// one line per page: 4x slower).
constexpr dim_t max_cols = 512;

#if defined(__AVX2__)
// Sixteen 8-bit values widened to 16 bits.
inline __m256i widen16(const uint8_t *p) {
    return _mm256_cvtepu8_epi16(
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}
inline __m256i widen16(const int8_t *p) {
    return _mm256_cvtepi8_epi16(
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}
#endif
#if defined(__AVX512BW__)
// Thirty-two 8-bit values widened to 16 bits.
inline __m512i widen32(const uint8_t *p) {
    return _mm512_cvtepu8_epi16(
            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
}
inline __m512i widen32(const int8_t *p) {
    return _mm512_cvtepi8_epi16(
            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
}
#endif

// sum of a[p] * b[p] for p < n (n <= kblock: no int32 overflow).
template <typename TA, typename TB>
inline int32_t dot_block(const TA *a, const TB *b, dim_t n) {
    int32_t s = 0;
    dim_t p = 0;
#if defined(__AVX2__)
    __m256i y0 = _mm256_setzero_si256(), y1 = _mm256_setzero_si256();
#if defined(__AVX512BW__)
    __m512i z0 = _mm512_setzero_si512(), z1 = _mm512_setzero_si512();
    for (; p + 64 <= n; p += 64) {
        z0 = _mm512_add_epi32(z0,
                _mm512_madd_epi16(widen32(a + p), widen32(b + p)));
        z1 = _mm512_add_epi32(z1,
                _mm512_madd_epi16(widen32(a + p + 32), widen32(b + p + 32)));
    }
    // (Through memory: GCC 12 warns about its own 256-bit extracts.)
    int32_t lanes[16];
    _mm512_storeu_si512(lanes, _mm512_add_epi32(z0, z1));
    for (int l = 0; l < 16; ++l)
        s += lanes[l];
#endif
    for (; p + 32 <= n; p += 32) {
        y0 = _mm256_add_epi32(y0,
                _mm256_madd_epi16(widen16(a + p), widen16(b + p)));
        y1 = _mm256_add_epi32(y1,
                _mm256_madd_epi16(widen16(a + p + 16), widen16(b + p + 16)));
    }
    const __m256i y = _mm256_add_epi32(y0, y1);
    const __m128i x = _mm_add_epi32(
            _mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
    const __m128i x2 = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
    s += _mm_cvtsi128_si32(_mm_add_epi32(x2, _mm_shuffle_epi32(x2, 0xb1)));
#endif
    for (; p < n; ++p)
        s += (int32_t)a[p] * (int32_t)b[p];
    return s;
}

// t form: one dot product per (row, column) along contiguous k.
template <typename TA, typename TB>
void small_m_t(dim_t m, dim_t n, dim_t k, const void *av, dim_t lda,
        const void *bv, dim_t ldb, int64_t *ab, int64_t *bsum) {
    const TA *A = static_cast<const TA *>(av);
    const TB *B = static_cast<const TB *>(bv);
    for (dim_t j = 0; j < n; ++j) {
        const TB *b = B + j * ldb;
        if (bsum) {
            int64_t t = 0;
            for (dim_t p = 0; p < k; ++p)
                t += b[p];
            bsum[j] = t;
        }
        for (dim_t i = 0; i < m; ++i) {
            const TA *a = A + i * lda;
            int64_t t = 0;
            for (dim_t p0 = 0; p0 < k; p0 += kblock)
                t += dot_block(a + p0, b + p0, std::min(kblock, k - p0));
            ab[i * n + j] = t;
        }
    }
}

// n form: rows of B scaled by each A value into per-column sums, up to
// max_cols columns at a time.
template <typename TA, typename TB>
void small_m_n(dim_t m, dim_t n, dim_t k, const void *av, dim_t lda,
        const void *bv, dim_t ldb, int64_t *ab, int64_t *bsum) {
    const TA *A = static_cast<const TA *>(av);
    const TB *B = static_cast<const TB *>(bv);
    for (dim_t j0 = 0; j0 < n; j0 += max_cols) {
        const dim_t nc = std::min(max_cols, n - j0);
        int64_t tab[4][max_cols] = {}, tb[max_cols] = {};
        for (dim_t p0 = 0; p0 < k; p0 += kblock) {
            const dim_t p1 = std::min(k, p0 + kblock);
            int32_t s[4][max_cols] = {}, sb[max_cols] = {};
            // Two rows of B at a time (the second zero past k).
            for (dim_t p = p0; p < p1; p += 2) {
                const bool pair = p + 1 < p1;
                const TB *b0 = B + p * ldb + j0, *b1 = b0 + ldb;
                int32_t a0[4], a1[4];
                for (dim_t i = 0; i < m; ++i) {
                    a0[i] = A[i * lda + p];
                    a1[i] = pair ? A[i * lda + p + 1] : 0;
                }
                dim_t j = 0;
#if defined(__AVX2__)
                // Sixteen columns: the two rows' values interleaved as
                // 16-bit pairs in column order (the quarter permute undoes
                // the unpacks' per-lane order), times (a0, a1) pairs.
                const __m256i ones = _mm256_set1_epi32(0x00010001);
                for (; j + 16 <= nc; j += 16) {
                    const __m256i r0
                            = _mm256_permute4x64_epi64(widen16(b0 + j), 0xd8);
                    const __m256i r1 = pair
                            ? _mm256_permute4x64_epi64(widen16(b1 + j), 0xd8)
                            : _mm256_setzero_si256();
                    const __m256i lo = _mm256_unpacklo_epi16(r0, r1),
                                  hi = _mm256_unpackhi_epi16(r0, r1);
                    auto add = [&](int32_t *acc, __m256i w) {
                        __m256i *q0 = reinterpret_cast<__m256i *>(acc + j),
                                *q1 = reinterpret_cast<__m256i *>(acc + j + 8);
                        _mm256_storeu_si256(q0,
                                _mm256_add_epi32(_mm256_loadu_si256(q0),
                                        _mm256_madd_epi16(lo, w)));
                        _mm256_storeu_si256(q1,
                                _mm256_add_epi32(_mm256_loadu_si256(q1),
                                        _mm256_madd_epi16(hi, w)));
                    };
                    for (dim_t i = 0; i < m; ++i)
                        add(s[i], _mm256_set1_epi32((int32_t)(
                                (uint32_t)(uint16_t)(int16_t)a0[i]
                                | ((uint32_t)(uint16_t)(int16_t)a1[i] << 16))));
                    if (bsum) add(sb, ones);
                }
#endif
                for (; j < nc; ++j) {
                    const int32_t v0 = b0[j], v1 = pair ? (int32_t)b1[j] : 0;
                    for (dim_t i = 0; i < m; ++i)
                        s[i][j] += a0[i] * v0 + a1[i] * v1;
                    if (bsum) sb[j] += v0 + v1;
                }
            }
            for (dim_t j = 0; j < nc; ++j) {
                for (dim_t i = 0; i < m; ++i)
                    tab[i][j] += s[i][j];
                tb[j] += sb[j];
            }
        }
        for (dim_t i = 0; i < m; ++i)
            for (dim_t j = 0; j < nc; ++j)
                ab[i * n + j0 + j] = tab[i][j];
        if (bsum)
            for (dim_t j = 0; j < nc; ++j)
                bsum[j0 + j] = tb[j];
    }
}

} // namespace

const s32_small_m_desc_t &DNNL_ISA_NAME(s32_small_m)() {
    static const s32_small_m_desc_t d {{{{small_m_n<uint8_t, uint8_t>,
                                                 small_m_n<uint8_t, int8_t>},
                                                {small_m_n<int8_t, uint8_t>,
                                                        small_m_n<int8_t, int8_t>}},
            {{small_m_t<uint8_t, uint8_t>, small_m_t<uint8_t, int8_t>},
                    {small_m_t<int8_t, uint8_t>, small_m_t<int8_t, int8_t>}}}};
    return d;
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
