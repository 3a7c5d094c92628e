// Group normalization reference; see gnorm_ref.hpp.
#include "reference/gnorm_ref.hpp"

#include "reference/norm_math.hpp"

namespace gnorm_ref {

namespace {
norm_math::flags_t flags(const desc_t &d) {
    norm_math::flags_t f;
    f.global_stats = d.global_stats;
    f.scale = d.scale;
    f.shift = d.shift;
    return f;
}
} // namespace

// Group index ng = n * G + g: elements (n, c, s) with c in group g.
struct elems_t {
    const desc_t &d;
    template <typename F>
    void operator()(int64_t ng, F f) const {
        const int64_t n = ng / d.groups, g = ng % d.groups, cpg = d.c / d.groups;
        for (int64_t c = g * cpg; c < (g + 1) * cpg; ++c)
            for (int64_t s = 0; s < d.sp; ++s)
                f((n * d.c + c) * d.sp + s, c);
    }
};

void forward(const desc_t &d, const float *src, const float *scale, const float *shift,
        const float *mean_in, const float *var_in, double *dst, double *mean_out,
        double *var_out) {
    const elems_t elems {d};
    norm_math::forward(d.mb * d.groups, elems, flags(d), d.eps, src, scale, shift, mean_in,
            var_in, dst, mean_out, var_out);
}

void backward(const desc_t &d, const float *src, const float *mean, const float *var,
        const float *diff_dst, const float *scale, double *diff_src, double *diff_scale,
        double *diff_shift) {
    const elems_t elems {d};
    norm_math::backward(d.mb * d.groups, d.c, elems, flags(d), d.eps, src, mean, var, diff_dst,
            scale, diff_src, diff_scale, diff_shift);
}

} // namespace gnorm_ref
