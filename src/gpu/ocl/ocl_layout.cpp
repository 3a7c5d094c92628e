// Packing of memory descriptors for kernels.
#include "gpu/ocl/ocl_layout.hpp"

#include <cstring>

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

bool layout_supported(const memory_desc_t &md) {
    return md.ndims > 0 && md.ndims <= layout_max_ndims
            && md.format_kind == dnnl_blocked
            && md.format_desc.blocking.inner_nblks <= layout_max_blks
            && !md_has_runtime_dims_or_strides(md);
}

layout_t make_layout(const memory_desc_t &md) {
    layout_t l;
    std::memset(&l, 0, sizeof(l));
    const auto &b = md.format_desc.blocking;
    l.offset0 = md.offset0;
    l.ndims = md.ndims;
    l.nblks = b.inner_nblks;
    for (int d = 0; d < layout_max_ndims; ++d) {
        l.dims[d] = d < md.ndims ? md.dims[d] : 1;
        l.strides[d] = d < md.ndims ? b.strides[d] : 0;
        l.blk_size[d] = 1;
        l.padded_dims[d] = d < md.ndims ? md.padded_dims[d] : 1;
    }
    for (int k = 0; k < b.inner_nblks; ++k)
        l.blk_size[b.inner_idxs[k]] *= b.inner_blks[k];
    int64_t after = 1;
    for (int k = b.inner_nblks - 1; k >= 0; --k) {
        l.inner_blk[k] = b.inner_blks[k];
        l.inner_idx[k] = b.inner_idxs[k];
        l.inner_stride[k] = after;
        after *= b.inner_blks[k];
        int64_t within = 1;
        for (int j = k; j < b.inner_nblks; ++j)
            if (b.inner_idxs[j] == b.inner_idxs[k]) within *= b.inner_blks[j];
        l.inner_within[k] = within;
    }
    return l;
}

namespace {

bool dim_plain(const memory_desc_t &md, int d) {
    const auto &b = md.format_desc.blocking;
    for (int k = 0; k < b.inner_nblks; ++k)
        if (b.inner_idxs[k] == d) return false;
    return md.padded_dims[d] == md.dims[d] && md.padded_offsets[d] == 0;
}

bool can_merge(memory_desc_t *const *mds, int n, int d) {
    bool all_one_d = true, all_one_e = true;
    for (int t = 0; t < n; ++t) {
        all_one_d = all_one_d && mds[t]->dims[d] == 1;
        all_one_e = all_one_e && mds[t]->dims[d + 1] == 1;
    }
    for (int t = 0; t < n; ++t) {
        const memory_desc_t &m = *mds[t];
        if (!dim_plain(m, d) || !dim_plain(m, d + 1)) return false;
        if (all_one_d || all_one_e) continue;
        const bool bd = m.dims[d] == 1, be = m.dims[d + 1] == 1;
        if (bd && be) continue;
        if (bd || be) return false;
        const auto &s = m.format_desc.blocking.strides;
        if (s[d] != s[d + 1] * m.dims[d + 1]) return false;
    }
    return true;
}

// Replaces dims d and d + 1 of md by one (d's place), renumbering inner
// blocks of later dims.
void merge(memory_desc_t &m, int d, bool keep_outer_stride) {
    auto &b = m.format_desc.blocking;
    const dim_t ext = m.dims[d] * m.dims[d + 1];
    const dim_t stride = keep_outer_stride ? b.strides[d] : b.strides[d + 1];
    m.dims[d] = m.padded_dims[d] = ext;
    m.padded_offsets[d] = 0;
    b.strides[d] = stride;
    for (int e = d + 1; e + 1 < m.ndims; ++e) {
        m.dims[e] = m.dims[e + 1];
        m.padded_dims[e] = m.padded_dims[e + 1];
        m.padded_offsets[e] = m.padded_offsets[e + 1];
        b.strides[e] = b.strides[e + 1];
    }
    for (int k = 0; k < b.inner_nblks; ++k)
        if (b.inner_idxs[k] > d) --b.inner_idxs[k];
    --m.ndims;
}

} // namespace

bool fold_to_layout_dims(
        memory_desc_t *const *mds, int n, unsigned keep, int *old_to_new) {
    if (n <= 0) return false;
    const int nd0 = mds[0]->ndims;
    int map[max_ndims];
    for (int d = 0; d < nd0; ++d) map[d] = d;
    for (int t = 0; t < n; ++t)
        if (mds[t]->ndims != nd0 || mds[t]->format_kind != dnnl_blocked)
            return false;
    // `kept` follows the folding: bit d for the current dim d.
    unsigned kept = keep;
    int d = nd0 - 2;
    while (mds[0]->ndims > layout_max_ndims && d >= 0) {
        if (d + 1 < mds[0]->ndims && !(kept >> d & 3u)
                && can_merge(mds, n, d)) {
            // A broadcast pair keeps the stride of whichever dim is not 1.
            for (int t = 0; t < n; ++t)
                merge(*mds[t], d, mds[t]->dims[d + 1] == 1);
            const unsigned low = kept & ((1u << (d + 1)) - 1);
            kept = low | ((kept >> (d + 2)) << (d + 1));
            for (int k = 0; k < nd0; ++k)
                if (map[k] > d) --map[k];
        }
        --d;
    }
    if (old_to_new)
        for (int k = 0; k < nd0; ++k) old_to_new[k] = map[k];
    return mds[0]->ndims <= layout_max_ndims;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
