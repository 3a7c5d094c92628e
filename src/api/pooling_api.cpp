// C API: pooling forward and backward primitive descriptor creation, with
// oneDNN's checks (bad arguments: dnnl_invalid_arguments; what no
// implementation takes: dnnl_unimplemented).
#include "api/c_enum.hpp"
#include "common/binary_pd.hpp"
#include "common/dim_math.hpp"
#include "common/engine.hpp"
#include "common/pooling_pd.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

status_t init_desc(pooling_desc_t &pd, prop_kind_t prop, alg_kind_t alg,
        const memory_desc_t *src, const memory_desc_t *dst, const dims_t strides,
        const dims_t kernel, const dims_t dilation, const dims_t pl, const dims_t pr) {
    if (!src || !dst || !strides || !kernel || !pl) {
        verbose_check("pooling", "null argument");
        return dnnl_invalid_arguments;
    }
    if (alg != dnnl_pooling_max && alg != dnnl_pooling_avg_include_padding
            && alg != dnnl_pooling_avg_exclude_padding) {
        verbose_check("pooling", "bad algorithm");
        return dnnl_invalid_arguments;
    }
    const int nd = src->ndims;
    if (nd < 3 || nd > 5 || dst->ndims != nd || src->dims[0] != dst->dims[0]
            || src->dims[1] != dst->dims[1]) {
        verbose_check("pooling", "inconsistent dimensions");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(*src) || md_has_runtime_dims_or_strides(*dst))
        return dnnl_unimplemented;
    const int ns = nd - 2;
    for (int i = 0; i < ns; ++i) {
        const dim_t k = kernel[i], s = strides[i], d = dilation ? dilation[i] : 0;
        const dim_t l = pl[i], r = pr ? pr[i] : pl[i];
        // As oneDNN: the right padding may be negative down to -stride (the
        // last window ends before the source does).
        if (k <= 0 || s <= 0 || d < 0 || l < 0 || r < -s) {
            verbose_check("pooling", "bad kernel, strides, dilation or padding");
            return dnnl_invalid_arguments;
        }
        dim_t o = 0, span = 0;
        if (!window_out(src->dims[2 + i], k, d, l, r, s, o, &span)
                || o != dst->dims[2 + i]) {
            verbose_check("pooling", "inconsistent output dimensions");
            return dnnl_invalid_arguments;
        }
        // Average without padding has no value for a window wholly in the
        // padding (0 / 0): oneDNN refuses padding that allows one.
        const dim_t window = src->dims[2 + i] + (l + r) - span; // sums checked above
        if (alg == dnnl_pooling_avg_exclude_padding
                && (l >= window || r >= window || d >= src->dims[2 + i])) {
            verbose_check("pooling", "average without padding over a window "
                                     "that may lie wholly in the padding");
            return dnnl_invalid_arguments;
        }
        pd.strides[i] = s;
        pd.kernel[i] = k;
        pd.dilation[i] = d;
        pd.padding_l[i] = l;
        pd.padding_r[i] = r;
    }
    pd.prop_kind = prop;
    pd.alg_kind = alg;
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_pooling_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, dnnl_alg_kind_t alg_kind_arg,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        const dnnl_dims_t strides, const dnnl_dims_t kernel, const dnnl_dims_t dilation,
        const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training && prop_kind != dnnl_forward_inference) {
        verbose_check("pooling", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    pooling_desc_t pd;
    DNNL_CHECK(init_desc(pd, prop_kind, alg_kind, src_desc, dst_desc, strides, kernel,
            dilation, padding_l, padding_r));
    if (src_desc->format_kind == dnnl_format_kind_any) {
        verbose_check("pooling", "the forward source needs a layout, not any");
        return dnnl_invalid_arguments;
    }
    pd.src_desc = *src_desc;
    pd.dst_desc = *dst_desc;
    pd.diff_src_desc = zero_md();
    pd.diff_dst_desc = zero_md();
    // Forward takes eltwise and binary post-ops (a sum is not oneDNN's for
    // pooling on any engine); no scales, zero points or rounding modes, as
    // in oneDNN.
    if (attr && (!attr->scales.empty() || !attr->zero_points.empty()
                        || !attr->rounding_modes.empty())) {
        verbose_check("pooling",
                "scales, zero points and rounding modes are not supported");
        return dnnl_unimplemented;
    }
    const status_t po_st = attr ? po_check::check(attr->post_ops, *dst_desc,
                                          po_check::eltwise | po_check::binary)
                                : dnnl_success;
    if (po_st != dnnl_success) {
        verbose_check("pooling", "unsupported post-op");
        return po_st;
    }
    return dnnl_primitive_desc::create(primitive_desc, pd, attr, engine, nullptr);
}

dnnl_status_t dnnl_pooling_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dims_t strides,
        const dnnl_dims_t kernel, const dnnl_dims_t dilation,
        const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        prop_kind_t prop = dnnl_prop_kind_undef;
        if (!hint || hint->kind() != dnnl_pooling
                || hint->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
                || (prop != dnnl_forward_training && prop != dnnl_forward_inference)) {
            verbose_check("pooling", "hint is not a pooling forward descriptor");
            return dnnl_invalid_arguments;
        }
    }
    pooling_desc_t pd;
    DNNL_CHECK(init_desc(pd, dnnl_backward_data, alg_kind, diff_src_desc,
            diff_dst_desc, strides, kernel, dilation, padding_l, padding_r));
    pd.src_desc = zero_md();
    pd.dst_desc = zero_md();
    pd.diff_src_desc = *diff_src_desc;
    pd.diff_dst_desc = *diff_dst_desc;
    if (attr && (!attr->post_ops.entries.empty() || !attr->scales.empty()
                        || !attr->zero_points.empty())) {
        verbose_check("pooling", "backward takes no post-ops, scales or zero points");
        return dnnl_unimplemented;
    }
    return dnnl_primitive_desc::create(primitive_desc, pd, attr, engine, hint_fwd_pd);
}
