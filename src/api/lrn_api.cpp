// C API: LRN forward and backward primitive descriptor creation, with
// oneDNN's checks (bad arguments: dnnl_invalid_arguments; attributes,
// runtime dims and what no implementation takes: dnnl_unimplemented).
#include "api/c_enum.hpp"
#include "common/engine.hpp"
#include "common/lrn_pd.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

bool same_shape(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int i = 0; i < a.ndims; ++i)
        if (a.dims[i] != b.dims[i]) return false;
    return true;
}

// `tensors` are the descriptors that must all have src's shape.
status_t init_desc(lrn_desc_t &ld, prop_kind_t prop, alg_kind_t alg,
        const memory_desc_t *src, std::initializer_list<const memory_desc_t *> tensors,
        dim_t local_size, float alpha, float beta, float k) {
    if (!src) {
        verbose_check("lrn", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    for (const memory_desc_t *t : tensors)
        if (!t) {
            verbose_check("lrn", "null memory descriptor");
            return dnnl_invalid_arguments;
        }
    if (alg != dnnl_lrn_across_channels && alg != dnnl_lrn_within_channel) {
        verbose_check("lrn", "bad algorithm");
        return dnnl_invalid_arguments;
    }
    if (local_size < 0) {
        verbose_check("lrn", "bad local_size");
        return dnnl_invalid_arguments;
    }
    if (src->ndims < 2 || src->ndims > max_ndims) {
        verbose_check("lrn", "bad number of dimensions");
        return dnnl_invalid_arguments;
    }
    for (const memory_desc_t *t : tensors)
        if (!same_shape(*src, *t)) {
            verbose_check("lrn", "inconsistent dimensions");
            return dnnl_invalid_arguments;
        }
    if (md_has_runtime_dims_or_strides(*src)) return dnnl_unimplemented;
    for (const memory_desc_t *t : tensors)
        if (md_has_runtime_dims_or_strides(*t)) return dnnl_unimplemented;
    ld.prop_kind = prop;
    ld.alg_kind = alg;
    ld.local_size = local_size;
    ld.alpha = alpha;
    ld.beta = beta;
    ld.k = k;
    return dnnl_success;
}

// LRN takes no attributes beyond the universal ones (scratchpad mode,
// fpmath mode), as in oneDNN.
status_t check_attr(const primitive_attr_t *attr) {
    if (attr
            && (!attr->post_ops.entries.empty() || !attr->scales.empty()
                    || !attr->zero_points.empty() || !attr->rounding_modes.empty())) {
        verbose_check("lrn", "unsupported attribute");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_lrn_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, dnnl_alg_kind_t alg_kind_arg,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        dnnl_dim_t local_size, float alpha, float beta, float k,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training && prop_kind != dnnl_forward_inference) {
        verbose_check("lrn", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    lrn_desc_t ld;
    DNNL_CHECK(init_desc(ld, prop_kind, alg_kind, src_desc, {dst_desc}, local_size,
            alpha, beta, k));
    if (src_desc->format_kind == dnnl_format_kind_any) {
        verbose_check("lrn", "src format must be defined for forward");
        return dnnl_invalid_arguments;
    }
    ld.src_desc = *src_desc;
    ld.dst_desc = *dst_desc;
    ld.diff_src_desc = zero_md();
    ld.diff_dst_desc = zero_md();
    DNNL_CHECK(check_attr(attr));
    return dnnl_primitive_desc::create(primitive_desc, ld, attr, engine, nullptr);
}

dnnl_status_t dnnl_lrn_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_memory_desc_t src_desc,
        dnnl_dim_t local_size, float alpha, float beta, float k,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        prop_kind_t prop = dnnl_prop_kind_undef;
        if (!hint || hint->kind() != dnnl_lrn
                || hint->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
                || (prop != dnnl_forward_training && prop != dnnl_forward_inference)) {
            verbose_check("lrn", "hint is not an lrn forward descriptor");
            return dnnl_invalid_arguments;
        }
    }
    lrn_desc_t ld;
    DNNL_CHECK(init_desc(ld, dnnl_backward_data, alg_kind, src_desc,
            {diff_src_desc, diff_dst_desc}, local_size, alpha, beta, k));
    ld.src_desc = *src_desc;
    ld.dst_desc = zero_md();
    ld.diff_src_desc = *diff_src_desc;
    ld.diff_dst_desc = *diff_dst_desc;
    DNNL_CHECK(check_attr(attr));
    return dnnl_primitive_desc::create(primitive_desc, ld, attr, engine, hint_fwd_pd);
}
