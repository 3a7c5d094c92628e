// Packing of integer GEMM operands into the u8 x s8 quad layout of the
// "c4" microkernels (see gemm_ukernels.hpp): A as u8 (s8 data shifted by
// +128, i.e. its sign bit flipped), B as s8 (u8 data shifted by -128, the
// same flip). The caller compensates the shifts (gemm_s32c4.cpp). K tails
// and rows / columns beyond the matrix are packed as zeros of the shifted
// domain, so they add nothing to the dot products.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// Byte mask that flips the sign bit of every byte of a quad (0 or 0x80s).
inline uint32_t c4_flip_mask(bool flip) { return flip ? 0x80808080u : 0u; }

inline uint32_t c4_load_quad(const uint8_t *p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
inline void c4_store_quad(uint8_t *p, uint32_t v) { std::memcpy(p, &v, 4); }

// Packs rows [0, m) x k-columns [0, kc) of A (byte (i, p) at
// a[i * rs + p * cs]) into MR-row panels of quads: out[panel][q][i][t].
inline void pack_a_c4(const uint8_t *a, dim_t rs, dim_t cs, bool flip,
        dim_t m, dim_t kc, int MR, uint8_t *out) {
    const dim_t kq = (kc + 3) / 4, kfull = kc / 4;
    const uint32_t fm = c4_flip_mask(flip);
    const uint8_t fb = (uint8_t)fm;
    for (dim_t ir = 0; ir < m; ir += MR) {
        const dim_t mr = m - ir < MR ? m - ir : MR;
        const uint8_t *src = a + ir * rs;
        uint8_t *o = out + ir * kq * 4;
        if (cs == 1) {
            // Rows contiguous along k: one 32-bit move per quad.
            for (dim_t i = 0; i < mr; ++i) {
                const uint8_t *r = src + i * rs;
                for (dim_t q = 0; q < kfull; ++q)
                    c4_store_quad(o + (q * MR + i) * 4, c4_load_quad(r + 4 * q) ^ fm);
            }
        } else {
            for (dim_t q = 0; q < kfull; ++q)
                for (dim_t t = 0; t < 4; ++t) {
                    const uint8_t *r = src + (4 * q + t) * cs;
                    for (dim_t i = 0; i < mr; ++i)
                        o[(q * MR + i) * 4 + t] = (uint8_t)(r[i * rs] ^ fb);
                }
        }
        if (kfull < kq)
            for (dim_t i = 0; i < mr; ++i)
                for (dim_t t = 0; t < 4; ++t) {
                    const dim_t p = 4 * kfull + t;
                    o[(kfull * MR + i) * 4 + t] = p < kc
                            ? (uint8_t)(src[i * rs + p * cs] ^ fb)
                            : 0;
                }
        if (mr < MR)
            for (dim_t q = 0; q < kq; ++q)
                std::memset(o + (q * MR + mr) * 4, 0, (MR - mr) * 4);
    }
}

// Interleaves four rows of 16 bytes into 16 quads (64 bytes), flipping
// sign bits by `fm`.
inline void c4_interleave16(const uint8_t *r0, const uint8_t *r1,
        const uint8_t *r2, const uint8_t *r3, uint32_t fm, uint8_t *o) {
#if defined(__SSE2__)
    const __m128i f = _mm_set1_epi32((int)fm);
    const __m128i x0 = _mm_loadu_si128((const __m128i *)r0);
    const __m128i x1 = _mm_loadu_si128((const __m128i *)r1);
    const __m128i x2 = _mm_loadu_si128((const __m128i *)r2);
    const __m128i x3 = _mm_loadu_si128((const __m128i *)r3);
    const __m128i l01 = _mm_unpacklo_epi8(x0, x1), h01 = _mm_unpackhi_epi8(x0, x1);
    const __m128i l23 = _mm_unpacklo_epi8(x2, x3), h23 = _mm_unpackhi_epi8(x2, x3);
    _mm_storeu_si128((__m128i *)o, _mm_xor_si128(_mm_unpacklo_epi16(l01, l23), f));
    _mm_storeu_si128((__m128i *)(o + 16), _mm_xor_si128(_mm_unpackhi_epi16(l01, l23), f));
    _mm_storeu_si128((__m128i *)(o + 32), _mm_xor_si128(_mm_unpacklo_epi16(h01, h23), f));
    _mm_storeu_si128((__m128i *)(o + 48), _mm_xor_si128(_mm_unpackhi_epi16(h01, h23), f));
#else
    const uint8_t fb = (uint8_t)fm;
    for (int j = 0; j < 16; ++j) {
        o[4 * j + 0] = r0[j] ^ fb;
        o[4 * j + 1] = r1[j] ^ fb;
        o[4 * j + 2] = r2[j] ^ fb;
        o[4 * j + 3] = r3[j] ^ fb;
    }
#endif
}

// Packs k-rows [0, kc) x columns [0, n) of B (byte (p, j) at
// b[p * rs + j * cs]) into NR-column panels of quads: out[panel][q][j][t].
inline void pack_b_c4(const uint8_t *b, dim_t rs, dim_t cs, bool flip,
        dim_t kc, dim_t n, int NR, uint8_t *out) {
    const dim_t kq = (kc + 3) / 4, kfull = kc / 4;
    const uint32_t fm = c4_flip_mask(flip);
    const uint8_t fb = (uint8_t)fm;
    static const uint8_t zeros[16] = {};
    for (dim_t jr = 0; jr < n; jr += NR) {
        const dim_t nr = n - jr < NR ? n - jr : NR;
        const uint8_t *src = b + jr * cs;
        uint8_t *o = out + jr * kq * 4;
        if (cs == 1) {
            // Rows contiguous along j: interleave four rows at a time.
            const dim_t nv = nr / 16 * 16;
            for (dim_t q = 0; q < kq; ++q) {
                const uint8_t *r[4];
                for (int t = 0; t < 4; ++t)
                    r[t] = 4 * q + t < kc ? src + (4 * q + t) * rs : nullptr;
                for (dim_t j = 0; j < nv; j += 16)
                    c4_interleave16(r[0] + j, r[1] ? r[1] + j : zeros,
                            r[2] ? r[2] + j : zeros, r[3] ? r[3] + j : zeros,
                            fm, o + (q * NR + j) * 4);
                for (dim_t j = nv; j < nr; ++j)
                    for (int t = 0; t < 4; ++t)
                        o[(q * NR + j) * 4 + t] = r[t] ? (uint8_t)(r[t][j] ^ fb) : 0;
                // Rows past kc were read as zeros above; flip only real ones.
                if (fm)
                    for (int t = 0; t < 4; ++t)
                        if (!r[t])
                            for (dim_t j = 0; j < nv; ++j)
                                o[(q * NR + j) * 4 + t] = 0;
            }
        } else if (rs == 1) {
            // Columns contiguous along k: one 32-bit move per quad.
            for (dim_t j = 0; j < nr; ++j) {
                const uint8_t *c = src + j * cs;
                for (dim_t q = 0; q < kfull; ++q)
                    c4_store_quad(o + (q * NR + j) * 4, c4_load_quad(c + 4 * q) ^ fm);
                for (dim_t t = 0; kfull < kq && t < 4; ++t) {
                    const dim_t p = 4 * kfull + t;
                    o[(kfull * NR + j) * 4 + t] = p < kc ? (uint8_t)(c[p] ^ fb) : 0;
                }
            }
        } else {
            for (dim_t j = 0; j < nr; ++j)
                for (dim_t p = 0; p < 4 * kq; ++p)
                    o[(p / 4 * NR + j) * 4 + p % 4] = p < kc
                            ? (uint8_t)(src[p * rs + j * cs] ^ fb)
                            : 0;
        }
        if (nr < NR)
            for (dim_t q = 0; q < kq; ++q)
                std::memset(o + (q * NR + nr) * 4, 0, (NR - nr) * 4);
    }
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
