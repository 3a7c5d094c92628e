// C API: resampling forward and backward primitive descriptor creation,
// with oneDNN's checks and its rule for a destination given only by
// factors: dims = (dim_t)(src dim * factor) (truncated), the source's data
// type, format `any`.
#include "api/c_enum.hpp"
#include <cmath>

#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/resampling_pd.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

status_t init_desc(resampling_desc_t &rd, prop_kind_t prop, alg_kind_t alg,
        const float *factors, const memory_desc_t *src, const memory_desc_t *dst) {
    if (alg != dnnl_resampling_nearest && alg != dnnl_resampling_linear) {
        verbose_check("resampling", "bad algorithm");
        return dnnl_invalid_arguments;
    }
    if (!src || (!dst && !factors)) {
        verbose_check("resampling", "null argument");
        return dnnl_invalid_arguments;
    }
    const int nd = src->ndims;
    if (nd < 3 || nd > 5) {
        verbose_check("resampling", "bad number of dimensions");
        return dnnl_invalid_arguments;
    }
    const bool fwd = prop != dnnl_backward_data;
    if (fwd && src->format_kind == dnnl_format_kind_any) {
        verbose_check("resampling", "src format must be defined for forward");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(*src)
            || (dst && md_has_runtime_dims_or_strides(*dst)))
        return dnnl_unimplemented;
    memory_desc_t d;
    if (dst) {
        d = *dst;
    } else {
        for (int i = 0; i < nd - 2; ++i)
            if (!std::isfinite(factors[i]) || factors[i] <= 0.f) {
                verbose_check("resampling", "bad factors");
                return dnnl_invalid_arguments;
            }
        dims_t dims = {src->dims[0], src->dims[1]};
        for (int i = 0; i < nd - 2; ++i) {
            // Converted only when it fits (a float out of dim_t's range
            // does not convert; fuzz_primitive_desc under UBSan).
            const double o = (double)src->dims[2 + i] * factors[i];
            if (!(o < 0x1p62)) {
                verbose_check("resampling", "destination dims out of range");
                return dnnl_invalid_arguments;
            }
            dims[2 + i] = (dim_t)o;
        }
        DNNL_CHECK(md_init_by_tag(d, nd, dims, src->data_type, dnnl_format_tag_any));
    }
    if (d.ndims != nd || d.dims[0] != src->dims[0] || d.dims[1] != src->dims[1]) {
        verbose_check("resampling", "inconsistent dimensions");
        return dnnl_invalid_arguments;
    }
    for (int i = 0; i < nd - 2; ++i) {
        const dim_t in = src->dims[2 + i], out = d.dims[2 + i];
        // An empty source cannot feed a non-empty destination.
        if (in < 0 || out < 0 || (in == 0 && out != 0)) {
            verbose_check("resampling", "inconsistent spatial dimensions");
            return dnnl_invalid_arguments;
        }
        rd.factors[i] = in ? (float)((double)out / (double)in) : 0.f;
    }
    rd.prop_kind = prop;
    rd.alg_kind = alg;
    if (fwd) {
        rd.src_desc = *src;
        rd.dst_desc = d;
        rd.diff_src_desc = zero_md();
        rd.diff_dst_desc = zero_md();
    } else {
        rd.src_desc = zero_md();
        rd.dst_desc = zero_md();
        rd.diff_src_desc = *src;
        rd.diff_dst_desc = d;
    }
    return dnnl_success;
}

// Forward takes eltwise, binary and sum post-ops; backward no attributes
// (beyond the universal scratchpad and fpmath modes), as in oneDNN.
status_t check_attr(const primitive_attr_t *attr, const resampling_desc_t &rd) {
    if (!attr) return dnnl_success;
    const bool fwd = rd.prop_kind != dnnl_backward_data;
    if (!attr->scales.empty() || !attr->zero_points.empty()
            || !attr->rounding_modes.empty()
            || (!fwd && !attr->post_ops.entries.empty())) {
        verbose_check("resampling", "unsupported attribute");
        return dnnl_unimplemented;
    }
    const status_t po_st = fwd ? po_check::check(attr->post_ops, rd.dst_desc,
                                         po_check::eltwise | po_check::binary
                                                 | po_check::sum)
                               : dnnl_success;
    if (po_st != dnnl_success) {
        verbose_check("resampling", "unsupported post-op");
        return po_st;
    }
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_resampling_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, dnnl_alg_kind_t alg_kind_arg, const float *factors,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (prop_kind != dnnl_forward_training && prop_kind != dnnl_forward_inference) {
        verbose_check("resampling", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    resampling_desc_t rd;
    DNNL_CHECK(init_desc(rd, prop_kind, alg_kind, factors, src_desc, dst_desc));
    DNNL_CHECK(check_attr(attr, rd));
    return dnnl_primitive_desc::create(primitive_desc, rd, attr, engine, nullptr);
}

dnnl_status_t dnnl_resampling_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const float *factors,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    if (hint_fwd_pd) {
        const auto &hint = hint_fwd_pd->impl();
        prop_kind_t prop = dnnl_prop_kind_undef;
        if (!hint || hint->kind() != dnnl_resampling
                || hint->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
                || (prop != dnnl_forward_training && prop != dnnl_forward_inference)) {
            verbose_check("resampling", "hint is not a resampling forward descriptor");
            return dnnl_invalid_arguments;
        }
    }
    resampling_desc_t rd;
    DNNL_CHECK(init_desc(rd, dnnl_backward_data, alg_kind, factors, diff_src_desc,
            diff_dst_desc));
    DNNL_CHECK(check_attr(attr, rd));
    return dnnl_primitive_desc::create(primitive_desc, rd, attr, engine, hint_fwd_pd);
}
