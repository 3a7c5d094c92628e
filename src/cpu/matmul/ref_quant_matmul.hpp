// Integer matmul with oneDNN 3.13's full quantization grid, which the
// GEMM implementations before it in the list do not take (grouped and
// multi-dimensional scales and zero points, per-element dst scales,
// precomputed source reductions: common/matmul_quant_grid.hpp says
// exactly which). Each output element is formed in double from the
// dequantized products (scales and zero points looked up per element),
// then bias, the post-op chain, 1 / dst scale and the dst zero point,
// rounded and saturated into dst. A reference: plain layouts of any
// strides, no vector code.
#pragma once

#include "common/matmul_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct ref_quant_matmul_t : public primitive_t {
    struct pd_t : public cpu_pd_t<matmul_pd_t, ref_quant_matmul_t> {
        pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : cpu_pd_t(d, attr) {}
        const char *name() const override { return "ref_quant:any"; }
        bool handles_precomputed_reductions() const override { return true; }
        status_t init(engine_t *engine);
        postops::postops_t po;
    };

    using primitive_t::primitive_t;
    const pd_t *pd() const {
        return static_cast<const pd_t *>(primitive_t::pd());
    }
    status_t execute(const exec_ctx_t &ctx) const override;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
