// reorder_pd_t: the primitive descriptor base of reorders (copying a tensor
// from one memory descriptor to another of the same dims, converting the
// layout, the data type, and applying scales, zero points and a sum).
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct reorder_pd_t : public primitive_desc_t {
    reorder_pd_t(const reorder_desc_t &desc, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd)
        : primitive_desc_t(desc, attr) {}

    const reorder_desc_t *desc() const {
        return static_cast<const reorder_desc_t *>(op_desc());
    }
    const memory_desc_t *src_md() const { return &desc()->src_md; }
    const memory_desc_t *dst_md() const { return &desc()->dst_md; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;

    // Dims joined by 'x' ("2x16x4x5").

    // Scale of the sum post-op (0 when there is none).
    float sum_beta() const;
    bool with_sum() const;
};

} // namespace impl
} // namespace dnnl
