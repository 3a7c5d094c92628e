// Pooling: the operation descriptor and the primitive descriptor base.
//  forward:  dst = max / average of src over each (dilated) kernel window;
//            max in training also writes the argmax to the workspace;
//  backward: diff_src from diff_dst (and the workspace for max).
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct pooling_desc_t : public op_desc_impl_t<pooling_desc_t> {
    pooling_desc_t() : op_desc_impl_t(dnnl_pooling) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_dst_desc {};
    dims_t strides {};
    dims_t kernel {};
    dims_t padding_l {};
    dims_t padding_r {};
    dims_t dilation {};

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("alg_kind", alg_kind);
        v("src", src_desc);
        v("diff_src", diff_src_desc);
        v("dst", dst_desc);
        v("diff_dst", diff_dst_desc);
        v("strides", strides);
        v("kernel", kernel);
        v("padding_l", padding_l);
        v("padding_r", padding_r);
        v("dilation", dilation);
    }
};

struct pooling_pd_t : public primitive_desc_t {
    pooling_pd_t(const pooling_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const pooling_desc_t *desc() const {
        return static_cast<const pooling_desc_t *>(op_desc());
    }
    bool is_fwd() const {
        return desc()->prop_kind == dnnl_forward_training
                || desc()->prop_kind == dnnl_forward_inference;
    }
    bool is_max() const { return desc()->alg_kind == dnnl_pooling_max; }
    bool has_ws() const { return !is_zero_md(ws_md_); }
    int nsp() const { return desc()->src_desc.ndims > 0 ? desc()->src_desc.ndims - 2
                                                         : desc()->diff_src_desc.ndims - 2; }

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }
    const memory_desc_t *ws_md() const { return &ws_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Resolves `any` formats and the workspace.
    status_t init_formats();

    memory_desc_t src_md_, dst_md_, diff_src_md_, diff_dst_md_, ws_md_;
    memory_desc_t hint_ws_md_, hint_src_md_, hint_dst_md_;
};

} // namespace impl
} // namespace dnnl
