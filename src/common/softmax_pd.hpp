// Softmax: the operation descriptor and the primitive descriptor base.
//  forward:  dst = softmax(src) or log-softmax(src) along `axis`, times the
//            src scale, post-ops (eltwise, binary), divided by the dst
//            scale (scales only with int8 src or dst);
//  backward: diff_src from dst and diff_dst.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct softmax_desc_t : public op_desc_impl_t<softmax_desc_t> {
    softmax_desc_t() : op_desc_impl_t(dnnl_softmax) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc{};
    memory_desc_t dst_desc{};
    memory_desc_t diff_src_desc{};
    memory_desc_t diff_dst_desc{};
    int softmax_axis = 0;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("alg_kind", alg_kind);
        v("src", src_desc);
        v("dst", dst_desc);
        v("diff_src", diff_src_desc);
        v("diff_dst", diff_dst_desc);
        v("axis", softmax_axis);
    }
};

struct softmax_pd_t : public primitive_desc_t {
    softmax_pd_t(const softmax_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const softmax_desc_t *desc() const {
        return static_cast<const softmax_desc_t *>(op_desc());
    }
    bool is_fwd() const;
    bool is_log() const { return desc()->alg_kind == dnnl_softmax_log; }
    int axis() const { return desc()->softmax_axis; }
    bool with_scale(int arg) const { return attr_.scales.has(arg); }

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Forward: dst follows src. Backward: diff_dst follows dst, diff_src
    // follows diff_dst.
    status_t init_formats();
    // Data types and attributes the implementations accept.
    bool attr_ok() const;
    bool types_ok() const;

    memory_desc_t src_md_;
    memory_desc_t dst_md_;
    memory_desc_t diff_src_md_;
    memory_desc_t diff_dst_md_;
};

} // namespace impl
} // namespace dnnl
