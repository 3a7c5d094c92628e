// Layer normalization: the operation descriptor and the primitive
// descriptor base. Normalizes over the last dimension; statistics have the
// other dimensions (computed, or given with use_global_stats); rms_norm
// skips the mean.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct layer_normalization_desc_t
    : public op_desc_impl_t<layer_normalization_desc_t> {
    layer_normalization_desc_t() : op_desc_impl_t(dnnl_layer_normalization) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    memory_desc_t src_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t diff_dst_desc {};
    memory_desc_t stat_desc {};
    data_type_t ss_dt = dnnl_f32;
    data_type_t diff_ss_dt = dnnl_f32;
    float epsilon = 0;
    unsigned flags = 0;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("src", src_desc);
        v("dst", dst_desc);
        v("diff_src", diff_src_desc);
        v("diff_dst", diff_dst_desc);
        v("stat", stat_desc);
        v("ss_dt", ss_dt);
        v("diff_ss_dt", diff_ss_dt);
        v("epsilon", epsilon);
        v("flags", flags);
    }
};

struct layer_normalization_pd_t : public primitive_desc_t {
    layer_normalization_pd_t(const layer_normalization_desc_t &d,
            const primitive_attr_t &attr, const primitive_desc_t *hint_fwd = nullptr);

    const layer_normalization_desc_t *desc() const {
        return static_cast<const layer_normalization_desc_t *>(op_desc());
    }
    bool is_fwd() const {
        return desc()->prop_kind == dnnl_forward_training
                || desc()->prop_kind == dnnl_forward_inference;
    }
    unsigned flags() const { return desc()->flags; }
    bool global_stats() const { return flags() & dnnl_use_global_stats; }
    bool use_scale() const { return flags() & dnnl_use_scale; }
    bool use_shift() const { return flags() & dnnl_use_shift; }
    bool rms() const { return flags() & dnnl_rms_norm; }
    bool stats_out() const {
        return desc()->prop_kind == dnnl_forward_training && !global_stats();
    }
    bool stats_in() const { return !is_fwd() || global_stats(); }

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }
    const memory_desc_t *stat_md() const { return &stat_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    status_t init_formats();

    memory_desc_t src_md_, dst_md_, diff_src_md_, diff_dst_md_;
    memory_desc_t stat_md_, ss_md_, diff_ss_md_;
};

} // namespace impl
} // namespace dnnl
