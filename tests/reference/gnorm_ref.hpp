// Naive reference of group normalization (forward, backward; global stats,
// scale, shift) on dense N x C x spatial tensors: the C channels form G
// groups of C/G, with statistics per (n, group). Double precision, written
// without library code.
#pragma once

#include <cstdint>

namespace gnorm_ref {

struct desc_t {
    int64_t mb = 1, c = 1, sp = 1, groups = 1;
    double eps = 1e-5;
    bool global_stats = false, scale = false, shift = false;
};

// scale/shift: C values; mean/var: N x G values, read with global_stats,
// written otherwise (may be null).
void forward(const desc_t &d, const float *src, const float *scale, const float *shift,
        const float *mean_in, const float *var_in, double *dst, double *mean_out,
        double *var_out);

void backward(const desc_t &d, const float *src, const float *mean, const float *var,
        const float *diff_dst, const float *scale, double *diff_src, double *diff_scale,
        double *diff_shift);

} // namespace gnorm_ref
