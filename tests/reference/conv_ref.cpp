// Naive double-precision convolution / deconvolution references and the
// scalar post-op functions (see conv_ref.hpp).
#include "reference/conv_ref.hpp"

#include <cmath>

namespace conv_ref {

namespace {
int64_t act_off(const prb_t &p, int64_t c_total, int64_t n, int64_t c,
        const int64_t *sp, const int64_t *sz)
{
    return (((n * c_total + c) * sz[0] + sp[0]) * sz[1] + sp[1]) * sz[2]
            + sp[2];
}

int64_t wei_off(const prb_t &p, int64_t ocg, int64_t icg, int64_t g,
        int64_t oc, int64_t ic, const int64_t *k)
{
    return ((((g * ocg + oc) * icg + ic) * p.k[0] + k[0]) * p.k[1] + k[1])
            * p.k[2]
            + k[2];
}

// Calls f(n, g, oc, ic, out_pos, in_pos, k) for every term of the
// convolution sum where the input position lies inside the input
// (out_sz / in_sz are the spatial sizes of the convolution's output and
// input).
template <typename F>
void for_each_term(const prb_t &p, const int64_t *in_sz,
        const int64_t *out_sz, int64_t ocg, int64_t icg, F f)
{
    int64_t o[3], k[3], i[3];
    for (int64_t n = 0; n < p.mb; ++n)
    for (int64_t g = 0; g < p.g; ++g)
    for (int64_t oc = 0; oc < ocg; ++oc)
    for (o[0] = 0; o[0] < out_sz[0]; ++o[0])
    for (o[1] = 0; o[1] < out_sz[1]; ++o[1])
    for (o[2] = 0; o[2] < out_sz[2]; ++o[2])
    for (int64_t ic = 0; ic < icg; ++ic)
    for (k[0] = 0; k[0] < p.k[0]; ++k[0])
    for (k[1] = 0; k[1] < p.k[1]; ++k[1])
    for (k[2] = 0; k[2] < p.k[2]; ++k[2]) {
        bool inside = true;
        for (int s = 0; s < 3; ++s) {
            i[s] = o[s] * p.s[s] - p.pl[s] + k[s] * (p.d[s] + 1);
            inside = inside && i[s] >= 0 && i[s] < in_sz[s];
        }
        if (inside) f(n, g, oc, ic, o, i, k);
    }
}
} // namespace

void conv_fwd(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &wei, std::vector<double> &dst)
{
    const int64_t icg = p.ic / p.g, ocg = p.oc / p.g;
    dst.assign(p.dst_size(), 0.0);
    for_each_term(p, p.i, p.o, ocg, icg,
            [&](int64_t n, int64_t g, int64_t oc, int64_t ic,
                    const int64_t *o, const int64_t *i, const int64_t *k) {
                dst[act_off(p, p.oc, n, g * ocg + oc, o, p.o)]
                        += src[act_off(p, p.ic, n, g * icg + ic, i, p.i)]
                        * wei[wei_off(p, ocg, icg, g, oc, ic, k)];
            });
}

void conv_bwd_data(const prb_t &p, const std::vector<double> &diff_dst,
        const std::vector<double> &wei, std::vector<double> &diff_src)
{
    const int64_t icg = p.ic / p.g, ocg = p.oc / p.g;
    diff_src.assign(p.src_size(), 0.0);
    for_each_term(p, p.i, p.o, ocg, icg,
            [&](int64_t n, int64_t g, int64_t oc, int64_t ic,
                    const int64_t *o, const int64_t *i, const int64_t *k) {
                diff_src[act_off(p, p.ic, n, g * icg + ic, i, p.i)]
                        += diff_dst[act_off(p, p.oc, n, g * ocg + oc, o, p.o)]
                        * wei[wei_off(p, ocg, icg, g, oc, ic, k)];
            });
}

void conv_bwd_weights(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &diff_dst, std::vector<double> &diff_wei,
        std::vector<double> *diff_bias)
{
    const int64_t icg = p.ic / p.g, ocg = p.oc / p.g;
    diff_wei.assign(p.wei_size(), 0.0);
    for_each_term(p, p.i, p.o, ocg, icg,
            [&](int64_t n, int64_t g, int64_t oc, int64_t ic,
                    const int64_t *o, const int64_t *i, const int64_t *k) {
                diff_wei[wei_off(p, ocg, icg, g, oc, ic, k)]
                        += src[act_off(p, p.ic, n, g * icg + ic, i, p.i)]
                        * diff_dst[act_off(p, p.oc, n, g * ocg + oc, o, p.o)];
            });
    if (!diff_bias) return;
    diff_bias->assign(p.oc, 0.0);
    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t c = 0; c < p.oc; ++c)
            for (int64_t s = 0; s < p.osp(); ++s)
                (*diff_bias)[c] += diff_dst[(n * p.oc + c) * p.osp() + s];
}

