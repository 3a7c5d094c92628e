// Small floating-point encodings (see small_float.hpp).
#include "reference/small_float.hpp"

#include <cmath>

namespace ref {

uint32_t encode_small_float(double v, int ebits, int mbits, bool fn) {
    const uint32_t sign = std::signbit(v) ? 1u : 0u;
    const int bias = (1 << (ebits - 1)) - 1;
    const uint32_t all_exp = ((1u << ebits) - 1) << mbits;
    uint32_t out;
    if (std::isnan(v)) {
        out = fn ? (1u << (ebits + mbits)) - 1 : all_exp | 1u;
    } else if (std::isinf(v)) {
        out = fn ? (1u << (ebits + mbits)) - 2 : all_exp;
    } else if (v == 0) {
        out = 0;
    } else {
        const double a = std::fabs(v);
        int e;
        const double m = std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
        const int biased = e - 1 + bias; // of 1.xxx * 2^(e-1)
        if (biased >= 1)
            out = ((uint32_t)biased << mbits)
                    | (uint32_t)std::lround((m * 2 - 1) * (1 << mbits));
        else // subnormal: a = frac * 2^(1 - bias - mbits)
            out = (uint32_t)std::lround(std::ldexp(a, bias - 1 + mbits));
    }
    return (sign << (ebits + mbits)) | out;
}

double decode_small_float(uint32_t u, int ebits, int mbits, bool fn) {
    const uint32_t sign = (u >> (ebits + mbits)) & 1;
    const uint32_t exp = (u >> mbits) & ((1u << ebits) - 1);
    const uint32_t frac = u & ((1u << mbits) - 1);
    const uint32_t exp_ones = (1u << ebits) - 1;
    const int bias = (1 << (ebits - 1)) - 1;
    double v;
    if (!fn && exp == exp_ones)
        v = frac ? NAN : INFINITY;
    else if (fn && exp == exp_ones && frac == (1u << mbits) - 1)
        v = NAN;
    else if (exp == 0)
        v = std::ldexp((double)frac, 1 - bias - mbits);
    else
        v = std::ldexp(1.0 + std::ldexp((double)frac, -mbits), (int)exp - bias);
    return sign ? -v : v;
}

} // namespace ref
