// Batch normalization reference; see bnorm_ref.hpp.
#include "reference/bnorm_ref.hpp"

#include "reference/norm_math.hpp"

namespace bnorm_ref {

namespace {
norm_math::flags_t flags(const desc_t &d) {
    norm_math::flags_t f;
    f.global_stats = d.global_stats;
    f.scale = d.scale;
    f.shift = d.shift;
    return f;
}
} // namespace

void forward(const desc_t &d, const float *src, const float *src1, const float *scale,
        const float *shift, const float *mean_in, const float *var_in, double *dst,
        double *mean_out, double *var_out) {
    // Groups are channels: elements (n, c, s) for all n and s.
    auto elems = [&](int64_t c, auto f) {
        for (int64_t n = 0; n < d.mb; ++n)
            for (int64_t s = 0; s < d.sp; ++s)
                f((n * d.c + c) * d.sp + s, c);
    };
    norm_math::forward(d.c, elems, flags(d), d.eps, src, scale, shift, mean_in, var_in, dst,
            mean_out, var_out);
    if (d.relu || d.add_relu) {
        const int64_t total = d.mb * d.c * d.sp;
        for (int64_t i = 0; i < total; ++i) {
            double v = dst[i] + (d.add_relu ? (double)src1[i] : 0.0);
            dst[i] = v > 0 ? v : 0.0;
        }
    }
}

void backward(const desc_t &d, const float *src, const float *mean, const float *var,
        const float *diff_dst, const float *scale, double *diff_src, double *diff_scale,
        double *diff_shift) {
    auto elems = [&](int64_t c, auto f) {
        for (int64_t n = 0; n < d.mb; ++n)
            for (int64_t s = 0; s < d.sp; ++s)
                f((n * d.c + c) * d.sp + s, c);
    };
    norm_math::backward(d.c, d.c, elems, flags(d), d.eps, src, mean, var, diff_dst, scale,
            diff_src, diff_scale, diff_shift);
}

} // namespace bnorm_ref
