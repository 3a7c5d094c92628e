// Small questions and answers about a memory descriptor's layout, shared
// by the primitive descriptors of both engines and their implementations:
// whether it is plain (blocked without inner blocks), padded or empty,
// and dense descriptors made like another tensor's layout (format `any`).
#pragma once

#include <string>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {

namespace layout {
// A blocked descriptor with known dims and strides and at least one dim.
bool usable(const memory_desc_t &md);
// Blocked without inner blocks.
bool is_plain(const memory_desc_t &md);
bool same_dims(const memory_desc_t &a, const memory_desc_t &b);
bool has_zero_dim(const memory_desc_t &md);
bool has_padding(const memory_desc_t &md);
// "2x3x4x5".
std::string dims_str(const memory_desc_t &md);
// Dense descriptor of `ndims`/`dims`/`dt` with the layout of `like`: the
// same inner blocks and the same order of outer strides (ties: more outer
// blocks first, then the logical order). dnnl_unimplemented when `like`
// is not usable.
status_t like(memory_desc_t &out, const memory_desc_t &like_md,
        const dims_t dims, data_type_t dt);
// Dense row-major (abcd...) descriptor.
status_t plain(
        memory_desc_t &out, int ndims, const dims_t dims, data_type_t dt);
} // namespace layout

} // namespace impl
} // namespace dnnl
