// The post-op chain applied to blocks of a GEMM-like output (matmul, inner
// product, and any primitive whose output is computed as row blocks):
// eltwise (through the shared math module), sum (scale, zero point, data
// type), binary (any algorithm, src1 broadcast per dimension; select with
// its condition broadcast the same way) and prelu.
//
// Usage:
//   at pd init:   postops_t po; CHECK(po.init(attr.post_ops, dst_md));
//   at execution: postops_args_t a; CHECK(a.init(po, ctx));
//                 apply(po, a, values, ldv, m, n, pos, row_dim, col_dim,
//                       old_dst, dst_rs, dst_cs);
// where `pos` is the logical dst coordinate of value (0, 0) and rows /
// columns of the block walk logical dims row_dim / col_dim.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"

namespace dnnl {
namespace impl {
struct exec_ctx_t;
namespace cpu {
namespace postops {

// A tensor that broadcasts against dst (binary src1, prelu weights, bias):
// its data type, offset0 and element strides per dst dimension, 0 where it
// broadcasts (size 1).
struct bcast_tensor_t {
    data_type_t dt = dnnl_f32;
    int ndims = 0;
    dim_t offset0 = 0;
    dims_t strides = {};
    // False when initialised from descriptors with runtime dims or strides
    // (strides unknown until initialised again with actual descriptors).
    bool resolved = true;

    // `md` must be a plain (non-blocked) layout with dst's ndims and every
    // dim equal to dst's or 1; dnnl_unimplemented otherwise. With runtime
    // dims or strides in either, only the data type and layout kind are
    // checked (resolved = false).
    status_t init(const memory_desc_t &md, const memory_desc_t &dst_md);
    // Dense row-major tensor of `dt` with dims dst[d] where mask bit d is
    // set and 1 elsewhere (prelu weights, per-channel vectors).
    void init_by_mask(int mask, const memory_desc_t &dst_md, data_type_t dt);
    dim_t offset(const dim_t *pos) const {
        dim_t off = offset0;
        for (int d = 0; d < ndims; ++d)
            off += pos[d] * strides[d];
        return off;
    }
    dim_t step(int dim) const { return dim < 0 ? 0 : strides[dim]; }
};

struct entry_t {
    post_op_kind_t kind = post_op_kind_t::eltwise;
    alg_kind_t alg = dnnl_alg_kind_undef;
    float alpha = 0.f, beta = 0.f, scale = 1.f;
    int32_t zero_point = 0;
    data_type_t sum_dt = dnnl_f32; // sum: how to read the old dst
    bcast_tensor_t t; // binary src1 / prelu weights
    int arg = 0; // execution argument of binary src1 / prelu weights
    bcast_tensor_t cond; // binary select's condition
    int cond_arg = 0; // its execution argument (0: not select)
};

struct postops_t {
    std::vector<entry_t> entries;
    data_type_t dst_dt = dnnl_f32;
    int ndims = 0;

    // Checks and records the chain; dnnl_unimplemented for post-ops this
    // module cannot apply (dw convolution, blocked src1, unknown algs).
    status_t init(const post_ops_t &po, const memory_desc_t &dst_md);
    bool empty() const { return entries.empty(); }
    bool has_sum() const;
    // Index of the first sum, -1 when none.
    int sum_index() const;
};

// Execution-time pointers of a chain (binary src1, prelu weights, select
// conditions).
struct postops_args_t {
    std::vector<const void *> data;
    std::vector<const void *> cond;
    // dnnl_invalid_arguments when a required argument is missing.
    status_t init(const postops_t &p, const exec_ctx_t &ctx);
};

// Applies the chain in place to v[i * ldv + j] (i < m, j < n). `pos`:
// logical dst coordinate of (0, 0) (p.ndims entries); row i / column j add
// i / j to coordinate row_dim / col_dim (-1: that index does not move).
// `old_dst` (element (i, j) at old_dst[i * dst_rs + j * dst_cs], of the
// sum's data type) is read by sum post-ops; it may be null otherwise.
void apply(const postops_t &p, const postops_args_t &a, float *v, dim_t ldv,
        dim_t m, dim_t n, const dim_t *pos, int row_dim, int col_dim,
        const void *old_dst, dim_t dst_rs, dim_t dst_cs);

// Strides of a plain blocked descriptor (false when it has inner blocks or
// is not blocked).
bool plain_strides(const memory_desc_t &md, dim_t *strides);

} // namespace postops
} // namespace cpu
} // namespace impl
} // namespace dnnl
