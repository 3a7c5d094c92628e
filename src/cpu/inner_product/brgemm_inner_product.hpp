// Inner product on the BRGEMM matmul (cpu/matmul/brgemm_matmul.*), run as
// a nested primitive over views of the same memory:
//   forward:        src (MB, K) x weights viewed as (K, OC) -> dst (MB, OC),
//                   bias, scales and post-ops passed on (weights scales
//                   per OC become the matmul's per-column ones);
//   backward data:  diff_dst (MB, OC) x weights viewed as (OC, K)
//                   -> diff_src (MB, K);
//   backward weights (f32): diff_dst^T, transposed into the scratchpad,
//                   x src (MB, K) -> diff_weights (OC, K), and the bias
//                   gradient from the transposed rows.
// K is IC times the spatial sizes in src's memory order, so src must be
// dense over dims 1..; the weights follow the same order. Forward weights
// given as `any` take the matmul's panels (2D, or f32 of any rank);
// plain weights are packed per execution where the matmul packs them
// fast (f32 with K or OC contiguous, other types with OC contiguous).
// Declines whatever the BRGEMM matmul declines (small minibatches among
// them): the GEMM implementation behind it takes those. Named
// brg_ip:<isa>.
#pragma once

#include <memory>
#include <string>

#include "common/inner_product_pd.hpp"
#include "cpu/matmul/nested_matmul.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

struct brgemm_inner_product_pd_t : public inner_product_pd_t {
    brgemm_inner_product_pd_t(const inner_product_desc_t &d,
            const primitive_attr_t &attr, const primitive_desc_t *)
        : inner_product_pd_t(d, attr) {}
    const char *name() const override { return name_.c_str(); }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;

    std::shared_ptr<primitive_desc_t> nested_pd; // the BRGEMM matmul
    // Backward weights: diff_dst transposed into the scratchpad (its
    // first tr_bytes), dense OC x MB, in diff_dst's type; a bf16 diff_dst
    // is widened (wide_bytes after it: MB x OC f32) and transposed in f32
    // (tf_bytes after that) first.
    memory_desc_t tr_md {};
    size_t tr_bytes = 0, wide_bytes = 0, tf_bytes = 0;

private:
    status_t init_nested(engine_t *engine, bool wei_any);
    status_t init_bwd_weights(engine_t *engine);
    status_t nest(engine_t *engine, const memory_desc_t &a,
            const memory_desc_t &b, const memory_desc_t *bias,
            const memory_desc_t &c, const primitive_attr_t &attr);
    std::string name_;
};

struct brgemm_inner_product_t
    : public matmul::nested_matmul_t<brgemm_inner_product_pd_t> {
    using nested_matmul_t::nested_matmul_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    status_t execute_bwd_weights(const exec_ctx_t &ctx) const;
};

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
