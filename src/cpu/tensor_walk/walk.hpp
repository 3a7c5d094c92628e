// The generic walk of the tensor-wide primitives: any blocked layouts, any
// mix. Element offsets of a blocked layout are a sum of one term per
// logical dim, so per-dim offset tables give every tensor's element at a
// logical position; the walk visits rows along the last logical dim (in
// chunks of rows::chunk) and hands each tensor's row base plus the table
// of its last dim to the caller. Also: zeroing the padding of an output.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "cpu/threading/threading.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace walk {

struct walk_t {
    int ndims = 0;
    dim_t dims[max_ndims] = {};
    // One table per tensor; a tensor dim of size 1 broadcasts.
    std::vector<eltwise::offset_table_t> tabs;

    void init(int nd, const dim_t *extent,
            const std::vector<const memory_desc_t *> &tensors);
    dim_t volume() const;
};

// Runs f(base, idx, n) for every row chunk: base[t] is tensor t's offset
// of the chunk's first element minus idx[t][0], element i of tensor t is
// at base[t] + idx[t][i].
template <typename F>
void for_each_row(const walk_t &w, int nthr, F f) {
    const dim_t vol = w.volume();
    if (vol == 0) return;
    const int last = w.ndims - 1;
    const dim_t L = w.dims[last];
    const dim_t nchunks = (L + rows::chunk - 1) / rows::chunk;
    const dim_t units = vol / L * nchunks;
    const int nt = (int)w.tabs.size();
    parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
        std::vector<dim_t> base(nt);
        std::vector<const dim_t *> idx(nt);
        for (dim_t u = u0; u < u1; ++u) {
            dim_t row = u / nchunks;
            const dim_t i0 = (u % nchunks) * rows::chunk;
            const dim_t n = i0 + rows::chunk < L ? rows::chunk : L - i0;
            for (int t = 0; t < nt; ++t) base[t] = w.tabs[t].base;
            for (int d = last - 1; d >= 0; --d) {
                const dim_t i = row % w.dims[d];
                row /= w.dims[d];
                for (int t = 0; t < nt; ++t) base[t] += w.tabs[t].dim(d)[i];
            }
            for (int t = 0; t < nt; ++t) idx[t] = w.tabs[t].dim(last) + i0;
            f(base.data(), idx.data(), n);
        }
    });
}

// Sets the padding elements of `md` (positions beyond dims, inside padded
// dims) to zero.
void zero_pad(const memory_desc_t &md, void *ptr);

} // namespace walk
} // namespace cpu
} // namespace impl
} // namespace dnnl
