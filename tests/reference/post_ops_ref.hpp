// Naive reference of the post-op chain of primitive attributes (sum,
// eltwise, binary, prelu), applied to a dense row-major destination tensor
// in double precision. Binary and prelu operands are dense tensors of the
// destination's rank whose dims are either the destination's or 1
// (broadcast). Eltwise and binary formulas come from eltwise_ref.
// Written without any library code.
#pragma once

#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl_types.h"

namespace post_ops_ref {

struct post_op_t {
    enum kind_t { sum, eltwise, binary, prelu } kind = eltwise;
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef; // eltwise and binary
    double alpha = 0, beta = 0; // eltwise
    double scale = 1; // sum: dst = scale * (old - zero_point) + value
    int32_t zero_point = 0; // sum
    // binary: src1; prelu: weights. Dense, logical order.
    std::vector<float> operand;
    std::vector<int64_t> operand_dims; // rank of dst, each dim equal or 1
};

// Offset into a broadcast operand for the destination position `pos`.
int64_t broadcast_offset(const std::vector<int64_t> &operand_dims, const int64_t *pos);

// One destination element: `v` is the value before the post-ops, `old` the
// destination's previous contents (sum), `pos` its logical position.
double apply(const std::vector<post_op_t> &ops, double v, double old, const int64_t *pos);

// Applies the chain to every element of `dst` (dense, `dims`); `old` holds
// the destination's contents before execution (needed with a sum post-op,
// may be null otherwise).
void apply(const std::vector<post_op_t> &ops, const std::vector<int64_t> &dims,
        std::vector<double> &dst, const std::vector<float> *old);

} // namespace post_ops_ref
