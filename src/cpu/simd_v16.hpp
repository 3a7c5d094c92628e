// Sixteen floats as one value, with GCC / clang vector extensions, for
// the per-ISA kernel files that include it: each ISA lowers a v16_t to
// its own registers (one zmm on AVX-512, two ymm on AVX2, four xmm on the
// baseline), so one source serves every table entry.
#pragma once

#include <cstring>

// The helpers pass 64-byte vectors by value; they are always inlined and
// never cross a call boundary, so the ABI note GCC gives for ISAs without
// 512-bit registers does not apply (this silences it for the includer).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace dnnl {
namespace impl {
namespace cpu {
// Internal to each includer: the ISA files compile these with different
// instructions, so no definition may be shared between them.
namespace {

// Element alignment only: nothing needs aligned moves, and sanitizer
// builds do not always honour 64-byte alignment of stack copies (an
// aligned move to such a slot faults).
typedef float v16_t __attribute__((vector_size(64), aligned(4)));

__attribute__((always_inline)) inline v16_t load16(const float *p) {
    v16_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}

__attribute__((always_inline)) inline void store16(float *p, v16_t v) {
    std::memcpy(p, &v, sizeof(v));
}

// Pairwise: (j, j + 8), then (j, j + 4), (j, j + 2), (j, j + 1). Scalars
// rather than a stack array: sanitizer builds misplace over-aligned stack
// arrays that the compiler then stores to with aligned vector moves.
__attribute__((always_inline)) inline float hsum16(v16_t a) {
    const float b0 = a[0] + a[8], b1 = a[1] + a[9], b2 = a[2] + a[10],
                b3 = a[3] + a[11], b4 = a[4] + a[12], b5 = a[5] + a[13],
                b6 = a[6] + a[14], b7 = a[7] + a[15];
    const float c0 = b0 + b4, c1 = b1 + b5, c2 = b2 + b6, c3 = b3 + b7;
    const float d0 = c0 + c2, d1 = c1 + c3;
    return d0 + d1;
}

} // namespace
} // namespace cpu
} // namespace impl
} // namespace dnnl
