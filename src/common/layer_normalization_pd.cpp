// layer_normalization_pd_t: argument mapping, queries, `any` resolution.
#include "common/layer_normalization_pd.hpp"

#include "common/binary_pd.hpp"
#include "common/normalization_query.hpp"

namespace dnnl {
namespace impl {

layer_normalization_pd_t::layer_normalization_pd_t(const layer_normalization_desc_t &d,
        const primitive_attr_t &attr, const primitive_desc_t *)
    : primitive_desc_t(d, attr)
    , src_md_(d.src_desc)
    , dst_md_(d.dst_desc)
    , diff_src_md_(d.diff_src_desc)
    , diff_dst_md_(d.diff_dst_desc)
    , stat_md_(d.stat_desc)
    , ss_md_(zero_md())
    , diff_ss_md_(zero_md()) {
    const int nd = d.src_desc.ndims;
    dims_t c = {nd > 0 ? d.src_desc.dims[nd - 1] : 0};
    md_init_by_tag(ss_md_, 1, c, d.ss_dt, dnnl_a);
    md_init_by_tag(diff_ss_md_, 1, c, d.diff_ss_dt, dnnl_a);
}

const memory_desc_t *layer_normalization_pd_t::arg_md(int arg) const {
    switch (arg) {
        case DNNL_ARG_SRC: return &src_md_;
        case DNNL_ARG_DST: return &dst_md_;
        case DNNL_ARG_DIFF_SRC: return &diff_src_md_;
        case DNNL_ARG_DIFF_DST: return &diff_dst_md_;
        // As oneDNN: statistics neither read nor written (inference that
        // computes them) have a zero descriptor.
        case DNNL_ARG_MEAN:
        case DNNL_ARG_VARIANCE:
            return (stats_in() || stats_out()) ? &stat_md_
                                               : primitive_desc_t::arg_md(arg);
        case DNNL_ARG_SCALE:
        case DNNL_ARG_SHIFT: return &ss_md_;
        case DNNL_ARG_DIFF_SCALE:
        case DNNL_ARG_DIFF_SHIFT: return &diff_ss_md_;
        default: return primitive_desc_t::arg_md(arg);
    }
}

arg_usage_t layer_normalization_pd_t::arg_usage(int arg) const {
    using u = arg_usage_t;
    if (arg == DNNL_ARG_SRC) return u::input;
    if (arg == DNNL_ARG_MEAN) {
        if (rms()) return u::unused;
        return stats_in() ? u::input : stats_out() ? u::output : u::unused;
    }
    if (arg == DNNL_ARG_VARIANCE)
        return stats_in() ? u::input : stats_out() ? u::output : u::unused;
    if (arg == DNNL_ARG_SCALE && use_scale()) return u::input;
    if (arg == DNNL_ARG_SHIFT && use_shift() && is_fwd()) return u::input;
    if (is_fwd()) {
        if (arg == DNNL_ARG_DST) return u::output;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return u::input;
        if (arg == DNNL_ARG_DIFF_SRC) return u::output;
        if (desc()->prop_kind == dnnl_backward) {
            if (arg == DNNL_ARG_DIFF_SCALE && use_scale()) return u::output;
            if (arg == DNNL_ARG_DIFF_SHIFT && use_shift()) return u::output;
        }
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t layer_normalization_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    const norm_query_view_t v = {desc()->prop_kind, desc()->epsilon, desc()->flags,
            &src_md_, &dst_md_, &stat_md_, &ss_md_, &diff_ss_md_, is_fwd(),
            stats_in(), stats_out(), use_scale() || use_shift(),
            desc()->prop_kind == dnnl_backward && (use_scale() || use_shift()),
            1};
    if (norm_query(v, what, index, result) == dnnl_success) return dnnl_success;
    return primitive_desc_t::query(what, index, result);
}

status_t layer_normalization_pd_t::init_formats() {
    if (!layout::usable(src_md_)) return dnnl_unimplemented;
    const int nd = src_md_.ndims;
    if (is_zero_md(stat_md_) || stat_md_.format_kind == dnnl_format_kind_any) {
        const int snd = nd > 1 ? nd - 1 : 1;
        dims_t sd = {1};
        for (int i = 0; i < nd - 1; ++i)
            sd[i] = src_md_.dims[i];
        // As oneDNN: src's physical order of the other dims (with its
        // blocks), plain when the normalised dim itself is blocked.
        const auto &blk = src_md_.format_desc.blocking;
        bool norm_dim_blocked = false;
        for (int i = 0; i < blk.inner_nblks; ++i)
            norm_dim_blocked = norm_dim_blocked || blk.inner_idxs[i] == nd - 1;
        if (nd > 1 && !norm_dim_blocked) {
            memory_desc_t others = src_md_;
            others.ndims = snd;
            DNNL_CHECK(layout::like(stat_md_, others, sd, dnnl_f32));
        } else {
            DNNL_CHECK(layout::plain(stat_md_, snd, sd, dnnl_f32));
        }
    }
    if (!layout::usable(stat_md_)) return dnnl_unimplemented;
    if (is_fwd()) {
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
        return layout::usable(dst_md_) ? dnnl_success : dnnl_unimplemented;
    }
    if (diff_dst_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_dst_md_, src_md_, diff_dst_md_.dims,
                diff_dst_md_.data_type));
    if (diff_src_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_src_md_, diff_dst_md_, diff_src_md_.dims,
                diff_src_md_.data_type));
    return layout::usable(diff_dst_md_) && layout::usable(diff_src_md_)
            ? dnnl_success
            : dnnl_unimplemented;
}

} // namespace impl
} // namespace dnnl
