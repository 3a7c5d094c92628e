// When a kernel-table entry may run (see isa_table.hpp).
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

bool isa_entry_may_run(cpu_isa_t isa, bool limited, bool soft) {
    if (isa == isa_undef) return true;
    if (limited ? !mayiuse(isa, soft) : !cpu_has_isa(isa)) return false;
    // The AVX2 levels and above are compiled with -mfma -mf16c.
    if ((isa & avx2) == avx2 && !(cpu_has_fma() && cpu_has_f16c()))
        return false;
    const bool zmm = (isa & avx512_core) == avx512_core;
    return !(limited && zmm && prefer_ymm(soft));
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
