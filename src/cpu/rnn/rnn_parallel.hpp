// The one threading entry of the RNN implementation: a 2D range of batch
// rows by channel blocks, split over the threads in contiguous parts.
// Kept behind this helper so the CPU threading layer can replace its body.
#pragma once

#include <omp.h>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

// Calls f(n0, n1, j0, j1) over blocks covering rows [0, N) and columns
// [0, C); runs serially when the work is small or inside a parallel
// region.
template <typename F>
void parallel_rows_cols(dim_t N, dim_t C, F f) {
    constexpr dim_t col_block = 256;
    const dim_t nb = (C + col_block - 1) / col_block;
    const dim_t items = N * nb;
    const int max_thr = omp_in_parallel() ? 1 : omp_get_max_threads();
    const bool small = N * C < 8192;
    if (max_thr <= 1 || items <= 1 || small) {
        f((dim_t)0, N, (dim_t)0, C);
        return;
    }
    const int nthr = items < max_thr ? (int)items : max_thr;
#pragma omp parallel num_threads(nthr)
    {
        const dim_t ithr = omp_get_thread_num();
        const dim_t b = items * ithr / nthr, e = items * (ithr + 1) / nthr;
        for (dim_t w = b; w < e; ++w) {
            const dim_t n = w / nb, jb = w % nb;
            const dim_t j0 = jb * col_block;
            const dim_t j1 = j0 + col_block < C ? j0 + col_block : C;
            f(n, n + 1, j0, j1);
        }
    }
}

// Calls f(i0, i1) over parts of [0, n); `work` (elements touched) below a
// few thousand runs serially.
template <typename F>
void parallel_range(dim_t n, dim_t work, F f) {
    const int max_thr = omp_in_parallel() ? 1 : omp_get_max_threads();
    if (max_thr <= 1 || n <= 1 || work < 8192) {
        f((dim_t)0, n);
        return;
    }
#pragma omp parallel num_threads(max_thr)
    {
        const dim_t ithr = omp_get_thread_num(), nthr = omp_get_num_threads();
        f(n * ithr / nthr, n * (ithr + 1) / nthr);
    }
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
