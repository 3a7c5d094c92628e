// The loop nest of a tensor-wide operation, shared by binary, sum, prelu,
// concat and reduction.
//
// A "master" descriptor defines the iteration space: its padded dims, split
// into parts where the layout has an inner block (C -> C/16, 16), ordered
// by the master's strides (outermost first). Every other tensor of the
// operation must have an element offset that is linear in that space:
//   off_t(i_0, ..., i_k) = base_t + sum_p i_p * stride_t[p]
// which holds when each of its dims is either of size 1 (broadcast:
// stride 0), unblocked with no padding in the master, or blocked exactly
// like the master. Adjacent parts that are contiguous for every tensor
// are merged, so dense tensors become one long row. The innermost part
// ("L") is the row; the one outside it ("M") lets kernels run several
// short rows per call.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace nest {

constexpr int max_parts = 2 * max_ndims;
constexpr int max_tensors = 64;

struct part_t {
    int dim;    // logical dim of the master
    dim_t mult; // logical index step of one step of this part
};

struct nest_t {
    int nparts = 0;
    dim_t extent[max_parts] = {};
    part_t part[max_parts] = {};
    int ntensors = 0;
    std::vector<dim_t> strides; // [t * max_parts + p]
    std::vector<dim_t> base;    // offset0 of each tensor

    dim_t stride(int t, int p) const { return strides[t * max_parts + p]; }
    dim_t volume() const;
    dim_t L() const { return nparts ? extent[nparts - 1] : 1; }
    dim_t M() const { return nparts >= 2 ? extent[nparts - 2] : 1; }
    dim_t sL(int t) const { return nparts ? stride(t, nparts - 1) : 0; }
    dim_t sM(int t) const { return nparts >= 2 ? stride(t, nparts - 2) : 0; }
};

// Builds the nest of `master` for `tensors` (which may include the
// master). Tensors of another ndims, with runtime dims, padded offsets,
// double blocking, or not linear in the master's space make it fail.
// `reduce_tensor` (or -1): a tensor whose dims of size 1 are reduced over;
// the master may not be padded in those dims. With `merge` false the
// parts are kept one per (dim, block) for callers that need the mapping.
bool build(nest_t &n, const memory_desc_t &master,
        const std::vector<const memory_desc_t *> &tensors,
        int reduce_tensor = -1, bool merge = true);

// Offsets of every tensor at the outer index `o` (mixed radix over all
// parts but the two innermost) plus m rows and l elements.
inline void offsets_at(const nest_t &n, dim_t o, dim_t m, dim_t l, dim_t *off) {
    const int np = n.nparts;
    for (int t = 0; t < n.ntensors; ++t)
        off[t] = n.base[t] + m * n.sM(t) + l * n.sL(t);
    for (int p = np - 3; p >= 0; --p) {
        const dim_t i = o % n.extent[p];
        o /= n.extent[p];
        if (i)
            for (int t = 0; t < n.ntensors; ++t) off[t] += i * n.stride(t, p);
    }
}

// Work split of a nest: rows (all parts but the innermost) cut into
// chunks of the innermost part when there are too few rows to share.
struct split_t {
    dim_t L, M, rows, nchunks, chunk, units;
    split_t(const nest_t &n, int nthr) {
        L = n.L();
        M = n.M();
        const dim_t vol = n.volume();
        rows = L ? vol / L : 0;
        nchunks = 1;
        chunk = L;
        if (nthr > 1 && rows < 8 * nthr && L >= 2048) {
            nchunks = (8 * nthr + rows - 1) / rows;
            if (nchunks > L / 1024) nchunks = L / 1024;
            chunk = ((L + nchunks - 1) / nchunks + 63) / 64 * 64;
            nchunks = (L + chunk - 1) / chunk;
        }
        units = rows * nchunks;
    }
};

// Units [u0, u1) of the nest: f(off, m_cnt, l_len) where off[t] is
// tensor t's offset of the first element and the block covers m_cnt rows
// (stepping sM) of l_len elements (stepping sL).
template <typename F>
void run_range(const nest_t &n, const split_t &s, dim_t u0, dim_t u1, F f) {
    dim_t off_buf[max_tensors];
    std::vector<dim_t> heap;
    dim_t *off = off_buf;
    if (n.ntensors > max_tensors) {
        heap.resize(n.ntensors);
        off = heap.data();
    }
    dim_t u = u0;
    while (u < u1) {
        const dim_t row = u / s.nchunks;
        const dim_t o = row / s.M, m = row % s.M;
        if (s.nchunks > 1) {
            const dim_t l0 = (u % s.nchunks) * s.chunk;
            const dim_t len = l0 + s.chunk < s.L ? s.chunk : s.L - l0;
            offsets_at(n, o, m, l0, off);
            f((const dim_t *)off, (dim_t)1, len);
            ++u;
        } else {
            const dim_t left = u1 - u;
            const dim_t cnt = s.M - m < left ? s.M - m : left;
            offsets_at(n, o, m, 0, off);
            f((const dim_t *)off, cnt, s.L);
            u += cnt;
        }
    }
}

// The whole nest on `nthr` threads; f as for run_range.
template <typename F>
void for_each_block(const nest_t &n, int nthr, F f) {
    const split_t s(n, nthr);
    parallel_chunks(nthr, s.units,
            [&](int, dim_t u0, dim_t u1) { run_range(n, s, u0, u1, f); });
}

} // namespace nest
} // namespace cpu
} // namespace impl
} // namespace dnnl
