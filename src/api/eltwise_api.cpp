// C API: eltwise forward and backward primitive descriptor creation.
// Validates the request as oneDNN does (bad arguments: invalid_arguments;
// valid but unsupported requests: unimplemented), fills eltwise_desc_t and
// walks the engine's implementation list.
#include "api/c_enum.hpp"
#include "common/engine.hpp"
#include "common/math/eltwise_math.hpp"
#include "common/op_desc.hpp"
#include "common/primitive_attr.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    return true;
}

// Attributes eltwise can never take. Forward accepts binary post-ops only;
// backward takes no post-ops. Scratchpad, fpmath, accumulation and
// determinism settings do not change an eltwise result and are accepted.
status_t check_attr(const primitive_attr_t *attr, bool is_fwd) {
    if (!attr) return dnnl_success;
    if (!attr->scales.empty() || !attr->zero_points.empty()
            || !attr->rounding_modes.empty()) {
        verbose_check("eltwise", "unsupported attribute");
        return dnnl_unimplemented;
    }
    for (const auto &e : attr->post_ops.entries) {
        if (!is_fwd || e.kind != post_op_kind_t::binary) {
            verbose_check("eltwise", "unsupported post-op");
            return dnnl_unimplemented;
        }
    }
    return dnnl_success;
}

status_t init_desc(eltwise_desc_t &ed, prop_kind_t prop, alg_kind_t alg,
        const memory_desc_t *src, const memory_desc_t *dst,
        const memory_desc_t *diff_src, const memory_desc_t *diff_dst,
        float alpha, float beta) {
    const bool is_fwd =
            prop == dnnl_forward_training || prop == dnnl_forward_inference;
    if (!src || !dst || (!is_fwd && (!diff_src || !diff_dst))) {
        verbose_check("eltwise", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    if (!is_fwd && prop != dnnl_backward_data) {
        verbose_check("eltwise", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    if (!math::eltwise_params_ok(src->data_type, alg, alpha, beta)) {
        verbose_check("eltwise", "bad algorithm, alpha or beta for %s",
                "this data type");
        return dnnl_invalid_arguments;
    }
    if (alg == dnnl_eltwise_round && !is_fwd) {
        verbose_check("eltwise", "round has no backward");
        return dnnl_invalid_arguments;
    }
    if (src->ndims <= 0) {
        verbose_check("eltwise", "empty source descriptor");
        return dnnl_invalid_arguments;
    }
    if (is_fwd && src->format_kind == dnnl_format_kind_any) {
        verbose_check("eltwise", "src format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    bool runtime = md_has_runtime_dims_or_strides(*src)
                   || md_has_runtime_dims_or_strides(*dst);
    if (!is_fwd)
        runtime = runtime || md_has_runtime_dims_or_strides(*diff_src)
                  || md_has_runtime_dims_or_strides(*diff_dst);
    if (runtime) {
        verbose_check("eltwise", "runtime dimensions are not supported");
        return dnnl_unimplemented;
    }
    if (is_fwd ? !same_dims(*src, *dst)
               : !(same_dims(*src, *diff_dst)
                       && same_dims(*diff_src, *diff_dst))) {
        verbose_check("eltwise", "inconsistent dimensions");
        return dnnl_invalid_arguments;
    }

    ed.prop_kind = prop;
    ed.alg_kind = alg;
    ed.src_desc = *src;
    ed.dst_desc = *dst;
    // Forward leaves the diff descriptors zero (as a fresh ed has them).
    if (!is_fwd) {
        ed.diff_src_desc = *diff_src;
        ed.diff_dst_desc = *diff_dst;
    }
    ed.alpha = alpha;
    ed.beta = beta;
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_eltwise_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, dnnl_alg_kind_t alg_kind_arg,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        float alpha, float beta, const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training
            && prop_kind != dnnl_forward_inference) {
        verbose_check("eltwise", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    // On the heap from the start: the handle keeps it without a copy.
    auto ed = std::make_shared<eltwise_desc_t>();
    DNNL_CHECK(init_desc(*ed, prop_kind, alg_kind, src_desc, dst_desc, nullptr,
            nullptr, alpha, beta));
    DNNL_CHECK(check_attr(attr, true));
    return dnnl_primitive_desc::create(
            primitive_desc, std::move(ed), attr, engine, nullptr);
}

dnnl_status_t dnnl_eltwise_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t data_desc, float alpha, float beta,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        // The hint must describe an eltwise forward propagation.
        const auto &hint = hint_fwd_pd->impl();
        prop_kind_t prop = dnnl_prop_kind_undef;
        if (!hint || hint->kind() != dnnl_eltwise
                || hint->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
                || (prop != dnnl_forward_training
                        && prop != dnnl_forward_inference)) {
            verbose_check(
                    "eltwise", "hint is not an eltwise forward descriptor");
            return dnnl_invalid_arguments;
        }
    }
    auto ed = std::make_shared<eltwise_desc_t>();
    DNNL_CHECK(init_desc(*ed, dnnl_backward_data, alg_kind, data_desc,
            data_desc, diff_src_desc, diff_dst_desc, alpha, beta));
    DNNL_CHECK(check_attr(attr, false));
    return dnnl_primitive_desc::create(
            primitive_desc, std::move(ed), attr, engine, hint_fwd_pd);
}
