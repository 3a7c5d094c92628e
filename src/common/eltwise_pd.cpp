// eltwise_pd_t: argument mapping, queries, `any` resolution, and the layout helpers the implementations share.
#include "common/eltwise_pd.hpp"

#include <algorithm>
#include <cstdio>

#include "common/math/eltwise_math.hpp"
#include "common/verbose.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {

namespace eltwise_md_utils {

namespace {
// Product of the inner blocks of dimension d (1 when not blocked).
dim_t dim_block(const blocking_desc_t &b, int d) {
    dim_t blk = 1;
    for (int i = 0; i < b.inner_nblks; ++i)
        if (b.inner_idxs[i] == d) blk *= b.inner_blks[i];
    return blk;
}

dim_t inner_size(const blocking_desc_t &b) {
    dim_t s = 1;
    for (int i = 0; i < b.inner_nblks; ++i) s *= b.inner_blks[i];
    return s;
}

bool plain_blocked(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked && md.ndims > 0
           && !md_has_runtime_dims_or_strides(md);
}
} // namespace

bool has_padding(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0)
            return true;
    return false;
}

bool is_dense_padded(const memory_desc_t &md) {
    if (!plain_blocked(md)) return false;
    const auto &b = md.format_desc.blocking;
    int order[max_ndims];
    int n = 0;
    for (int d = 0; d < md.ndims; ++d) {
        if (md.padded_offsets[d] != 0) return false;
        if (md.padded_dims[d] / dim_block(b, d) > 1) order[n++] = d;
    }
    std::stable_sort(order, order + n,
            [&](int x, int y) { return b.strides[x] < b.strides[y]; });
    dim_t expected = inner_size(b);
    for (int i = 0; i < n; ++i) {
        const int d = order[i];
        if (b.strides[d] != expected) return false;
        expected *= md.padded_dims[d] / dim_block(b, d);
    }
    return true;
}

bool same_layout(const memory_desc_t &a, const memory_desc_t &b) {
    if (!plain_blocked(a) || !plain_blocked(b)) return false;
    if (a.ndims != b.ndims) return false;
    const auto &ba = a.format_desc.blocking;
    const auto &bb = b.format_desc.blocking;
    if (ba.inner_nblks != bb.inner_nblks) return false;
    for (int i = 0; i < ba.inner_nblks; ++i)
        if (ba.inner_blks[i] != bb.inner_blks[i]
                || ba.inner_idxs[i] != bb.inner_idxs[i])
            return false;
    for (int d = 0; d < a.ndims; ++d) {
        if (a.dims[d] != b.dims[d] || a.padded_dims[d] != b.padded_dims[d]
                || a.padded_offsets[d] != b.padded_offsets[d])
            return false;
        // The stride of a dimension with a single outer position is never
        // used.
        if (a.padded_dims[d] / dim_block(ba, d) > 1
                && ba.strides[d] != bb.strides[d])
            return false;
    }
    return true;
}

status_t dense_like(
        memory_desc_t &out, const memory_desc_t &like, data_type_t dt) {
    if (like.format_kind != dnnl_blocked || like.ndims <= 0)
        return dnnl_unimplemented;
    if (md_has_runtime_dims_or_strides(like)) return dnnl_unimplemented;
    const auto &lb = like.format_desc.blocking;
    memory_desc_t md = zero_md();
    md.ndims = like.ndims;
    md.data_type = dt;
    md.format_kind = dnnl_blocked;
    auto &b = md.format_desc.blocking;
    b.inner_nblks = lb.inner_nblks;
    for (int i = 0; i < lb.inner_nblks; ++i) {
        b.inner_blks[i] = lb.inner_blks[i];
        b.inner_idxs[i] = lb.inner_idxs[i];
    }
    for (int d = 0; d < like.ndims; ++d) {
        md.dims[d] = like.dims[d];
        md.padded_dims[d] = like.padded_dims[d];
    }
    // Outer dims from outermost (largest stride) to innermost; ties keep
    // the logical order.
    int order[max_ndims];
    for (int d = 0; d < md.ndims; ++d) order[d] = d;
    std::stable_sort(order, order + md.ndims,
            [&](int x, int y) { return lb.strides[x] > lb.strides[y]; });
    dim_t stride = inner_size(b);
    for (int i = md.ndims - 1; i >= 0; --i) {
        const int d = order[i];
        b.strides[d] = stride;
        stride *= std::max<dim_t>(md.padded_dims[d] / dim_block(b, d), 1);
    }
    out = md;
    return dnnl_success;
}

} // namespace eltwise_md_utils

