// Shared arithmetic of the normalization references (lnorm_ref, bnorm_ref,
// gnorm_ref): a tensor is a set of groups (the elements that share one
// mean and variance); each element also has a channel (its scale and
// shift). Double precision, written without library code.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace norm_math {

struct flags_t {
    bool global_stats = false; // mean/var are inputs
    bool scale = false, shift = false;
    bool rms = false; // no mean subtraction (layer normalization only)
};

// `elems(g, f)` calls f(element_offset, channel) for every element of group
// g. Forward: dst = scale * (src - mean) / sqrt(var + eps) + shift.
template <typename Elems>
void forward(int64_t groups, Elems elems, const flags_t &fl, double eps, const float *src,
        const float *scale, const float *shift, const float *mean_in, const float *var_in,
        double *dst, double *mean_out, double *var_out) {
    for (int64_t g = 0; g < groups; ++g) {
        double mean = 0, var = 0;
        if (fl.global_stats) {
            mean = fl.rms ? 0.0 : mean_in[g];
            var = var_in[g];
        } else {
            int64_t cnt = 0;
            if (!fl.rms) {
                elems(g, [&](int64_t off, int64_t) { mean += src[off], ++cnt; });
                mean /= (double)cnt;
                cnt = 0;
            }
            elems(g, [&](int64_t off, int64_t) {
                const double x = src[off] - mean;
                var += x * x;
                ++cnt;
            });
            var /= (double)cnt;
        }
        if (mean_out) mean_out[g] = mean;
        if (var_out) var_out[g] = var;
        const double inv = 1.0 / std::sqrt(var + eps);
        elems(g, [&](int64_t off, int64_t c) {
            const double sc = fl.scale ? scale[c] : 1.0, sh = fl.shift ? shift[c] : 0.0;
            dst[off] = sc * (src[off] - mean) * inv + sh;
        });
    }
}

// Backward with the statistics of the forward pass. For RMS normalization
// the gradient has no mean(dxh) term (the forward pass subtracts no mean);
// note that oneDNN 3.13 (PyPI 2026.1.0) does subtract it, so its RMS
// backward results differ from this reference. diff_scale/diff_shift
// (length `channels`, may be null) are accumulated over all groups.
template <typename Elems>
void backward(int64_t groups, int64_t channels, Elems elems, const flags_t &fl, double eps,
        const float *src, const float *mean_in, const float *var_in, const float *diff_dst,
        const float *scale, double *diff_src, double *diff_scale, double *diff_shift) {
    if (diff_scale)
        for (int64_t c = 0; c < channels; ++c)
            diff_scale[c] = 0;
    if (diff_shift)
        for (int64_t c = 0; c < channels; ++c)
            diff_shift[c] = 0;
    for (int64_t g = 0; g < groups; ++g) {
        const double mean = fl.rms ? 0.0 : mean_in[g];
        const double inv = 1.0 / std::sqrt((double)var_in[g] + eps);
        double sum_dxh = 0, sum_dxh_xh = 0;
        int64_t cnt = 0;
        elems(g, [&](int64_t off, int64_t c) {
            const double xh = (src[off] - mean) * inv;
            const double dxh = diff_dst[off] * (fl.scale ? scale[c] : 1.0);
            sum_dxh += dxh;
            sum_dxh_xh += dxh * xh;
            if (diff_scale) diff_scale[c] += diff_dst[off] * xh;
            if (diff_shift) diff_shift[c] += diff_dst[off];
            ++cnt;
        });
        elems(g, [&](int64_t off, int64_t c) {
            const double xh = (src[off] - mean) * inv;
            const double dxh = diff_dst[off] * (fl.scale ? scale[c] : 1.0);
            double v = dxh;
            if (!fl.global_stats) {
                if (!fl.rms) v -= sum_dxh / cnt;
                v -= xh * sum_dxh_xh / cnt;
            }
            diff_src[off] = v * inv;
        });
    }
}

} // namespace norm_math
