// Conversions between f32 and the other data types the library stores:
// bf16, f16, f8 (e5m2, e4m3), and saturating float -> s8/u8/s32 with
// round-half-to-even. Everything is inline, branch-free (selects only) and
// made of plain integer/float operations, so loops over these functions
// vectorise in whatever ISA the calling function is compiled for.
#pragma once

#include <cstdint>
#include <cstring>

#include "common/c_types.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifndef DNNL_ALWAYS_INLINE
// Forces inlining, so that callers compiled for a wider ISA vectorise the
// loops they call these functions from.
#define DNNL_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

namespace dnnl {
namespace impl {

DNNL_ALWAYS_INLINE uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}
DNNL_ALWAYS_INLINE float bits_f32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}

// Nearest integer, ties to even (assumes the default rounding mode). Exact
// for every float: values of magnitude 2^23 or more are already integers;
// the sign of zero is kept; NaN passes through.
DNNL_ALWAYS_INLINE float round_half_even(float x) {
    const float two23 = 8388608.f;
    const float ax = bits_f32(f32_bits(x) & 0x7fffffffu);
    // Adding 2^23 leaves no fraction bits, so the FPU rounds (to even).
    const float r = (ax + two23) - two23;
    const float sr = bits_f32(f32_bits(r) | (f32_bits(x) & 0x80000000u));
    return ax < two23 ? sr : x;
}

// ---- bf16 -----------------------------------------------------------------

DNNL_ALWAYS_INLINE float bf16_to_f32(uint16_t h) {
    return bits_f32(uint32_t(h) << 16);
}

DNNL_ALWAYS_INLINE uint16_t f32_to_bf16(float f) {
    const uint32_t u = f32_bits(f);
    const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    const uint32_t quiet_nan = (u >> 16) | 0x40u;
    const bool is_nan = (u & 0x7fffffffu) > 0x7f800000u;
    return uint16_t(is_nan ? quiet_nan : rounded);
}

// ---- f16 (IEEE binary16) --------------------------------------------------

DNNL_ALWAYS_INLINE float f16_to_f32(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t em = h & 0x7fffu;
    // Shift exponent and mantissa into place and rebias 15 -> 127.
    const uint32_t o = (em << 13) + (112u << 23);
    // Inf/NaN: exponent all ones in f16 -> all ones in f32.
    const uint32_t special = o + (112u << 23);
    // Subnormal: renormalise with an exact float subtraction.
    const uint32_t sub =
            f32_bits(bits_f32(o + (1u << 23)) - bits_f32(113u << 23));
    const uint32_t r = em >= 0x7c00u ? special : (em < 0x0400u ? sub : o);
    return bits_f32(sign | r);
}

