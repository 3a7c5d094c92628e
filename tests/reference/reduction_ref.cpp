// Naive reduction reference (see reduction_ref.hpp).
#include "reference/reduction_ref.hpp"

#include <cmath>

namespace reduction_ref {

std::vector<double> compute(alg_t alg, const std::vector<double> &src,
        const std::vector<int64_t> &sd, const std::vector<int64_t> &dd,
        double p, double eps) {
    int64_t dn = 1, sn = 1;
    for (size_t k = 0; k < dd.size(); ++k) {
        dn *= dd[k];
        sn *= sd[k];
    }
    const bool norm = alg == alg_t::norm_lp_max || alg == alg_t::norm_lp_sum
                      || alg == alg_t::norm_lp_power_p_max
                      || alg == alg_t::norm_lp_power_p_sum;
    std::vector<double> acc(dn, alg == alg_t::max   ? -INFINITY
                                : alg == alg_t::min ? INFINITY
                                : alg == alg_t::mul ? 1.0
                                                    : 0.0);
    std::vector<int64_t> pos(sd.size(), 0);
    for (int64_t i = 0; i < sn; ++i) {
        int64_t di = 0;
        for (size_t k = 0; k < sd.size(); ++k)
            di = di * dd[k] + (dd[k] == 1 ? 0 : pos[k]);
        const double x = src[i];
        double &a = acc[di];
        switch (alg) {
        case alg_t::max:
            a = std::fmax(a, x);
            break;
        case alg_t::min:
            a = std::fmin(a, x);
            break;
        case alg_t::mul:
            a *= x;
            break;
        default:
            a += norm ? std::pow(std::fabs(x), p) : x;
            break;
        }
        for (int k = (int)sd.size() - 1; k >= 0; --k) {
            if (++pos[k] < sd[k]) break;
            pos[k] = 0;
        }
    }
    const double count = dn ? (double)sn / dn : 0;
    for (double &a : acc) {
        switch (alg) {
        case alg_t::mean:
            a /= count;
            break;
        case alg_t::norm_lp_max:
            a = std::pow(std::fmax(a, eps), 1 / p);
            break;
        case alg_t::norm_lp_sum:
            a = std::pow(a + eps, 1 / p);
            break;
        case alg_t::norm_lp_power_p_max:
            a = std::fmax(a, eps);
            break;
        case alg_t::norm_lp_power_p_sum:
            a += eps;
            break;
        default:
            break;
        }
    }
    return acc;
}

} // namespace reduction_ref
