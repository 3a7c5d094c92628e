// Sixteen floats (or int32 lanes) as one value, for the per-ISA kernel
// files that include it, so one source serves every table entry.
//
// On AVX-512 a v16_t is a GCC / clang vector extension type: one zmm.
// Elsewhere it is a pair of halves down to the widest native register
// (two ymm on AVX2, four xmm on the baseline). A 64-byte extension type
// would also compile there, but GCC keeps such values in memory when the
// ISA has no 64-byte registers (every += a store and reloads), which made
// accumulator arrays of them several times slower on AVX2; halves of
// native vectors stay in registers.
//
// What kernels use: v16_t {} (zero), load16 / store16, + - * / between
// vectors and with a scalar, compound assignment, comparisons giving a
// vi16_t mask, select16(mask, a, b), hsum16, and widen_u8 / narrow_u8
// for byte workspaces.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

// The native form passes 64-byte vectors by value; they are always
// inlined and never cross a call boundary, so the ABI note GCC gives for
// ISAs without 512-bit registers does not apply (this silences it).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace dnnl {
namespace impl {
namespace cpu {
// Internal to each includer: the ISA files compile these with different
// instructions, so no definition may be shared between them.
namespace {

// The widest native vector of this compilation. On AVX-512 element
// alignment only: nothing needs aligned moves, and sanitizer builds do not
// always honour 64-byte alignment of stack copies (an aligned move to such
// a slot faults). The narrower ones keep their natural alignment (16 or
// 32 bytes, honoured everywhere; an attribute would be dropped where they
// are template arguments anyway). Loads and stores go through memcpy, so
// no buffer needs more than element alignment.
#if defined(__AVX512F__)
#define DNNL_SIMD_NATIVE(type, bytes) \
    __attribute__((vector_size(bytes), aligned(sizeof(type))))
#define DNNL_SIMD_NATIVE_BYTES 64
#else
#define DNNL_SIMD_NATIVE(type, bytes) __attribute__((vector_size(bytes)))
#if defined(__AVX__)
#define DNNL_SIMD_NATIVE_BYTES 32
#else
#define DNNL_SIMD_NATIVE_BYTES 16
#endif
#endif
typedef float native_f_t DNNL_SIMD_NATIVE(float, DNNL_SIMD_NATIVE_BYTES);
typedef int32_t native_i_t DNNL_SIMD_NATIVE(int32_t, DNNL_SIMD_NATIVE_BYTES);
typedef uint8_t native_b_t DNNL_SIMD_NATIVE(
        uint8_t, DNNL_SIMD_NATIVE_BYTES / 4);
#undef DNNL_SIMD_NATIVE_BYTES
#undef DNNL_SIMD_NATIVE

// Two values of T side by side (lo holds the lower lanes).
template <typename T>
struct halves_t {
    T lo, hi;
};

template <typename T>
struct is_halves : std::false_type {};
template <typename T>
struct is_halves<halves_t<T>> : std::true_type {};

// Arithmetic, element by element, derived from one list of operators:
// between two halves, with a scalar on either side, and compound.
#define DNNL_HALVES_ARITH(op) \
    template <typename T> \
    inline halves_t<T> operator op(const halves_t<T> &a, const halves_t<T> &b) { \
        return {a.lo op b.lo, a.hi op b.hi}; \
    } \
    template <typename T, typename S, \
            typename = typename std::enable_if<std::is_arithmetic<S>::value>::type> \
    inline halves_t<T> operator op(const halves_t<T> &a, S s) { \
        return {a.lo op s, a.hi op s}; \
    } \
    template <typename T, typename S, \
            typename = typename std::enable_if<std::is_arithmetic<S>::value>::type> \
    inline halves_t<T> operator op(S s, const halves_t<T> &a) { \
        return {s op a.lo, s op a.hi}; \
    } \
    template <typename T, typename B> \
    inline halves_t<T> &operator op##=(halves_t<T> &a, const B &b) { \
        return a = a op b; \
    }
DNNL_HALVES_ARITH(+)
DNNL_HALVES_ARITH(-)
DNNL_HALVES_ARITH(*)
DNNL_HALVES_ARITH(/)
#undef DNNL_HALVES_ARITH

// Comparisons give a mask of the same shape (lanes all ones or zero), as
// the native comparison does.
template <typename T>
using mask_of_t = decltype(std::declval<T>() > std::declval<T>());
#define DNNL_HALVES_COMPARE(op) \
    template <typename T> \
    inline halves_t<mask_of_t<T>> operator op( \
            const halves_t<T> &a, const halves_t<T> &b) { \
        return {a.lo op b.lo, a.hi op b.hi}; \
    } \
    template <typename T, typename S, \
            typename = typename std::enable_if<std::is_arithmetic<S>::value>::type> \
    inline halves_t<mask_of_t<T>> operator op(const halves_t<T> &a, S s) { \
        return {a.lo op s, a.hi op s}; \
    }
DNNL_HALVES_COMPARE(>)
DNNL_HALVES_COMPARE(<)
DNNL_HALVES_COMPARE(==)
DNNL_HALVES_COMPARE(!=)
#undef DNNL_HALVES_COMPARE

// Lanes of m set take a, the others b (native vectors by value: see the
// loads below).
template <typename M, typename T>
inline T select16(M m, T a, T b) {
    return m ? a : b;
}
template <typename M, typename T>
inline halves_t<T> select16(
        const halves_t<M> &m, const halves_t<T> &a, const halves_t<T> &b) {
    return {select16(m.lo, a.lo, b.lo), select16(m.hi, a.hi, b.hi)};
}

// Loads and stores of whole values, element alignment (memcpy: no
// aliasing assumption about the buffer). E is the element type. Halves go
// piece by piece: one memcpy of the whole pair sent every value through
// the stack again (depthwise and pooling 4-15x slower on AVX2).
template <typename T, typename E>
inline void load_lanes(T &v, const E *p) {
    if constexpr (is_halves<T>::value) {
        load_lanes(v.lo, p);
        load_lanes(v.hi, p + sizeof(v.lo) / sizeof(E));
    } else {
        std::memcpy(&v, p, sizeof(v));
    }
}
template <typename T, typename E>
inline void store_lanes(E *p, const T &v) {
    if constexpr (is_halves<T>::value) {
        store_lanes(p, v.lo);
        store_lanes(p + sizeof(v.lo) / sizeof(E), v.hi);
    } else {
        std::memcpy(p, &v, sizeof(v));
    }
}

// Sixteen lanes of native vectors.
#if defined(__AVX512F__)
typedef native_f_t v16_t;
typedef native_i_t vi16_t;
#elif defined(__AVX__)
typedef halves_t<native_f_t> v16_t;
typedef halves_t<native_i_t> vi16_t;
#else
typedef halves_t<halves_t<native_f_t>> v16_t;
typedef halves_t<halves_t<native_i_t>> vi16_t;
#endif
static_assert(sizeof(v16_t) == 64 && sizeof(vi16_t) == 64,
        "sixteen lanes of four bytes");

// Loads and stores of whole values. The AVX-512 value goes through one
// memcpy (its type carries element alignment, which a template parameter
// would drop, and clang would then assume 64-byte alignment).
#if defined(__AVX512F__)
#define DNNL_V16_LOAD(v, p) std::memcpy(&(v), (p), sizeof(v))
#define DNNL_V16_STORE(p, v) std::memcpy((p), &(v), sizeof(v))
#else
#define DNNL_V16_LOAD(v, p) load_lanes((v), (p))
#define DNNL_V16_STORE(p, v) store_lanes((p), (v))
#endif

__attribute__((always_inline)) inline v16_t load16(const float *p) {
    v16_t v;
    DNNL_V16_LOAD(v, p);
    return v;
}

__attribute__((always_inline)) inline void store16(float *p, v16_t v) {
    DNNL_V16_STORE(p, v);
}

__attribute__((always_inline)) inline vi16_t load16i(const int32_t *p) {
    vi16_t v;
    DNNL_V16_LOAD(v, p);
    return v;
}

__attribute__((always_inline)) inline void store16i(int32_t *p, vi16_t v) {
    DNNL_V16_STORE(p, v);
}
#undef DNNL_V16_LOAD
#undef DNNL_V16_STORE

// Sixteen bytes to int32 lanes and back (the low byte of each lane).
inline void widen_u8(native_i_t &v, const uint8_t *p) {
    native_b_t b;
    std::memcpy(&b, p, sizeof(b));
    v = __builtin_convertvector(b, native_i_t);
}
template <typename T>
inline void widen_u8(halves_t<T> &v, const uint8_t *p) {
    widen_u8(v.lo, p);
    widen_u8(v.hi, p + sizeof(v.lo) / 4);
}
inline void narrow_u8(uint8_t *p, const native_i_t &v) {
    const native_b_t b = __builtin_convertvector(v, native_b_t);
    std::memcpy(p, &b, sizeof(b));
}
template <typename T>
inline void narrow_u8(uint8_t *p, const halves_t<T> &v) {
    narrow_u8(p, v.lo);
    narrow_u8(p + sizeof(v.lo) / 4, v.hi);
}

// Pairwise: (j, j + 8), then (j, j + 4), (j, j + 2), (j, j + 1), the
// same order on every ISA (the halves' lo + hi is the first step, or the
// first two). Scalars rather than a stack array: sanitizer builds
// misplace over-aligned stack arrays that the compiler then stores to
// with aligned vector moves.
__attribute__((always_inline)) inline float hsum_of_eight(float b0,
        float b1, float b2, float b3, float b4, float b5, float b6,
        float b7) {
    const float c0 = b0 + b4, c1 = b1 + b5, c2 = b2 + b6, c3 = b3 + b7;
    const float d0 = c0 + c2, d1 = c1 + c3;
    return d0 + d1;
}

__attribute__((always_inline)) inline float hsum16(v16_t a) {
#if defined(__AVX512F__)
    return hsum_of_eight(a[0] + a[8], a[1] + a[9], a[2] + a[10],
            a[3] + a[11], a[4] + a[12], a[5] + a[13], a[6] + a[14],
            a[7] + a[15]);
#elif defined(__AVX__)
    const native_f_t b = a.lo + a.hi;
    return hsum_of_eight(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
#else
    const halves_t<native_f_t> b = a.lo + a.hi;
    return hsum_of_eight(b.lo[0], b.lo[1], b.lo[2], b.lo[3], b.hi[0],
            b.hi[1], b.hi[2], b.hi[3]);
#endif
}

} // namespace
} // namespace cpu
} // namespace impl
} // namespace dnnl
