// Binary: the operation descriptor (binary_desc_t) and the primitive
// descriptor base of every binary implementation:
//   dst = op(scale0 * src0, scale1 * src1 [, src2]) followed by post-ops,
// where src0 and src1 broadcast along their dims of size 1 (never both in
// the same dim) and src2 (select only) is an s8 condition.
//
// This header also holds the post-op checks shared by the descriptors of
// the tensor-wide primitives (binary, sum, concat, softmax, shuffle, prelu,
// reduction), and brings in the layout helpers they use
// (common/layout_helpers.hpp).
#pragma once

#include <string>

#include "common/layout_helpers.hpp"
#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

namespace po_check {
enum : unsigned { eltwise = 1u, sum = 2u, binary = 4u, prelu = 8u };
// dnnl_unimplemented when the chain holds a kind outside `allowed`, more
// than one sum, a binary source (or select condition) that does not
// broadcast against `dst`, an unknown algorithm or data type;
// dnnl_invalid_arguments for a binary tensor with another number of dims
// than `dst` (oneDNN's answer).
status_t check(
        const post_ops_t &po, const memory_desc_t &dst, unsigned allowed);
// Number of binary post-ops (extra inputs).
int n_binary(const post_ops_t &po);
} // namespace po_check

struct binary_desc_t : public op_desc_impl_t<binary_desc_t> {
    binary_desc_t() : op_desc_impl_t(dnnl_binary) {}
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc[3]{};
    memory_desc_t dst_desc{};

    template <typename V>
    void visit(V &v) const {
        v("alg_kind", alg_kind);
        v("src0", src_desc[0]);
        v("src1", src_desc[1]);
        v("src2", src_desc[2]);
        v("dst", dst_desc);
    }
};

struct binary_pd_t : public primitive_desc_t {
    binary_pd_t(const binary_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const binary_desc_t *desc() const {
        return static_cast<const binary_desc_t *>(op_desc());
    }
    alg_kind_t alg() const { return desc()->alg_kind; }
    bool is_ternary() const { return alg() == dnnl_binary_select; }
    int n_srcs() const { return is_ternary() ? 3 : 2; }

    // Descriptors with `any` resolved.
    const memory_desc_t *src_md(int i) const { return &src_md_[i]; }
    const memory_desc_t *dst_md() const { return &dst_md_; }

    bool with_scale(int i) const;

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // src1, src2 and dst take src0's layout when `any`.
    status_t init_formats();
    // Scales on src0/src1 (mask 0), eltwise/sum/binary/prelu post-ops.
    bool attr_ok() const;

    memory_desc_t src_md_[3];
    memory_desc_t dst_md_;
};

} // namespace impl
} // namespace dnnl
