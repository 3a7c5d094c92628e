// Creation-time checks of post-op chains common to every implementation
// list (called by the CPU and OpenCL creators of implementation lists):
//  * binary post-op tensors must have the destination's number of
//    dimensions, and no f64 on the CPU engine: dnnl_invalid_arguments, as
//    oneDNN answers for every primitive kind (checked before `init`);
//  * binary select post-ops: an implementation that does not declare
//    handles_select_post_op() would read such an entry as a two-input
//    binary and drop its condition, so it is refused (dnnl_unimplemented,
//    with a verbose line) and the iterator moves on to the next one.
// init_with_post_op_checks runs both around an implementation's init.
#pragma once

#include "common/engine.hpp"
#include "common/primitive_attr.hpp"
#include "common/primitive_desc.hpp"
#include "common/verbose.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {

inline bool has_select_post_op(const primitive_attr_t &attr) {
    for (const auto &e : attr.post_ops.entries)
        if (e.kind == post_op_kind_t::binary && e.alg == dnnl_binary_select)
            return true;
    return false;
}

inline status_t binary_post_op_shapes_ok(const primitive_desc_t &pd,
        const primitive_attr_t &attr, engine_kind_t engine_kind) {
    if (attr.post_ops.entries.empty()) return dnnl_success;
    const memory_desc_t *dst = pd.arg_md(DNNL_ARG_DST);
    if (!dst || is_zero_md(*dst)) return dnnl_success;
    for (const auto &e : attr.post_ops.entries) {
        if (e.kind != post_op_kind_t::binary) continue;
        const bool select = e.alg == dnnl_binary_select;
        for (const memory_desc_t *m : {&e.src1_md, &e.src2_md}) {
            if (m == &e.src2_md && !select) break;
            if (m->ndims != dst->ndims) {
                verbose_check("primitive",
                        "%s: binary post-op tensor has %d dims, dst %d",
                        dnnl_prim_kind2str(pd.kind()), m->ndims, dst->ndims);
                return dnnl_invalid_arguments;
            }
            if (engine_kind == dnnl_cpu && m->data_type == dnnl_f64) {
                verbose_check("primitive", "%s: f64 binary post-op tensor",
                        dnnl_prim_kind2str(pd.kind()));
                return dnnl_invalid_arguments;
            }
        }
    }
    return dnnl_success;
}

inline bool select_post_op_ok(
        const primitive_desc_t &pd, const primitive_attr_t &attr) {
    if (!has_select_post_op(attr) || pd.handles_select_post_op()) return true;
    verbose_check("primitive",
            "%s: no binary select post-op in this implementation", pd.name());
    return false;
}

// What every implementation-list creator runs on a new primitive
// descriptor: the post-op shape check, `any` post-op layouts resolved from
// dst, the implementation's own init, then the select check.
template <typename pd_type>
status_t init_with_post_op_checks(
        pd_type &pd, const primitive_attr_t &attr, engine_t *engine) {
    status_t st = binary_post_op_shapes_ok(pd, attr, engine->kind());
    if (st != dnnl_success) return st;
    pd.resolve_post_op_layouts();
    st = pd.init(engine);
    if (st == dnnl_success && !select_post_op_ok(pd, attr))
        st = dnnl_unimplemented;
    return st;
}

} // namespace impl
} // namespace dnnl
