// Stochastic rounding of the rounding-mode attribute
// (dnnl_rounding_mode_stochastic), with the arithmetic of the pinned
// oneDNN 3.13 CPU implementations so that results agree bit for bit:
//   - a random bias from Philox over the destination element offset
//     (truncated to 32 bits) and the seed: 8 bits for 2-byte destinations,
//     16 bits for the others, kept below the destination's precision;
//   - the bias added to the f32 bits, which are then truncated to the
//     destination's significant digits;
//   - the result clamped to the destination's finite range, and values
//     below its smallest normal flushed to zero (floating types).
// The bias is narrower than the truncated bits, so most values round
// toward zero: that is the pinned version's behaviour, kept on purpose.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/c_types.hpp"
#include "common/math/philox.hpp"

namespace dnnl {
namespace impl {
namespace math {

struct sround_params_t {
    int digits = 24; // significant binary digits of the destination
    bool two_byte = false; // 8-bit bias (else 16-bit)
    float lowest = -FLT_MAX, max = FLT_MAX;
    float flush_below = FLT_MIN; // 0: nothing is flushed (integers)
};

// False for destinations the rounding does not define (sub-byte, f64,
// e8m0, ...).
inline bool sround_params(data_type_t dt, sround_params_t &p) {
    struct row_t {
        data_type_t dt;
        sround_params_t p;
    };
    // digits, two_byte, lowest, max, flush_below (0: integers flush nothing)
    static const row_t rows[] = {
            {dnnl_f32, {24, false, -FLT_MAX, FLT_MAX, FLT_MIN}},
            {dnnl_bf16, {8, true, -3.38953139e38f, 3.38953139e38f, FLT_MIN}},
            {dnnl_f16, {11, true, -65504.f, 65504.f, 6.103515625e-05f}},
            {dnnl_f8_e5m2, {3, false, -57344.f, 57344.f, 6.103515625e-05f}},
            {dnnl_f8_e4m3, {4, false, -448.f, 448.f, 0.015625f}},
            {dnnl_s32, {31, false, -2147483648.f, 2147483648.f, 0.f}},
            {dnnl_s8, {7, false, -128.f, 127.f, 0.f}},
            {dnnl_u8, {8, false, 0.f, 255.f, 0.f}},
    };
    for (const row_t &r : rows)
        if (r.dt == dt) {
            p = r.p;
            return true;
        }
    return false;
}

// The random bias for element `idx`: a byte or a 16-bit half of the
// 32-bit Philox word of idx / 4 or idx / 2.
inline uint32_t sround_bias(uint32_t idx, uint32_t seed, bool two_byte) {
    if (two_byte)
        return uint8_t(dropout_random_legacy(idx >> 2, seed) >> ((idx & 3) * 8));
    return uint16_t(dropout_random_legacy(idx >> 1, seed) >> ((idx & 1) * 16));
}

inline float stochastic_round(
        float v, uint32_t idx, uint32_t seed, const sround_params_t &p) {
    if (std::isnan(v)) return v;
    // s32 has more digits than f32: nothing is truncated (the pinned
    // version answers NaN there).
    const int drop = p.digits < 24 ? 24 - p.digits : 0;
    const uint32_t keep = 0xffffffffu << drop;
    const uint32_t bias = sround_bias(idx, seed, p.two_byte) & ~keep;
    uint32_t u;
    std::memcpy(&u, &v, sizeof(u));
    u = (u + bias) & keep;
    float r;
    std::memcpy(&r, &u, sizeof(r));
    r = r < p.lowest ? p.lowest : (r > p.max ? p.max : r);
    // Flushed values become +0 (zeros, of either sign, stay as they are).
    if (r != 0.f && std::fabs(r) < p.flush_below) r = 0.f;
    return r;
}

} // namespace math
} // namespace impl
} // namespace dnnl
