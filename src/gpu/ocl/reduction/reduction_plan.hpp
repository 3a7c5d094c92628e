// How the gpu reduction addresses its tensors: src's non-trivial dims
// ordered by stride (outermost first), split into kept dims (dst has
// them) and reduced dims (dst has 1), consecutive dims of one kind merged
// into parts when their strides nest (in src, and in dst for kept ones).
// A unit (ocl_unit_loop.clh) is one dst element, found from its index by
// one division per kept part; its elements are the outer reduced parts
// (one division each per step) times the innermost reduced part.
#pragma once

#include <cstdint>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

constexpr int red_max_parts = 6;

// Twin of red_parts_t in reduction.cl.
struct red_parts_t {
    int64_t nk; // kept parts, outermost first
    int64_t kext[red_max_parts], ks[red_max_parts], kd[red_max_parts];
    // Logical dims of kept part k: kmembers[k] entries of korder, the
    // parts' lists one after another, outermost dim first.
    int64_t kmembers[red_max_parts];
    int64_t korder[red_max_parts];
    int64_t nro; // outer reduced parts, outermost first
    int64_t rext[red_max_parts], rs[red_max_parts];
    int64_t is; // src stride of the innermost reduced part
};

struct red_plan_t {
    red_parts_t parts;
    int64_t units = 0;    // dst elements
    int64_t o = 1, i = 1; // elements per unit: outer x inner reduced
    // Neighbouring units adjacent in src and the reduced elements apart:
    // units go to neighbouring work-items.
    bool units_inner = false;
};

// False when src or dst is not plain (inner blocks, padding) or the
// parts do not fit red_max_parts.
bool build_red_plan(
        const memory_desc_t &src, const memory_desc_t &dst, red_plan_t &plan);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
