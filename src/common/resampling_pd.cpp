// resampling_pd_t: argument mapping, queries and `any`
// resolution.
#include "common/resampling_pd.hpp"

#include "oneapi/dnnl/dnnl_debug.h"
#include "common/binary_pd.hpp"

namespace dnnl {
namespace impl {

resampling_pd_t::resampling_pd_t(const resampling_desc_t &d,
        const primitive_attr_t &attr, const primitive_desc_t *hint_fwd)
    : primitive_desc_t(d, attr, hint_fwd)
    , src_md_(d.src_desc)
    , dst_md_(d.dst_desc)
    , diff_src_md_(d.diff_src_desc)
    , diff_dst_md_(d.diff_dst_desc)
    , hint_src_md_(zero_md())
    , hint_dst_md_(zero_md()) {
    // The hint picks the default layouts, so it is part of the cache key
    // (rfcs/02); hint_mds_for() lists its src and dst.
    if (hint_mds_.size() == 2) {
        hint_src_md_ = hint_mds_[0];
        hint_dst_md_ = hint_mds_[1];
    }
}

const memory_desc_t *resampling_pd_t::arg_md(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return &src_md_;
        if (arg == DNNL_ARG_DST) return &dst_md_;
        for (size_t i = 0; i < attr_.post_ops.entries.size(); ++i) {
            const auto &e = attr_.post_ops.entries[i];
            if (e.kind == post_op_kind_t::binary
                    && arg == (DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1))
                return &e.src1_md;
        }
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return &diff_dst_md_;
        if (arg == DNNL_ARG_DIFF_SRC) return &diff_src_md_;
    }
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t resampling_pd_t::arg_usage(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return arg_usage_t::input;
        if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return arg_usage_t::input;
        if (arg == DNNL_ARG_DIFF_SRC) return arg_usage_t::output;
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t resampling_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
        case dnnl_query_prop_kind:
            *(prop_kind_t *)result = desc()->prop_kind;
            return dnnl_success;
        case dnnl_query_alg_kind:
            *(alg_kind_t *)result = desc()->alg_kind;
            return dnnl_success;
        case dnnl_query_factors:
            *(const float **)result = desc()->factors;
            return dnnl_success;
        default: return primitive_desc_t::query(what, index, result);
    }
}

// oneDNN's form: mb1ic3_id5od7_ih7oh3_iw9ow13

status_t resampling_pd_t::init_formats() {
    if (is_fwd()) {
        if (!layout::usable(src_md_)) return dnnl_unimplemented;
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
        if (!layout::usable(dst_md_)) return dnnl_unimplemented;
        return dnnl_success;
    }
    const bool hint_ok = layout::usable(hint_src_md_) && layout::usable(hint_dst_md_)
            && layout::same_dims(hint_src_md_, diff_src_md_)
            && layout::same_dims(hint_dst_md_, diff_dst_md_);
    if (diff_dst_md_.format_kind == dnnl_format_kind_any) {
        if (hint_ok)
            DNNL_CHECK(layout::like(diff_dst_md_, hint_dst_md_, diff_dst_md_.dims,
                    diff_dst_md_.data_type));
        else if (diff_src_md_.format_kind != dnnl_format_kind_any
                && layout::usable(diff_src_md_))
            DNNL_CHECK(layout::like(diff_dst_md_, diff_src_md_, diff_dst_md_.dims,
                    diff_dst_md_.data_type));
        else
            DNNL_CHECK(layout::plain(diff_dst_md_, diff_dst_md_.ndims,
                    diff_dst_md_.dims, diff_dst_md_.data_type));
    }
    if (!layout::usable(diff_dst_md_)) return dnnl_unimplemented;
    if (diff_src_md_.format_kind == dnnl_format_kind_any) {
        if (hint_ok)
            DNNL_CHECK(layout::like(diff_src_md_, hint_src_md_, diff_src_md_.dims,
                    diff_src_md_.data_type));
        else
            DNNL_CHECK(layout::like(diff_src_md_, diff_dst_md_, diff_src_md_.dims,
                    diff_src_md_.data_type));
    }
    if (!layout::usable(diff_src_md_)) return dnnl_unimplemented;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
