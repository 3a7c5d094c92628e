// Name tables of the C API's enums (generated into common/debug_names.inc)
// and the checks built on them: a value is known when its table names it.

#include "api/c_enum.hpp"

#include <cstddef>

#include "common/debug_names.inc"

namespace dnnl {
namespace impl {

namespace {

struct name_entry_t {
    int value;
    const char *name;
};

#define DNNL_NAME_ENTRY(value, str) {(int)(value), str},

const name_entry_t status_names[] = {DNNL_STATUS_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t dt_names[] = {DNNL_DT_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t fpmath_mode_names[]
        = {DNNL_FPMATH_MODE_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t accumulation_mode_names[]
        = {DNNL_ACCUMULATION_MODE_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t engine_kind_names[]
        = {DNNL_ENGINE_KIND_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t sparse_encoding_names[]
        = {DNNL_SPARSE_ENCODING_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t prop_kind_names[] = {DNNL_PROP_KIND_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t prim_kind_names[] = {DNNL_PRIM_KIND_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t alg_kind_names[] = {DNNL_ALG_KIND_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t rnn_flags_names[] = {DNNL_RNN_FLAGS_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t rnn_direction_names[]
        = {DNNL_RNN_DIRECTION_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t scratchpad_mode_names[]
        = {DNNL_SCRATCHPAD_MODE_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t rounding_mode_names[]
        = {DNNL_ROUNDING_MODE_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t quantization_mode_names[]
        = {DNNL_QUANTIZATION_MODE_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t cpu_isa_names[] = {DNNL_CPU_ISA_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t cpu_isa_hints_names[]
        = {DNNL_CPU_ISA_HINTS_NAMES(DNNL_NAME_ENTRY)};
const name_entry_t fmt_kind_names[] = {DNNL_FMT_KIND_NAMES(DNNL_NAME_ENTRY)};

#undef DNNL_NAME_ENTRY

template <size_t N, typename E>
const char *lookup(const name_entry_t (&table)[N], const E &e) {
    const int value = raw_value(e);
    for (size_t i = 0; i < N; ++i)
        if (table[i].value == value) return table[i].name;
    return nullptr;
}

} // namespace

#define DNNL_ENUM_NAME(type, table) \
    const char *enum_name(const type &e) { return lookup(table, e); }
DNNL_ENUM_NAME(dnnl_status_t, status_names)
DNNL_ENUM_NAME(dnnl_data_type_t, dt_names)
DNNL_ENUM_NAME(dnnl_fpmath_mode_t, fpmath_mode_names)
DNNL_ENUM_NAME(dnnl_accumulation_mode_t, accumulation_mode_names)
DNNL_ENUM_NAME(dnnl_engine_kind_t, engine_kind_names)
DNNL_ENUM_NAME(dnnl_sparse_encoding_t, sparse_encoding_names)
DNNL_ENUM_NAME(dnnl_prop_kind_t, prop_kind_names)
DNNL_ENUM_NAME(dnnl_primitive_kind_t, prim_kind_names)
DNNL_ENUM_NAME(dnnl_alg_kind_t, alg_kind_names)
DNNL_ENUM_NAME(dnnl_rnn_flags_t, rnn_flags_names)
DNNL_ENUM_NAME(dnnl_rnn_direction_t, rnn_direction_names)
DNNL_ENUM_NAME(dnnl_scratchpad_mode_t, scratchpad_mode_names)
DNNL_ENUM_NAME(dnnl_rounding_mode_t, rounding_mode_names)
DNNL_ENUM_NAME(dnnl_quantization_mode_t, quantization_mode_names)
DNNL_ENUM_NAME(dnnl_cpu_isa_t, cpu_isa_names)
DNNL_ENUM_NAME(dnnl_cpu_isa_hints_t, cpu_isa_hints_names)
DNNL_ENUM_NAME(dnnl_format_kind_t, fmt_kind_names)
#undef DNNL_ENUM_NAME

#define DNNL_KNOWN_BY_NAME(type) \
    bool known(const type &e) { return enum_name(e) != nullptr; }
DNNL_KNOWN_BY_NAME(dnnl_data_type_t)
DNNL_KNOWN_BY_NAME(dnnl_prop_kind_t)
DNNL_KNOWN_BY_NAME(dnnl_alg_kind_t)
DNNL_KNOWN_BY_NAME(dnnl_fpmath_mode_t)
DNNL_KNOWN_BY_NAME(dnnl_accumulation_mode_t)
DNNL_KNOWN_BY_NAME(dnnl_scratchpad_mode_t)
DNNL_KNOWN_BY_NAME(dnnl_rounding_mode_t)
DNNL_KNOWN_BY_NAME(dnnl_quantization_mode_t)
DNNL_KNOWN_BY_NAME(dnnl_engine_kind_t)
DNNL_KNOWN_BY_NAME(dnnl_cpu_isa_t)
DNNL_KNOWN_BY_NAME(dnnl_cpu_isa_hints_t)
#undef DNNL_KNOWN_BY_NAME

// Queries have no name table; the whole declared range goes on to the
// query switches, whose default answers unknown values.
bool known(const dnnl_query_t &e) {
    const int v = raw_value(e);
    return v >= 0 && v <= (int)dnnl_query_max;
}

} // namespace impl
} // namespace dnnl