DNNL_ALWAYS_INLINE uint16_t f32_to_f16(float f) {
    const uint32_t u = f32_bits(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t ax = u & 0x7fffffffu;
    // Normal results: round the 13 dropped bits to even, rebias 127 -> 15.
    const uint32_t norm =
            ((ax + 0x0fffu + ((ax >> 13) & 1u)) >> 13) - (112u << 10);
    // Subnormal results: in [0.5, 1) one float ulp is 2^-24, the f16
    // subnormal step, so the FPU addition does the rounding.
    const uint32_t sub = f32_bits(bits_f32(ax) + 0.5f) - 0x3f000000u;
    const uint32_t nan = 0x7e00u | ((ax >> 13) & 0x1ffu);
    uint32_t r = ax < 0x38800000u ? sub : norm;
    r = ax >= 0x477ff000u ? 0x7c00u : r; // rounds to infinity
    r = ax > 0x7f800000u ? nan : r;
    return uint16_t(sign | r);
}

// ---- f8 -------------------------------------------------------------------

// e5m2: 1 sign, 5 exponent (bias 15), 2 mantissa bits; has inf and NaN.
// Negative zero widens to +0 in both f8 types, and f32 zeros of either
// sign narrow to +0, as oneDNN's conversions do (measured on its reorder;
// an f32 value that rounds to a negative zero stays negative).
// A NaN comes out quiet.
DNNL_ALWAYS_INLINE float f8_e5m2_to_f32(uint8_t v) {
    const float f = f16_to_f32(uint16_t(uint16_t(v == 0x80u ? 0 : v) << 8));
    const bool nan = (v & 0x7fu) > 0x7cu;
    return nan ? bits_f32(f32_bits(f) | 0x00400000u) : f;
}

// f32 goes to f8 through f16, as oneDNN converts: rounded to f16 (nearest
// even), then to f8 (nearest even), so a value just above an f8 midpoint
// that f16 rounds onto the midpoint ties to even.
DNNL_ALWAYS_INLINE uint8_t f16_to_f8_e5m2(uint16_t h) {
    const uint32_t sign = (h >> 8) & 0x80u;
    const uint32_t ax = h & 0x7fffu;
    // e5m2 is f16 without its 8 low mantissa bits; f16 values from 61440
    // (0x7b80) up round to infinity (0x7c).
    uint32_t r = (ax + 0x7fu + ((ax >> 8) & 1u)) >> 8;
    // NaN: the top payload bit kept, the quiet bit set.
    r = ax > 0x7c00u ? (ax >> 8) | 0x02u : r;
    return uint8_t(sign | r);
}

DNNL_ALWAYS_INLINE uint8_t f32_to_f8_e5m2(float f) {
    return f == 0.f ? 0 : f16_to_f8_e5m2(f32_to_f16(f));
}

// e4m3 (OCP "fn" variant): bias 7, no infinity, S.1111.111 is NaN, the
// largest finite value is 448. Out-of-range values become NaN.
DNNL_ALWAYS_INLINE float f8_e4m3_to_f32(uint8_t v) {
    const uint32_t sign = uint32_t(v & 0x80u) << 24;
    const uint32_t em = v & 0x7fu;
    const uint32_t o = (em << 20) + (120u << 23);
    const uint32_t sub =
            f32_bits(bits_f32(o + (1u << 23)) - bits_f32(121u << 23));
    uint32_t r = em < 0x08u ? sub : o;
    r = em == 0x7fu ? 0x7fc00000u : r;
    return bits_f32((v == 0x80u ? 0 : sign) | r);
}

DNNL_ALWAYS_INLINE uint8_t f16_to_f8_e4m3(uint16_t h) {
    const uint32_t sign = (h >> 8) & 0x80u;
    const uint32_t ax = h & 0x7fffu;
    // Normal e4m3 (from 2^-6, f16 0x2400): rebias 15 -> 7, round the 7
    // dropped mantissa bits to even.
    const uint32_t norm = (ax - 0x2000u + 0x3fu + ((ax >> 7) & 1u)) >> 7;
    // Subnormal e4m3: multiples of 2^-9, rounded to even by an addition
    // whose float ulp is 2^-9 (in [16384, 32768)).
    const uint32_t sub
            = f32_bits(f16_to_f32(uint16_t(ax)) + 16384.f) - f32_bits(16384.f);
    uint32_t r = ax < 0x2400u ? sub : norm;
    r = ax > 0x5f40u ? 0x7fu : r; // above 464 (incl. inf, NaN): NaN
    return uint8_t(sign | r);
}

DNNL_ALWAYS_INLINE uint8_t f32_to_f8_e4m3(float f) {
    return f == 0.f ? 0 : f16_to_f8_e4m3(f32_to_f16(f));
}

// ---- integers -------------------------------------------------------------

// Round half to even, then clamp to the type's range; NaN becomes 0.
DNNL_ALWAYS_INLINE int8_t f32_to_s8(float f) {
    float r = round_half_even(f);
    r = r == r ? r : 0.f;
    r = r < -128.f ? -128.f : r;
    r = r > 127.f ? 127.f : r;
    return int8_t(int32_t(r));
}

DNNL_ALWAYS_INLINE uint8_t f32_to_u8(float f) {
    float r = round_half_even(f);
    r = r == r ? r : 0.f;
    r = r < 0.f ? 0.f : r;
    r = r > 255.f ? 255.f : r;
    return uint8_t(int32_t(r));
}

DNNL_ALWAYS_INLINE int32_t f32_to_s32(float f) {
    float r = round_half_even(f);
    r = r == r ? r : 0.f;
    // 2^31 is the first float above INT32_MAX; -2^31 is exact.
    r = r < -2147483648.f ? -2147483648.f : r;
    const bool too_big = r >= 2147483648.f;
    r = too_big ? 0.f : r;
    const int32_t v = int32_t(r);
    return too_big ? INT32_MAX : v;
}

// ---- generic access by data type -------------------------------------------

// Whether f32 load/store helpers below handle this data type.
inline bool is_f32_convertible(data_type_t dt) {
    switch (dt) {
    case dnnl_f32:
    case dnnl_bf16:
    case dnnl_f16:
    case dnnl_f8_e5m2:
    case dnnl_f8_e4m3:
    case dnnl_s8:
    case dnnl_u8:
    case dnnl_s32:
        return true;
    default:
        return false;
    }
}

// Element `off` (in elements) of `base`, of type `dt`, as f32.
inline float load_f32(data_type_t dt, const void *base, dim_t off) {
    switch (dt) {
    case dnnl_f32:
        return static_cast<const float *>(base)[off];
    case dnnl_bf16:
        return bf16_to_f32(static_cast<const uint16_t *>(base)[off]);
    case dnnl_f16:
        return f16_to_f32(static_cast<const uint16_t *>(base)[off]);
    case dnnl_f8_e5m2:
        return f8_e5m2_to_f32(static_cast<const uint8_t *>(base)[off]);
    case dnnl_f8_e4m3:
        return f8_e4m3_to_f32(static_cast<const uint8_t *>(base)[off]);
    case dnnl_s8:
        return float(static_cast<const int8_t *>(base)[off]);
    case dnnl_u8:
        return float(static_cast<const uint8_t *>(base)[off]);
    case dnnl_s32:
        return float(static_cast<const int32_t *>(base)[off]);
    default:
        return 0.f;
    }
}

// Stores f32 `v` as element `off` of `base` of type `dt` (rounding to
// nearest even and saturating).
inline void store_f32(data_type_t dt, float v, void *base, dim_t off) {
    switch (dt) {
    case dnnl_f32:
        static_cast<float *>(base)[off] = v;
        break;
    case dnnl_bf16:
        static_cast<uint16_t *>(base)[off] = f32_to_bf16(v);
        break;
    case dnnl_f16:
        static_cast<uint16_t *>(base)[off] = f32_to_f16(v);
        break;
    case dnnl_f8_e5m2:
        static_cast<uint8_t *>(base)[off] = f32_to_f8_e5m2(v);
        break;
    case dnnl_f8_e4m3:
        static_cast<uint8_t *>(base)[off] = f32_to_f8_e4m3(v);
        break;
    case dnnl_s8:
        static_cast<int8_t *>(base)[off] = f32_to_s8(v);
        break;
    case dnnl_u8:
        static_cast<uint8_t *>(base)[off] = f32_to_u8(v);
        break;
    case dnnl_s32:
        static_cast<int32_t *>(base)[off] = f32_to_s32(v);
        break;
    default:
        break;
    }
}

// Converts `n` contiguous elements to f32; the loops vectorise in the
// caller's ISA when inlined into it.
inline void cvt_to_f32(data_type_t dt, const void *src, float *dst, dim_t n) {
    switch (dt) {
    case dnnl_f32: {
        const float *s = static_cast<const float *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = s[i];
        break;
    }
    case dnnl_bf16: {
        const uint16_t *s = static_cast<const uint16_t *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = bf16_to_f32(s[i]);
        break;
    }
    case dnnl_f16: {
        const uint16_t *s = static_cast<const uint16_t *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = f16_to_f32(s[i]);
        break;
    }
    case dnnl_f8_e5m2: {
        const uint8_t *s = static_cast<const uint8_t *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = f8_e5m2_to_f32(s[i]);
        break;
    }
    case dnnl_f8_e4m3: {
        const uint8_t *s = static_cast<const uint8_t *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = f8_e4m3_to_f32(s[i]);
        break;
    }
    case dnnl_s8: {
        const int8_t *s = static_cast<const int8_t *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = float(s[i]);
        break;
    }
    case dnnl_u8: {
        const uint8_t *s = static_cast<const uint8_t *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = float(s[i]);
        break;
    }
    case dnnl_s32: {
        const int32_t *s = static_cast<const int32_t *>(src);
        for (dim_t i = 0; i < n; ++i) dst[i] = float(s[i]);
        break;
    }
    default:
        break;
    }
}

#if defined(__SSE2__)
// f32 -> s8 / u8 for the leading multiple of 16 of `n` elements with SSE2
// (the compiler does not vectorise the select chains of f32_to_s8/u8):
// NaN -> 0, clamp to the type's range, cvtps rounds to nearest even (the
// default rounding mode, as round_half_even assumes), then packs narrow
// values that already fit. Returns the number of elements converted.
template <bool is_signed>
inline dim_t cvt_f32_to_x8_sse2(const float *src, uint8_t *dst, dim_t n) {
    const __m128 lo = _mm_set1_ps(is_signed ? -128.f : 0.f);
    const __m128 hi = _mm_set1_ps(is_signed ? 127.f : 255.f);
    dim_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i q[4];
        for (int k = 0; k < 4; ++k) {
            __m128 x = _mm_loadu_ps(src + i + 4 * k);
            x = _mm_and_ps(x, _mm_cmpord_ps(x, x));
            q[k] = _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(x, lo), hi));
        }
        const __m128i w0 = _mm_packs_epi32(q[0], q[1]);
        const __m128i w1 = _mm_packs_epi32(q[2], q[3]);
        _mm_storeu_si128((__m128i *)(dst + i),
                is_signed ? _mm_packs_epi16(w0, w1) : _mm_packus_epi16(w0, w1));
    }
    return i;
}
#endif

