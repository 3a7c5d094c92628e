// Bit encodings of the small floating-point formats (f16, f8_e5m2,
// f8_e4m3) from their definitions: sign, `ebits` exponent bits biased by
// 2^(ebits-1)-1, `mbits` stored mantissa bits, subnormals at the bottom.
// `fn` selects the "finite" flavour (f8_e4m3): no infinity, the all-ones
// code is NaN. Rounding is not done here (ref::round_to_dt does it).
#pragma once

#include <cstdint>

namespace ref {

// Bits of `v`, which must already be a value of the format (or NaN; in the
// fn flavour infinity becomes the largest finite code).
uint32_t encode_small_float(double v, int ebits, int mbits, bool fn);
// Value of the code `u`.
double decode_small_float(uint32_t u, int ebits, int mbits, bool fn);

} // namespace ref
