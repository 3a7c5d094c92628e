// The gate for binary select post-ops: an implementation that does not
// declare handles_select_post_op() would read such an entry as a two-input
// binary and drop its condition, so the creators of implementation lists
// refuse it (dnnl_unimplemented, with a verbose line) and the iterator
// moves on to the next implementation.
#pragma once

#include "common/primitive_attr.hpp"
#include "common/primitive_desc.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

inline bool has_select_post_op(const primitive_attr_t &attr) {
    for (const auto &e : attr.post_ops.entries)
        if (e.kind == post_op_kind_t::binary && e.alg == dnnl_binary_select)
            return true;
    return false;
}

inline bool select_post_op_ok(
        const primitive_desc_t &pd, const primitive_attr_t &attr) {
    if (!has_select_post_op(attr) || pd.handles_select_post_op()) return true;
    verbose_check("primitive",
            "%s: no binary select post-op in this implementation", pd.name());
    return false;
}

} // namespace impl
} // namespace dnnl
