// LRN kernels compiled for AVX2 with FMA.

// Selects instead of branches so the loops vectorise (sqrt without errno
// comes from src/CMakeLists.txt); set before any include.
#pragma GCC optimize("no-trapping-math")
#include <cmath>

#include "common/math/eltwise_math.hpp"
#include "cpu/lrn/lrn_kernels.hpp"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {
namespace {

#include "cpu/lrn/lrn_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_avx2() {
    static const kernel_table_t table {"avx2", across_fwd_cp, across_fwd_pc,
            across_bwd_cp, across_bwd_pc, within_fwd, within_bwd};
    return table;
}

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl

#pragma GCC pop_options