// Deconvolution: the input point i of the deconvolution contributes to the
// output point o = i * s - pl + k * (d + 1). In loop terms it is the
// convolution with input = deconvolution dst and output = deconvolution
// src, so the same term walk serves with the sizes exchanged.
void deconv_fwd(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &wei, std::vector<double> &dst)
{
    const int64_t icg = p.ic / p.g, ocg = p.oc / p.g;
    dst.assign(p.dst_size(), 0.0);
    // Walk: "out" positions = deconv src points, "in" = deconv dst points;
    // oc loop = deconv ic, ic loop = deconv oc.
    for_each_term(p, p.o, p.i, icg, ocg,
            [&](int64_t n, int64_t g, int64_t dic, int64_t doc,
                    const int64_t *si, const int64_t *do_, const int64_t *k) {
                dst[act_off(p, p.oc, n, g * ocg + doc, do_, p.o)]
                        += src[act_off(p, p.ic, n, g * icg + dic, si, p.i)]
                        * wei[wei_off(p, ocg, icg, g, doc, dic, k)];
            });
}

void deconv_bwd_data(const prb_t &p, const std::vector<double> &diff_dst,
        const std::vector<double> &wei, std::vector<double> &diff_src)
{
    const int64_t icg = p.ic / p.g, ocg = p.oc / p.g;
    diff_src.assign(p.src_size(), 0.0);
    for_each_term(p, p.o, p.i, icg, ocg,
            [&](int64_t n, int64_t g, int64_t dic, int64_t doc,
                    const int64_t *si, const int64_t *do_, const int64_t *k) {
                diff_src[act_off(p, p.ic, n, g * icg + dic, si, p.i)]
                        += diff_dst[act_off(p, p.oc, n, g * ocg + doc, do_, p.o)]
                        * wei[wei_off(p, ocg, icg, g, doc, dic, k)];
            });
}

void deconv_bwd_weights(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &diff_dst, std::vector<double> &diff_wei,
        std::vector<double> *diff_bias)
{
    const int64_t icg = p.ic / p.g, ocg = p.oc / p.g;
    diff_wei.assign(p.wei_size(), 0.0);
    for_each_term(p, p.o, p.i, icg, ocg,
            [&](int64_t n, int64_t g, int64_t dic, int64_t doc,
                    const int64_t *si, const int64_t *do_, const int64_t *k) {
                diff_wei[wei_off(p, ocg, icg, g, doc, dic, k)]
                        += src[act_off(p, p.ic, n, g * icg + dic, si, p.i)]
                        * diff_dst[act_off(p, p.oc, n, g * ocg + doc, do_, p.o)];
            });
    if (!diff_bias) return;
    diff_bias->assign(p.oc, 0.0);
    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t c = 0; c < p.oc; ++c)
            for (int64_t s = 0; s < p.osp(); ++s)
                (*diff_bias)[c] += diff_dst[(n * p.oc + c) * p.osp() + s];
}

