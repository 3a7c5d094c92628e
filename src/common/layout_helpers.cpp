// The layout helpers of layout_helpers.hpp.
#include "common/layout_helpers.hpp"

#include <algorithm>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {

namespace layout {

bool usable(const memory_desc_t &md) {
    return md.ndims > 0 && md.format_kind == dnnl_blocked
           && !md_has_runtime_dims_or_strides(md);
}

bool is_plain(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked
           && md.format_desc.blocking.inner_nblks == 0;
}

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    return true;
}

bool has_zero_dim(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 0) return true;
    return false;
}

bool has_padding(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0)
            return true;
    return false;
}

std::string dims_str(const memory_desc_t &md) {
    std::string s;
    for (int d = 0; d < md.ndims; ++d) {
        if (d) s += "x";
        s += std::to_string(md.dims[d]);
    }
    return s;
}

status_t like(memory_desc_t &out, const memory_desc_t &like_md,
        const dims_t dims, data_type_t dt) {
    if (!usable(like_md)) return dnnl_unimplemented;
    const auto &lb = like_md.format_desc.blocking;
    const int nd = like_md.ndims;
    memory_desc_t md = zero_md();
    md.ndims = nd;
    md.data_type = dt;
    md.format_kind = dnnl_blocked;
    auto &b = md.format_desc.blocking;
    b.inner_nblks = lb.inner_nblks;
    dim_t blk[max_ndims];
    for (int d = 0; d < nd; ++d) blk[d] = 1;
    dim_t inner = 1;
    for (int i = 0; i < lb.inner_nblks; ++i) {
        b.inner_blks[i] = lb.inner_blks[i];
        b.inner_idxs[i] = lb.inner_idxs[i];
        blk[lb.inner_idxs[i]] *= lb.inner_blks[i];
        inner *= lb.inner_blks[i];
    }
    for (int d = 0; d < nd; ++d) {
        if (dims[d] < 0) return dnnl_invalid_arguments;
        md.dims[d] = dims[d];
        md.padded_dims[d] = (dims[d] + blk[d] - 1) / blk[d] * blk[d];
    }
    int order[max_ndims];
    for (int d = 0; d < nd; ++d) order[d] = d;
    // Outermost first: larger strides of `like`; ties go to the dim with
    // more outer blocks in the new descriptor (as oneDNN orders them).
    std::stable_sort(order, order + nd, [&](int x, int y) {
        if (lb.strides[x] != lb.strides[y])
            return lb.strides[x] > lb.strides[y];
        return md.padded_dims[x] / blk[x] > md.padded_dims[y] / blk[y];
    });
    dim_t stride = inner;
    for (int i = nd - 1; i >= 0; --i) {
        const int d = order[i];
        b.strides[d] = stride;
        stride *= std::max<dim_t>(md.padded_dims[d] / blk[d], 1);
    }
    out = md;
    return dnnl_success;
}

status_t plain(
        memory_desc_t &out, int ndims, const dims_t dims, data_type_t dt) {
    return md_init_by_strides(out, ndims, dims, dt, nullptr);
}

} // namespace layout

} // namespace impl
} // namespace dnnl
