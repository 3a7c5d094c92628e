// batch_normalization_pd_t: argument mapping, queries and `any`
// resolution.
#include "common/batch_normalization_pd.hpp"

#include "common/binary_pd.hpp"
#include "common/eltwise_pd.hpp"
#include "common/normalization_query.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

batch_normalization_pd_t::batch_normalization_pd_t(const batch_normalization_desc_t &d,
        const primitive_attr_t &attr, const primitive_desc_t *)
    : primitive_desc_t(d, attr)
    , src_md_(d.src_desc)
    , dst_md_(d.dst_desc)
    , diff_src_md_(d.diff_src_desc)
    , diff_dst_md_(d.diff_dst_desc)
    , stat_md_(zero_md())
    , ss_md_(zero_md())
    , ws_md_(zero_md()) {
    dims_t c = {d.src_desc.dims[1]};
    md_init_by_tag(stat_md_, 1, c, dnnl_f32, dnnl_a);
    ss_md_ = stat_md_;
}

const memory_desc_t *batch_normalization_pd_t::arg_md(int arg) const {
    switch (arg) {
        case DNNL_ARG_SRC: return &src_md_;
        case DNNL_ARG_DST: return is_fwd() ? &dst_md_ : primitive_desc_t::arg_md(arg);
        case DNNL_ARG_SRC_1: return fuse_add_relu() && is_fwd() ? &dst_md_ : primitive_desc_t::arg_md(arg);
        case DNNL_ARG_DIFF_SRC_1:
            return fuse_add_relu() && !is_fwd() ? &diff_src_md_ : primitive_desc_t::arg_md(arg);
        case DNNL_ARG_DIFF_SRC: return &diff_src_md_;
        case DNNL_ARG_DIFF_DST: return &diff_dst_md_;
        // As oneDNN: statistics neither read nor written (inference that
        // computes them) have a zero descriptor.
        case DNNL_ARG_MEAN:
        case DNNL_ARG_VARIANCE:
            return (stats_in() || stats_out()) ? &stat_md_
                                               : primitive_desc_t::arg_md(arg);
        case DNNL_ARG_SCALE:
        case DNNL_ARG_SHIFT:
        case DNNL_ARG_DIFF_SCALE:
        case DNNL_ARG_DIFF_SHIFT: return &ss_md_;
        case DNNL_ARG_WORKSPACE: return &ws_md_;
        default: return primitive_desc_t::arg_md(arg);
    }
}

arg_usage_t batch_normalization_pd_t::arg_usage(int arg) const {
    using u = arg_usage_t;
    if (arg == DNNL_ARG_SRC) return u::input;
    if (arg == DNNL_ARG_MEAN || arg == DNNL_ARG_VARIANCE) {
        if (stats_in()) return u::input;
        if (stats_out()) return u::output;
        return u::unused;
    }
    if (arg == DNNL_ARG_SCALE && use_scale()) return u::input;
    if (arg == DNNL_ARG_SHIFT && use_shift() && is_fwd()) return u::input;
    if (arg == DNNL_ARG_WORKSPACE && has_ws()) return is_fwd() ? u::output : u::input;
    if (is_fwd()) {
        if (arg == DNNL_ARG_DST) return u::output;
        if (arg == DNNL_ARG_SRC_1 && fuse_add_relu()) return u::input;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return u::input;
        if (arg == DNNL_ARG_DIFF_SRC) return u::output;
        if (arg == DNNL_ARG_DIFF_SRC_1 && fuse_add_relu()) return u::output;
        if (desc()->prop_kind == dnnl_backward) {
            if (arg == DNNL_ARG_DIFF_SCALE && use_scale()) return u::output;
            if (arg == DNNL_ARG_DIFF_SHIFT && use_shift()) return u::output;
        }
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t batch_normalization_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    const norm_query_view_t v = {desc()->prop_kind, desc()->epsilon, desc()->flags,
            &src_md_, &dst_md_, &stat_md_, &ss_md_, &ss_md_, is_fwd(),
            stats_in(), stats_out(), use_scale() || use_shift(),
            desc()->prop_kind == dnnl_backward && (use_scale() || use_shift()),
            1};
    if (norm_query(v, what, index, result) == dnnl_success) return dnnl_success;
    return primitive_desc_t::query(what, index, result);
}

status_t batch_normalization_pd_t::init_formats() {
    if (!layout::usable(src_md_)) return dnnl_unimplemented;
    if (is_fwd()) {
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
        if (!layout::usable(dst_md_)) return dnnl_unimplemented;
        // As oneDNN's implementations on every engine: dst is src's type
        // and layout.
        if (!eltwise_md_utils::same_type_and_layout(dst_md_, src_md_)) {
            verbose_check("bnorm", "dst differs from src in data type or "
                                   "layout");
            return dnnl_unimplemented;
        }
        if (any_relu() && is_training())
            DNNL_CHECK(layout::like(ws_md_, dst_md_, dst_md_.dims, dnnl_u8));
        return dnnl_success;
    }
    if (diff_dst_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_dst_md_, src_md_, diff_dst_md_.dims,
                diff_dst_md_.data_type));
    if (diff_src_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_src_md_, diff_dst_md_, diff_src_md_.dims,
                diff_src_md_.data_type));
    if (!layout::usable(diff_dst_md_) || !layout::usable(diff_src_md_))
        return dnnl_unimplemented;
    if (!eltwise_md_utils::same_type_and_layout(diff_dst_md_, src_md_)
            || !eltwise_md_utils::same_type_and_layout(diff_src_md_, src_md_)) {
        verbose_check("bnorm", "gradients differ from src in data type or "
                               "layout");
        return dnnl_unimplemented;
    }
    if (any_relu()) DNNL_CHECK(layout::like(ws_md_, src_md_, src_md_.dims, dnnl_u8));
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
