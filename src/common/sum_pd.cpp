// sum_pd_t: argument mapping (DNNL_ARG_MULTIPLE_SRC + i), queries and
// `any` resolution.
#include "common/sum_pd.hpp"

#include "common/binary_pd.hpp"

namespace dnnl {
namespace impl {

sum_pd_t::sum_pd_t(const sum_desc_t &d, const primitive_attr_t &attr,
        const primitive_desc_t *)
    : primitive_desc_t(d, attr), dst_md_(d.dst_md) {}

const memory_desc_t *sum_pd_t::arg_md(int arg) const {
    const int i = arg - DNNL_ARG_MULTIPLE_SRC;
    if (i >= 0 && i < n_inputs()) return src_md(i);
    if (arg == DNNL_ARG_DST) return &dst_md_;
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t sum_pd_t::arg_usage(int arg) const {
    const int i = arg - DNNL_ARG_MULTIPLE_SRC;
    if (i >= 0 && i < n_inputs()) return arg_usage_t::input;
    if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    return primitive_desc_t::arg_usage(arg);
}

status_t sum_pd_t::query(query_t what, int index, void *result) const {
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

status_t sum_pd_t::init_formats() {
    for (int i = 0; i < n_inputs(); ++i)
        if (!layout::usable(*src_md(i))) return dnnl_unimplemented;
    if (dst_md_.format_kind == dnnl_format_kind_any) {
        const memory_desc_t *like = src_md(0);
        for (int i = 0; i < n_inputs(); ++i)
            if (!layout::is_plain(*src_md(i))) {
                like = src_md(i);
                break;
            }
        DNNL_CHECK(
                layout::like(dst_md_, *like, dst_md_.dims, dst_md_.data_type));
    }
    return layout::usable(dst_md_) ? dnnl_success : dnnl_unimplemented;
}

} // namespace impl
} // namespace dnnl
