// Naive reference of the binary primitive: dst = op(scale0 * src0,
// scale1 * src1) with numpy-style broadcasting (each source dim equals the
// destination's or is 1), and the ternary select (dst = cond ? src0 : src1).
// Dense row-major tensors of one rank, double precision; the operations
// themselves come from eltwise_ref::binary. Written without library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl_types.h"

namespace binary_ref {

// Destination dims of two broadcastable shapes (same rank).
std::vector<int64_t> broadcast_dims(
        const std::vector<int64_t> &a, const std::vector<int64_t> &b);

// Offset of destination position `pos` in a source of `dims` (broadcast).
int64_t src_offset(const std::vector<int64_t> &dims, const int64_t *pos);

void compute(dnnl_alg_kind_t alg, const std::vector<int64_t> &src0_dims, const float *src0,
        const std::vector<int64_t> &src1_dims, const float *src1,
        const std::vector<int64_t> &dst_dims, double *dst, double scale0 = 1.0,
        double scale1 = 1.0);

// select: dst = cond != 0 ? src0 : src1 (cond broadcast like the sources).
void select(const std::vector<int64_t> &src0_dims, const float *src0,
        const std::vector<int64_t> &src1_dims, const float *src1,
        const std::vector<int64_t> &cond_dims, const float *cond,
        const std::vector<int64_t> &dst_dims, double *dst);

} // namespace binary_ref
