// Enum arguments coming from C: the integer a caller passed where the API
// declares an enum is read bytewise and checked before it is used as the
// enum (a C caller may pass any int; loading one outside the C++ enum's
// range is undefined behaviour).
//
// Every entry point that takes an enum by value calls `checked(param, ...)`
// (or `known(param)`) first and never reads the parameter itself again.
#pragma once

#include <cstring>

#include "oneapi/dnnl/dnnl.h"

namespace dnnl {
namespace impl {

template <typename E>
int raw_value(const E &e) {
    static_assert(sizeof(E) == sizeof(int), "enums are int-sized");
    int v;
    std::memcpy(&v, &e, sizeof(v));
    return v;
}

// Whether the integer behind the argument names a value of its enum (the
// values the generated name tables list; queries: the enum's whole range).
bool known(const dnnl_data_type_t &e);
bool known(const dnnl_prop_kind_t &e);
bool known(const dnnl_alg_kind_t &e);
bool known(const dnnl_query_t &e);
bool known(const dnnl_fpmath_mode_t &e);
bool known(const dnnl_accumulation_mode_t &e);
bool known(const dnnl_scratchpad_mode_t &e);
bool known(const dnnl_rounding_mode_t &e);
bool known(const dnnl_quantization_mode_t &e);
bool known(const dnnl_engine_kind_t &e);
bool known(const dnnl_cpu_isa_t &e);
bool known(const dnnl_cpu_isa_hints_t &e);

// The argument when known, else `fallback` (a value the caller's own
// checks reject, typically the enum's undef).
template <typename E>
E checked(const E &e, E fallback) {
    return known(e) ? static_cast<E>(raw_value(e)) : fallback;
}

// Printable name of a known value, nullptr for any other integer (the
// strings of the dnnl_*2str functions).
const char *enum_name(const dnnl_status_t &e);
const char *enum_name(const dnnl_data_type_t &e);
const char *enum_name(const dnnl_fpmath_mode_t &e);
const char *enum_name(const dnnl_accumulation_mode_t &e);
const char *enum_name(const dnnl_engine_kind_t &e);
const char *enum_name(const dnnl_sparse_encoding_t &e);
const char *enum_name(const dnnl_prop_kind_t &e);
const char *enum_name(const dnnl_primitive_kind_t &e);
const char *enum_name(const dnnl_alg_kind_t &e);
const char *enum_name(const dnnl_rnn_flags_t &e);
const char *enum_name(const dnnl_rnn_direction_t &e);
const char *enum_name(const dnnl_scratchpad_mode_t &e);
const char *enum_name(const dnnl_rounding_mode_t &e);
const char *enum_name(const dnnl_quantization_mode_t &e);
const char *enum_name(const dnnl_cpu_isa_t &e);
const char *enum_name(const dnnl_cpu_isa_hints_t &e);
const char *enum_name(const dnnl_format_kind_t &e);

} // namespace impl
} // namespace dnnl
