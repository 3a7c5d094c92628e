// C API: reorder primitive descriptor creation. Checks the request (the
// descriptors must have equal dims and concrete layouts; zero points only
// on integer data; scales only on the source and destination), picks the
// engine the reorder runs on (the gpu one of a cpu <-> gpu pair) and walks
// that engine's implementation list.
#include <new>

#include "common/engine.hpp"
#include "common/op_desc.hpp"
#include "common/primitive_attr.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

bool is_integral(data_type_t dt) {
    switch (dt) {
    case dnnl_s8:
    case dnnl_u8:
    case dnnl_s32:
    case dnnl_s4:
    case dnnl_u4:
        return true;
    default:
        return false;
    }
}

// Engine a reorder between the two runs on: the GPU one when exactly one
// side is on a GPU, otherwise the source's.
engine_t *reorder_engine(engine_t *src, engine_t *dst) {
    if (src->kind() != dnnl_cpu) return src;
    if (dst->kind() != dnnl_cpu) return dst;
    return src;
}

status_t check_request(const memory_desc_t &src, const memory_desc_t &dst,
        const engine_t *src_engine, const engine_t *dst_engine,
        const primitive_attr_t &attr) {
    if (src_engine->kind() != dst_engine->kind()
            && src_engine->kind() != dnnl_cpu
            && dst_engine->kind() != dnnl_cpu) {
        verbose_check("reorder", "unsupported combination of engine kinds");
        return dnnl_invalid_arguments;
    }
    if (src.format_kind == dnnl_format_kind_any
            || dst.format_kind == dnnl_format_kind_any) {
        verbose_check("reorder", "format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    bool same_dims = src.ndims == dst.ndims;
    for (int d = 0; same_dims && d < src.ndims; ++d)
        same_dims = src.dims[d] == dst.dims[d];
    if (!same_dims) {
        verbose_check("reorder", "src and dst dims differ");
        return dnnl_invalid_arguments;
    }
    if (attr.zero_points.has(DNNL_ARG_SRC) && !is_integral(src.data_type)) {
        verbose_check("reorder", "zero points on non-integer src");
        return dnnl_invalid_arguments;
    }
    if (attr.zero_points.has(DNNL_ARG_DST) && !is_integral(dst.data_type)) {
        verbose_check("reorder", "zero points on non-integer dst");
        return dnnl_invalid_arguments;
    }
    for (const auto &it : attr.scales.items) {
        if (it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST) {
            verbose_check(
                    "reorder", "scales are only supported for src and dst");
            return dnnl_unimplemented;
        }
    }
    if (const quant_entry_t *e = attr.scales.get(DNNL_ARG_DST)) {
        bool groups = false;
        for (int i = 0; i < e->group_ndims; ++i)
            groups = groups || e->group_dims[i] > 1;
        if (groups) {
            verbose_check(
                    "reorder", "dst scales with groups are not supported");
            return dnnl_invalid_arguments;
        }
    }
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_reorder_primitive_desc_create(
        dnnl_primitive_desc_t *reorder_primitive_desc,
        const_dnnl_memory_desc_t src_desc, dnnl_engine_t src_engine,
        const_dnnl_memory_desc_t dst_desc, dnnl_engine_t dst_engine,
        const_dnnl_primitive_attr_t attr) {
    if (!reorder_primitive_desc || !src_desc || !src_engine || !dst_desc
            || !dst_engine)
        return dnnl_invalid_arguments;
    const primitive_attr_t default_attr;
    const primitive_attr_t &a = attr ? *attr : default_attr;
    DNNL_CHECK(check_request(*src_desc, *dst_desc, src_engine, dst_engine, a));

    // Between a cpu and a gpu engine the gpu one runs the reorder; its
    // implementations see which side is cpu memory in the descriptor.
    engine_t *engine = reorder_engine(src_engine, dst_engine);
    if (src_engine->kind() != dnnl_cpu && dst_engine->kind() != dnnl_cpu
            && src_engine != dst_engine
            && !(src_engine->engine_id() == dst_engine->engine_id())) {
        verbose_check("reorder",
                "reorders between two gpu engines are not implemented");
        return dnnl_unimplemented;
    }

    reorder_desc_t op;
    op.src_md = *src_desc;
    op.dst_md = *dst_desc;
    op.src_engine_kind = src_engine->kind();
    op.dst_engine_kind = dst_engine->kind();

    dnnl_primitive_desc *pd = nullptr;
    const status_t st =
            dnnl_primitive_desc::create(&pd, op, &a, engine, nullptr);
    if (st != dnnl_success) {
        if (engine->kind() != dnnl_cpu)
            verbose_check("reorder", "no gpu implementation of this reorder");
        else
            verbose_check("reorder", "no implementation for this reorder");
        return st;
    }
    pd->set_reorder_engines(src_engine, dst_engine);
    *reorder_primitive_desc = pd;
    return dnnl_success;
}
