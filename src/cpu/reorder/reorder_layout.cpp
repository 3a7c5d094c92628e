// Layout arithmetic shared by the CPU reorders.
#include "cpu/reorder/reorder_layout.hpp"

#include "cpu/reorder/reorder_cvt.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

dim_t dim_offset(const memory_desc_t &md, int d, dim_t i) {
    const auto &b = md.format_desc.blocking;
    dim_t p = i + md.padded_offsets[d];
    dim_t off = 0, stride = 1;
    for (int k = b.inner_nblks - 1; k >= 0; --k) {
        if (b.inner_idxs[k] == d) {
            off += (p % b.inner_blks[k]) * stride;
            p /= b.inner_blks[k];
        }
        stride *= b.inner_blks[k];
    }
    return off + p * b.strides[d];
}

dim_t dim_block(const memory_desc_t &md, int d) {
    const auto &b = md.format_desc.blocking;
    dim_t blk = 1;
    for (int k = 0; k < b.inner_nblks; ++k)
        if (b.inner_idxs[k] == d) blk *= b.inner_blks[k];
    return blk;
}

std::vector<factor_t> dim_factors(
        const memory_desc_t &md, int d, dim_t extent) {
    const auto &b = md.format_desc.blocking;
    std::vector<factor_t> f;
    const dim_t blk = dim_block(md, d);
    f.push_back({extent / blk, b.strides[d], blk});
    // Inner blocks of this dim, outermost first; a block's stride is the
    // product of all inner blocks after it.
    dim_t lm = blk;
    for (int k = 0; k < b.inner_nblks; ++k) {
        if (b.inner_idxs[k] != d) continue;
        dim_t stride = 1;
        for (int j = k + 1; j < b.inner_nblks; ++j) stride *= b.inner_blks[j];
        lm /= b.inner_blks[k];
        f.push_back({b.inner_blks[k], stride, lm});
    }
    return f;
}

bool has_zero_dim(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 0) return true;
    return false;
}

bool reorder_mds_ok(const memory_desc_t &src, const memory_desc_t &dst,
        bool allow_runtime, bool with_f8) {
    if (src.ndims != dst.ndims || src.ndims <= 0) return false;
    for (const memory_desc_t *md : {&src, &dst}) {
        if (md->format_kind != dnnl_blocked) return false;
        if (!allow_runtime && md_has_runtime_dims_or_strides(*md)) return false;
        if (!supported_data_type(md->data_type, with_f8)) return false;
        if (md->extra.flags != 0) return false;
    }
    for (int d = 0; d < src.ndims; ++d)
        if (src.dims[d] != dst.dims[d]) return false;
    return true;
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
