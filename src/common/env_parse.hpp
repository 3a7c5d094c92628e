// Parsers of environment variable values, pure functions of the string (so
// that the fuzz target tests/fuzz/fuzz_env.cpp can drive them directly);
// reading the variables stays with their users (verbose.cpp,
// cache/capacity_env.cpp).
#pragma once

#include <string>

namespace dnnl {
namespace impl {

// ONEDNN_VERBOSE: comma-separated levels and categories to vflag_* bits.
unsigned parse_verbose(const std::string &value);

// A cache capacity: a decimal integer in [0, 2^30] and nothing else.
bool parse_capacity(const std::string &value, int &capacity);

// ONEDNN_DEFAULT_FPMATH_MODE: strict, bf16, f16, tf32 or any (any case);
// false for anything else.
bool parse_fpmath_mode(const std::string &value, int &mode);

} // namespace impl
} // namespace dnnl
