// softmax_pd_t: argument mapping, queries and `any`
// resolution.
#include "common/softmax_pd.hpp"

#include "common/binary_pd.hpp"
#include "common/float_convert.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {

softmax_pd_t::softmax_pd_t(const softmax_desc_t &d,
        const primitive_attr_t &attr, const primitive_desc_t *)
    : primitive_desc_t(d, attr), src_md_(d.src_desc), dst_md_(d.dst_desc),
      diff_src_md_(d.diff_src_desc), diff_dst_md_(d.diff_dst_desc) {}

bool softmax_pd_t::is_fwd() const {
    return desc()->prop_kind == dnnl_forward_training
           || desc()->prop_kind == dnnl_forward_inference;
}

const memory_desc_t *softmax_pd_t::arg_md(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return &src_md_;
        if (arg == DNNL_ARG_DST) return &dst_md_;
        for (size_t i = 0; i < attr_.post_ops.entries.size(); ++i) {
            const auto &e = attr_.post_ops.entries[i];
            if (e.kind == post_op_kind_t::binary
                    && arg
                               == (DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i)
                                       | DNNL_ARG_SRC_1))
                return &e.src1_md;
        }
    } else {
        if (arg == DNNL_ARG_DST) return &dst_md_;
        if (arg == DNNL_ARG_DIFF_DST) return &diff_dst_md_;
        if (arg == DNNL_ARG_DIFF_SRC) return &diff_src_md_;
    }
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t softmax_pd_t::arg_usage(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return arg_usage_t::input;
        if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    } else {
        if (arg == DNNL_ARG_DST || arg == DNNL_ARG_DIFF_DST)
            return arg_usage_t::input;
        if (arg == DNNL_ARG_DIFF_SRC) return arg_usage_t::output;
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t softmax_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
    case dnnl_query_prop_kind:
        *(prop_kind_t *)result = desc()->prop_kind;
        return dnnl_success;
    case dnnl_query_alg_kind:
        *(alg_kind_t *)result = desc()->alg_kind;
        return dnnl_success;
    case dnnl_query_axis_s32:
        *(int *)result = axis();
        return dnnl_success;
    case dnnl_query_num_of_inputs_s32:
        *(int *)result = is_fwd() ? 1 + po_check::n_binary(attr_.post_ops) : 2;
        return dnnl_success;
    case dnnl_query_num_of_outputs_s32:
        *(int *)result = 1;
        return dnnl_success;
    default:
        return primitive_desc_t::query(what, index, result);
    }
}

status_t softmax_pd_t::init_formats() {
    if (is_fwd()) {
        if (!layout::usable(src_md_)) return dnnl_unimplemented;
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(
                    dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
        return layout::usable(dst_md_) ? dnnl_success : dnnl_unimplemented;
    }
    if (!layout::usable(dst_md_)) return dnnl_unimplemented;
    if (diff_dst_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_dst_md_, dst_md_, diff_dst_md_.dims,
                diff_dst_md_.data_type));
    if (diff_src_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_src_md_, diff_dst_md_, diff_src_md_.dims,
                diff_src_md_.data_type));
    return layout::usable(diff_dst_md_) && layout::usable(diff_src_md_)
                   ? dnnl_success
                   : dnnl_unimplemented;
}

bool softmax_pd_t::attr_ok() const {
    const primitive_attr_t &a = attr_;
    if (!a.zero_points.empty() || !a.rounding_modes.empty()) return false;
    if (!is_fwd()) return a.scales.empty() && a.post_ops.entries.empty();
    for (const auto &it : a.scales.items)
        if ((it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST) || it.e.mask != 0
                || !is_f32_convertible(it.e.data_type))
            return false;
    return po_check::check(
                   a.post_ops, dst_md_, po_check::eltwise | po_check::binary)
           == dnnl_success;
}

bool softmax_pd_t::types_ok() const {
    auto is_float = [](data_type_t dt) {
        return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
    };
    auto is_int8 = [](data_type_t dt) {
        return dt == dnnl_s8 || dt == dnnl_u8;
    };
    if (is_fwd())
        return (is_float(src_md_.data_type) || is_int8(src_md_.data_type))
               && (is_float(dst_md_.data_type) || is_int8(dst_md_.data_type));
    return is_float(dst_md_.data_type) && is_float(diff_dst_md_.data_type)
           && is_float(diff_src_md_.data_type);
}

} // namespace impl
} // namespace dnnl
