// Construction of loop nests for OpenCL kernels: the master's parts, each
// tensor's strides over them, ordering, merging, vector widths.
#include "gpu/ocl/ocl_nest.hpp"

#include <algorithm>

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// The inner block of dim d: its size and the element stride inside the
// block area (size 1 when unblocked). False for several blocks of d.
bool block_of(const memory_desc_t &md, int d, dim_t &size, dim_t &stride) {
    const auto &b = md.format_desc.blocking;
    size = 1;
    stride = 0;
    int found = 0;
    dim_t below = 1; // product of the blocks inside block k
    for (int k = b.inner_nblks - 1; k >= 0; --k) {
        if (b.inner_idxs[k] == d) {
            ++found;
            size = b.inner_blks[k];
            stride = below;
        }
        below *= b.inner_blks[k];
    }
    return found <= 1;
}

bool addressable(const memory_desc_t &md) {
    if (md.ndims <= 0 || md.format_kind != dnnl_blocked
            || md_has_runtime_dims_or_strides(md))
        return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_offsets[d] != 0) return false;
    return true;
}

// One part of the master before ordering: dim d, its outer or inner
// piece, extent, and the master's stride (for the ordering).
struct raw_part_t {
    int dim;
    bool inner;
    dim_t extent;
    dim_t master_stride;
};

// Stride of tensor `t` over raw part `r`; false when `t` is not linear.
bool tensor_stride(const memory_desc_t &master, const memory_desc_t &t,
        const raw_part_t &r, dim_t master_blk, dim_t &stride) {
    const int d = r.dim;
    dim_t blk, in_stride;
    if (!block_of(t, d, blk, in_stride)) return false;
    const bool master_padded = master.padded_dims[d] != master.dims[d];
    if (t.dims[d] != master.dims[d] || (master_padded && blk == 1)) {
        // Broadcast: one value for every index, padding included.
        if (t.dims[d] != 1) return false;
        stride = 0;
        return true;
    }
    const dim_t s = t.format_desc.blocking.strides[d];
    if (blk > 1) {
        if (blk != master_blk || t.padded_dims[d] != master.padded_dims[d])
            return false;
        stride = r.inner ? in_stride : s;
        return true;
    }
    // Unblocked in t: the outer part of a blocked master steps a block.
    stride = r.inner ? s : s * master_blk;
    return true;
}

} // namespace

dim_t nest_t::volume() const {
    dim_t v = 1;
    for (int p = 0; p < nparts; ++p) v *= extent[p];
    return v;
}

void nest_t::add_dense_tensor() {
    base.push_back(0);
    strides.resize(base.size() * max_raw, 0);
    const int t = ntensors() - 1;
    dim_t s = 1;
    for (int p = nparts - 1; p >= 0; --p) {
        strides[t * max_raw + p] = s;
        s *= extent[p];
    }
}

bool build_nest(nest_t &n, const memory_desc_t &master,
        const std::vector<const memory_desc_t *> &tensors) {
    if (!addressable(master) || tensors.empty()) return false;
    const int nd = master.ndims;
    raw_part_t raw[nest_t::max_raw];
    dim_t master_blk[max_ndims];
    int nraw = 0;
    for (int d = 0; d < nd; ++d) {
        dim_t blk, in_stride;
        if (!block_of(master, d, blk, in_stride)) return false;
        master_blk[d] = blk;
        const dim_t pd = master.padded_dims[d];
        raw[nraw++] = {
                d, false, pd / blk, master.format_desc.blocking.strides[d]};
        if (blk > 1) raw[nraw++] = {d, true, blk, in_stride};
    }

    const int nt = (int)tensors.size();
    std::vector<dim_t> st((size_t)nt * nest_t::max_raw, 0);
    std::vector<dim_t> base(nt);
    for (int t = 0; t < nt; ++t) {
        const memory_desc_t &md = *tensors[t];
        if (!addressable(md) || md.ndims != nd) return false;
        base[t] = md.offset0;
        for (int r = 0; r < nraw; ++r)
            if (!tensor_stride(master, md, raw[r], master_blk[raw[r].dim],
                        st[t * nest_t::max_raw + r]))
                return false;
    }

    // Outermost first; parts of extent 1 carry nothing.
    int order[nest_t::max_raw];
    int np = 0;
    bool empty = false;
    for (int r = 0; r < nraw; ++r) {
        empty = empty || raw[r].extent == 0;
        if (raw[r].extent != 1) order[np++] = r;
    }
    std::stable_sort(order, order + np, [&](int a, int b) {
        return raw[a].master_stride > raw[b].master_stride;
    });

    n = nest_t();
    n.base = base;
    n.strides.assign((size_t)nt * nest_t::max_raw, 0);
    if (np == 0 || empty) {
        n.nparts = 1;
        n.extent[0] = empty ? 0 : 1;
        return true;
    }
    // Merge from the inside: part i joins part i + 1 when, for every
    // tensor, stepping i equals running through i + 1.
    int m = 0; // parts kept, innermost-first while merging
    dim_t ext[nest_t::max_raw];
    std::vector<dim_t> s((size_t)nt * nest_t::max_raw);
    for (int i = np - 1; i >= 0; --i) {
        const int r = order[i];
        bool joins = m > 0;
        for (int t = 0; t < nt && joins; ++t)
            joins = st[t * nest_t::max_raw + r]
                    == s[t * nest_t::max_raw + m - 1] * ext[m - 1];
        if (joins) {
            ext[m - 1] *= raw[r].extent;
            continue;
        }
        ext[m] = raw[r].extent;
        for (int t = 0; t < nt; ++t)
            s[t * nest_t::max_raw + m] = st[t * nest_t::max_raw + r];
        ++m;
    }
    n.nparts = m;
    for (int p = 0; p < m; ++p) {
        n.extent[p] = ext[m - 1 - p];
        for (int t = 0; t < nt; ++t)
            n.strides[t * nest_t::max_raw + p] =
                    s[t * nest_t::max_raw + m - 1 - p];
    }
    return true;
}

int nest_vector_width(const nest_t &n, int max_w) {
    for (int w = max_w; w >= 2; w /= 2) {
        bool ok = n.nparts > 0 && n.extent[n.nparts - 1] % w == 0;
        for (int t = 0; t < n.ntensors() && ok; ++t) {
            const dim_t sl = n.inner_stride(t);
            if (sl == 0) continue;
            ok = sl == 1 && n.base[t] % w == 0;
            for (int p = 0; p + 1 < n.nparts && ok; ++p)
                ok = n.stride(t, p) % w == 0;
        }
        if (ok) return w;
    }
    return 1;
}

void int32_divider(int64_t d, int64_t &magic, int64_t &shift) {
    // shift = ceil(log2 d); magic = floor(2^32 (2^shift - d) / d) + 1,
    // below 2^32 because 2^shift < 2d.
    shift = 0;
    while (((int64_t)1 << shift) < d) ++shift;
    const uint64_t num = (((uint64_t)1 << shift) - (uint64_t)d) << 32;
    magic = (int64_t)(num / (uint64_t)d + 1);
}

bool nest_fits_int32(const nest_t &n) {
    const dim_t lim = (dim_t)1 << 31;
    if (n.volume() >= lim) return false;
    for (int t = 0; t < n.ntensors(); ++t) {
        dim_t last = n.base[t];
        for (int p = 0; p < n.nparts; ++p)
            last += (n.extent[p] - 1) * n.stride(t, p);
        if (last >= lim || n.base[t] < 0) return false;
    }
    return true;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
