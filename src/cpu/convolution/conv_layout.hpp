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

// The weights layout the implicit GEMM reads without packing: output
// channels in blocks of `mr` (the microkernel's A panel height) innermost,
// the reduction index (ncsp: i, d, h, w; nspc: d, h, w, i) outside them,
// output-channel blocks outermost (after groups). `like` gives dims and
// data type.
status_t igemm_wei_md(memory_desc_t &md, const memory_desc_t &like,
        layout_t l, bool groups, int mr);

// Copies all elements of a tensor described by `smd` at `s` into the one
// described by `dmd` at `d` (same dims; data types may differ: values are
// converted with rounding and saturation), rows in parallel.
void copy_tensor(const memory_desc_t &smd, const void *s,
        const memory_desc_t &dmd, void *d);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
