// The one way CPU kernels are picked by ISA: a family lists its kernel
// sets in a table ordered best first, one entry per ISA its kernel file is
// compiled for (cmake/isa_sources.cmake), and a primitive descriptor picks
// the first entry that may run when it is created.
//
// An entry may run when its ISA is within mayiuse() (the processor, and
// the limit of dnnl_set_max_cpu_isa / ONEDNN_MAX_CPU_ISA), when the
// features its compile flags imply beyond the ISA's bits are there (FMA
// and F16C for the AVX2 levels), and, for 512-bit entries, when the
// prefer_ymm hint (dnnl_set_cpu_isa_hints) does not ask for 256-bit
// vectors. The baseline entry (isa_undef) always may.
#pragma once

#include <vector>

#include "cpu/cpu_isa.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

template <typename K>
struct isa_entry_t {
    cpu_isa_t isa; // the ISA of the flags the entry was compiled with
    const K *kernels;
};

// Whether code compiled for `isa` may run here: `soft` as in mayiuse();
// `limited` false ignores the library's limit and hints (tests run every
// entry the processor supports).
bool isa_entry_may_run(cpu_isa_t isa, bool limited = true, bool soft = false);

// A family's table, best first; null when no entry may run.
template <typename K>
using isa_table_t = std::vector<isa_entry_t<K>>;

template <typename K>
const K *isa_select(const isa_table_t<K> &table) {
    for (const auto &e : table)
        if (isa_entry_may_run(e.isa)) return e.kernels;
    return nullptr;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
