// C API: PReLU forward and backward primitive descriptor creation. PReLU
// takes no attributes (anything non-default: dnnl_unimplemented).
#include "api/c_enum.hpp"
#include "common/engine.hpp"
#include "common/prelu_pd.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

status_t check_attr(const primitive_attr_t *attr) {
    if (attr
            && (!attr->scales.empty() || !attr->zero_points.empty()
                    || !attr->rounding_modes.empty()
                    || !attr->post_ops.entries.empty())) {
        verbose_check("prelu", "unsupported attribute");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    return true;
}

// Each dim of `w` equals src's or is 1.
bool broadcasts(const memory_desc_t &w, const memory_desc_t &src) {
    if (w.ndims != src.ndims) return false;
    for (int d = 0; d < w.ndims; ++d)
        if (w.dims[d] != src.dims[d] && w.dims[d] != 1) return false;
    return true;
}

status_t check(const memory_desc_t *const *mds, int n, const memory_desc_t &src,
        const memory_desc_t &weights) {
    for (int i = 0; i < n; ++i)
        if (!mds[i]) {
            verbose_check("prelu", "null memory descriptor");
            return dnnl_invalid_arguments;
        }
    if (src.ndims <= 0) {
        verbose_check("prelu", "empty source descriptor");
        return dnnl_invalid_arguments;
    }
    if (src.format_kind == dnnl_format_kind_any) {
        verbose_check("prelu", "src format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    for (int i = 0; i < n; ++i)
        if (md_has_runtime_dims_or_strides(*mds[i])) {
            verbose_check("prelu", "runtime dimensions are not supported");
            return dnnl_unimplemented;
        }
    if (!broadcasts(weights, src)) {
        verbose_check("prelu", "weights do not broadcast against src");
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_prelu_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training
            && prop_kind != dnnl_forward_inference) {
        verbose_check("prelu", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    const memory_desc_t *mds[] = {src_desc, weights_desc, dst_desc};
    if (!src_desc || !weights_desc || !dst_desc) return dnnl_invalid_arguments;
    DNNL_CHECK(check(mds, 3, *src_desc, *weights_desc));
    if (!same_dims(*src_desc, *dst_desc)) {
        verbose_check("prelu", "inconsistent dimensions");
        return dnnl_invalid_arguments;
    }
    DNNL_CHECK(check_attr(attr));
    prelu_desc_t pd;
    pd.prop_kind = prop_kind;
    pd.src_desc = *src_desc;
    pd.weights_desc = *weights_desc;
    pd.dst_desc = *dst_desc;
    return dnnl_primitive_desc::create(
            primitive_desc, pd, attr, engine, nullptr);
}

dnnl_status_t dnnl_prelu_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_weights_desc,
        const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (!src_desc || !weights_desc || !diff_src_desc || !diff_weights_desc
            || !diff_dst_desc) {
        verbose_check("prelu", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        prop_kind_t prop = dnnl_prop_kind_undef;
        if (!hint || hint->kind() != dnnl_prelu
                || hint->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
                || (prop != dnnl_forward_training
                        && prop != dnnl_forward_inference)) {
            verbose_check("prelu", "hint is not a prelu forward descriptor");
            return dnnl_invalid_arguments;
        }
    }
    const memory_desc_t *mds[] = {src_desc, weights_desc, diff_src_desc,
            diff_weights_desc, diff_dst_desc};
    DNNL_CHECK(check(mds, 5, *src_desc, *weights_desc));
    if (!same_dims(*src_desc, *diff_src_desc)
            || !same_dims(*src_desc, *diff_dst_desc)
            || !broadcasts(*diff_weights_desc, *src_desc)) {
        verbose_check("prelu", "inconsistent dimensions");
        return dnnl_invalid_arguments;
    }
    DNNL_CHECK(check_attr(attr));
    prelu_desc_t pd;
    pd.prop_kind = dnnl_backward;
    pd.src_desc = *src_desc;
    pd.weights_desc = *weights_desc;
    pd.diff_src_desc = *diff_src_desc;
    pd.diff_weights_desc = *diff_weights_desc;
    pd.diff_dst_desc = *diff_dst_desc;
    return dnnl_primitive_desc::create(
            primitive_desc, pd, attr, engine, hint_fwd_pd);
}
