// PReLU: the operation descriptor and the primitive descriptor base.
//  forward:  dst = src > 0 ? src : weights * src, weights broadcast along
//            their dims of size 1 (scalar, per channel, any subset, full);
//  backward: diff_src = src > 0 ? diff_dst : weights * diff_dst and
//            diff_weights = sum over diff_weights' broadcast dims of
//            (src > 0 ? 0 : src * diff_dst).
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct prelu_desc_t : public op_desc_impl_t<prelu_desc_t> {
    prelu_desc_t() : op_desc_impl_t(dnnl_prelu) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    memory_desc_t src_desc{};
    memory_desc_t weights_desc{};
    memory_desc_t dst_desc{};
    memory_desc_t diff_src_desc{};
    memory_desc_t diff_weights_desc{};
    memory_desc_t diff_dst_desc{};

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("src", src_desc);
        v("weights", weights_desc);
        v("dst", dst_desc);
        v("diff_src", diff_src_desc);
        v("diff_weights", diff_weights_desc);
        v("diff_dst", diff_dst_desc);
    }
};

struct prelu_pd_t : public primitive_desc_t {
    prelu_pd_t(const prelu_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const prelu_desc_t *desc() const {
        return static_cast<const prelu_desc_t *>(op_desc());
    }
    bool is_fwd() const;

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *weights_md() const { return &weights_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_weights_md() const { return &diff_weights_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // `any`: weights and dst (diff_dst) follow src's layout, diff_src
    // follows diff_dst, diff_weights follows weights.
    status_t init_formats();

    memory_desc_t src_md_, weights_md_, dst_md_;
    memory_desc_t diff_src_md_, diff_weights_md_, diff_dst_md_;
};

} // namespace impl
} // namespace dnnl
