// Layout helpers of the convolution kernels: canonical tags, layout
// detection, and a generic tensor copy between any two blocked layouts
// (with data type conversion) for tensors the kernels cannot read in place.
#pragma once

#include "common/memory_desc.hpp"
#include "cpu/convolution/conv_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

// Whether `md` is exactly the dense layout of `tag` (offset0 allowed).
bool md_is_tag(const memory_desc_t &md, format_tag_t tag);

// Copies all elements of a tensor described by `smd` at `s` into the one
// described by `dmd` at `d` (same dims; data types may differ: values are
// converted with rounding and saturation). OpenMP-parallel.
void copy_tensor(const memory_desc_t &smd, const void *s,
        const memory_desc_t &dmd, void *d);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
