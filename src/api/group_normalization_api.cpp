// C API: group normalization forward and backward primitive descriptor
// creation with argument and attribute checks.
#include "api/c_enum.hpp"
#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/float_convert.hpp"
#include "common/group_normalization_pd.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

const unsigned gn_flags =
        dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift;

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    return true;
}

// Shape, groups, epsilon and flags common to both directions.
status_t check_problem(
        const memory_desc_t &src, dim_t groups, float eps, unsigned flags) {
    if (src.ndims < 2 || src.ndims > DNNL_MAX_NDIMS) {
        verbose_check("gnorm", "src needs 2 to %d dimensions", DNNL_MAX_NDIMS);
        return dnnl_invalid_arguments;
    }
    for (int d = 0; d < src.ndims; ++d)
        if (src.dims[d] < 0 && src.dims[d] != DNNL_RUNTIME_DIM_VAL) {
            verbose_check("gnorm", "negative dimension");
            return dnnl_invalid_arguments;
        }
    if (md_has_runtime_dims_or_strides(src)) return dnnl_unimplemented;
    const dim_t c = src.dims[1];
    if (groups <= 0 || groups > c || c % groups != 0) {
        verbose_check("gnorm", "groups (%lld) must divide the %lld channels",
                (long long)groups, (long long)c);
        return dnnl_invalid_arguments;
    }
    if (!(eps >= 0)) {
        verbose_check("gnorm", "bad epsilon");
        return dnnl_invalid_arguments;
    }
    if (flags & ~gn_flags) {
        verbose_check("gnorm", "unsupported flags 0x%x", flags);
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

status_t check_other(
        const memory_desc_t *md, const memory_desc_t &src, const char *what) {
    if (!md) return dnnl_invalid_arguments;
    if (!same_dims(*md, src)) {
        verbose_check("gnorm", "%s dimensions differ from src", what);
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(*md)) return dnnl_unimplemented;
    return dnnl_success;
}

bool is_int8(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8;
}

// Forward takes eltwise / binary post-ops and per-tensor scales of 8-bit
// src / dst (what oneDNN accepts); backward takes none.
status_t check_attr(const primitive_attr_t *attr, bool fwd,
        const memory_desc_t &src, const memory_desc_t &dst) {
    if (!attr || attr->computes_as_default()) return dnnl_success;
    if (!fwd) return dnnl_unimplemented;
    if (!attr->zero_points.empty() || !attr->rounding_modes.empty())
        return dnnl_unimplemented;
    // A scale belongs to an 8-bit tensor: src scales need an s8/u8 src,
    // dst scales an s8/u8 dst.
    for (const auto &it : attr->scales.items) {
        const memory_desc_t *md = it.arg == DNNL_ARG_SRC   ? &src
                                  : it.arg == DNNL_ARG_DST ? &dst
                                                           : nullptr;
        if (!md || !is_int8(md->data_type) || it.e.mask != 0
                || it.e.group_ndims != 0 || !is_f32_convertible(it.e.data_type))
            return dnnl_unimplemented;
    }
    return po_check::check(
            attr->post_ops, dst, po_check::eltwise | po_check::binary);
}

} // namespace

dnnl_status_t dnnl_group_normalization_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, dnnl_dim_t groups, float epsilon,
        unsigned flags, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    if (!primitive_desc || !engine || !src_desc || !dst_desc)
        return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training
            && prop_kind != dnnl_forward_inference)
        return dnnl_invalid_arguments;
    if (src_desc->format_kind == dnnl_format_kind_any)
        return dnnl_invalid_arguments;
    DNNL_CHECK(check_problem(*src_desc, groups, epsilon, flags));
    DNNL_CHECK(check_other(dst_desc, *src_desc, "dst"));
    DNNL_CHECK(check_attr(attr, true, *src_desc, *dst_desc));
    group_normalization_desc_t d;
    d.prop_kind = prop_kind;
    d.src_desc = *src_desc;
    d.dst_desc = *dst_desc;
    d.diff_src_desc = zero_md();
    d.diff_dst_desc = zero_md();
    d.groups = groups;
    d.epsilon = epsilon;
    d.flags = flags;
    return dnnl_primitive_desc::create(
            primitive_desc, d, attr, engine, nullptr);
}

dnnl_status_t dnnl_group_normalization_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, dnnl_dim_t groups, float epsilon,
        unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    if (!primitive_desc || !engine || !src_desc || !diff_src_desc
            || !diff_dst_desc)
        return dnnl_invalid_arguments;
    if (prop_kind != dnnl_backward && prop_kind != dnnl_backward_data)
        return dnnl_invalid_arguments;
    DNNL_CHECK(check_problem(*src_desc, groups, epsilon, flags));
    DNNL_CHECK(check_other(diff_dst_desc, *src_desc, "diff_dst"));
    DNNL_CHECK(check_other(diff_src_desc, *src_desc, "diff_src"));
    // src is read as given; any other layout choice needs the forward hint
    // and is left to the caller.
    if (src_desc->format_kind == dnnl_format_kind_any)
        return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        if (!hint || hint->kind() != dnnl_group_normalization)
            return dnnl_invalid_arguments;
    }
    DNNL_CHECK(check_attr(attr, false, *src_desc, *src_desc));
    group_normalization_desc_t d;
    d.prop_kind = prop_kind;
    d.src_desc = *src_desc;
    d.dst_desc = zero_md();
    d.diff_src_desc = *diff_src_desc;
    d.diff_dst_desc = *diff_dst_desc;
    d.groups = groups;
    d.epsilon = epsilon;
    d.flags = flags;
    return dnnl_primitive_desc::create(
            primitive_desc, d, attr, engine, hint_fwd_pd);
}
