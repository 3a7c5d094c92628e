// Matmul over blocked layouts (any of src, weights, bias, dst with inner
// blocks, e.g. weights in AB16b64a), which oneDNN's reference matmul
// takes and the GEMM implementations here do not: each blocked input is
// reordered into a dense row-major copy in the scratchpad, the first
// implementation that takes the plain problem runs it with every
// attribute, and a blocked dst is reordered back (after being reordered
// in first when a sum post-op reads it). Every step is a nested primitive
// of the engine's own lists, so the same implementation serves the cpu
// and the gpu engine.
#pragma once

#include <memory>
#include <string>

#include "common/matmul_pd.hpp"
#include "common/primitive.hpp"
#include "cpu/dense_copies.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct blocked_matmul_pd_t : public matmul_pd_t {
    blocked_matmul_pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *)
        : matmul_pd_t(d, attr) {}
    const char *name() const override { return name_.c_str(); }
    // The nested matmul checks select post-ops (and refuses what it must).
    bool handles_select_post_op() const override { return true; }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override {
        return dense_copies_primitive_t<blocked_matmul_pd_t>::make(*this, p);
    }

    static constexpr const char *kind_name = "matmul";
    dense_copies_pd_t copies; // src, weights, [bias,] dst
    std::shared_ptr<primitive_desc_t> nested; // the plain matmul
    std::string name_;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
