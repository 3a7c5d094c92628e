// lrn_pd_t: argument mapping, queries and resolution of
// `any` formats and the workspace.
#include "common/lrn_pd.hpp"

#include <cstdio>

#include "oneapi/dnnl/dnnl_debug.h"
#include "common/binary_pd.hpp"
#include "common/eltwise_pd.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

lrn_pd_t::lrn_pd_t(const lrn_desc_t &d, const primitive_attr_t &attr,
        const primitive_desc_t *hint_fwd)
    : primitive_desc_t(d, attr, hint_fwd)
    , src_md_(d.src_desc)
    , dst_md_(d.dst_desc)
    , diff_src_md_(d.diff_src_desc)
    , diff_dst_md_(d.diff_dst_desc)
    , ws_md_(zero_md())
    , hint_ws_md_(zero_md())
    , hint_src_md_(zero_md()) {
    // The hint decides the workspace and default layouts, so it is part of
    // the cache key (rfcs/02); hint_mds_for() lists its src and workspace.
    if (hint_mds_.size() == 2) {
        hint_src_md_ = hint_mds_[0];
        hint_ws_md_ = hint_mds_[1];
    }
}

const memory_desc_t *lrn_pd_t::arg_md(int arg) const {
    if (arg == DNNL_ARG_SRC) return &src_md_;
    if (is_fwd()) {
        if (arg == DNNL_ARG_DST) return &dst_md_;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return &diff_dst_md_;
        if (arg == DNNL_ARG_DIFF_SRC) return &diff_src_md_;
    }
    if (arg == DNNL_ARG_WORKSPACE && has_ws()) return &ws_md_;
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t lrn_pd_t::arg_usage(int arg) const {
    if (arg == DNNL_ARG_SRC) return arg_usage_t::input;
    if (is_fwd()) {
        if (arg == DNNL_ARG_DST) return arg_usage_t::output;
        if (arg == DNNL_ARG_WORKSPACE && has_ws()) return arg_usage_t::output;
    } else {
        if (arg == DNNL_ARG_DIFF_DST) return arg_usage_t::input;
        if (arg == DNNL_ARG_DIFF_SRC) return arg_usage_t::output;
        if (arg == DNNL_ARG_WORKSPACE && has_ws()) return arg_usage_t::input;
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t lrn_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
        case dnnl_query_prop_kind:
            *(prop_kind_t *)result = desc()->prop_kind;
            return dnnl_success;
        case dnnl_query_alg_kind:
            *(alg_kind_t *)result = desc()->alg_kind;
            return dnnl_success;
        case dnnl_query_local_size_s64:
            *(dim_t *)result = desc()->local_size;
            return dnnl_success;
        case dnnl_query_alpha_f32:
            *(float *)result = desc()->alpha;
            return dnnl_success;
        case dnnl_query_beta_f32:
            *(float *)result = desc()->beta;
            return dnnl_success;
        case dnnl_query_k_f32:
            *(float *)result = desc()->k;
            return dnnl_success;
        default: return primitive_desc_t::query(what, index, result);
    }
}

// oneDNN's form: mb2ic16ih7iw5ls3beta0.75

status_t lrn_pd_t::init_formats() {
    if (is_fwd()) {
        // src is never `any` here (rejected at the API boundary).
        if (!layout::usable(src_md_)) return dnnl_unimplemented;
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(dst_md_, src_md_, dst_md_.dims, dst_md_.data_type));
        if (!layout::usable(dst_md_)) return dnnl_unimplemented;
        // As oneDNN's implementations: dst in src's layout.
        if (!eltwise_md_utils::same_layout(dst_md_, src_md_)) {
            verbose_check("lrn", "dst and src differ in layout");
            return dnnl_unimplemented;
        }
        if (desc()->prop_kind == dnnl_forward_training) {
            if (src_md_.format_desc.blocking.inner_nblks == 0) {
                DNNL_CHECK(layout::like(ws_md_, src_md_, src_md_.dims, dnnl_f32));
            } else {
                // Blocked data is computed point by point with whole channel
                // vectors, so the window terms are kept channels-last.
                const int nd = src_md_.ndims;
                dims_t st;
                dim_t s = src_md_.dims[1];
                st[1] = 1;
                for (int d = nd - 1; d >= 2; --d) {
                    st[d] = s;
                    s *= src_md_.dims[d];
                }
                st[0] = s;
                DNNL_CHECK(md_init_by_strides(ws_md_, nd, src_md_.dims, dnnl_f32, st));
            }
        }
        return dnnl_success;
    }
    const bool hint_ok = !is_zero_md(hint_src_md_) && layout::usable(hint_src_md_)
            && layout::same_dims(hint_src_md_, src_md_);
    if (src_md_.format_kind == dnnl_format_kind_any) {
        if (hint_ok)
            DNNL_CHECK(layout::like(src_md_, hint_src_md_, src_md_.dims, src_md_.data_type));
        else
            DNNL_CHECK(layout::plain(src_md_, src_md_.ndims, src_md_.dims, src_md_.data_type));
    }
    if (!layout::usable(src_md_)) return dnnl_unimplemented;
    if (diff_dst_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_dst_md_, src_md_, diff_dst_md_.dims,
                diff_dst_md_.data_type));
    if (!layout::usable(diff_dst_md_)) return dnnl_unimplemented;
    if (diff_src_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(diff_src_md_, diff_dst_md_, diff_src_md_.dims,
                diff_src_md_.data_type));
    if (!layout::usable(diff_src_md_)) return dnnl_unimplemented;
    if (!eltwise_md_utils::same_layout(diff_dst_md_, src_md_)
            || !eltwise_md_utils::same_layout(diff_src_md_, src_md_)) {
        verbose_check("lrn", "gradients and src differ in layout");
        return dnnl_unimplemented;
    }
    // The workspace of a training hint of the same shape; without one,
    // backward recomputes the window terms.
    if (hint_ok && !is_zero_md(hint_ws_md_) && layout::usable(hint_ws_md_)
            && hint_ws_md_.data_type == dnnl_f32
            && layout::same_dims(hint_ws_md_, src_md_))
        ws_md_ = hint_ws_md_;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
