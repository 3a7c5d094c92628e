// Reduction reference; see reduction_ref.hpp.
#include "reference/reduction_ref.hpp"

#include <cmath>
#include <limits>

namespace reduction_ref {

void compute(dnnl_alg_kind_t alg, const std::vector<int64_t> &src_dims, const float *src,
        const std::vector<int64_t> &dst_dims, double *dst, double p, double eps) {
    int64_t nd = 1, ns = 1;
    for (auto v : dst_dims)
        nd *= v;
    for (auto v : src_dims)
        ns *= v;
    const int64_t per_dst = nd ? ns / nd : 0;
    double init = 0;
    if (alg == dnnl_reduction_max) init = -std::numeric_limits<double>::infinity();
    if (alg == dnnl_reduction_min) init = std::numeric_limits<double>::infinity();
    if (alg == dnnl_reduction_mul) init = 1;
    for (int64_t i = 0; i < nd; ++i)
        dst[i] = init;
    std::vector<int64_t> pos(src_dims.size(), 0);
    for (int64_t i = 0; i < ns; ++i) {
        int64_t o = 0;
        for (size_t d = 0; d < src_dims.size(); ++d)
            o = o * dst_dims[d] + (dst_dims[d] == 1 ? 0 : pos[d]);
        const double x = src[i];
        double &r = dst[o];
        switch (alg) {
            case dnnl_reduction_max: r = std::fmax(r, x); break;
            case dnnl_reduction_min: r = std::fmin(r, x); break;
            case dnnl_reduction_mul: r *= x; break;
            case dnnl_reduction_sum:
            case dnnl_reduction_mean: r += x; break;
            default: r += std::pow(std::fabs(x), p); break;
        }
        for (int d = (int)src_dims.size() - 1; d >= 0; --d) {
            if (++pos[d] < src_dims[d]) break;
            pos[d] = 0;
        }
    }
    for (int64_t i = 0; i < nd; ++i) {
        double &r = dst[i];
        switch (alg) {
            case dnnl_reduction_mean: r /= (double)per_dst; break;
            case dnnl_reduction_norm_lp_max: r = std::pow(std::fmax(r, eps), 1.0 / p); break;
            case dnnl_reduction_norm_lp_sum: r = std::pow(r + eps, 1.0 / p); break;
            case dnnl_reduction_norm_lp_power_p_max: r = std::fmax(r, eps); break;
            case dnnl_reduction_norm_lp_power_p_sum: r = r + eps; break;
            default: break;
        }
    }
}

} // namespace reduction_ref
