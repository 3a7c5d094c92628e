// Naive references of the inner product primitive in double precision:
// forward with scales / bias / post-ops (oneDNN v3 order, as matmul_ref),
// backward data and backward weights (with bias). src / weights are dense
// (MB or OC, IC, spatial...) in logical order; flattened K = IC * spatial.
// Written without any library code.
#pragma once

#include <cstdint>
#include <vector>

#include "reference/post_ops_ref.hpp"

namespace ip_ref {

struct quant_t {
    std::vector<float> src_scale; // empty or 1 value
    std::vector<float> wei_scale; // empty, 1 value or OC values
    std::vector<float> dst_scale; // empty or 1 value
};

// dst(MB, OC); bias empty for none; old_dst for sum (may be null).
std::vector<double> fwd(int64_t MB, int64_t OC, int64_t K,
        const std::vector<float> &src, const std::vector<float> &wei,
        const std::vector<float> &bias, const quant_t &q,
        const std::vector<post_ops_ref::post_op_t> &ops,
        const std::vector<float> *old_dst);

// diff_src(MB, K) = diff_dst(MB, OC) . wei(OC, K)
std::vector<double> bwd_data(int64_t MB, int64_t OC, int64_t K,
        const std::vector<float> &diff_dst, const std::vector<float> &wei);

// diff_wei(OC, K) = diff_dst^T . src; diff_bias(OC) = sum over MB.
void bwd_weights(int64_t MB, int64_t OC, int64_t K,
        const std::vector<float> &src, const std::vector<float> &diff_dst,
        std::vector<double> &diff_wei, std::vector<double> &diff_bias);

} // namespace ip_ref
