// Sum: dst = sum_i scale_i * src_i over n sources of equal dims (any
// layouts and data types). The operation descriptor is internal (oneDNN
// has none for sum): it holds the destination (format `any` when the user
// gave none), the scales and the sources.
#pragma once

#include <string>
#include <vector>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct sum_desc_t : public op_desc_impl_t<sum_desc_t> {
    sum_desc_t() : op_desc_impl_t(dnnl_sum) {}
    memory_desc_t dst_md{};
    int n = 0;
    std::vector<float> scales;
    std::vector<memory_desc_t> src_mds;

    template <typename V>
    void visit(V &v) const {
        v("dst", dst_md);
        v("n", n);
        v("scales", scales);
        v("srcs", src_mds);
    }
};

struct sum_pd_t : public primitive_desc_t {
    sum_pd_t(const sum_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const sum_desc_t *desc() const {
        return static_cast<const sum_desc_t *>(op_desc());
    }
    int n_inputs() const { return desc()->n; }
    float scale(int i) const { return desc()->scales[i]; }
    const memory_desc_t *src_md(int i) const { return &desc()->src_mds[i]; }
    const memory_desc_t *dst_md() const { return &dst_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // `any` destination: the layout of the first blocked (non-plain)
    // source, else of the first source; dst's own data type.
    status_t init_formats();

    memory_desc_t dst_md_;
};

} // namespace impl
} // namespace dnnl
