// pooling_pd_t: argument mapping, queries and `any`
// resolution.
#include "common/pooling_pd.hpp"

#include "oneapi/dnnl/dnnl_debug.h"
#include "common/binary_pd.hpp"

namespace dnnl {
namespace impl {

pooling_pd_t::pooling_pd_t(const pooling_desc_t &d, const primitive_attr_t &attr,
        const primitive_desc_t *hint_fwd)
    : primitive_desc_t(d, attr, hint_fwd)
    , src_md_(d.src_desc)
    , dst_md_(d.dst_desc)
    , diff_src_md_(d.diff_src_desc)
    , diff_dst_md_(d.diff_dst_desc)
    , ws_md_(zero_md())
    , hint_ws_md_(zero_md())
    , hint_src_md_(zero_md())
    , hint_dst_md_(zero_md()) {
    // hint_mds_for() lists the hint's src, dst and workspace.
    if (hint_mds_.size() == 3) {
        hint_src_md_ = hint_mds_[0];
        hint_dst_md_ = hint_mds_[1];
        hint_ws_md_ = hint_mds_[2];
    }
}

const memory_desc_t *pooling_pd_t::arg_md(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return &src_md_;
        if (arg == DNNL_ARG_DST) return &dst_md_;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return &diff_dst_md_;
        if (arg == DNNL_ARG_DIFF_SRC) return &diff_src_md_;
    }
    if (arg == DNNL_ARG_WORKSPACE && has_ws()) return &ws_md_;
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t pooling_pd_t::arg_usage(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return arg_usage_t::input;
        if (arg == DNNL_ARG_DST) return arg_usage_t::output;
        if (arg == DNNL_ARG_WORKSPACE && has_ws()) return arg_usage_t::output;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return arg_usage_t::input;
        if (arg == DNNL_ARG_DIFF_SRC) return arg_usage_t::output;
        if (arg == DNNL_ARG_WORKSPACE && has_ws()) return arg_usage_t::input;
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t pooling_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
        case dnnl_query_prop_kind:
            *(prop_kind_t *)result = desc()->prop_kind;
            return dnnl_success;
        case dnnl_query_alg_kind:
            *(alg_kind_t *)result = desc()->alg_kind;
            return dnnl_success;
        case dnnl_query_strides:
            *(const dims_t **)result = &desc()->strides;
            return dnnl_success;
        case dnnl_query_kernel:
            *(const dims_t **)result = &desc()->kernel;
            return dnnl_success;
        case dnnl_query_dilations:
            *(const dims_t **)result = &desc()->dilation;
            return dnnl_success;
        case dnnl_query_padding_l:
            *(const dims_t **)result = &desc()->padding_l;
            return dnnl_success;
        case dnnl_query_padding_r:
            *(const dims_t **)result = &desc()->padding_r;
            return dnnl_success;
        default: return primitive_desc_t::query(what, index, result);
    }
}

status_t pooling_pd_t::init_formats() {
    if (is_fwd()) {
        if (src_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::plain(src_md_, src_md_.ndims, src_md_.dims, src_md_.data_type));
        if (!layout::usable(src_md_)) return dnnl_unimplemented;
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
        if (!layout::usable(dst_md_)) return dnnl_unimplemented;
        if (is_max() && desc()->prop_kind == dnnl_forward_training) {
            dim_t ks = 1;
            for (int i = 0; i < nsp(); ++i)
                ks *= desc()->kernel[i];
            DNNL_CHECK(layout::like(ws_md_, dst_md_, dst_md_.dims,
                    ks < 256 ? dnnl_u8 : dnnl_s32));
        }
        return dnnl_success;
    }
    if (diff_dst_md_.format_kind == dnnl_format_kind_any) {
        if (!is_zero_md(hint_dst_md_) && layout::usable(hint_dst_md_))
            DNNL_CHECK(layout::like(diff_dst_md_, hint_dst_md_, diff_dst_md_.dims,
                    diff_dst_md_.data_type));
        else
            DNNL_CHECK(layout::plain(diff_dst_md_, diff_dst_md_.ndims,
                    diff_dst_md_.dims, diff_dst_md_.data_type));
    }
    if (!layout::usable(diff_dst_md_)) return dnnl_unimplemented;
    if (diff_src_md_.format_kind == dnnl_format_kind_any) {
        if (!is_zero_md(hint_src_md_) && layout::usable(hint_src_md_))
            DNNL_CHECK(layout::like(diff_src_md_, hint_src_md_, diff_src_md_.dims,
                    diff_src_md_.data_type));
        else
            DNNL_CHECK(layout::like(diff_src_md_, diff_dst_md_, diff_src_md_.dims,
                    diff_src_md_.data_type));
    }
    if (!layout::usable(diff_src_md_)) return dnnl_unimplemented;
    if (is_max()) {
        if (!is_zero_md(hint_ws_md_)) {
            ws_md_ = hint_ws_md_;
        } else {
            dim_t ks = 1;
            for (int i = 0; i < nsp(); ++i)
                ks *= desc()->kernel[i];
            DNNL_CHECK(layout::like(ws_md_, diff_dst_md_, diff_dst_md_.dims,
                    ks < 256 ? dnnl_u8 : dnnl_s32));
        }
    }
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
