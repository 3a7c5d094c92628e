// C API: shuffle forward and backward primitive descriptor creation.
// Shuffle takes no attributes (anything non-default: dnnl_unimplemented).
#include "api/c_enum.hpp"
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/shuffle_pd.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

status_t check_attr(const primitive_attr_t *attr) {
    if (attr
            && (!attr->scales.empty() || !attr->zero_points.empty()
                    || !attr->rounding_modes.empty()
                    || !attr->post_ops.entries.empty())) {
        verbose_check("shuffle", "unsupported attribute");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

status_t init_desc(shuffle_desc_t &sd, prop_kind_t prop,
        const memory_desc_t *src, const memory_desc_t *dst, int axis,
        dim_t group_size) {
    const bool fwd = prop != dnnl_backward_data;
    if (!src || !dst) {
        verbose_check("shuffle", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    const int nd = src->ndims;
    if (nd <= 0 || axis < 0 || axis >= nd) {
        verbose_check("shuffle", "bad axis");
        return dnnl_invalid_arguments;
    }
    if (fwd && src->format_kind == dnnl_format_kind_any) {
        verbose_check("shuffle", "src format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(*src)
            || md_has_runtime_dims_or_strides(*dst)) {
        verbose_check("shuffle", "runtime dimensions are not supported");
        return dnnl_unimplemented;
    }
    bool same = dst->ndims == nd;
    for (int d = 0; same && d < nd; ++d) same = src->dims[d] == dst->dims[d];
    if (!same) {
        verbose_check("shuffle", "inconsistent dimensions");
        return dnnl_invalid_arguments;
    }
    if (group_size <= 0 || src->dims[axis] % group_size != 0) {
        verbose_check("shuffle", "group size does not divide the axis");
        return dnnl_invalid_arguments;
    }
    sd.prop_kind = prop;
    sd.src_desc = *src;
    sd.dst_desc = *dst;
    sd.axis = axis;
    sd.group_size = group_size;
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_shuffle_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, int axis, dnnl_dim_t group_size,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training
            && prop_kind != dnnl_forward_inference) {
        verbose_check("shuffle", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    shuffle_desc_t sd;
    DNNL_CHECK(init_desc(sd, prop_kind, src_desc, dst_desc, axis, group_size));
    DNNL_CHECK(check_attr(attr));
    return dnnl_primitive_desc::create(
            primitive_desc, sd, attr, engine, nullptr);
}

dnnl_status_t dnnl_shuffle_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, int axis, dnnl_dim_t group_size,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        prop_kind_t prop = dnnl_prop_kind_undef;
        if (!hint || hint->kind() != dnnl_shuffle
                || hint->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
                || (prop != dnnl_forward_training
                        && prop != dnnl_forward_inference)) {
            verbose_check(
                    "shuffle", "hint is not a shuffle forward descriptor");
            return dnnl_invalid_arguments;
        }
    }
    shuffle_desc_t sd;
    DNNL_CHECK(init_desc(sd, dnnl_backward_data, diff_src_desc, diff_dst_desc,
            axis, group_size));
    DNNL_CHECK(check_attr(attr));
    return dnnl_primitive_desc::create(
            primitive_desc, sd, attr, engine, hint_fwd_pd);
}