void finish(std::vector<double> &v, int ndims, const int64_t *dims,
        const quant_t &q, const std::vector<double> *bias,
        const std::vector<post_op_t> &po, const std::vector<double> &old_dst)
{
    auto per_c = [](const std::vector<double> &x, int64_t c, double dflt) {
        return x.empty() ? dflt : x.size() == 1 ? x[0] : x[c];
    };
    int64_t total = 1;
    for (int d = 0; d < ndims; ++d)
        total *= dims[d];
    int64_t pos[12] = {};
    for (int64_t i = 0; i < total; ++i) {
        int64_t rem = i;
        for (int d = ndims - 1; d >= 0; --d) {
            pos[d] = rem % dims[d];
            rem /= dims[d];
        }
        const int64_t c = pos[1];
        double x = v[i] * q.src_scale * per_c(q.wei_scale, c, 1.0);
        if (bias) x += (*bias)[c];
        for (const auto &e : po) {
            switch (e.kind) {
                case post_op_t::eltwise:
                    x = e.scale * eltwise_fwd(e.alg, x, e.alpha, e.beta);
                    break;
                case post_op_t::sum:
                    x += e.scale * (old_dst[i] - e.zero_point);
                    break;
                case post_op_t::binary:
                case post_op_t::prelu: {
                    int64_t off = 0;
                    for (int d = 0; d < ndims; ++d)
                        if ((e.mask >> d) & 1) off = off * dims[d] + pos[d];
                    const double t = e.data[off];
                    x = e.kind == post_op_t::binary ? binary(e.alg, x, t)
                                                    : (x > 0 ? x : x * t);
                    break;
                }
            }
        }
        x = x / per_c(q.dst_scale, c, 1.0);
        if (!q.dst_zp.empty())
            x += q.dst_zp.size() == 1 ? q.dst_zp[0] : q.dst_zp[c];
        v[i] = x;
    }
}

double eltwise_fwd(dnnl_alg_kind_t alg, double x, double a, double b)
{
    const double pi = 3.14159265358979323846;
    switch (alg) {
        case dnnl_eltwise_relu:
        case dnnl_eltwise_relu_use_dst_for_bwd: return x > 0 ? x : a * x;
        case dnnl_eltwise_tanh:
        case dnnl_eltwise_tanh_use_dst_for_bwd: return std::tanh(x);
        case dnnl_eltwise_elu:
        case dnnl_eltwise_elu_use_dst_for_bwd:
            return x > 0 ? x : a * std::expm1(x);
        case dnnl_eltwise_square: return x * x;
        case dnnl_eltwise_abs: return std::fabs(x);
        case dnnl_eltwise_sqrt:
        case dnnl_eltwise_sqrt_use_dst_for_bwd: return std::sqrt(x);
        case dnnl_eltwise_linear: return a * x + b;
        case dnnl_eltwise_soft_relu: return std::log1p(std::exp(a * x)) / a;
        case dnnl_eltwise_hardsigmoid:
            return std::fmax(0.0, std::fmin(1.0, a * x + b));
        case dnnl_eltwise_logistic:
        case dnnl_eltwise_logistic_use_dst_for_bwd:
            return 1.0 / (1.0 + std::exp(-x));
        case dnnl_eltwise_exp:
        case dnnl_eltwise_exp_use_dst_for_bwd: return std::exp(x);
        case dnnl_eltwise_gelu_tanh:
            return 0.5 * x
                    * (1.0
                            + std::tanh(std::sqrt(2.0 / pi)
                                    * (x + 0.044715 * x * x * x)));
        case dnnl_eltwise_swish: return x / (1.0 + std::exp(-a * x));
        case dnnl_eltwise_log: return std::log(x);
        case dnnl_eltwise_clip:
        case dnnl_eltwise_clip_v2:
        case dnnl_eltwise_clip_v2_use_dst_for_bwd:
            return x > b ? b : (x > a ? x : a);
        case dnnl_eltwise_pow: return a * std::pow(x, b);
        case dnnl_eltwise_gelu_erf:
            return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        case dnnl_eltwise_round: return std::nearbyint(x);
        case dnnl_eltwise_mish: return x * std::tanh(std::log1p(std::exp(x)));
        case dnnl_eltwise_hardswish:
            return x * std::fmax(0.0, std::fmin(1.0, a * x + b));
        default: return NAN;
    }
}

double binary(dnnl_alg_kind_t alg, double a, double b)
{
    switch (alg) {
        case dnnl_binary_add: return a + b;
        case dnnl_binary_mul: return a * b;
        case dnnl_binary_max: return a > b ? a : b;
        case dnnl_binary_min: return a < b ? a : b;
        case dnnl_binary_div: return a / b;
        case dnnl_binary_sub: return a - b;
        case dnnl_binary_ge: return a >= b;
        case dnnl_binary_gt: return a > b;
        case dnnl_binary_le: return a <= b;
        case dnnl_binary_lt: return a < b;
        case dnnl_binary_eq: return a == b;
        case dnnl_binary_ne: return a != b;
        default: return NAN;
    }
}

} // namespace conv_ref
