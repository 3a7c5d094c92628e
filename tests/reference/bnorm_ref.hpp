// Naive reference of batch normalization (forward with optional fused ReLU
// or add+ReLU, backward; global stats, scale, shift) on dense
// N x C x spatial tensors, in double precision. Written without library code.
#pragma once

#include <cstdint>

namespace bnorm_ref {

struct desc_t {
    int64_t mb = 1, c = 1, sp = 1; // sp: product of the spatial dims
    double eps = 1e-5;
    bool global_stats = false, scale = false, shift = false;
    bool relu = false; // dst = max(bn(src), 0)
    bool add_relu = false; // dst = max(bn(src) + src1, 0)
};

// scale/shift/mean/var: C values. mean/var are read with global_stats,
// written otherwise (may be null). src1: N x C x sp, for add_relu.
void forward(const desc_t &d, const float *src, const float *src1, const float *scale,
        const float *shift, const float *mean_in, const float *var_in, double *dst,
        double *mean_out, double *var_out);

// Without fused activations. diff_scale/diff_shift may be null.
void backward(const desc_t &d, const float *src, const float *mean, const float *var,
        const float *diff_dst, const float *scale, double *diff_src, double *diff_scale,
        double *diff_shift);

} // namespace bnorm_ref
