// Concat: n sources of equal dims except the concat dimension, placed one
// after the other along it in dst (any layouts; sources share a data
// type; dst may convert). Optional per-source scales (mask 0). The
// operation descriptor is internal: dst (format `any` when the user gave
// none), the dimension and the sources.
#pragma once

#include <string>
#include <vector>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct concat_desc_t : public op_desc_impl_t<concat_desc_t> {
    concat_desc_t() : op_desc_impl_t(dnnl_concat) {}
    memory_desc_t dst_md{};
    int n = 0;
    int concat_dimension = 0;
    std::vector<memory_desc_t> src_mds;

    template <typename V>
    void visit(V &v) const {
        v("dst", dst_md);
        v("n", n);
        v("concat_dimension", concat_dimension);
        v("srcs", src_mds);
    }
};

struct concat_pd_t : public primitive_desc_t {
    concat_pd_t(const concat_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const concat_desc_t *desc() const {
        return static_cast<const concat_desc_t *>(op_desc());
    }
    int n_inputs() const { return desc()->n; }
    int axis() const { return desc()->concat_dimension; }
    const memory_desc_t *src_md(int i) const { return &desc()->src_mds[i]; }
    const memory_desc_t *dst_md() const { return &dst_md_; }
    // Position of source i along the axis in dst.
    dim_t axis_offset(int i) const;
    bool with_scale(int i) const;

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // `any` destination as oneDNN chooses it: the first blocked source's
    // layout when every source starts on a block boundary, else the first
    // plain source whose axis is not 1, else plain row-major.
    status_t init_formats();

    memory_desc_t dst_md_;
};

} // namespace impl
} // namespace dnnl
