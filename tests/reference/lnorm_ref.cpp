// Layer normalization reference; see lnorm_ref.hpp.
#include "reference/lnorm_ref.hpp"

#include "reference/norm_math.hpp"

namespace lnorm_ref {

namespace {
norm_math::flags_t flags(const desc_t &d) {
    norm_math::flags_t f;
    f.global_stats = d.global_stats;
    f.scale = d.scale;
    f.shift = d.shift;
    f.rms = d.rms;
    return f;
}
} // namespace

void forward(const desc_t &d, const float *src, const float *scale, const float *shift,
        const float *mean_in, const float *var_in, double *dst, double *mean_out,
        double *var_out) {
    auto elems = [&](int64_t g, auto f) {
        for (int64_t c = 0; c < d.c; ++c)
            f(g * d.c + c, c);
    };
    norm_math::forward(d.rows, elems, flags(d), d.eps, src, scale, shift, mean_in, var_in, dst,
            mean_out, var_out);
}

void backward(const desc_t &d, const float *src, const float *mean, const float *var,
        const float *diff_dst, const float *scale, double *diff_src, double *diff_scale,
        double *diff_shift) {
    auto elems = [&](int64_t g, auto f) {
        for (int64_t c = 0; c < d.c; ++c)
            f(g * d.c + c, c);
    };
    norm_math::backward(d.rows, d.c, elems, flags(d), d.eps, src, mean, var, diff_dst, scale,
            diff_src, diff_scale, diff_shift);
}

} // namespace lnorm_ref
