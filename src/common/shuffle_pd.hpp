// Shuffle: the operation descriptor and the primitive descriptor base.
// Along `axis` (size C) seen as a (C/G) x G matrix with G = group_size,
// forward transposes it: dst(c) = src(c') for c = u + v * C/G,
// c' = u * G + v. Backward is forward with G replaced by C/G (from
// diff_dst to diff_src); the descriptor's src/dst are diff_src/diff_dst.
//
// A backward descriptor created with a forward hint takes the hint's dst
// layout for an `any` diff_src; that descriptor is part of its cache key
// (hint_mds_, rfcs/02).
#pragma once

#include <string>
#include <vector>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct shuffle_desc_t : public op_desc_impl_t<shuffle_desc_t> {
    shuffle_desc_t() : op_desc_impl_t(dnnl_shuffle) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    memory_desc_t src_desc{};
    memory_desc_t dst_desc{};
    int axis = 0;
    dim_t group_size = 0;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("src", src_desc);
        v("dst", dst_desc);
        v("axis", axis);
        v("group_size", group_size);
    }
};

struct shuffle_pd_t : public primitive_desc_t {
    shuffle_pd_t(const shuffle_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const shuffle_desc_t *desc() const {
        return static_cast<const shuffle_desc_t *>(op_desc());
    }
    bool is_fwd() const;
    int axis() const { return desc()->axis; }
    dim_t group_size() const { return desc()->group_size; }
    // What the computation reads and writes: src/dst forward,
    // diff_dst/diff_src backward.
    const memory_desc_t *in_md() const {
        return is_fwd() ? &src_md_ : &dst_md_;
    }
    const memory_desc_t *out_md() const {
        return is_fwd() ? &dst_md_ : &src_md_;
    }
    int in_arg() const { return is_fwd() ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST; }
    int out_arg() const { return is_fwd() ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC; }
    // The source position read for output position c along the axis.
    dim_t source_of(dim_t c) const;

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Forward: dst follows src. Backward: an `any` diff_src follows the
    // hint's dst (plain row-major without a hint), diff_dst follows
    // diff_src.
    status_t init_formats();

    memory_desc_t src_md_; // src or diff_src
    memory_desc_t dst_md_; // dst or diff_dst
};

} // namespace impl
} // namespace dnnl
