// Element conversions of the reorder: the storage types (bf16 and f16 as
// raw 16-bit patterns), widening to f32, narrowing from f32 with
// round-to-nearest-even and saturation of integers, and the direct
// conversion between two types that reorders without scales use (integer
// to integer saturates without passing through f32).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/c_types.hpp"
#include "common/float_convert.hpp"

// Conversions are forced inline so that loops calling them vectorise in the
// instruction set of the calling function (kernels compiled per ISA).
#define REORDER_INLINE inline __attribute__((always_inline))

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

struct bf16_t {
    uint16_t raw;
};
struct f16_t {
    uint16_t raw;
};
// f8 types: only the reference path converts them (through f32).
struct f8_e5m2_t {
    uint8_t raw;
};
struct f8_e4m3_t {
    uint8_t raw;
};

REORDER_INLINE uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}
REORDER_INLINE float bits_f32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}

// ---- to f32 ----
REORDER_INLINE float to_f32(float v) {
    return v;
}
REORDER_INLINE float to_f32(int32_t v) {
    return (float)v;
}
REORDER_INLINE float to_f32(int8_t v) {
    return (float)v;
}
REORDER_INLINE float to_f32(uint8_t v) {
    return (float)v;
}
REORDER_INLINE float to_f32(bf16_t v) {
    return bits_f32((uint32_t)v.raw << 16);
}
REORDER_INLINE float to_f32(f16_t v) {
    const uint32_t h = v.raw;
    const uint32_t sign = (h & 0x8000u) << 16;
    const uint32_t em = h & 0x7fffu;
    // Exponent and mantissa moved into place, exponent rebiased 15 -> 127.
    const uint32_t o = (em << 13) + (112u << 23);
    // Infinity/NaN: the exponent must become all ones.
    const uint32_t special = o + (112u << 23);
    // Subnormal (and zero): m * 2^-24, made by an exact subtraction.
    const uint32_t sub =
            f32_bits(bits_f32(o + (1u << 23)) - bits_f32(113u << 23));
    const uint32_t r = em >= 0x7c00u ? special : (em < 0x0400u ? sub : o);
    return bits_f32(sign | r);
}

REORDER_INLINE float to_f32(f8_e5m2_t v) {
    return f8_e5m2_to_f32(v.raw);
}
REORDER_INLINE float to_f32(f8_e4m3_t v) {
    return f8_e4m3_to_f32(v.raw);
}

// ---- from f32 ----
template <typename D>
D from_f32(float f);

template <>
REORDER_INLINE float from_f32<float>(float f) {
    return f;
}

template <>
REORDER_INLINE bf16_t from_f32<bf16_t>(float f) {
    const uint32_t u = f32_bits(f);
    const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    const uint32_t quiet_nan = (u >> 16) | 0x40u; // NaN stays a NaN
    const bool is_nan = (u & 0x7fffffffu) > 0x7f800000u;
    return bf16_t{(uint16_t)(is_nan ? quiet_nan : rounded)};
}

