// prelu_pd_t: argument mapping, queries and `any`
// resolution.
#include "common/prelu_pd.hpp"

#include "common/binary_pd.hpp"
#include "common/eltwise_pd.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

prelu_pd_t::prelu_pd_t(const prelu_desc_t &d, const primitive_attr_t &attr,
        const primitive_desc_t *)
    : primitive_desc_t(d, attr), src_md_(d.src_desc),
      weights_md_(d.weights_desc), dst_md_(d.dst_desc),
      diff_src_md_(d.diff_src_desc), diff_weights_md_(d.diff_weights_desc),
      diff_dst_md_(d.diff_dst_desc) {}

bool prelu_pd_t::is_fwd() const {
    return desc()->prop_kind == dnnl_forward_training
           || desc()->prop_kind == dnnl_forward_inference;
}

const memory_desc_t *prelu_pd_t::arg_md(int arg) const {
    switch (arg) {
    case DNNL_ARG_SRC:
        return &src_md_;
    case DNNL_ARG_WEIGHTS:
        return &weights_md_;
    default:
        break;
    }
    if (is_fwd()) {
        if (arg == DNNL_ARG_DST) return &dst_md_;
    } else {
        if (arg == DNNL_ARG_DIFF_SRC) return &diff_src_md_;
        if (arg == DNNL_ARG_DIFF_WEIGHTS) return &diff_weights_md_;
        if (arg == DNNL_ARG_DIFF_DST) return &diff_dst_md_;
    }
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t prelu_pd_t::arg_usage(int arg) const {
    if (arg == DNNL_ARG_SRC || arg == DNNL_ARG_WEIGHTS)
        return arg_usage_t::input;
    if (is_fwd()) {
        if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return arg_usage_t::input;
        if (arg == DNNL_ARG_DIFF_SRC || arg == DNNL_ARG_DIFF_WEIGHTS)
            return arg_usage_t::output;
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t prelu_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
    case dnnl_query_prop_kind:
        *(prop_kind_t *)result = desc()->prop_kind;
        return dnnl_success;
    case dnnl_query_num_of_inputs_s32:
        *(int *)result = is_fwd() ? 2 : 3;
        return dnnl_success;
    case dnnl_query_num_of_outputs_s32:
        *(int *)result = is_fwd() ? 1 : 2;
        return dnnl_success;
    default:
        return primitive_desc_t::query(what, index, result);
    }
}

status_t prelu_pd_t::init_formats() {
    if (!layout::usable(src_md_)) return dnnl_unimplemented;
    auto follow = [](memory_desc_t &md, const memory_desc_t &like) {
        if (md.format_kind != dnnl_format_kind_any) return dnnl_success;
        return layout::like(md, like, md.dims, md.data_type);
    };
    DNNL_CHECK(follow(weights_md_, src_md_));
    using eltwise_md_utils::same_type_and_layout;
    if (is_fwd()) {
        DNNL_CHECK(follow(dst_md_, src_md_));
        if (!layout::usable(weights_md_) || !layout::usable(dst_md_))
            return dnnl_unimplemented;
        // As oneDNN's implementations: dst is src's type and layout.
        if (!same_type_and_layout(dst_md_, src_md_)) {
            verbose_check("prelu", "dst differs from src in data type or "
                                   "layout");
            return dnnl_unimplemented;
        }
        return dnnl_success;
    }
    DNNL_CHECK(follow(diff_dst_md_, src_md_));
    DNNL_CHECK(follow(diff_src_md_, diff_dst_md_));
    DNNL_CHECK(follow(diff_weights_md_, weights_md_));
    for (const memory_desc_t *m :
            {&weights_md_, &diff_dst_md_, &diff_src_md_, &diff_weights_md_})
        if (!layout::usable(*m)) return dnnl_unimplemented;
    // The two gradients alike (they may differ from an integer src).
    if (!same_type_and_layout(diff_src_md_, diff_dst_md_)) {
        verbose_check("prelu", "diff_src differs from diff_dst in data type "
                               "or layout");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
