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

// Brings tensors of more than layout_max_ndims dims within reach of the
// kernels by merging neighbouring dims, as a fold that changes no offset.
// The n descriptors share ndims and an iteration shape (each dim of each
// descriptor is the largest extent among them or 1, a broadcast). Dims d
// and d + 1 merge when no tensor blocks or pads either and, in every
// tensor, both are broadcast, or both full with d's stride equal to
// d + 1's stride times its extent, or one of them has extent 1 in every
// tensor. Dims set in `keep` (bit d) merge with none. Merges from the
// innermost pair outwards until at most layout_max_ndims remain; false
// when that is not reached (the descriptors are then unspecified).
// old_to_new (when given) maps each old dim to its folded dim.
bool fold_to_layout_dims(memory_desc_t *const *mds, int n, unsigned keep = 0,
        int *old_to_new = nullptr);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
