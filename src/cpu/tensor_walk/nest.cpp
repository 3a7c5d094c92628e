// Construction of the loop nest: master parts, per-tensor linear strides,
// ordering by the master's strides and merging of contiguous parts.
#include "cpu/tensor_walk/nest.hpp"

#include <algorithm>

#include "common/dim_math.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace nest {

namespace {

// The single inner block of dim d (size and element stride), if any;
// false when d has more than one block.
bool dim_block(const memory_desc_t &md, int d, dim_t &size, dim_t &stride) {
    const auto &b = md.format_desc.blocking;
    size = 1;
    stride = 0;
    int count = 0;
    dim_t s = 1;
    for (int i = b.inner_nblks - 1; i >= 0; --i) {
        if (b.inner_idxs[i] == d) {
            ++count;
            size = b.inner_blks[i];
            stride = s;
        }
        s *= b.inner_blks[i];
    }
    return count <= 1;
}

bool usable(const memory_desc_t &md) {
    if (md.ndims <= 0 || md.format_kind != dnnl_blocked) return false;
    if (md_has_runtime_dims_or_strides(md)) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_offsets[d] != 0) return false;
    return true;
}

} // namespace

dim_t nest_t::volume() const {
    dim_t v = 1;
    for (int p = 0; p < nparts; ++p) v *= extent[p];
    return v;
}

bool build(nest_t &n, const memory_desc_t &master,
        const std::vector<const memory_desc_t *> &tensors, int reduce_tensor,
        bool merge) {
    if (!usable(master)) return false;
    const int nd = master.ndims;
    const int nt = (int)tensors.size();
    if (nt == 0) return false;

    // Parts of the master: one per unblocked dim, two per blocked dim.
    struct raw_t {
        int dim;
        dim_t mult, extent, mstride;
        bool inner;
    };
    raw_t raw[max_parts];
    int nraw = 0;
    dim_t mblk[max_ndims];
    for (int d = 0; d < nd; ++d) {
        dim_t bs, is;
        if (!dim_block(master, d, bs, is)) return false;
        mblk[d] = bs;
        const dim_t pd = master.padded_dims[d];
        if (bs > 1) {
            raw[nraw++] = {d, bs, pd / bs,
                    master.format_desc.blocking.strides[d], false};
            raw[nraw++] = {d, 1, bs, is, true};
        } else {
            raw[nraw++] = {
                    d, 1, pd, master.format_desc.blocking.strides[d], false};
        }
    }

    // Strides of every tensor per raw part.
    std::vector<dim_t> st((size_t)nt * max_parts, 0);
    std::vector<dim_t> base(nt, 0);
    for (int t = 0; t < nt; ++t) {
        const memory_desc_t &T = *tensors[t];
        if (!usable(T) || T.ndims != nd) return false;
        base[t] = T.offset0;
        const bool is_reduce = t == reduce_tensor;
        for (int d = 0; d < nd; ++d) {
            dim_t bs, is;
            if (!dim_block(T, d, bs, is)) return false;
            const bool master_padded = master.padded_dims[d] != master.dims[d];
            if (is_reduce && T.dims[d] == 1 && master_padded) return false;
            bool zero = false;
            if (T.dims[d] != master.dims[d]) {
                if (T.dims[d] != 1) return false;
                zero = true; // broadcast
            } else if (bs > 1) {
                if (mblk[d] != bs || T.padded_dims[d] != master.padded_dims[d])
                    return false;
            } else if (master_padded) {
                // The master iterates over padding this tensor does not
                // have: only a single broadcast value may be read there.
                if (T.dims[d] != 1 || is_reduce) return false;
                zero = true;
            }
            for (int p = 0; p < nraw; ++p) {
                if (raw[p].dim != d) continue;
                dim_t s;
                // Parts of one position are dropped below, and their
                // stride times the master's block could leave dim_t
                // (a free stride of a dim padded by the master's block).
                if (zero || raw[p].extent == 1)
                    s = 0;
                else if (bs > 1)
                    s = raw[p].inner ? is : T.format_desc.blocking.strides[d];
                else if (!dim_mul(T.format_desc.blocking.strides[d], raw[p].mult, s))
                    return false; // a stride no offset could use
                st[(size_t)t * max_parts + p] = s;
            }
        }
    }

    // Order by the master's strides, outermost first; drop unit parts.
    int order[max_parts];
    int np = 0;
    for (int p = 0; p < nraw; ++p)
        if (raw[p].extent != 1) order[np++] = p;
    std::stable_sort(order, order + np,
            [&](int a, int b) { return raw[a].mstride > raw[b].mstride; });

    n = nest_t();
    n.ntensors = nt;
    n.base = base;
    n.strides.assign((size_t)nt * max_parts, 0);
    for (int i = 0; i < np; ++i) {
        const raw_t &r = raw[order[i]];
        n.extent[i] = r.extent;
        n.part[i] = {r.dim, r.mult};
        for (int t = 0; t < nt; ++t)
            n.strides[(size_t)t * max_parts + i] =
                    st[(size_t)t * max_parts + order[i]];
    }
    n.nparts = np;
    bool empty = false;
    for (int p = 0; p < nraw; ++p) empty = empty || raw[p].extent == 0;
    if (np == 0 || empty) {
        // A single element, or an empty tensor: one part of extent 0 (an
        // empty tensor's strides are free, and may be huge enough to
        // overflow the merge below).
        n.nparts = 1;
        n.extent[0] = empty ? 0 : 1;
        n.part[0] = {0, 1};
        for (int t = 0; t < nt; ++t) n.strides[(size_t)t * max_parts] = 0;
        return true;
    }
    if (!merge) return true;

    // Merge part i into part i + 1 when contiguous for every tensor.
    for (int i = n.nparts - 2; i >= 0; --i) {
        bool ok = true;
        for (int t = 0; t < nt && ok; ++t)
            ok = n.stride(t, i) == n.stride(t, i + 1) * n.extent[i + 1];
        if (!ok) continue;
        n.extent[i + 1] *= n.extent[i];
        for (int j = i; j + 1 < n.nparts; ++j) {
            n.extent[j] = n.extent[j + 1];
            n.part[j] = n.part[j + 1];
            for (int t = 0; t < nt; ++t)
                n.strides[(size_t)t * max_parts + j] =
                        n.strides[(size_t)t * max_parts + j + 1];
        }
        --n.nparts;
    }
    return true;
}

} // namespace nest
} // namespace cpu
} // namespace impl
} // namespace dnnl
