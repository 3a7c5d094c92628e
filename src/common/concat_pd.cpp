// concat_pd_t: argument mapping (DNNL_ARG_MULTIPLE_SRC + i), queries and
// `any` resolution.
#include "common/concat_pd.hpp"

#include "common/binary_pd.hpp"

namespace dnnl {
namespace impl {

concat_pd_t::concat_pd_t(const concat_desc_t &d, const primitive_attr_t &attr,
        const primitive_desc_t *)
    : primitive_desc_t(d, attr), dst_md_(d.dst_md) {}

dim_t concat_pd_t::axis_offset(int i) const {
    dim_t off = 0;
    for (int k = 0; k < i; ++k) off += src_md(k)->dims[axis()];
    return off;
}

bool concat_pd_t::with_scale(int i) const {
    return attr_.scales.has(DNNL_ARG_MULTIPLE_SRC + i);
}

const memory_desc_t *concat_pd_t::arg_md(int arg) const {
    const int i = arg - DNNL_ARG_MULTIPLE_SRC;
    if (i >= 0 && i < n_inputs()) return src_md(i);
    if (arg == DNNL_ARG_DST) return &dst_md_;
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t concat_pd_t::arg_usage(int arg) const {
    const int i = arg - DNNL_ARG_MULTIPLE_SRC;
    if (i >= 0 && i < n_inputs()) return arg_usage_t::input;
    if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    return primitive_desc_t::arg_usage(arg);
}

status_t concat_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
    case dnnl_query_src_md:
        if (index < 0 || index >= n_inputs()) {
            *(const memory_desc_t **)result = primitive_desc_t::arg_md(-1);
            return dnnl_success;
        }
        *(const memory_desc_t **)result = src_md(index);
        return dnnl_success;
    case dnnl_query_num_of_inputs_s32:
        *(int *)result = n_inputs();
        return dnnl_success;
    case dnnl_query_num_of_outputs_s32:
        *(int *)result = 1;
        return dnnl_success;
    default:
        return primitive_desc_t::query(what, index, result);
    }
}

status_t concat_pd_t::init_formats() {
    for (int i = 0; i < n_inputs(); ++i)
        if (!layout::usable(*src_md(i))) return dnnl_unimplemented;
    if (dst_md_.format_kind == dnnl_format_kind_any) {
        const int ax = axis();
        bool done = false;
        for (int i = 0; i < n_inputs() && !done; ++i) {
            const memory_desc_t &s = *src_md(i);
            if (layout::is_plain(s)) continue;
            memory_desc_t cand;
            if (layout::like(cand, s, dst_md_.dims, dst_md_.data_type)
                    != dnnl_success)
                continue;
            // Every source must start on a block boundary of the axis.
            dim_t blk = 1;
            const auto &b = cand.format_desc.blocking;
            for (int k = 0; k < b.inner_nblks; ++k)
                if (b.inner_idxs[k] == ax) blk *= b.inner_blks[k];
            bool ok = true;
            for (int k = 0; k < n_inputs() && ok; ++k)
                ok = axis_offset(k) % blk == 0;
            if (ok) {
                dst_md_ = cand;
                done = true;
            }
            break; // only the first blocked source is tried
        }
        for (int i = 0; i < n_inputs() && !done; ++i) {
            const memory_desc_t &s = *src_md(i);
            if (!layout::is_plain(s) || s.dims[ax] == 1 || md_nelems(s) == 0)
                continue;
            DNNL_CHECK(
                    layout::like(dst_md_, s, dst_md_.dims, dst_md_.data_type));
            done = true;
        }
        if (!done)
            DNNL_CHECK(layout::plain(
                    dst_md_, dst_md_.ndims, dst_md_.dims, dst_md_.data_type));
    }
    return layout::usable(dst_md_) ? dnnl_success : dnnl_unimplemented;
}

} // namespace impl
} // namespace dnnl
