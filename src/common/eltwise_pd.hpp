// eltwise_pd_t: the primitive descriptor base every eltwise implementation
// derives from. It owns the operation's memory descriptors (with `any`
// layouts resolved), answers eltwise queries and maps DNNL_ARG_* to them.
//
// Backward uses DST instead of SRC as its data argument for the
// *_use_dst_for_bwd algorithms.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct eltwise_pd_t : public primitive_desc_t {
    // The forward hint of backward descriptors is checked by the API and
    // not needed afterwards.
    eltwise_pd_t(const eltwise_desc_t &desc, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const eltwise_desc_t *desc() const {
        return static_cast<const eltwise_desc_t *>(op_desc());
    }
    alg_kind_t alg() const { return desc()->alg_kind; }
    float alpha() const { return desc()->alpha; }
    float beta() const { return desc()->beta; }
    bool is_fwd() const;
    // Backward takes dst (not src) as its data argument.
    bool use_dst() const;

    // Descriptors with `any` resolved (after init_formats succeeded).
    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    const memory_desc_t *diff_src_md() const { return &diff_src_md_; }
    const memory_desc_t *diff_dst_md() const { return &diff_dst_md_; }
    // What the computation reads as data: src forward; src or dst backward.
    const memory_desc_t *data_md() const {
        return use_dst() ? &dst_md_ : &src_md_;
    }
    int data_arg() const { return use_dst() ? DNNL_ARG_DST : DNNL_ARG_SRC; }

    dim_t nelems() const;
    bool has_zero_dim() const;

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Resolves `any`: forward dst follows src; backward diff_dst and
    // diff_src follow the data descriptor. Fails (unimplemented) when a
    // descriptor is not a plain blocked layout afterwards.
    status_t init_formats();
    // Checks the parts of the attributes eltwise cannot honour. Forward
    // accepts binary post-ops when `binary_post_ops_ok`.
    bool attr_ok(bool binary_post_ops_ok) const;

    memory_desc_t src_md_;
    memory_desc_t dst_md_;
    memory_desc_t diff_src_md_;
    memory_desc_t diff_dst_md_;
};

// Layout helpers shared by the eltwise implementations.
namespace eltwise_md_utils {
// Dense blocked layout of `like`'s dims/blocking (outer dims in the same
// order of strides) with data type `dt`.
status_t dense_like(
        memory_desc_t &out, const memory_desc_t &like, data_type_t dt);
// Same element positions (dims, padding, blocking, strides); data types
// and offset0 may differ.
bool same_layout(const memory_desc_t &a, const memory_desc_t &b);
// Same layout and data type (what oneDNN's eltwise, normalization, LRN,
// PReLU and shuffle implementations ask of a dst against its src).
inline bool same_type_and_layout(
        const memory_desc_t &a, const memory_desc_t &b) {
    return a.data_type == b.data_type && same_layout(a, b);
}
// The padded volume fills [offset0, offset0 + padded nelems) exactly.
bool is_dense_padded(const memory_desc_t &md);
bool has_padding(const memory_desc_t &md);
} // namespace eltwise_md_utils

} // namespace impl
} // namespace dnnl
