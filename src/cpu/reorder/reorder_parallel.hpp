// Threading helpers of the CPU reorders (OpenMP).
#pragma once

#include <omp.h>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

// Threads worth using for `elems` elements of work.
inline int reorder_nthr(dim_t elems) {
    const dim_t per_thread = 16 * 1024;
    if (elems <= per_thread) return 1;
    const int max = omp_in_parallel() ? 1 : omp_get_max_threads();
    const dim_t want = (elems + per_thread - 1) / per_thread;
    return want < max ? (int)want : max;
}

// Splits [0, n) into `nthr` near-equal contiguous ranges.
inline void balance(dim_t n, int nthr, int ithr, dim_t &start, dim_t &end) {
    const dim_t base = n / nthr, rem = n % nthr;
    start = ithr * base + (ithr < rem ? ithr : rem);
    end = start + base + (ithr < rem ? 1 : 0);
}

// Runs f(ithr, nthr) on nthr threads (inline when nthr is 1).
template <typename F>
inline void parallel_run(int nthr, F f) {
    if (nthr <= 1) {
        f(0, 1);
        return;
    }
#pragma omp parallel num_threads(nthr)
    f(omp_get_thread_num(), omp_get_num_threads());
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
