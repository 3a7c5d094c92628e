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

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
