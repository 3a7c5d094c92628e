// How the gpu reorder walks a tensor: the logical dims of both layouts are
// split into "factors" (an outer part and the inner blocks of each dim,
// refined so that every factor has one stride in the source and one in the
// destination), ordered by destination stride and merged where contiguous
// in both. The factor list decides the kernel (a buffer copy, a linear
// conversion, a local-memory tile for transposes, or the generic walk) and
// travels to the kernel as one struct argument, so that new shapes reuse the
// built program.
#pragma once

#include <cstdint>

#include "common/memory_desc.hpp"
#include "gpu/ocl/ocl_layout.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

constexpr int plan_max_factors = 12;
constexpr int plan_max_dims = 6;

// Mirrors plan_t of reorder.cl field by field (64-bit fields first, then
// 32-bit ones: no padding on either side). Factor 0 is the innermost
// (fastest varying) one. Offsets are in elements. Kept small: it shares
// the kernel's argument space (1024 bytes guaranteed by OpenCL) with a
// layout_t in by_layout plans.
struct plan_args_t {
    int64_t nf; // number of factors
    int64_t ndims; // dims the kernel tracks positions of
    int64_t s0, d0; // element offsets of the first element
    int64_t ext[plan_max_factors]; // extent of each factor
    int64_t sstr[plan_max_factors]; // source stride (0 in by_layout plans)
    int64_t dstr[plan_max_factors]; // destination stride
    int64_t lm[plan_max_factors]; // logical step of its dim per unit
    int64_t dims[plan_max_dims]; // logical extent of each tracked dim
    int64_t dpad[plan_max_dims]; // destination's padded extent
    int32_t dim[plan_max_factors]; // tracked dim a factor moves, or -1
    // Tracked dims each quantization array varies over (src scale, dst
    // scale, src zero point, dst zero point): arguments, not defines, so
    // that masks do not multiply programs.
    int32_t qmask[4];
};
static_assert(sizeof(plan_args_t) == 64 * 8 + 16 * 4,
        "plan_args_t must match plan_t of reorder.cl without padding");

enum class plan_kind_t {
    empty, // nothing to do (a zero dim)
    copy, // the same bytes: a buffer copy
    linear, // one contiguous run in both: vectorised conversion
    tiled, // a 2D transpose of two factors through local memory
    generic, // one work-item per destination element
    by_layout, // blocks that do not nest: source offsets from layout_t
};

struct reorder_plan_t {
    plan_kind_t kind = plan_kind_t::empty;
    plan_args_t args {};
    bool has_pad = false; // destination padding (or over-run) to check
    bool idx_long = false; // offsets or counts beyond 32 bits
    int64_t work = 0; // elements (linear) or work-items (generic, tiled)
    // Original dim -> tracked dim (-1: a dim whose positions no check or
    // quantization index needs).
    int dim_map[DNNL_MAX_NDIMS] = {};
    int tile_x_log2 = 0, tile_y_log2 = 0; // tiled: tile shape
    int64_t tiles_x = 0, tiles_y = 0;
    layout_t src_layout {}; // by_layout only
};

// Builds the plan of a reorder from `src` to `dst` (blocked, same dims,
// no runtime values). `quant_dims`: bits of the original dims that some
// scale or zero-point mask varies over (their positions are tracked);
// `plain_copy`: same data type and no attributes (a copy plan is allowed).
// dnnl_unimplemented (with a verbose line) for layouts the kernels cannot
// walk.
status_t make_plan(const memory_desc_t &src, const memory_desc_t &dst,
        int quant_dims, bool plain_copy, reorder_plan_t &plan);

// Elements [0, n) of `md` that positions below `extent` (dims or padded
// dims) can touch, counted from the buffer's start (offset0 included).
int64_t md_touched_elems(const memory_desc_t &md, const dim_t *extent);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
