// Naive reference of the matmul primitive in double precision, with
// oneDNN v3 semantics:
//   acc = sum_k (src - src_zp) * (wei - wei_zp)   (numpy batch broadcast)
//   v   = acc * src_scale * wei_scale[n] + bias   (bias broadcast)
//   v   = post_ops(v)                             (post_ops_ref)
//   dst = v / dst_scale[n] + dst_zp[n]            (before rounding to dt)
// All tensors are dense row-major in logical order. Written without any
// library code.
#pragma once

#include <cstdint>
#include <vector>

#include "reference/post_ops_ref.hpp"

namespace matmul_ref {

struct quant_t {
    std::vector<float> src_scale; // empty (none) or 1 value
    std::vector<float> wei_scale; // empty, 1 value or N values
    std::vector<float> dst_scale; // empty, 1 value or N values
    int32_t src_zp = 0, wei_zp = 0;
    std::vector<int32_t> dst_zp; // empty, 1 value or N values
};

struct problem_t {
    std::vector<int64_t> src_dims, wei_dims, dst_dims;
    std::vector<int64_t> bias_dims; // empty: no bias
};

// src, wei, bias: values in logical row-major order; old_dst: dst before
// execution (for sum), may be null. Returns the dst values (dense).
std::vector<double> compute(const problem_t &p, const std::vector<float> &src,
        const std::vector<float> &wei, const std::vector<float> &bias,
        const quant_t &q, const std::vector<post_ops_ref::post_op_t> &ops,
        const std::vector<float> *old_dst);

} // namespace matmul_ref
