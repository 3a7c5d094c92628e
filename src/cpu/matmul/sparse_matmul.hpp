// Matmul with one sparse operand (oneDNN's sparse matmul): a CSR or COO
// source times dense weights, or a dense source times CSR or COO weights,
// 2D, f32 or f16 throughout, s32 metadata, no bias and no attributes, as
// oneDNN 3.13 accepts it on CPU. The sparse operand's entries are walked
// row by row (COO entries through a stable counting sort by row, so they
// need not be sorted); each destination row is accumulated in f32.
// The index buffers are checked before use: a bad entry is an error, not
// a stray memory access.
#pragma once

#include <string>

#include "common/matmul_pd.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct sparse_matmul_t : public primitive_t {
    struct pd_t : public cpu_pd_t<matmul_pd_t, sparse_matmul_t> {
        pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : cpu_pd_t(d, attr) {}
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);
        // Which operand is sparse (the other one is dense).
        bool src_sparse() const { return src_sparse_; }

    private:
        bool src_sparse_ = false;
        std::string name_;
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
