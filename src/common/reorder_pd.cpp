// reorder_pd_t: argument descriptors and usage.
#include "common/reorder_pd.hpp"

namespace dnnl {
namespace impl {

const memory_desc_t *reorder_pd_t::arg_md(int arg) const {
    switch (arg) {
    case DNNL_ARG_FROM:
        return src_md();
    case DNNL_ARG_TO:
        return dst_md();
    default:
        return primitive_desc_t::arg_md(arg);
    }
}

arg_usage_t reorder_pd_t::arg_usage(int arg) const {
    if (arg == DNNL_ARG_FROM) return arg_usage_t::input;
    if (arg == DNNL_ARG_TO) return arg_usage_t::output;
    return primitive_desc_t::arg_usage(arg);
}

bool reorder_pd_t::with_sum() const {
    return attr()->post_ops.find(post_op_kind_t::sum) >= 0;
}

float reorder_pd_t::sum_beta() const {
    const int i = attr()->post_ops.find(post_op_kind_t::sum);
    return i < 0 ? 0.f : attr()->post_ops.entries[i].scale;
}

} // namespace impl
} // namespace dnnl
