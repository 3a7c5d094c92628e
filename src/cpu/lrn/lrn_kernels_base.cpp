// LRN kernels compiled for the baseline x86-64 ISA (SSE2), and the choice
// among the ISA tables.

// Selects instead of branches so the loops vectorise (sqrt without errno
// comes from src/CMakeLists.txt); set before any include.
#pragma GCC optimize("no-trapping-math")
#include <cmath>

#include "common/math/eltwise_math.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/lrn/lrn_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {
namespace {

#include "cpu/lrn/lrn_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_base() {
    static const kernel_table_t table {"sse2", across_fwd_cp, across_fwd_pc,
            across_bwd_cp, across_bwd_pc, within_fwd, within_bwd};
    return table;
}

const kernel_table_t &select_kernels() {
    if (mayiuse(avx512_core)) return kernels_avx512();
    if (mayiuse(avx2)) return kernels_avx2();
    return kernels_base();
}

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl
