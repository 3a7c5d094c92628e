// Host side of ocl_layout.clh: packs a blocked memory descriptor into the
// layout_t kernels compute offsets from.
#pragma once

#include <cstdint>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

constexpr int layout_max_ndims = 6;
constexpr int layout_max_blks = 3;

// Mirrors layout_t of ocl_layout.clh field by field.
struct layout_t {
    int64_t offset0;
    int64_t ndims;
    int64_t nblks;
    int64_t dims[layout_max_ndims];
    int64_t strides[layout_max_ndims];
    int64_t blk_size[layout_max_ndims];
    int64_t inner_blk[layout_max_blks];
    int64_t inner_idx[layout_max_blks];
    int64_t inner_stride[layout_max_blks];
    int64_t inner_within[layout_max_blks];
    int64_t padded_dims[layout_max_ndims];
};

// False when `md` is not a blocked descriptor kernels can address (more
// than layout_max_ndims dims or layout_max_blks inner blocks, runtime
// dims or strides).
bool layout_supported(const memory_desc_t &md);
layout_t make_layout(const memory_desc_t &md);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
