// Local response normalization: the operation descriptor and the primitive
// descriptor base.
//   forward:  dst = src * (k + alpha / S * sum of src^2 over a window)^-beta,
//             the window being local_size channels (across) or a
//             local_size^spatial box (within), S its nominal size;
//             forward training also writes the window term (k + ...) to
//             the workspace, so that backward need not recompute it;
//   backward: diff_src from src and diff_dst (and the workspace when the
//             forward hint had one).
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct lrn_desc_t : public op_desc_impl_t<lrn_desc_t> {
    lrn_desc_t() : op_desc_impl_t(dnnl_lrn) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t diff_dst_desc {};
    dim_t local_size = 0;
    float alpha = 0, beta = 0, k = 0;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("alg_kind", alg_kind);
        v("src", src_desc);
        v("dst", dst_desc);
        v("diff_src", diff_src_desc);
        v("diff_dst", diff_dst_desc);
        v("local_size", local_size);
        v("alpha", alpha);
        v("beta", beta);
        v("k", k);
    }
};

struct lrn_pd_t : public primitive_desc_t {
    lrn_pd_t(const lrn_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const lrn_desc_t *desc() const {
        return static_cast<const lrn_desc_t *>(op_desc());
    }
    bool is_fwd() const {
        return desc()->prop_kind == dnnl_forward_training
                || desc()->prop_kind == dnnl_forward_inference;
    }
    bool across() const { return desc()->alg_kind == dnnl_lrn_across_channels; }
    bool has_ws() const { return !is_zero_md(ws_md_); }

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }
    const memory_desc_t *ws_md() const { return &ws_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Resolves `any` formats (from src, or from the forward hint) and, for
    // forward training or a backward with a training hint, the workspace:
    // f32 with src's dims and layout.
    status_t init_formats();

    memory_desc_t src_md_, dst_md_, diff_src_md_, diff_dst_md_, ws_md_;
    memory_desc_t hint_ws_md_, hint_src_md_;
};

} // namespace impl
} // namespace dnnl
