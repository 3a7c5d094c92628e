// Eltwise reference formulas (double precision).
#include "reference/eltwise_ref.hpp"

#include <cmath>
#include <limits>

namespace eltwise_ref {

namespace {

const double pi = 3.14159265358979323846;

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

double softplus(double x) {
    // log(1 + e^x), stable for large |x|
    return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

double gelu_tanh_inner(double s) {
    return std::sqrt(2.0 / pi) * (s + 0.044715 * s * s * s);
}

} // namespace

bool use_dst(dnnl_alg_kind_t alg) {
    switch (alg) {
    case dnnl_eltwise_relu_use_dst_for_bwd:
    case dnnl_eltwise_tanh_use_dst_for_bwd:
    case dnnl_eltwise_elu_use_dst_for_bwd:
    case dnnl_eltwise_sqrt_use_dst_for_bwd:
    case dnnl_eltwise_logistic_use_dst_for_bwd:
    case dnnl_eltwise_exp_use_dst_for_bwd:
    case dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return true;
    default:
        return false;
    }
}

double fwd(dnnl_alg_kind_t alg, double s, double alpha, double beta) {
    switch (alg) {
    case dnnl_eltwise_relu:
    case dnnl_eltwise_relu_use_dst_for_bwd:
        return s > 0 ? s : alpha * s;
    case dnnl_eltwise_tanh:
    case dnnl_eltwise_tanh_use_dst_for_bwd:
        return std::tanh(s);
    case dnnl_eltwise_elu:
    case dnnl_eltwise_elu_use_dst_for_bwd:
        return s > 0 ? s : alpha * std::expm1(s);
    case dnnl_eltwise_square:
        return s * s;
    case dnnl_eltwise_abs:
        return std::fabs(s);
    case dnnl_eltwise_sqrt:
    case dnnl_eltwise_sqrt_use_dst_for_bwd:
        return std::sqrt(s);
    case dnnl_eltwise_linear:
        return alpha * s + beta;
    case dnnl_eltwise_soft_relu:
        return softplus(alpha * s) / alpha;
    case dnnl_eltwise_hardsigmoid:
        return std::fmin(1.0, std::fmax(0.0, alpha * s + beta));
    case dnnl_eltwise_logistic:
    case dnnl_eltwise_logistic_use_dst_for_bwd:
        return sigmoid(s);
    case dnnl_eltwise_exp:
    case dnnl_eltwise_exp_use_dst_for_bwd:
        return std::exp(s);
    case dnnl_eltwise_gelu_tanh:
        return 0.5 * s * (1.0 + std::tanh(gelu_tanh_inner(s)));
    case dnnl_eltwise_swish:
        return s * sigmoid(alpha * s);
    case dnnl_eltwise_log:
        return std::log(s);
    case dnnl_eltwise_clip:
    case dnnl_eltwise_clip_v2:
    case dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return s < alpha ? alpha : (s > beta ? beta : s);
    case dnnl_eltwise_pow:
        return alpha * std::pow(s, beta);
    case dnnl_eltwise_gelu_erf:
        return 0.5 * s * std::erfc(-s / std::sqrt(2.0));
    case dnnl_eltwise_round:
        return std::nearbyint(s);
    case dnnl_eltwise_mish:
        return s * std::tanh(softplus(s));
    case dnnl_eltwise_hardswish:
        return s * std::fmin(1.0, std::fmax(0.0, alpha * s + beta));
    default:
        return std::numeric_limits<double>::quiet_NaN();
    }
}

double bwd(
        dnnl_alg_kind_t alg, double dd, double v, double alpha, double beta) {
    const double s = v, d = v;
    switch (alg) {
    case dnnl_eltwise_relu:
        return s > 0 ? dd : alpha * dd;
    case dnnl_eltwise_relu_use_dst_for_bwd:
        return d > 0 ? dd : alpha * dd;
    case dnnl_eltwise_tanh: {
        const double t = std::tanh(s);
        return dd * (1 - t * t);
    }
    case dnnl_eltwise_tanh_use_dst_for_bwd:
        return dd * (1 - d * d);
    case dnnl_eltwise_elu:
        return s > 0 ? dd : dd * alpha * std::exp(s);
    case dnnl_eltwise_elu_use_dst_for_bwd:
        return d > 0 ? dd : dd * (d + alpha);
    case dnnl_eltwise_square:
        return dd * 2 * s;
    case dnnl_eltwise_abs:
        return s > 0 ? dd : (s < 0 ? -dd : 0.0);
    case dnnl_eltwise_sqrt:
        return dd / (2 * std::sqrt(s));
    case dnnl_eltwise_sqrt_use_dst_for_bwd:
        return dd / (2 * d);
    case dnnl_eltwise_linear:
        return dd * alpha;
    case dnnl_eltwise_soft_relu:
        return dd * sigmoid(alpha * s);
    case dnnl_eltwise_hardsigmoid: {
        const double u = alpha * s + beta;
        return (u > 0 && u < 1) ? dd * alpha : 0.0;
    }
    case dnnl_eltwise_logistic: {
        const double g = sigmoid(s);
        return dd * g * (1 - g);
    }
    case dnnl_eltwise_logistic_use_dst_for_bwd:
        return dd * d * (1 - d);
    case dnnl_eltwise_exp:
        return dd * std::exp(s);
    case dnnl_eltwise_exp_use_dst_for_bwd:
        return dd * d;
    case dnnl_eltwise_gelu_tanh: {
        // d/ds of 0.5 s (1 + tanh(g(s)))
        const double t = std::tanh(gelu_tanh_inner(s));
        const double dg = std::sqrt(2.0 / pi) * (1 + 3 * 0.044715 * s * s);
        return dd * (0.5 * (1 + t) + 0.5 * s * (1 - t * t) * dg);
    }
    case dnnl_eltwise_swish: {
        const double g = sigmoid(alpha * s);
        return dd * (g + alpha * s * g * (1 - g));
    }
    case dnnl_eltwise_log:
        return dd / s;
    case dnnl_eltwise_clip:
        return (s > alpha && s <= beta) ? dd : 0.0;
    case dnnl_eltwise_clip_v2:
    case dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return (v > alpha && v < beta) ? dd : 0.0;
    case dnnl_eltwise_pow:
        if (beta == 0) return 0.0;
        return dd * alpha * beta * std::pow(s, beta - 1);
    case dnnl_eltwise_gelu_erf: {
        const double cdf = 0.5 * std::erfc(-s / std::sqrt(2.0));
        const double pdf = std::exp(-0.5 * s * s) / std::sqrt(2 * pi);
        return dd * (cdf + s * pdf);
    }
    case dnnl_eltwise_mish: {
        const double t = std::tanh(softplus(s));
        return dd * (t + s * (1 - t * t) * sigmoid(s));
    }
    case dnnl_eltwise_hardswish: {
        const double u = alpha * s + beta;
        if (u <= 0) return 0.0;
        if (u >= 1) return dd;
        return dd * (2 * alpha * s + beta);
    }
    default:
        return std::numeric_limits<double>::quiet_NaN();
    }
}

double binary(dnnl_alg_kind_t alg, double a, double b) {
    switch (alg) {
    case dnnl_binary_add:
        return a + b;
    case dnnl_binary_mul:
        return a * b;
    case dnnl_binary_max:
        return a > b ? a : b;
    case dnnl_binary_min:
        return a < b ? a : b;
    case dnnl_binary_div:
        return a / b;
    case dnnl_binary_sub:
        return a - b;
    case dnnl_binary_ge:
        return a >= b ? 1.0 : 0.0;
    case dnnl_binary_gt:
        return a > b ? 1.0 : 0.0;
    case dnnl_binary_le:
        return a <= b ? 1.0 : 0.0;
    case dnnl_binary_lt:
        return a < b ? 1.0 : 0.0;
    case dnnl_binary_eq:
        return a == b ? 1.0 : 0.0;
    case dnnl_binary_ne:
        return a != b ? 1.0 : 0.0;
    default:
        return std::numeric_limits<double>::quiet_NaN();
    }
}

} // namespace eltwise_ref
