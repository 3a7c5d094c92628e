// Group normalization: the operation descriptor and the primitive
// descriptor base. The C channels of an N x C x spatial tensor form
// `groups` groups of C / groups channels; each (n, group) has one mean and
// variance (computed in forward training, given with use_global_stats) and
// each channel its scale and shift:
//  forward:  dst = scale[c] * (src - mean[n, g]) / sqrt(var[n, g] + eps)
//            + shift[c], then src scale, post-ops, dst scale;
//  backward: diff_src (and diff_scale / diff_shift for prop backward).
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct group_normalization_desc_t
    : public op_desc_impl_t<group_normalization_desc_t> {
    group_normalization_desc_t() : op_desc_impl_t(dnnl_group_normalization) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    memory_desc_t src_desc{};
    memory_desc_t dst_desc{};
    memory_desc_t diff_src_desc{};
    memory_desc_t diff_dst_desc{};
    dim_t groups = 0;
    float epsilon = 0;
    unsigned flags = 0;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("src", src_desc);
        v("dst", dst_desc);
        v("diff_src", diff_src_desc);
        v("diff_dst", diff_dst_desc);
        v("groups", groups);
        v("epsilon", epsilon);
        v("flags", flags);
    }
};

struct group_normalization_pd_t : public primitive_desc_t {
    group_normalization_pd_t(const group_normalization_desc_t &d,
            const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const group_normalization_desc_t *desc() const {
        return static_cast<const group_normalization_desc_t *>(op_desc());
    }
    bool is_fwd() const {
        return desc()->prop_kind == dnnl_forward_training
               || desc()->prop_kind == dnnl_forward_inference;
    }
    bool is_training() const {
        return desc()->prop_kind == dnnl_forward_training;
    }
    unsigned flags() const { return desc()->flags; }
    dim_t groups() const { return desc()->groups; }
    bool global_stats() const { return flags() & dnnl_use_global_stats; }
    bool use_scale() const { return flags() & dnnl_use_scale; }
    bool use_shift() const { return flags() & dnnl_use_shift; }
    // Statistics are outputs of forward training without global stats.
    bool stats_out() const { return is_training() && !global_stats(); }
    bool stats_in() const { return !is_fwd() || global_stats(); }
    // diff_scale / diff_shift are computed for prop backward only.
    bool diff_ss() const {
        return desc()->prop_kind == dnnl_backward
               && (use_scale() || use_shift());
    }
    bool with_scale(int arg) const { return attr_.scales.has(arg); }

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }
    const memory_desc_t *stat_md() const { return &stat_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Resolves `any` formats of dst / diff tensors from src.
    status_t init_formats();

    memory_desc_t src_md_, dst_md_, diff_src_md_, diff_dst_md_;
    memory_desc_t stat_md_, ss_md_;
};

} // namespace impl
} // namespace dnnl
