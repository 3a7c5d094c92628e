// Resampling: the operation descriptor and the primitive descriptor base.
//   forward:  dst = nearest or (bi/tri)linear interpolation of src at
//             x = (o + 0.5) * in / out - 0.5 along every spatial dim,
//             then post-ops;
//   backward: diff_src accumulates diff_dst with the forward weights.
// The factors kept are the true ratios out / in (user factors only size a
// destination that was not given), as in oneDNN.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct resampling_desc_t : public op_desc_impl_t<resampling_desc_t> {
    resampling_desc_t() : op_desc_impl_t(dnnl_resampling) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_dst_desc {};
    float factors[max_ndims] = {};

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("alg_kind", alg_kind);
        v("src", src_desc);
        v("diff_src", diff_src_desc);
        v("dst", dst_desc);
        v("diff_dst", diff_dst_desc);
        v("factors", factors);
    }
};

struct resampling_pd_t : public primitive_desc_t {
    resampling_pd_t(const resampling_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const resampling_desc_t *desc() const {
        return static_cast<const resampling_desc_t *>(op_desc());
    }
    bool is_fwd() const {
        return desc()->prop_kind == dnnl_forward_training
                || desc()->prop_kind == dnnl_forward_inference;
    }
    bool is_linear() const { return desc()->alg_kind == dnnl_resampling_linear; }

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Resolves `any` formats: dst like src; backward from the forward hint
    // when it has the same shapes, else plain.
    status_t init_formats();

    memory_desc_t src_md_, dst_md_, diff_src_md_, diff_dst_md_;
    memory_desc_t hint_src_md_, hint_dst_md_;
};

} // namespace impl
} // namespace dnnl
