// Inner product over layouts the GEMM implementations do not take (a
// source blocked over channels that do not fill their blocks, as nChw16c
// with 14 channels; weights blocked to match, or ordered unlike the source
// where an engine's GEMM needs them alike; any of the backward passes):
// each tensor that is not dense row-major gets a dense row-major copy
// (reordered in when read, back when written), and the first
// implementation that takes the plain problem runs it with every
// attribute (dense_copies.hpp).
#pragma once

#include <memory>
#include <string>

#include "common/inner_product_pd.hpp"
#include "common/primitive.hpp"
#include "cpu/dense_copies.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

struct blocked_inner_product_pd_t : public inner_product_pd_t {
    blocked_inner_product_pd_t(const inner_product_desc_t &d,
            const primitive_attr_t &attr, const primitive_desc_t *)
        : inner_product_pd_t(d, attr) {}
    const char *name() const override { return name_.c_str(); }
    bool handles_select_post_op() const override { return true; }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override {
        return dense_copies_primitive_t<blocked_inner_product_pd_t>::make(
                *this, p);
    }

    static constexpr const char *kind_name = "inner_product";
    dense_copies_pd_t copies;
    std::shared_ptr<primitive_desc_t> nested; // the plain inner product
    std::string name_;
};

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