inline void cvt_from_f32(data_type_t dt, const float *src, void *dst, dim_t n) {
    switch (dt) {
    case dnnl_f32: {
        float *d = static_cast<float *>(dst);
        for (dim_t i = 0; i < n; ++i) d[i] = src[i];
        break;
    }
    case dnnl_bf16: {
        uint16_t *d = static_cast<uint16_t *>(dst);
        for (dim_t i = 0; i < n; ++i) d[i] = f32_to_bf16(src[i]);
        break;
    }
    case dnnl_f16: {
        uint16_t *d = static_cast<uint16_t *>(dst);
        for (dim_t i = 0; i < n; ++i) d[i] = f32_to_f16(src[i]);
        break;
    }
    case dnnl_f8_e5m2: {
        uint8_t *d = static_cast<uint8_t *>(dst);
        for (dim_t i = 0; i < n; ++i) d[i] = f32_to_f8_e5m2(src[i]);
        break;
    }
    case dnnl_f8_e4m3: {
        uint8_t *d = static_cast<uint8_t *>(dst);
        for (dim_t i = 0; i < n; ++i) d[i] = f32_to_f8_e4m3(src[i]);
        break;
    }
    case dnnl_s8: {
        int8_t *d = static_cast<int8_t *>(dst);
        dim_t i = 0;
#if defined(__SSE2__)
        i = cvt_f32_to_x8_sse2<true>(src, (uint8_t *)d, n);
#endif
        for (; i < n; ++i) d[i] = f32_to_s8(src[i]);
        break;
    }
    case dnnl_u8: {
        uint8_t *d = static_cast<uint8_t *>(dst);
        dim_t i = 0;
#if defined(__SSE2__)
        i = cvt_f32_to_x8_sse2<false>(src, d, n);
#endif
        for (; i < n; ++i) d[i] = f32_to_u8(src[i]);
        break;
    }
    case dnnl_s32: {
        int32_t *d = static_cast<int32_t *>(dst);
        for (dim_t i = 0; i < n; ++i) d[i] = f32_to_s32(src[i]);
        break;
    }
    default:
        break;
    }
}

} // namespace impl
} // namespace dnnl
