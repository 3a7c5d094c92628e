// Naive reference of the reduction primitive on logical tensors (row-major
// doubles): dst dims equal src's or are 1 (reduced); each dst element is
// max, min, sum, product or mean of its source elements, or an Lp norm:
//   norm_lp_max: (max(sum |x|^p, eps))^(1/p)   norm_lp_sum: (sum |x|^p +
//   eps)^(1/p) norm_lp_power_p_max: max(sum |x|^p, eps)    norm_lp_power_p_sum:
//   sum |x|^p + eps
#pragma once

#include <cstdint>
#include <vector>

namespace reduction_ref {

enum class alg_t {
    max,
    min,
    sum,
    mul,
    mean,
    norm_lp_max,
    norm_lp_sum,
    norm_lp_power_p_max,
    norm_lp_power_p_sum
};

std::vector<double> compute(alg_t alg, const std::vector<double> &src,
        const std::vector<int64_t> &src_dims,
        const std::vector<int64_t> &dst_dims, double p, double eps);

} // namespace reduction_ref
