// C API: softmax forward and backward primitive descriptor creation, with
// oneDNN's checks (bad arguments: dnnl_invalid_arguments; attributes or
// data types no implementation takes: dnnl_unimplemented). Unlike oneDNN,
// tensors of different dims are rejected here as invalid arguments.
#include "api/c_enum.hpp"
#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/softmax_pd.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

bool is_int8(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8;
}

status_t check_attr(const primitive_attr_t *attr, const softmax_desc_t &sd) {
    if (!attr) return dnnl_success;
    const bool fwd = sd.prop_kind != dnnl_backward_data;
    if (!attr->zero_points.empty() || !attr->rounding_modes.empty()
            || (!fwd
                    && (!attr->scales.empty()
                            || !attr->post_ops.entries.empty()))) {
        verbose_check("softmax", "unsupported attribute");
        return dnnl_unimplemented;
    }
    if (!fwd) return dnnl_success;
    if (!attr->scales.empty()) {
        if (!is_int8(sd.src_desc.data_type)
                && !is_int8(sd.dst_desc.data_type)) {
            verbose_check(
                    "softmax", "scales need an int8 source or destination");
            return dnnl_unimplemented;
        }
        for (const auto &it : attr->scales.items)
            if ((it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
                    || it.e.mask != 0) {
                verbose_check("softmax", "unsupported scales configuration");
                return dnnl_unimplemented;
            }
    }
    const status_t po_st = po_check::check(
            attr->post_ops, sd.dst_desc, po_check::eltwise | po_check::binary);
    if (po_st != dnnl_success) {
        verbose_check("softmax", "unsupported post-op");
        return po_st;
    }
    return dnnl_success;
}

status_t init_desc(softmax_desc_t &sd, prop_kind_t prop, alg_kind_t alg,
        const memory_desc_t *src, const memory_desc_t *dst,
        const memory_desc_t *diff_src, const memory_desc_t *diff_dst,
        int axis) {
    const bool fwd = prop != dnnl_backward_data;
    if (!dst || (fwd && !src) || (!fwd && (!diff_src || !diff_dst))) {
        verbose_check("softmax", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    if (alg != dnnl_softmax_accurate && alg != dnnl_softmax_log) {
        verbose_check("softmax", "bad algorithm");
        return dnnl_invalid_arguments;
    }
    if (dst->ndims <= 0 || axis < 0 || axis >= dst->ndims) {
        verbose_check("softmax", "bad axis");
        return dnnl_invalid_arguments;
    }
    if (fwd && src->format_kind == dnnl_format_kind_any) {
        verbose_check("softmax", "src format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    if (!fwd && dst->format_kind == dnnl_format_kind_any) {
        verbose_check("softmax", "dst format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    const memory_desc_t *others[2] = {
            fwd ? src : diff_src, fwd ? nullptr : diff_dst};
    bool runtime = md_has_runtime_dims_or_strides(*dst);
    for (const memory_desc_t *m : others)
        if (m) runtime = runtime || md_has_runtime_dims_or_strides(*m);
    if (runtime) {
        verbose_check("softmax", "runtime dimensions are not supported");
        return dnnl_unimplemented;
    }
    for (const memory_desc_t *m : others) {
        if (!m) continue;
        bool same = m->ndims == dst->ndims;
        for (int d = 0; same && d < dst->ndims; ++d)
            same = m->dims[d] == dst->dims[d];
        if (!same) {
            verbose_check("softmax", "inconsistent dimensions");
            return dnnl_invalid_arguments;
        }
    }
    sd.prop_kind = prop;
    sd.alg_kind = alg;
    sd.src_desc = fwd ? *src : zero_md();
    sd.dst_desc = *dst;
    sd.diff_src_desc = fwd ? zero_md() : *diff_src;
    sd.diff_dst_desc = fwd ? zero_md() : *diff_dst;
    sd.softmax_axis = axis;
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_softmax_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, dnnl_alg_kind_t alg_kind_arg,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        int softmax_axis, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training
            && prop_kind != dnnl_forward_inference) {
        verbose_check("softmax", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    softmax_desc_t sd;
    DNNL_CHECK(init_desc(sd, prop_kind, alg_kind, src_desc, dst_desc, nullptr,
            nullptr, softmax_axis));
    DNNL_CHECK(check_attr(attr, sd));
    return dnnl_primitive_desc::create(
            primitive_desc, sd, attr, engine, nullptr);
}

dnnl_status_t dnnl_softmax_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t dst_desc, int softmax_axis,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        prop_kind_t prop = dnnl_prop_kind_undef;
        if (!hint || hint->kind() != dnnl_softmax
                || hint->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
                || (prop != dnnl_forward_training
                        && prop != dnnl_forward_inference)) {
            verbose_check(
                    "softmax", "hint is not a softmax forward descriptor");
            return dnnl_invalid_arguments;
        }
    }
    softmax_desc_t sd;
    DNNL_CHECK(init_desc(sd, dnnl_backward_data, alg_kind, nullptr, dst_desc,
            diff_src_desc, diff_dst_desc, softmax_axis));
    DNNL_CHECK(check_attr(attr, sd));
    return dnnl_primitive_desc::create(
            primitive_desc, sd, attr, engine, hint_fwd_pd);
}
