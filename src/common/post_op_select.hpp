// Creation-time checks of post-op chains common to every implementation
// list (called by the CPU and OpenCL creators of implementation lists):
//  * binary post-op tensors must have the destination's number of
//    dimensions, and no f64 on the CPU engine: dnnl_invalid_arguments, as
//    oneDNN answers for every primitive kind (checked before `init`);
//  * binary select post-ops: an implementation that does not declare
//    handles_select_post_op() would read such an entry as a two-input
//    binary and drop its condition, so it is refused (dnnl_unimplemented,
//    with a verbose line) and the iterator moves on to the next one.
// create_with_post_op_checks runs both around an implementation's init.
#pragma once

#include <memory>

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

// What every implementation-list creator runs around an implementation's
// init: the post-op shape check, `any` post-op layouts resolved from dst,
// init, then the select check.
template <typename pd_type>
status_t init_with_post_op_checks(pd_type &pd, const primitive_attr_t &attr,
        engine_t *engine, const memory_desc_t *dst_layout) {
    pd.resolve_post_op_layouts(dst_layout);
    status_t st = pd.init(engine);
    if (st == dnnl_success && !select_post_op_ok(pd, attr))
        st = dnnl_unimplemented;
    return st;
}

// Makes a primitive descriptor with `make` (a new pd_type, or null) and
// runs the checks above. When dst and a post-op tensor are both `any`, the
// tensor's layout depends on the dst layout init chooses: the first
// descriptor is initialised with dst's plain layout standing in for it;
// if the chosen dst asks for other post-op layouts, a second descriptor is
// made with those (and must choose the same dst).
template <typename pd_type, typename make_t>
status_t create_with_post_op_checks(pd_type *&out, make_t make,
        const primitive_attr_t &attr, engine_t *engine) {
    out = nullptr;
    std::unique_ptr<pd_type> pd(make());
    if (!pd) return dnnl_out_of_memory;
    status_t st = binary_post_op_shapes_ok(*pd, attr, engine->kind());
    if (st != dnnl_success) return st;
    memory_desc_t plain_dst;
    const bool wait = pd->post_op_layouts_wait_for_dst(plain_dst);
    st = init_with_post_op_checks(*pd, attr, engine, wait ? &plain_dst : nullptr);
    if (st != dnnl_success) return st;
    const memory_desc_t dst = *pd->arg_md(DNNL_ARG_DST);
    if (wait && !pd->post_op_layouts_follow(dst)) {
        pd.reset(make());
        if (!pd) return dnnl_out_of_memory;
        st = init_with_post_op_checks(*pd, attr, engine, &dst);
        if (st != dnnl_success) return st;
        if (!md_equal(*pd->arg_md(DNNL_ARG_DST), dst)) {
            verbose_check("primitive",
                    "%s: dst layout changed with the post-op layouts",
                    pd->name());
            return dnnl_unimplemented;
        }
    }
    out = pd.release();
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