template <>
REORDER_INLINE f16_t from_f32<f16_t>(float f) {
    const uint32_t u = f32_bits(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t x = u & 0x7fffffffu;
    // Normal half: rebias the exponent, round the 13 dropped bits to even.
    const uint32_t norm = (x + 0xc8000fffu + ((x >> 13) & 1u)) >> 13;
    // Subnormal half (or zero): adding 0.5 puts the value's 2^-24
    // multiples in the low mantissa bits, rounded to nearest even.
    const uint32_t sub = f32_bits(bits_f32(x) + 0.5f) - 0x3f000000u;
    const uint32_t nan = 0x7e00u | ((x >> 13) & 0x3ffu);
    uint32_t h = x < 0x38800000u ? sub : norm;
    h = x >= 0x477ff000u ? 0x7c00u : h; // 65520 and up round to infinity
    h = x > 0x7f800000u ? nan : h;
    return f16_t{(uint16_t)(sign | h)};
}

template <>
REORDER_INLINE f8_e5m2_t from_f32<f8_e5m2_t>(float f) {
    return f8_e5m2_t{f32_to_f8_e5m2(f)};
}
template <>
REORDER_INLINE f8_e4m3_t from_f32<f8_e4m3_t>(float f) {
    return f8_e4m3_t{f32_to_f8_e4m3(f)};
}

// Rounds to the nearest integer, ties to even, for |f| < 2^31 (values of
// 2^23 and more are integers already).
REORDER_INLINE float round_half_even(float f) {
    const float magic = 12582912.f; // 1.5 * 2^23
    const float r = (f + magic) - magic;
    return (f < 8388608.f && f > -8388608.f) ? r : f;
}

// Clamps to [lo, hi]; NaN maps to `nan_to` (what the pinned library's
// vector conversions produce).
REORDER_INLINE float clamp_f(float f, float lo, float hi, float nan_to) {
    f = f > lo ? f : (f == f ? lo : nan_to);
    return f < hi ? f : hi;
}

// Round half to even of |f| < 2^22.
REORDER_INLINE float round_small(float f) {
    const float magic = 12582912.f; // 1.5 * 2^23
    return (f + magic) - magic;
}

template <>
REORDER_INLINE int8_t from_f32<int8_t>(float f) {
    return (int8_t)(int32_t)round_small(clamp_f(f, -128.f, 127.f, -128.f));
}
template <>
REORDER_INLINE uint8_t from_f32<uint8_t>(float f) {
    return (uint8_t)(int32_t)round_small(clamp_f(f, 0.f, 255.f, 255.f));
}
template <>
REORDER_INLINE int32_t from_f32<int32_t>(float f) {
    // 2147483520 is the largest float below 2^31.
    return (int32_t)round_half_even(
            clamp_f(f, -2147483648.f, 2147483520.f, -2147483648.f));
}

// ---- type traits ----
template <typename T>
struct is_int_type {
    static constexpr bool value = false;
};
template <>
struct is_int_type<int8_t> {
    static constexpr bool value = true;
};
template <>
struct is_int_type<uint8_t> {
    static constexpr bool value = true;
};
template <>
struct is_int_type<int32_t> {
    static constexpr bool value = true;
};

template <typename T>
struct int_limits;
template <>
struct int_limits<int8_t> {
    static constexpr int64_t lo = -128, hi = 127;
};
template <>
struct int_limits<uint8_t> {
    static constexpr int64_t lo = 0, hi = 255;
};
template <>
struct int_limits<int32_t> {
    static constexpr int64_t lo = -2147483648ll, hi = 2147483647ll;
};

// Conversion without scales or zero points.
template <typename S, typename D>
REORDER_INLINE D cvt_direct(S s) {
    if constexpr (std::is_same<S, D>::value) {
        return s;
    } else if constexpr (is_int_type<S>::value && is_int_type<D>::value) {
        int64_t v = (int64_t)s;
        v = v < int_limits<D>::lo ? int_limits<D>::lo : v;
        v = v > int_limits<D>::hi ? int_limits<D>::hi : v;
        return (D)v;
    } else {
        return from_f32<D>(to_f32(s));
    }
}

// Source value minus its zero point, as f32 (integer sources subtract in
// integers first).
template <typename S>
REORDER_INLINE float sub_zp(S s, int32_t zp) {
    if constexpr (is_int_type<S>::value)
        return (float)((int64_t)s - (int64_t)zp);
    else
        return to_f32(s) - (float)zp;
}

// Quantization parameters of one element.
struct qparams_t {
    float src_scale, dst_scale, beta;
    int32_t src_zp, dst_zp;
};

// The full formula: saturate(round(src_scale * (src - src_zp)
//                                  + beta * dst_old) / dst_scale + dst_zp).
template <typename S, typename D>
REORDER_INLINE D cvt_quant(S s, const D *old, float src_scale, int32_t src_zp,
        float dst_scale, int32_t dst_zp, float beta) {
    float f = src_scale * sub_zp(s, src_zp);
    if (beta != 0.f) f += beta * to_f32(*old);
    f = f / dst_scale + (float)dst_zp;
    return from_f32<D>(f);
}

// Calls fn with a value of dt's storage type and returns true, or returns
// false for a type the reorder does not take. The f8 types only where
// `with_f8` (the reference path: the per-ISA kernels are instantiated for
// the six other types alone, every pair in every ISA).
template <bool with_f8 = false, typename Fn>
inline bool with_data_type(data_type_t dt, Fn &&fn) {
    switch (dt) {
    case dnnl_f32:
        fn(float{});
        return true;
    case dnnl_bf16:
        fn(bf16_t{});
        return true;
    case dnnl_f16:
        fn(f16_t{});
        return true;
    case dnnl_s32:
        fn(int32_t{});
        return true;
    case dnnl_s8:
        fn(int8_t{});
        return true;
    case dnnl_u8:
        fn(uint8_t{});
        return true;
    case dnnl_f8_e5m2:
        if constexpr (with_f8) fn(f8_e5m2_t{});
        return with_f8;
    case dnnl_f8_e4m3:
        if constexpr (with_f8) fn(f8_e4m3_t{});
        return with_f8;
    default:
        return false;
    }
}

inline bool supported_data_type(data_type_t dt, bool with_f8 = false) {
    return with_data_type(dt, [](auto) {})
            || (with_f8 && (dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3));
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
