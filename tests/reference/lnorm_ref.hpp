// Naive reference of layer normalization (forward, backward; global stats,
// scale, shift, RMS normalization) over the last dimension of a dense
// [rows x C] tensor, in double precision. Written without library code.
#pragma once

#include <cstdint>

namespace lnorm_ref {

struct desc_t {
    int64_t rows = 1; // product of all dims but the last
    int64_t c = 1; // the normalized (last) dimension
    double eps = 1e-5;
    bool global_stats = false, scale = false, shift = false, rms = false;
};

// scale/shift: C values (used when the flags say so); mean/var: `rows`
// values, read when global_stats, written otherwise (may be null).
void forward(const desc_t &d, const float *src, const float *scale, const float *shift,
        const float *mean_in, const float *var_in, double *dst, double *mean_out,
        double *var_out);

// diff_scale/diff_shift may be null (backward by data only).
void backward(const desc_t &d, const float *src, const float *mean, const float *var,
        const float *diff_dst, const float *scale, double *diff_src, double *diff_scale,
        double *diff_shift);

} // namespace lnorm_ref
