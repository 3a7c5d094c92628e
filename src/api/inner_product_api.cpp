// C API: inner product forward, backward data and backward weights
// primitive descriptor creation (validation as in oneDNN, then the
// engine's implementation list).
#include "api/c_enum.hpp"
#include "common/engine.hpp"
#include "common/inner_product_pd.hpp"
#include "common/primitive_attr.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

// A backward hint must be an inner product forward descriptor.
status_t check_hint(const_dnnl_primitive_desc_t hint) {
    if (!hint) return dnnl_success;
    const auto &pd = hint->impl();
    prop_kind_t prop = dnnl_prop_kind_undef;
    if (!pd || pd->kind() != dnnl_inner_product
            || pd->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
            || (prop != dnnl_forward_training && prop != dnnl_forward_inference)) {
        verbose_check("inner_product", "hint is not an inner product forward descriptor");
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

status_t create(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        prop_kind_t prop, const memory_desc_t *src, const memory_desc_t *wei,
        const memory_desc_t *bias, const memory_desc_t *dst,
        const_dnnl_primitive_desc_t hint, const primitive_attr_t *attr) {
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    DNNL_CHECK(check_hint(hint));
    inner_product_desc_t d;
    DNNL_CHECK(ip_desc_init(d, prop, src, wei, bias, dst));
    DNNL_CHECK(ip_attr_check(d, attr, engine->kind()));
    return dnnl_primitive_desc::create(primitive_desc, d, attr, engine, hint);
}

} // namespace

dnnl_status_t dnnl_inner_product_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    if (prop_kind != dnnl_forward_training && prop_kind != dnnl_forward_inference) {
        verbose_check("inner_product", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    return create(primitive_desc, engine, prop_kind, src_desc, weights_desc,
            bias_desc, dst_desc, nullptr, attr);
}

dnnl_status_t dnnl_inner_product_backward_data_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    return create(primitive_desc, engine, dnnl_backward_data, diff_src_desc,
            weights_desc, nullptr, diff_dst_desc, hint_fwd_pd, attr);
}

dnnl_status_t dnnl_inner_product_backward_weights_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t diff_weights_desc,
        const_dnnl_memory_desc_t diff_bias_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return create(primitive_desc, engine, dnnl_backward_weights, src_desc,
            diff_weights_desc, diff_bias_desc, diff_dst_desc, hint_fwd_pd, attr);
}
