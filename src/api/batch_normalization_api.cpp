// C API: batch normalization forward and backward primitive descriptor
// creation with argument checks.
#include "api/c_enum.hpp"
#include "common/batch_normalization_pd.hpp"
#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

const unsigned bn_flags = dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift
        | dnnl_fuse_norm_relu | dnnl_fuse_norm_add_relu;

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    return true;
}

status_t check(bool fwd, const memory_desc_t *a, const memory_desc_t *b, float eps,
        unsigned flags, const primitive_attr_t *attr) {
    if (!a || !b) return dnnl_invalid_arguments;
    if (a->ndims < 2 || a->ndims > 5 || !same_dims(*a, *b) || !(eps >= 0)) {
        verbose_check("bnorm", "bad dimensions or epsilon");
        return dnnl_invalid_arguments;
    }
    if (flags & ~(bn_flags | dnnl_rms_norm)) return dnnl_invalid_arguments;
    if (flags & dnnl_rms_norm) return dnnl_unimplemented;
    if (md_has_runtime_dims_or_strides(*a) || md_has_runtime_dims_or_strides(*b))
        return dnnl_unimplemented;
    // oneDNN's rule: forward takes eltwise post-ops, nothing else does.
    if (attr && (!attr->scales.empty() || !attr->zero_points.empty()
                        || !attr->rounding_modes.empty()
                        || (!fwd && !attr->post_ops.entries.empty())
                        || po_check::check(attr->post_ops, *b, po_check::eltwise)
                                != dnnl_success)) {
        verbose_check("bnorm", "unsupported attribute");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

// The one post-op batch normalization fuses, as oneDNN 3.13's CPU
// implementations: a single relu, with a zero negative slope when training.
status_t check_post_ops(bool training, const primitive_attr_t *attr) {
    if (!attr || attr->post_ops.entries.empty()) return dnnl_success;
    const auto &po = attr->post_ops.entries;
    if (po.size() != 1 || po[0].kind != post_op_kind_t::eltwise
            || po[0].alg != dnnl_eltwise_relu || po[0].scale != 1.f
            || (training && po[0].alpha != 0.f)) {
        verbose_check("bnorm", "post-ops other than one relu");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_batch_normalization_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, float epsilon, unsigned flags,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training && prop_kind != dnnl_forward_inference)
        return dnnl_invalid_arguments;
    DNNL_CHECK(check(true, src_desc, dst_desc, epsilon, flags, attr));
    DNNL_CHECK(check_post_ops(prop_kind == dnnl_forward_training, attr));
    if (src_desc->format_kind == dnnl_format_kind_any) return dnnl_invalid_arguments;
    batch_normalization_desc_t d;
    d.prop_kind = prop_kind;
    d.src_desc = *src_desc;
    d.dst_desc = *dst_desc;
    d.diff_src_desc = zero_md();
    d.diff_dst_desc = zero_md();
    d.epsilon = epsilon;
    d.flags = flags;
    return dnnl_primitive_desc::create(primitive_desc, d, attr, engine, nullptr);
}

dnnl_status_t dnnl_batch_normalization_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_memory_desc_t src_desc,
        float epsilon, unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_backward && prop_kind != dnnl_backward_data)
        return dnnl_invalid_arguments;
    if (!src_desc) return dnnl_invalid_arguments;
    DNNL_CHECK(check(false, diff_src_desc, diff_dst_desc, epsilon, flags, attr));
    if (!same_dims(*src_desc, *diff_dst_desc)) return dnnl_invalid_arguments;
    if (src_desc->format_kind == dnnl_format_kind_any) return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        if (!hint || hint->kind() != dnnl_batch_normalization)
            return dnnl_invalid_arguments;
    }
    batch_normalization_desc_t d;
    d.prop_kind = prop_kind;
    d.src_desc = *src_desc;
    d.dst_desc = zero_md();
    d.diff_src_desc = *diff_src_desc;
    d.diff_dst_desc = *diff_dst_desc;
    d.epsilon = epsilon;
    d.flags = flags;
    return dnnl_primitive_desc::create(primitive_desc, d, attr, engine, hint_fwd_pd);
}
