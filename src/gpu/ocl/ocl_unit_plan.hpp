// Host side of ocl_unit_loop.clh: how the unit kernels (softmax,
// normalizations, reduction) see tensors and split work.
//  - Strided views: groups of consecutive logical dims merged into one
//    stride each ([outer, axis, inner], [N, C, spatial], ...); plain
//    layouts whose dims merge are addressed natively, others go through
//    a dense copy (ocl_staging.hpp).
//  - Unit geometry: the work-group shape (unit slots x lanes) and the
//    number of chunks per unit, chosen from the device facts so that
//    short units share a group and long ones with few siblings are split
//    across groups (their partial results are then combined by a second
//    kernel).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/memory_desc.hpp"
#include "gpu/ocl/ocl_device_info.hpp"
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Stride of logical dims [d0, d1) of `md` taken as one dim (row-major
// over them), or false when they do not merge: inner blocks, padding,
// runtime values, or strides that are not nested. Size-1 dims never
// break a merge; an empty or all-ones range has stride 0.
bool merged_stride(const memory_desc_t &md, int d0, int d1, int64_t &stride);

// Product of dims [d0, d1).
int64_t dims_product(const memory_desc_t &md, int d0, int d1);

// Twin of view3_t in ocl_unit_loop.clh: a tensor as three merged dims
// [0, d1), [d1, d2), [d2, ndims); off0 is filled at execution (the
// buffer's origin, see ocl_staging.hpp).
struct view3_t {
    int64_t off0;
    int64_t s[3];
};
// False when one of the three groups does not merge.
bool make_view3(const memory_desc_t &md, int d1, int d2, view3_t &v);

// Twin of dims6_t in ocl_unit_loop.clh (unused dims are 1).
struct dims6_t {
    int64_t d[6];
};
dims6_t make_dims6(const memory_desc_t &md);

// Twin of unit_space_t in ocl_unit_loop.clh.
struct unit_space_t {
    int64_t units;
    int64_t o, i;
    int64_t qo, qi;
};

struct unit_geom_t {
    bool units_inner = false; // unit slots along local dimension 0
    bool single_lane = false; // compiled with UL_LANES 1
    size_t lu = 1, lr = 1;    // unit slots and lanes per work-group
    unit_space_t sp = {0, 1, 1, 1, 1};

    int64_t chunks() const { return sp.qo * sp.qi; }
    size_t group_size() const { return lu * lr; }
    // Local memory of `values_per_item` values of `value_bytes` (floats;
    // 8 where the kernel reduces doubles, FLT_T) per work-item.
    size_t local_bytes(int values_per_item, size_t value_bytes = 4) const {
        return group_size() * values_per_item * value_bytes;
    }
    nd_range_t range() const;
};

// Whether `dev` gets the geometry of GPUs: GPU devices, and any device
// while ONEDNN_OCL_UNIT_GEOMETRY=gpu (so that tests on a CPU device run
// the kernels exactly as GPUs compile and launch them).
bool gpu_geometry(const device_info_t &dev);

// Whether the normalizations may hold long units on chip with local
// memory beside registers (group normalization's units_held, batch
// normalization's held): yes unless ONEDNN_OCL_NORM_HELD=0, which keeps
// the streaming kernels (on an H100 the held ones are 1.2-1.4x faster,
// doc/performance.md).
bool norm_held_enabled();

// Whether kernels for units of `elems` elements on `dev` are compiled
// single-lane (UL_LANES 1): on CPU devices (PoCL) for short units, where
// a lane per unit loses nothing and barrier-free kernels build several
// times faster. GPUs always take the lane count at run time, so new
// shapes reuse their programs.
bool single_lane_units(const device_info_t &dev, int64_t elems);

// The largest power of two not above v (1 for v < 2).
size_t pow2_floor(size_t v);

// a / b rounded up (a >= 0, b > 0).
inline int64_t div_up(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

// Launches held_parts_reset (ocl_held_parts.clh) before a held-parts
// kernel: the ticket at scratch[ticket_off] to zero and `count`
// statistics words from words_off unpublished (offsets in 4-byte words).
status_t reset_held_parts(const exec_ctx_t &ctx, const ocl_kernel_t &reset,
        cl_mem scratch, int64_t ticket_off, int64_t words_off, int64_t count);

// On NVIDIA's platform, sets the most registers a lane of the kernel may
// take (`-cl-nv-maxrregcount`). Mostly a cap, so that more groups share
// a multiprocessor: the compiler sizes kernels for one group's speed, and
// a group that reduces or waits leaves the memory idle unless another
// runs beside it; for one kernel a limit above the compiler's default.
// Other platforms reject the option; nothing is added there. Each limit
// is measured per kernel (doc/gpu.md): a kernel that needs more spills.
void cap_registers_on_nvidia(
        kernel_options_t &opts, const device_info_t &dev, int registers);

// Defines UNITS_INNER and UL_LANES: 1 for single-lane kernels, the lane
// count CPU devices always use (their tree loops then unroll, which PoCL
// builds much faster), or 0 (GPUs: lanes from the local range).
void define_unit_geom(kernel_options_t &opts, bool units_inner, bool single,
        const device_info_t &dev);

// Geometry for `units` units of o x i elements each. `max_wg` bounds the
// group (the kernel's limit); `split` allows chunks (the caller then
// combines partial results). Units go along dimension 0 when
// `units_inner` (their elements are apart, neighbouring units adjacent).
// `single`: the kernel was compiled single-lane. At most `max_chunks`
// chunks (the partial results the caller has room for); splitting aims at
// `groups_per_cu` groups per compute unit.
unit_geom_t plan_units(int64_t units, int64_t o, int64_t i, bool units_inner,
        bool single, size_t max_wg, const device_info_t &dev, bool split,
        int64_t max_chunks = INT64_MAX, int groups_per_cu = 8);

// Whether a tensor seen as `v` ([outer, len, 1] after make_view3) can be
// read as `vec`-wide vectors along its middle dim: contiguous there,
// `len`, the outer stride and the origin multiples of `vec`.
bool rows_vectorizable(
        const memory_desc_t &md, const view3_t &v, int64_t len, int vec);

// For kernels that keep a unit in registers: the vectors each lane holds
// (a power of two) when units of `vectors` vectors spread over the lanes
// of `g`, or 0 when that is more than `max_per_lane`.
int unit_cache_vectors(const unit_geom_t &g, int64_t vectors, int max_per_lane);

// The work-group size kernels of a device should use: its limit and the
// kernel's, at most 256, a power of two.
size_t unit_group_limit(const device_info_t &dev, size_t kernel_max);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
