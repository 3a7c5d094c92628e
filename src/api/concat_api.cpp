// C API: concat primitive descriptor creation. The destination may be null
// (then: src0's dims with the concat dim summed, src0's data type, format
// `any`). Only per-source scales with mask 0 are accepted as attributes.
#include "common/concat_pd.hpp"
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_concat_primitive_desc_create(
        dnnl_primitive_desc_t *concat_primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t dst_desc, int n, int concat_dimension,
        const_dnnl_memory_desc_t const *src_descs,
        const_dnnl_primitive_attr_t attr) {
    if (!concat_primitive_desc || !engine) return dnnl_invalid_arguments;
    if (!src_descs || n <= 0) {
        verbose_check("concat", "null sources or n <= 0");
        return dnnl_invalid_arguments;
    }
    for (int i = 0; i < n; ++i)
        if (!src_descs[i]) {
            verbose_check("concat", "null source descriptor %d", i);
            return dnnl_invalid_arguments;
        }
    if (attr) {
        if (!attr->zero_points.empty() || !attr->rounding_modes.empty()
                || !attr->post_ops.entries.empty()) {
            verbose_check("concat", "unsupported attribute");
            return dnnl_unimplemented;
        }
        for (const auto &it : attr->scales.items) {
            const int i = it.arg - DNNL_ARG_MULTIPLE_SRC;
            if (i < 0 || i >= n || it.e.mask != 0) {
                verbose_check("concat", "unsupported scales configuration");
                return dnnl_unimplemented;
            }
        }
    }
    const memory_desc_t &s0 = *src_descs[0];
    const int nd = s0.ndims;
    if (nd <= 0) {
        verbose_check("concat", "empty source descriptor");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(s0)) {
        verbose_check("concat", "runtime dimensions are not supported");
        return dnnl_unimplemented;
    }
    if (concat_dimension < 0 || concat_dimension >= nd) {
        verbose_check("concat", "bad concat dimension");
        return dnnl_invalid_arguments;
    }
    dim_t axis_size = 0;
    for (int i = 0; i < n; ++i) {
        const memory_desc_t &s = *src_descs[i];
        if (s.format_kind == dnnl_format_kind_any) {
            verbose_check("concat", "source format_kind any is not allowed");
            return dnnl_invalid_arguments;
        }
        if (s.ndims != nd) {
            verbose_check("concat", "inconsistent number of dimensions");
            return dnnl_invalid_arguments;
        }
        if (md_has_runtime_dims_or_strides(s)) {
            verbose_check("concat", "runtime dimensions are not supported");
            return dnnl_unimplemented;
        }
        for (int d = 0; d < nd; ++d)
            if (d != concat_dimension && s.dims[d] != s0.dims[d]) {
                verbose_check("concat", "inconsistent dimension %d", d);
                return dnnl_invalid_arguments;
            }
        if (s.data_type != s0.data_type) {
            verbose_check("concat", "inconsistent data types");
            return dnnl_invalid_arguments;
        }
        axis_size += s.dims[concat_dimension];
    }
    concat_desc_t cd;
    if (dst_desc) {
        if (dst_desc->ndims != nd) {
            verbose_check("concat", "inconsistent number of dimensions");
            return dnnl_invalid_arguments;
        }
        if (md_has_runtime_dims_or_strides(*dst_desc)) {
            verbose_check("concat", "runtime dimensions are not supported");
            return dnnl_invalid_arguments;
        }
        for (int d = 0; d < nd; ++d) {
            const dim_t want = d == concat_dimension ? axis_size : s0.dims[d];
            if (dst_desc->dims[d] != want) {
                verbose_check("concat", "bad destination dimension %d", d);
                return dnnl_invalid_arguments;
            }
        }
        cd.dst_md = *dst_desc;
    } else {
        dims_t dims;
        for (int d = 0; d < nd; ++d)
            dims[d] = d == concat_dimension ? axis_size : s0.dims[d];
        DNNL_CHECK(md_init_by_tag(
                cd.dst_md, nd, dims, s0.data_type, dnnl_format_tag_any));
    }
    cd.n = n;
    cd.concat_dimension = concat_dimension;
    for (int i = 0; i < n; ++i) cd.src_mds.push_back(*src_descs[i]);
    return dnnl_primitive_desc::create(
            concat_primitive_desc, cd, attr, engine, nullptr);
}
