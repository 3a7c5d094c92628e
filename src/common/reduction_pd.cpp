// reduction_pd_t: argument mapping, queries and `any`
// resolution.
#include "common/reduction_pd.hpp"

#include <cstdio>

#include "common/binary_pd.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {

reduction_pd_t::reduction_pd_t(const reduction_desc_t &d,
        const primitive_attr_t &attr, const primitive_desc_t *)
    : primitive_desc_t(d, attr), src_md_(d.src_desc), dst_md_(d.dst_desc) {}

bool reduction_pd_t::is_norm(alg_kind_t alg) {
    return alg == dnnl_reduction_norm_lp_max
           || alg == dnnl_reduction_norm_lp_sum
           || alg == dnnl_reduction_norm_lp_power_p_max
           || alg == dnnl_reduction_norm_lp_power_p_sum;
}

const memory_desc_t *reduction_pd_t::arg_md(int arg) const {
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
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t reduction_pd_t::arg_usage(int arg) const {
    if (arg == DNNL_ARG_SRC) return arg_usage_t::input;
    if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    return primitive_desc_t::arg_usage(arg);
}

status_t reduction_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
    case dnnl_query_alg_kind:
        *(alg_kind_t *)result = alg();
        return dnnl_success;
    case dnnl_query_p_f32:
        *(float *)result = p();
        return dnnl_success;
    case dnnl_query_epsilon_f32:
        *(float *)result = eps();
        return dnnl_success;
    case dnnl_query_num_of_inputs_s32:
        *(int *)result = 1 + po_check::n_binary(attr_.post_ops);
        return dnnl_success;
    case dnnl_query_num_of_outputs_s32:
        *(int *)result = 1;
        return dnnl_success;
    default:
        return primitive_desc_t::query(what, index, result);
    }
}

status_t reduction_pd_t::init_formats() {
    if (!layout::usable(src_md_)) return dnnl_unimplemented;
    if (dst_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(
                dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
    return layout::usable(dst_md_) ? dnnl_success : dnnl_unimplemented;
}

} // namespace impl
} // namespace dnnl
