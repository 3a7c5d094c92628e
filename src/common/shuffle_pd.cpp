// shuffle_pd_t: hint handling, argument mapping, queries and
// `any` resolution.
#include "common/shuffle_pd.hpp"

#include "common/binary_pd.hpp"
#include "common/eltwise_pd.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

shuffle_pd_t::shuffle_pd_t(const shuffle_desc_t &d,
        const primitive_attr_t &attr, const primitive_desc_t *hint_fwd)
    : primitive_desc_t(d, attr, hint_fwd)
    , src_md_(d.src_desc)
    , dst_md_(d.dst_desc) {}

bool shuffle_pd_t::is_fwd() const {
    return desc()->prop_kind == dnnl_forward_training
           || desc()->prop_kind == dnnl_forward_inference;
}

dim_t shuffle_pd_t::source_of(dim_t c) const {
    const dim_t C = in_md()->dims[axis()];
    const dim_t g = is_fwd() ? group_size() : C / group_size();
    const dim_t rows = C / g; // c = u + v * rows, u < rows, v < g
    const dim_t u = c % rows, v = c / rows;
    return u * g + v;
}

const memory_desc_t *shuffle_pd_t::arg_md(int arg) const {
    if (arg == in_arg()) return in_md();
    if (arg == out_arg()) return out_md();
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t shuffle_pd_t::arg_usage(int arg) const {
    if (arg == in_arg()) return arg_usage_t::input;
    if (arg == out_arg()) return arg_usage_t::output;
    return primitive_desc_t::arg_usage(arg);
}

status_t shuffle_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
    case dnnl_query_prop_kind:
        *(prop_kind_t *)result = desc()->prop_kind;
        return dnnl_success;
    case dnnl_query_axis_s32:
        *(int *)result = axis();
        return dnnl_success;
    case dnnl_query_group_size_s64:
        *(dim_t *)result = group_size();
        return dnnl_success;
    case dnnl_query_num_of_inputs_s32:
    case dnnl_query_num_of_outputs_s32:
        *(int *)result = 1;
        return dnnl_success;
    default:
        return primitive_desc_t::query(what, index, result);
    }
}

status_t shuffle_pd_t::init_formats() {
    // Both engines move whole elements; a packed 4-bit element has no
    // address of its own.
    if (sub_byte_bits(src_md_.data_type) || sub_byte_bits(dst_md_.data_type)) {
        verbose_check("shuffle", "packed 4-bit data types are not supported");
        return dnnl_unimplemented;
    }
    if (is_fwd()) {
        if (!layout::usable(src_md_)) return dnnl_unimplemented;
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(
                    dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
    } else {
        if (src_md_.format_kind == dnnl_format_kind_any) {
            if (!hint_mds_.empty())
                DNNL_CHECK(layout::like(src_md_, hint_mds_[0], src_md_.dims,
                        src_md_.data_type));
            else
                DNNL_CHECK(layout::plain(src_md_, src_md_.ndims, src_md_.dims,
                        src_md_.data_type));
        }
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(
                    dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
    }
    if (!layout::usable(src_md_) || !layout::usable(dst_md_))
        return dnnl_unimplemented;
    // As oneDNN's implementations: both tensors of one type and layout.
    if (!eltwise_md_utils::same_type_and_layout(dst_md_, src_md_)) {
        verbose_check("shuffle", "src and dst differ in data type or layout");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