eltwise_pd_t::eltwise_pd_t(const eltwise_desc_t &desc,
        const primitive_attr_t &attr, const primitive_desc_t *hint_fwd)
    : primitive_desc_t(desc, attr), src_md_(desc.src_desc),
      dst_md_(desc.dst_desc), diff_src_md_(desc.diff_src_desc),
      diff_dst_md_(desc.diff_dst_desc) {
    (void)hint_fwd;
}

bool eltwise_pd_t::is_fwd() const {
    return desc()->prop_kind == dnnl_forward_training
           || desc()->prop_kind == dnnl_forward_inference;
}

bool eltwise_pd_t::use_dst() const {
    return !is_fwd() && math::eltwise_is_use_dst_alg(desc()->alg_kind);
}

dim_t eltwise_pd_t::nelems() const {
    return md_nelems(*data_md());
}

bool eltwise_pd_t::has_zero_dim() const {
    const memory_desc_t &md = *data_md();
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 0) return true;
    return false;
}

const memory_desc_t *eltwise_pd_t::arg_md(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return &src_md_;
        if (arg == DNNL_ARG_DST) return &dst_md_;
    } else {
        if (arg == DNNL_ARG_SRC && !use_dst()) return &src_md_;
        if (arg == DNNL_ARG_DST && use_dst()) return &dst_md_;
        if (arg == DNNL_ARG_DIFF_SRC) return &diff_src_md_;
        if (arg == DNNL_ARG_DIFF_DST) return &diff_dst_md_;
    }
    // Binary post-op sources.
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

arg_usage_t eltwise_pd_t::arg_usage(int arg) const {
    if (is_fwd()) {
        if (arg == DNNL_ARG_SRC) return arg_usage_t::input;
        if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    } else {
        if (arg == data_arg()) return arg_usage_t::input;
        if (arg == DNNL_ARG_DIFF_DST) return arg_usage_t::input;
        if (arg == DNNL_ARG_DIFF_SRC) return arg_usage_t::output;
    }
    return primitive_desc_t::arg_usage(arg);
}

status_t eltwise_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
    case dnnl_query_prop_kind:
        *(prop_kind_t *)result = desc()->prop_kind;
        return dnnl_success;
    case dnnl_query_alg_kind:
        *(alg_kind_t *)result = desc()->alg_kind;
        return dnnl_success;
    case dnnl_query_alpha_f32:
        *(float *)result = desc()->alpha;
        return dnnl_success;
    case dnnl_query_beta_f32:
        *(float *)result = desc()->beta;
        return dnnl_success;
    default:
        return primitive_desc_t::query(what, index, result);
    }
}

status_t eltwise_pd_t::init_formats() {
    using namespace eltwise_md_utils;
    if (is_fwd()) {
        if (src_md_.format_kind != dnnl_blocked) return dnnl_unimplemented;
        if (dst_md_.format_kind == dnnl_format_kind_any)
            DNNL_CHECK(dense_like(dst_md_, src_md_, dst_md_.data_type));
        if (dst_md_.format_kind != dnnl_blocked) return dnnl_unimplemented;
        // As oneDNN's eltwise on every engine: dst is src's type and layout
        // (a conversion is a reorder's work).
        if (!same_type_and_layout(dst_md_, src_md_)) {
            verbose_check("eltwise", "dst differs from src in data type or "
                                     "layout");
            return dnnl_unimplemented;
        }
        return dnnl_success;
    }
    memory_desc_t &data = use_dst() ? dst_md_ : src_md_;
    if (data.format_kind != dnnl_blocked) return dnnl_unimplemented;
    if (diff_dst_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(dense_like(diff_dst_md_, data, diff_dst_md_.data_type));
    if (diff_src_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(dense_like(diff_src_md_, data, diff_src_md_.data_type));
    if (diff_dst_md_.format_kind != dnnl_blocked
            || diff_src_md_.format_kind != dnnl_blocked)
        return dnnl_unimplemented;
    // One data type for the data and both gradients; their layouts may
    // differ (oneDNN: functionally supported, slower).
    if (diff_dst_md_.data_type != diff_src_md_.data_type
            || diff_src_md_.data_type != data.data_type) {
        verbose_check("eltwise", "gradients differ from the data in data type");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

bool eltwise_pd_t::attr_ok(bool binary_post_ops_ok) const {
    const primitive_attr_t &a = attr_;
    if (!a.scales.empty() || !a.zero_points.empty()
            || !a.rounding_modes.empty())
        return false;
    if (a.post_ops.entries.empty()) return true;
    if (!is_fwd() || !binary_post_ops_ok) return false;
    for (const auto &e : a.post_ops.entries)
        if (e.kind != post_op_kind_t::binary) return false;
    return true;
}

} // namespace impl
} // namespace dnnl
