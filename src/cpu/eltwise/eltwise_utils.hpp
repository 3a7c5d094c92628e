// Helpers of the CPU eltwise implementations: thread splitting and
// per-dimension offset tables for arbitrary blocked layouts.
#pragma once

#include <omp.h>

#include <vector>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

// Threads worth using for `work` units when each thread should get at
// least `min_per_thread` of them.
inline int nthr_for(dim_t work, dim_t min_per_thread) {
    if (work <= min_per_thread || omp_in_parallel()) return 1;
    const int max = omp_get_max_threads();
    const dim_t want = (work + min_per_thread - 1) / min_per_thread;
    return want < max ? (int)want : max;
}

// [start, end) of part `ithr` when [0, n) is cut into `nthr` near-equal
// contiguous parts; with `align`, part boundaries are multiples of it.
inline void balance(dim_t n, int nthr, int ithr, dim_t &start, dim_t &end,
        dim_t align = 1) {
    const dim_t units = (n + align - 1) / align;
    const dim_t base = units / nthr, rem = units % nthr;
    const dim_t s = ithr * base + (ithr < rem ? ithr : rem);
    const dim_t e = s + base + (ithr < rem ? 1 : 0);
    start = s * align < n ? s * align : n;
    end = e * align < n ? e * align : n;
}

// Runs f(ithr, nthr) on nthr OpenMP threads (inline for one thread).
template <typename F>
inline void parallel_run(int nthr, F f) {
    if (nthr <= 1) {
        f(0, 1);
        return;
    }
#pragma omp parallel num_threads(nthr)
    f(omp_get_thread_num(), omp_get_num_threads());
}

// Element offsets of a blocked layout are a sum of one term per
// dimension: off(pos) = base + sum_d table[d][pos[d]]. The tables cover
// `extent[d]` positions per dimension; with `broadcast`, dimensions of
// size 1 contribute 0 for every position (binary post-op sources).
struct offset_table_t {
    void init(const memory_desc_t &md, const dim_t *extent,
            bool broadcast = false) {
        ndims = md.ndims;
        dim_t zero[max_ndims] = {0};
        base = md_off_v(md, zero);
        dim_t total = 0;
        for (int d = 0; d < ndims; ++d) {
            start[d] = total;
            total += extent[d];
        }
        values.assign((size_t)total, 0);
        for (int d = 0; d < ndims; ++d) {
            dim_t pos[max_ndims] = {0};
            const bool bcast = broadcast && md.dims[d] == 1;
            for (dim_t i = 0; i < extent[d]; ++i) {
                pos[d] = bcast ? 0 : i;
                values[(size_t)(start[d] + i)] = md_off_v(md, pos) - base;
            }
        }
    }
    const dim_t *dim(int d) const { return values.data() + start[d]; }

    int ndims = 0;
    dim_t base = 0;
    dim_t start[max_ndims] = {0};
    std::vector<dim_t> values;
};

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
