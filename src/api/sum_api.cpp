// C API: sum primitive descriptor creation. The destination may be null
// (then: src0's dims and data type, format `any`); no attributes change a
// sum's result, so scales, zero points and post-ops are unimplemented.
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/sum_pd.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_sum_primitive_desc_create(
        dnnl_primitive_desc_t *sum_primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t dst_desc, int n, const float *scales,
        const_dnnl_memory_desc_t const *src_descs,
        const_dnnl_primitive_attr_t attr) {
    if (!sum_primitive_desc || !engine) return dnnl_invalid_arguments;
    if (!src_descs || !scales || n <= 0) {
        verbose_check("sum", "null sources or scales, or n <= 0");
        return dnnl_invalid_arguments;
    }
    for (int i = 0; i < n; ++i)
        if (!src_descs[i]) {
            verbose_check("sum", "null source descriptor %d", i);
            return dnnl_invalid_arguments;
        }
    if (attr
            && (!attr->scales.empty() || !attr->zero_points.empty()
                    || !attr->rounding_modes.empty()
                    || !attr->post_ops.entries.empty())) {
        verbose_check("sum", "unsupported attribute");
        return dnnl_unimplemented;
    }
    const memory_desc_t &s0 = *src_descs[0];
    const int nd = s0.ndims;
    if (nd <= 0) {
        verbose_check("sum", "empty source descriptor");
        return dnnl_invalid_arguments;
    }
    for (int i = 0; i < n; ++i) {
        const memory_desc_t &s = *src_descs[i];
        if (s.format_kind == dnnl_format_kind_any) {
            verbose_check("sum", "source format_kind any is not allowed");
            return dnnl_invalid_arguments;
        }
        if (s.ndims != nd) {
            verbose_check("sum", "inconsistent number of dimensions");
            return dnnl_invalid_arguments;
        }
        if (md_has_runtime_dims_or_strides(s)) {
            verbose_check("sum", "runtime dimensions are not supported");
            return dnnl_unimplemented;
        }
        for (int d = 0; d < nd; ++d)
            if (s.dims[d] != s0.dims[d]) {
                verbose_check("sum", "inconsistent dimension %d", d);
                return dnnl_invalid_arguments;
            }
    }
    sum_desc_t sd;
    if (dst_desc) {
        if (dst_desc->ndims != nd) {
            verbose_check("sum", "inconsistent number of dimensions");
            return dnnl_invalid_arguments;
        }
        if (md_has_runtime_dims_or_strides(*dst_desc)) {
            verbose_check("sum", "runtime dimensions are not supported");
            return dnnl_invalid_arguments;
        }
        for (int d = 0; d < nd; ++d)
            if (dst_desc->dims[d] != s0.dims[d]) {
                verbose_check("sum", "inconsistent dimension %d", d);
                return dnnl_invalid_arguments;
            }
        sd.dst_md = *dst_desc;
    } else {
        DNNL_CHECK(md_init_by_tag(
                sd.dst_md, nd, s0.dims, s0.data_type, dnnl_format_tag_any));
    }
    sd.n = n;
    sd.scales.assign(scales, scales + n);
    for (int i = 0; i < n; ++i) sd.src_mds.push_back(*src_descs[i]);
    return dnnl_primitive_desc::create(
            sum_primitive_desc, sd, attr, engine, nullptr);
}
