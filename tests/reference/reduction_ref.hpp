// Naive reference of the reduction primitive: every destination element
// reduces the source elements that map to it (destination dims equal the
// source's or are 1). Algorithms: max, min, sum, mul, mean, and the p-norms
//   norm_lp_max         = max(sum |x|^p, eps)^(1/p)
//   norm_lp_sum         = (sum |x|^p + eps)^(1/p)
//   norm_lp_power_p_max = max(sum |x|^p, eps)
//   norm_lp_power_p_sum = sum |x|^p + eps
// Dense row-major tensors, double precision, written without library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl_types.h"

namespace reduction_ref {

void compute(dnnl_alg_kind_t alg, const std::vector<int64_t> &src_dims, const float *src,
        const std::vector<int64_t> &dst_dims, double *dst, double p = 1.0, double eps = 0.0);

} // namespace reduction_ref
