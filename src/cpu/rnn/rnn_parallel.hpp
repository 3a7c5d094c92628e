// The RNN family's two shapes of parallel loop, on the CPU threading layer
// (items claimed dynamically, so a descheduled thread on a busy machine
// leaves its share to the others).
#pragma once

#include "common/c_types.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

// Calls f(n0, n1, j0, j1) over blocks covering rows [0, N) and columns
// [0, C): one row by up to 256 columns each; small work on the caller.
template <typename F>
void parallel_rows_cols(dim_t N, dim_t C, F f) {
    constexpr dim_t col_block = 256;
    const dim_t nb = (C + col_block - 1) / col_block;
    const int nthr = nthr_for(N * C, 32768);
    if (nthr <= 1) {
        f((dim_t)0, N, (dim_t)0, C);
        return;
    }
    parallel_chunks(nthr, N * nb, [&](int, dim_t b, dim_t e) {
        for (dim_t w = b; w < e; ++w) {
            const dim_t n = w / nb, j0 = (w % nb) * col_block;
            f(n, n + 1, j0, j0 + col_block < C ? j0 + col_block : C);
        }
    });
}

// Calls f(i0, i1) over parts of [0, n); `work` (elements touched) below a
// few thousand runs on the caller.
template <typename F>
void parallel_range(dim_t n, dim_t work, F f) {
    const int nthr = n <= 1 ? 1 : nthr_for(work, 8192);
    parallel_chunks(nthr, n, [&](int, dim_t b, dim_t e) { f(b, e); });
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
