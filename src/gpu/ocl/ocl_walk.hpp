// Memory-order walks over a tensor and per-dim element offsets, for the
// kernels that compute one output element (or a few channels) per
// work-item and need its logical position: pooling, LRN, shuffle,
// resampling, PReLU.
//
// A walk lists the parts of a descriptor's padded positions in the order
// of its memory (dims by decreasing outer stride, then the inner blocks),
// so that consecutive work-items touch consecutive addresses of the tensor
// they write. A kernel turns a work-item id into a logical position with
// one division per part (ocl_walk.clh).
//
// Offsets: "fast" tensors (at most one inner block per dim) are described
// per dim (outer stride, block, stride inside the block); any other
// blocked descriptor goes as a layout_t (ocl_layout.clh). Kernels read the
// descriptions from a small read-only device buffer made once per
// primitive (conf_t below), so new shapes reuse the compiled program and
// no kernel argument grows past the 1 KiB OpenCL guarantees.
#pragma once

#include <cstdint>
#include <vector>

#include "common/memory_desc.hpp"
#include "gpu/ocl/ocl_kernel.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

constexpr int walk_max_parts = 8;
constexpr int walk_ndims = 6;

// Twin of walk_t in ocl_walk.clh.
struct walk_t {
    int64_t volume; // work-items: the product of the extents
    int64_t nparts;
    int64_t lane_dim;  // dim of the innermost part (the vector lanes)
    int64_t lane_step; // position step of one lane along lane_dim
    int64_t extent[walk_max_parts]; // outermost first
    int64_t dim[walk_max_parts];
    int64_t mult[walk_max_parts]; // position step of one index of the part
    // Division by extent[p] without a divide (32-bit walks, indices below
    // 2^31): q = (mul_hi(i, magic[p]) + i) >> shift[p].
    int64_t magic[walk_max_parts];
    int64_t shift[walk_max_parts];
};

// The walk of md's padded positions in memory order. With vec > 1 the
// innermost part's extent (which must be a multiple of vec) is divided by
// vec: a work-item covers vec consecutive positions of that part. False
// when md has more parts than walk_max_parts.
bool make_walk(const memory_desc_t &md, walk_t &w, int vec = 1);
// The walk of the dims in `mask` (bit d: dim d) only; the others stay at
// position 0.
bool make_walk_of_dims(
        const memory_desc_t &md, unsigned mask, walk_t &w, int vec = 1);
// The innermost part of md's walk: its dim, extent and position step.
void walk_innermost(
        const memory_desc_t &md, int &dim, dim_t &extent, dim_t &step);
// True when md's padded positions fill its buffer in walk order without
// gaps (element offset = offset0 + linear index in the walk).
bool walk_dense(const memory_desc_t &md);

// At most one inner block per dim and at most walk_ndims dims: the fast
// per-dim offsets apply.
bool fast_offsets_ok(const memory_desc_t &md);
// md's dims 2.. unblocked (spatial strides add to a base offset).
bool spatial_unblocked(const memory_desc_t &md);
// md with 0 to 3 spatial dims seen as N x C x D x H x W: missing spatial
// dims are inserted before the present ones with size 1.
memory_desc_t as_5d(const memory_desc_t &md);
// Largest w in {max_w, max_w / 2, ..., 2} that `ok(w)` accepts, else 1.
template <typename F>
int pick_vec(int max_w, F ok) {
    for (int w = max_w; w > 1; w /= 2)
        if (ok(w)) return w;
    return 1;
}
// True when element offsets of md along `dim` are contiguous in runs of
// w starting at positions that are multiples of w, and every other
// stride, block stride and offset0 is a multiple of w (so w-wide vector
// accesses stay aligned).
bool lanes_contiguous(const memory_desc_t &md, int dim, int w);
// Channels (dim 1) as vector lanes: the largest width w <= 8 with w times
// the largest element size <= 16 bytes such that `out`'s innermost walk
// part is its channels, a multiple of w of them, and every tensor of
// `all` passes lanes_contiguous(md, 1, w); else 1.
int channel_lanes(const memory_desc_t &out,
        const std::vector<const memory_desc_t *> &all);
// True when every element offset and the padded volume of md fit 31 bits
// (kernels then index with 32-bit arithmetic).
bool offsets_fit_int32(const memory_desc_t &md);

// The configuration a kernel reads as one struct of longs through a
// __constant pointer: values appended in the order of the kernel's struct.
class conf_t {
public:
    conf_t &put(int64_t v) {
        values_.push_back(v);
        return *this;
    }
    conf_t &put(const walk_t &w);
    // tensor_t of ocl_walk.clh: layout_t when `generic`, else the per-dim
    // offsets (md must pass fast_offsets_ok).
    conf_t &put_tensor(const memory_desc_t &md, bool generic);
    // A tensor slot the kernel does not use (same size as put_tensor).
    conf_t &put_no_tensor(bool generic);
    const std::vector<int64_t> &values() const { return values_; }

private:
    std::vector<int64_t> values_;
};

// Defines WALK_GENERIC and WALK_INT32 (ocl_walk.clh).
void define_walk(kernel_options_t &opts, bool generic, bool int32);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
