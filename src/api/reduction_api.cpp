// C API: reduction primitive descriptor creation with oneDNN's checks
// (bad algorithm, shapes or p: dnnl_invalid_arguments; attributes other
// than eltwise / sum / binary post-ops: dnnl_unimplemented).
#include "api/c_enum.hpp"
#include <cmath>

#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/reduction_pd.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_reduction_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, float p, float eps,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (!src_desc || !dst_desc) {
        verbose_check("reduction", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    switch (alg_kind) {
    case dnnl_reduction_max:
    case dnnl_reduction_min:
    case dnnl_reduction_sum:
    case dnnl_reduction_mul:
    case dnnl_reduction_mean:
    case dnnl_reduction_norm_lp_max:
    case dnnl_reduction_norm_lp_sum:
    case dnnl_reduction_norm_lp_power_p_max:
    case dnnl_reduction_norm_lp_power_p_sum:
        break;
    default:
        verbose_check("reduction", "bad algorithm");
        return dnnl_invalid_arguments;
    }
    const memory_desc_t &s = *src_desc, &d = *dst_desc;
    if (s.format_kind == dnnl_format_kind_any) {
        verbose_check("reduction", "src format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(s)
            || md_has_runtime_dims_or_strides(d)) {
        verbose_check("reduction", "runtime dimensions are not supported");
        return dnnl_unimplemented;
    }
    if (s.ndims <= 0 || s.ndims != d.ndims) {
        verbose_check("reduction", "inconsistent number of dimensions");
        return dnnl_invalid_arguments;
    }
    bool reduces = false;
    for (int i = 0; i < s.ndims; ++i) {
        if (d.dims[i] != s.dims[i] && d.dims[i] != 1) {
            verbose_check("reduction", "bad destination dimension %d", i);
            return dnnl_invalid_arguments;
        }
        reduces = reduces || d.dims[i] != s.dims[i];
    }
    if (!reduces) {
        verbose_check("reduction", "source and destination dims are equal");
        return dnnl_invalid_arguments;
    }
    const bool norm = reduction_pd_t::is_norm(alg_kind);
    if (norm && !(std::isfinite(p) && p >= 1.f)) {
        verbose_check("reduction", "p must be finite and >= 1");
        return dnnl_invalid_arguments;
    }
    if (norm && (s.data_type == dnnl_s8 || s.data_type == dnnl_u8)) {
        verbose_check(
                "reduction", "norm algorithms need a floating-point source");
        return dnnl_invalid_arguments;
    }
    if (attr) {
        if (!attr->scales.empty() || !attr->zero_points.empty()
                || !attr->rounding_modes.empty()) {
            verbose_check("reduction", "unsupported attribute");
            return dnnl_unimplemented;
        }
        const status_t po_st = po_check::check(attr->post_ops, d,
                po_check::eltwise | po_check::sum | po_check::binary);
        if (po_st != dnnl_success) {
            verbose_check("reduction", "unsupported post-op");
            return po_st;
        }
    }
    reduction_desc_t rd;
    rd.alg_kind = alg_kind;
    rd.src_desc = s;
    rd.dst_desc = d;
    rd.p = p;
    rd.eps = eps;
    return dnnl_primitive_desc::create(
            primitive_desc, rd, attr, engine, nullptr);
}
