// Matmul with the dropout attribute, in oneDNN's order:
//   v = src x weights (scales, zero points) + bias     (a nested matmul
//       into an f32 buffer, every attribute but the output stage kept)
//   v = dropout(v): 0 or v / (1 - p), Philox random numbers over the dst
//       element offset (common/math/philox.hpp), mask written when asked
//   dst = output stage(v): post-ops, dst scale and zero point, stochastic
//       rounding when asked, conversion (the GEMM epilogue of cpu/postops).
// Destination (and mask) must be dense row-major, as oneDNN requires.
#pragma once

#include <memory>
#include <string>

#include "common/matmul_pd.hpp"
#include "common/primitive.hpp"
#include "cpu/matmul/nested_matmul.hpp"
#include "cpu/postops/gemm_epilogue.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct dropout_matmul_pd_t : public matmul_pd_t {
    dropout_matmul_pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *)
        : matmul_pd_t(d, attr) {}
    const char *name() const override { return name_.c_str(); }
    bool handles_dropout() const override { return true; }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;

    std::shared_ptr<primitive_desc_t> nested_pd; // matmul into f32
    memory_desc_t acc_md {}; // the f32 buffer: dst's dims, row-major
    postops::gemm_epilogue_t out; // post-ops, dst scale and zero point
    size_t nested_scratch_offset = 0;
    std::string name_;
};

struct dropout_matmul_t : public nested_matmul_t<dropout_matmul_pd_t> {
    using nested_matmul_t::nested_matmul_t;
    status_t execute(const exec_ctx_t &ctx) const override;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
