// C API: layer normalization forward and backward primitive descriptor
// creation (v1 and v2) with argument checks.
#include "api/c_enum.hpp"
#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/layer_normalization_pd.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

const unsigned ln_flags = dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift
        | dnnl_rms_norm;

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    return true;
}

bool is_int8(data_type_t dt) { return dt == dnnl_s8 || dt == dnnl_u8; }

// oneDNN's rules: forward takes eltwise and binary post-ops, and per-tensor
// src/dst scales when src or dst is int8; backward takes none of them.
status_t check_attr(bool fwd, const memory_desc_t &src, const memory_desc_t *dst,
        const primitive_attr_t *attr) {
    if (!attr) return dnnl_success;
    if (!attr->zero_points.empty() || !attr->rounding_modes.empty()
            || (!fwd && (!attr->post_ops.entries.empty() || !attr->scales.empty()))) {
        verbose_check("lnorm", "unsupported attribute");
        return dnnl_unimplemented;
    }
    if (!fwd) return dnnl_success;
    const bool int8 = is_int8(src.data_type) || is_int8(dst->data_type);
    for (const auto &it : attr->scales.items)
        if (!int8 || (it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
                || it.e.mask != 0) {
            verbose_check("lnorm", "unsupported scales configuration");
            return dnnl_unimplemented;
        }
    const status_t po_st = po_check::check(
            attr->post_ops, *dst, po_check::eltwise | po_check::binary);
    if (po_st != dnnl_success) {
        verbose_check("lnorm", "unsupported post-op");
        return po_st;
    }
    return dnnl_success;
}

status_t init(layer_normalization_desc_t &d, prop_kind_t prop, const memory_desc_t *src,
        const memory_desc_t *dst, const memory_desc_t *dsrc, const memory_desc_t *ddst,
        const memory_desc_t *stat, data_type_t ss_dt, data_type_t dss_dt, float eps,
        unsigned flags, const primitive_attr_t *attr) {
    const bool fwd = prop == dnnl_forward_training || prop == dnnl_forward_inference;
    if (!src || (fwd && !dst) || (!fwd && (!dsrc || !ddst))) return dnnl_invalid_arguments;
    if (src->ndims < 2 || src->ndims > 5 || !(eps >= 0)) return dnnl_invalid_arguments;
    if (src->format_kind == dnnl_format_kind_any) return dnnl_invalid_arguments;
    for (const memory_desc_t *m : {dst, dsrc, ddst})
        if (m && !same_dims(*src, *m)) {
            verbose_check("lnorm", "inconsistent dimensions");
            return dnnl_invalid_arguments;
        }
    if (stat && !is_zero_md(*stat)) {
        bool ok = stat->ndims == src->ndims - 1;
        for (int i = 0; ok && i < stat->ndims; ++i)
            ok = stat->dims[i] == src->dims[i];
        if (!ok) {
            verbose_check("lnorm", "bad statistics descriptor");
            return dnnl_invalid_arguments;
        }
    }
    if (flags & ~ln_flags) return dnnl_invalid_arguments;
    if (ss_dt != dnnl_f32 || dss_dt != dnnl_f32) return dnnl_unimplemented;
    DNNL_CHECK(check_attr(fwd, *src, dst, attr));
    d.prop_kind = prop;
    d.src_desc = *src;
    d.dst_desc = dst ? *dst : zero_md();
    d.diff_src_desc = dsrc ? *dsrc : zero_md();
    d.diff_dst_desc = ddst ? *ddst : zero_md();
    d.stat_desc = stat ? *stat : zero_md();
    d.ss_dt = ss_dt;
    d.diff_ss_dt = dss_dt;
    d.epsilon = eps;
    d.flags = flags;
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_layer_normalization_forward_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_memory_desc_t stat_desc,
        dnnl_data_type_t scale_shift_data_type_arg, float epsilon, unsigned flags,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_data_type_t scale_shift_data_type
            = checked(scale_shift_data_type_arg, dnnl_data_type_max);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training && prop_kind != dnnl_forward_inference)
        return dnnl_invalid_arguments;
    layer_normalization_desc_t d;
    DNNL_CHECK(init(d, prop_kind, src_desc, dst_desc, nullptr, nullptr, stat_desc,
            scale_shift_data_type, dnnl_f32, epsilon, flags, attr));
    return dnnl_primitive_desc::create(primitive_desc, d, attr, engine, nullptr);
}

dnnl_status_t dnnl_layer_normalization_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_memory_desc_t stat_desc,
        float epsilon, unsigned flags, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    return dnnl_layer_normalization_forward_primitive_desc_create_v2(primitive_desc,
            engine, prop_kind, src_desc, dst_desc, stat_desc, dnnl_f32, epsilon, flags,
            attr);
}

dnnl_status_t dnnl_layer_normalization_backward_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t stat_desc, dnnl_data_type_t diff_scale_shift_data_type_arg,
        dnnl_data_type_t scale_shift_data_type_arg, float epsilon, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_data_type_t diff_scale_shift_data_type
            = checked(diff_scale_shift_data_type_arg, dnnl_data_type_max);
    const dnnl_data_type_t scale_shift_data_type
            = checked(scale_shift_data_type_arg, dnnl_data_type_max);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_backward && prop_kind != dnnl_backward_data)
        return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        if (!hint || hint->kind() != dnnl_layer_normalization)
            return dnnl_invalid_arguments;
    }
    layer_normalization_desc_t d;
    DNNL_CHECK(init(d, prop_kind, src_desc, nullptr, diff_src_desc, diff_dst_desc,
            stat_desc, scale_shift_data_type, diff_scale_shift_data_type, epsilon, flags,
            attr));
    return dnnl_primitive_desc::create(primitive_desc, d, attr, engine, hint_fwd_pd);
}

dnnl_status_t dnnl_layer_normalization_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t stat_desc, float epsilon, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    return dnnl_layer_normalization_backward_primitive_desc_create_v2(primitive_desc,
            engine, prop_kind, diff_src_desc, diff_dst_desc, src_desc, stat_desc,
            dnnl_f32, dnnl_f32, epsilon, flags, hint_fwd_pd, attr);
}
