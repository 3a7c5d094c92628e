// Matmul on grouped memory (oneDNN 3.13's grouped GEMM for mixture-of-
// experts layers): for each group g, the rows of the grouped source in
// [offsets[g - 1], offsets[g]) times the weights' slice g ([K, N]), plus
// bias row g, into the same rows of the grouped destination. f32, bf16 and
// f16 data computed in f32, no attributes (oneDNN's reference takes
// quantization attributes too: those are refused here). The offsets of
// both grouped memories are checked before use.
#pragma once

#include "common/matmul_pd.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct grouped_matmul_t : public primitive_t {
    struct pd_t : public cpu_pd_t<matmul_pd_t, grouped_matmul_t> {
        pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : cpu_pd_t(d, attr) {}
        const char *name() const override { return "ref_grouped:any"; }
        status_t init(engine_t *engine);
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
