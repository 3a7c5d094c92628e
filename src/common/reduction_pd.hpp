// Reduction: the operation descriptor and the primitive descriptor base.
// dst has src's ndims; each dst dim is src's (kept) or 1 (reduced). The
// algorithms: max, min, sum, mul, mean, and the Lp norms
//   norm_lp_max:         (max(sum |x|^p, eps))^(1/p)
//   norm_lp_sum:         (sum |x|^p + eps)^(1/p)
//   norm_lp_power_p_max: max(sum |x|^p, eps)
//   norm_lp_power_p_sum: sum |x|^p + eps
// followed by post-ops (eltwise, sum, binary).
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct reduction_desc_t : public op_desc_impl_t<reduction_desc_t> {
    reduction_desc_t() : op_desc_impl_t(dnnl_reduction) {}
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc{};
    memory_desc_t dst_desc{};
    float p = 0.f, eps = 0.f;

    template <typename V>
    void visit(V &v) const {
        v("alg_kind", alg_kind);
        v("src", src_desc);
        v("dst", dst_desc);
        v("p", p);
        v("eps", eps);
    }
};

struct reduction_pd_t : public primitive_desc_t {
    reduction_pd_t(const reduction_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);

    const reduction_desc_t *desc() const {
        return static_cast<const reduction_desc_t *>(op_desc());
    }
    alg_kind_t alg() const { return desc()->alg_kind; }
    float p() const { return desc()->p; }
    float eps() const { return desc()->eps; }
    static bool is_norm(alg_kind_t alg);

    const memory_desc_t *src_md() const { return &src_md_; }
    const memory_desc_t *dst_md() const { return &dst_md_; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // An `any` dst takes src's layout with the reduced dims set to 1
    // (blocked dims stay blocked, padded to one block).
    status_t init_formats();

    memory_desc_t src_md_;
    memory_desc_t dst_md_;
};

} // namespace impl
} // namespace dnnl
