// Scalar float math shared by eltwise, binary and every post-op user.
//
// Three layers, all inline and header-only:
//  1. elementary functions (exp, expm1, log, log1p, tanh, erf, erfc,
//     logistic, softplus) written with selects and polynomials only, so a
//     loop calling them vectorises in the ISA of the calling function (the
//     libm versions do not);
//  2. one forward and one backward function per eltwise algorithm, with
//     oneDNN's alpha/beta meaning (see the table in eltwise_fwd below);
//  3. dispatching entry points: eltwise_fwd, eltwise_bwd, binary_op, plus
//     algorithm properties (validity, use of dst in backward, zero
//     preservation).
//
// Accuracy: a few ulp for exp/log/tanh/logistic; about 1e-7 relative for
// erf/erfc. NaN inputs give NaN outputs (except clip, which follows
// oneDNN's compare-based definition).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "common/c_types.hpp"

#ifndef DNNL_ALWAYS_INLINE
// Forces inlining, so that callers compiled for a wider ISA vectorise the
// loops they call these functions from.
#define DNNL_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

namespace dnnl {
namespace impl {
namespace math {

// ---- bit helpers -----------------------------------------------------------

DNNL_ALWAYS_INLINE uint32_t fbits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}
DNNL_ALWAYS_INLINE float bitsf(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}
DNNL_ALWAYS_INLINE float inf_f() {
    return std::numeric_limits<float>::infinity();
}
DNNL_ALWAYS_INLINE float nan_f() {
    return std::numeric_limits<float>::quiet_NaN();
}
DNNL_ALWAYS_INLINE float abs_f(float x) {
    return bitsf(fbits(x) & 0x7fffffffu);
}
// |x| with the sign of s.
DNNL_ALWAYS_INLINE float copysign_f(float x, float s) {
    return bitsf((fbits(x) & 0x7fffffffu) | (fbits(s) & 0x80000000u));
}
DNNL_ALWAYS_INLINE bool isnan_f(float x) {
    return x != x;
}

// Nearest integer (ties to even) for |v| < 2^22: adding 1.5 * 2^23 leaves
// no fraction bits, so the FPU does the rounding.
DNNL_ALWAYS_INLINE float round_small_f(float v) {
    const float magic = 12582912.f;
    return (v + magic) - magic;
}

// Round half to even for any float (keeps -0, NaN, large values).
DNNL_ALWAYS_INLINE float round_f(float x) {
    const float two23 = 8388608.f;
    const float ax = abs_f(x);
    const float r = (ax + two23) - two23;
    return ax < two23 ? copysign_f(r, x) : x;
}

// ---- elementary functions --------------------------------------------------

// e^r = 1 + r u(r) for |r| <= ln2 / 2: u a degree-5 fit with u(0) = 1
// that makes 1 + r u(r) a degree-6 fit of e^r's relative error (3.1e-9
// in exact arithmetic, about 1 ulp in f32; the Taylor polynomial needs
// degree 7). r u(r) is e^r - 1 with small r's relative accuracy.
DNNL_ALWAYS_INLINE float exp_reduced_u_f(float r) {
    float u = 1.38144125e-3f;
    u = u * r + 8.36870819e-3f;
    u = u * r + 4.16683890e-2f;
    u = u * r + 1.66665211e-1f;
    u = u * r + 4.99999940e-1f;
    return u * r + 1.f;
}

// x = k ln2 + r with |r| <= ln2 / 2 (ln2 split in two so that k * ln2_hi
// is exact); returns r and sets kf = k.
DNNL_ALWAYS_INLINE float exp_reduce_f(float x, float &kf) {
    kf = round_small_f(x * 1.44269504088896341f);
    const float r = x - kf * 0.693359375f;
    return r - kf * -2.12194440e-4f;
}

// e^x: 1 + r u(r) (exp_reduced_u_f), and 2^k applied as two factors so
// that results down to the subnormal range are right.
DNNL_ALWAYS_INLINE float exp_f(float x) {
    const float hi = 89.f, lo = -104.f;
    float xc = x >= lo ? x : lo; // NaN -> lo; fixed up at the end
    xc = xc > hi ? hi : xc;
    float kf;
    const float r = exp_reduce_f(xc, kf);
    const float p = exp_reduced_u_f(r) * r + 1.f;
    const int32_t k = int32_t(kf); // in [-150, 128]
    const int32_t k1 = k >> 1;     // floor(k / 2)
    const int32_t k2 = k - k1;
    const float s1 = bitsf(uint32_t(k1 + 127) << 23);
    const float s2 = bitsf(uint32_t(k2 + 127) << 23);
    const float y = p * s1 * s2;
    return isnan_f(x) ? x : y;
}

// e^x - 1 for x <= 0 (larger x count as 0): 2^k (1 + s) - 1 with
// s = e^r - 1, computed as 2^k s + (2^k - 1) (the second term exact), so
// small |x| keep their relative accuracy (s itself at k = 0). x is
// clamped at -88 (k >= -127): 2^-127 is built as 0 and the result is -1,
// which e^x - 1 rounds to there. About 1.5 ulp.
DNNL_ALWAYS_INLINE float expm1_nonpos_f(float x) {
    float xc = x >= -88.f ? x : -88.f; // NaN -> -88; fixed up at the end
    xc = xc < 0.f ? xc : 0.f;
    float kf;
    const float r = exp_reduce_f(xc, kf);
    const float s = exp_reduced_u_f(r) * r;
    const float p2k = bitsf(uint32_t(int32_t(kf) + 127) << 23);
    const float y = p2k * s + (p2k - 1.f);
    return isnan_f(x) ? x : y;
}

// Natural logarithm: x = 2^e * m with m in [sqrt(1/2), sqrt(2)); with
// f = m - 1 and s = f / (2 + f), log(m) = f - hfsq + s * (hfsq + R(s^2)),
// where R is the atanh series 2z/3 + 2z^2/5 + ... (|s| < 0.1716).
DNNL_ALWAYS_INLINE float log_f(float x) {
    const bool tiny = x < 1.17549435e-38f; // subnormal (or <= 0)
    const float x_scaled = x * 8388608.f;
    const float xs = tiny ? x_scaled : x;
    const uint32_t u = fbits(xs);
    const int32_t e = int32_t((u >> 23) & 0xffu) - 127;
    float m = bitsf((u & 0x007fffffu) | 0x3f800000u);
    const bool big = m > 1.41421356f;
    const float m_half = m * 0.5f;
    m = big ? m_half : m;
    // (Adjusted in float: integer selects here stop GCC vectorising.)
    const float ef = float(e) + (big ? 1.f : 0.f) - (tiny ? 23.f : 0.f);
    const float f = m - 1.f;
    const float s = f / (2.f + f);
    const float z = s * s;
    float R = 2.f / 9.f;
    R = R * z + 2.f / 7.f;
    R = R * z + 2.f / 5.f;
    R = R * z + 2.f / 3.f;
    R = R * z;
    const float hfsq = 0.5f * f * f;
    float y = ef * 0.693359375f
              - ((hfsq - (s * (hfsq + R) + ef * -2.12194440e-4f)) - f);
    y = x == 0.f ? -inf_f() : y;
    y = x == inf_f() ? x : y;
    y = x < 0.f ? nan_f() : y;
    return isnan_f(x) ? x : y;
}

// log(1 + y), correcting for the rounding of 1 + y.
DNNL_ALWAYS_INLINE float log1p_f(float y) {
    const float u = 1.f + y;
    float c = (y - (u - 1.f)) / u;
    c = ((u > 0.f) & (u < inf_f())) ? c : 0.f;
    return log_f(u) + c;
}

// tanh(|x|) = -e / (e + 2) with e = e^{-2|x|} - 1 in (-1, 0]: no overflow
// and no cancellation; the sign is copied back.
DNNL_ALWAYS_INLINE float tanh_f(float x) {
    const float e = expm1_nonpos_f(-2.f * abs_f(x));
    return copysign_f(-e / (e + 2.f), x);
}

// 1 / (1 + e^-x) and 1 - that, both without overflow or cancellation:
// with e = e^{-|x|} and q = 1 / (1 + e), one of them is q, the other e q.
DNNL_ALWAYS_INLINE void logistic_pair_f(float x, float &v, float &one_minus_v) {
    const float e = exp_f(-abs_f(x));
    const float q = 1.f / (1.f + e);
    const float eq = e * q;
    v = x >= 0.f ? q : eq;
    one_minus_v = x >= 0.f ? eq : q;
    v = isnan_f(x) ? x : v;
}
DNNL_ALWAYS_INLINE float logistic_f(float x) {
    const float e = exp_f(-abs_f(x));
    const float q = 1.f / (1.f + e);
    const float eq = e * q;
    return x >= 0.f ? q : (isnan_f(x) ? x : eq);
}

// log(1 + e^x) without overflow.
DNNL_ALWAYS_INLINE float softplus_f(float x) {
    const float pos = x > 0.f ? x : 0.f;
    return pos + log1p_f(exp_f(-abs_f(x)));
}

// erfc(a) for a >= 0, given as a = k * x with x >= 0 and k^2 in {1, 1/2}
// (sq_k = k^2), so that e^{-a^2} = e^{-sq_k x^2} can be formed from x
// without the rounding of a. erfc(a) = e^{-a^2} P(t), t = 1 / (1 + 0.4 a),
// with P of degree 8 fitted to erfc(a) e^{a^2} on [0, 10.1] (beyond, erfc
// underflows): relative error 1.2e-7 in exact arithmetic, 4e-7 evaluated
// in f32 (degree 10 gave 3e-7 there at two more steps).
// e^{-sq_k x^2} is e^{-sq_k xh^2} * e^{-sq_k xl (x + xh)}, xh being x cut
// to 12 significant bits (so xh^2 is exact) and xl = x - xh.
DNNL_ALWAYS_INLINE float erfc_scaled_f(float a, float x, float sq_k) {
    const float ac = a > 10.1f ? 10.1f : a;
    const float t = 1.f / (1.f + 0.4f * ac);
    float p = 0.07034974545f;
    p = p * t + -0.379481554f;
    p = p * t + 0.6631774306f;
    p = p * t + -0.3630985022f;
    p = p * t + 0.4122851789f;
    p = p * t + 0.132545799f;
    p = p * t + 0.2400025427f;
    p = p * t + 0.2241498977f;
    p = p * t + 6.931900862e-05f;
    const float xmax = 14.3f; // 10.1 * sqrt(2)
    const float xc = x > xmax ? xmax : x;
    const float xh = bitsf(fbits(xc) & 0xfffff000u);
    const float xl = xc - xh;
    const float d = -sq_k * xl * (xc + xh); // |d| < 0.05
    float ed = 1.f / 24.f;
    ed = ed * d + 1.f / 6.f;
    ed = ed * d + 0.5f;
    ed = ed * d + 1.f;
    ed = ed * d + 1.f;
    const float r = exp_f(-sq_k * (xh * xh)) * ed * p;
    return a > 10.1f ? 0.f : r;
}
DNNL_ALWAYS_INLINE float erfc_nonneg_f(float a) {
    return erfc_scaled_f(a, a, 1.f);
}

DNNL_ALWAYS_INLINE float erfc_f(float x) {
    const float e = erfc_nonneg_f(abs_f(x));
    const float two_minus_e = 2.f - e;
    return x < 0.f ? two_minus_e : e;
}

// erf: odd Taylor series for |x| < 0.5, 1 - erfc beyond.
DNNL_ALWAYS_INLINE float erf_f(float x) {
    const float z = x * x;
    float p = -1.492565036e-5f;
    p = p * z + 1.205533298e-4f;
    p = p * z + -8.548327023e-4f;
    p = p * z + 5.223977625e-3f;
    p = p * z + -2.686617065e-2f;
    p = p * z + 0.1128379167f;
    p = p * z + -0.376126389f;
    p = p * z + 1.128379167f;
    const float small = x * p;
    const float ax = abs_f(x);
    const float big = copysign_f(1.f - erfc_nonneg_f(ax), x);
    return ax < 0.5f ? small : big;
}

// ---- eltwise algorithms: forward -------------------------------------------
// Names follow dnnl_eltwise_<name>; s is the source value.

DNNL_ALWAYS_INLINE float relu_fwd(float s, float alpha) {
    const float neg = s * alpha;
    return s > 0.f ? s : neg;
}
DNNL_ALWAYS_INLINE float tanh_fwd(float s) {
    return tanh_f(s);
}
DNNL_ALWAYS_INLINE float elu_fwd(float s, float alpha) {
    const float neg = alpha * expm1_nonpos_f(s);
    return s > 0.f ? s : neg;
}
DNNL_ALWAYS_INLINE float square_fwd(float s) {
    return s * s;
}
DNNL_ALWAYS_INLINE float abs_fwd(float s) {
    const float neg = -s;
    return s > 0.f ? s : neg;
}
DNNL_ALWAYS_INLINE float sqrt_fwd(float s) {
    return std::sqrt(s);
}
DNNL_ALWAYS_INLINE float linear_fwd(float s, float alpha, float beta) {
    return alpha * s + beta;
}
// (1 / alpha) * log(1 + e^{alpha s})
DNNL_ALWAYS_INLINE float soft_relu_fwd(float s, float alpha) {
    return softplus_f(alpha * s) / alpha;
}
DNNL_ALWAYS_INLINE float hardsigmoid_fwd(float s, float alpha, float beta) {
    const float v = alpha * s + beta;
    return v <= 0.f ? 0.f : (v >= 1.f ? 1.f : v);
}
DNNL_ALWAYS_INLINE float logistic_fwd(float s) {
    return logistic_f(s);
}
DNNL_ALWAYS_INLINE float exp_fwd(float s) {
    return exp_f(s);
}
// 0.5 s (1 + tanh(sqrt(2/pi) (s + 0.044715 s^3))), written as
// s * logistic(2 g) which has no cancellation for negative s.
DNNL_ALWAYS_INLINE float gelu_tanh_g(float s) {
    return 0.797884560803f * s * (1.f + 0.044715f * s * s);
}
DNNL_ALWAYS_INLINE float gelu_tanh_fwd(float s) {
    return s * logistic_f(2.f * gelu_tanh_g(s));
}
DNNL_ALWAYS_INLINE float swish_fwd(float s, float alpha) {
    return s * logistic_f(alpha * s);
}
DNNL_ALWAYS_INLINE float log_fwd(float s) {
    return log_f(s);
}
// Written with compares as in oneDNN: NaN becomes alpha.
DNNL_ALWAYS_INLINE float clip_fwd(float s, float alpha, float beta) {
    s = s > alpha ? s : alpha;
    return s > beta ? beta : s;
}
DNNL_ALWAYS_INLINE float clip_v2_fwd(float s, float alpha, float beta) {
    s = s > alpha ? s : alpha;
    return s < beta ? s : beta;
}
DNNL_ALWAYS_INLINE float pow_fwd(float s, float alpha, float beta) {
    return alpha * std::pow(s, beta);
}
// 1 + erf(s / sqrt 2) without cancellation: 2 - erfc(u) for u >= 0,
// erfc(-u) else.
DNNL_ALWAYS_INLINE float gelu_erf_cdf2_f(float s) {
    const float as = abs_f(s);
    const float e = erfc_scaled_f(as * 0.707106781187f, as, 0.5f);
    const float two_minus_e = 2.f - e;
    return s < 0.f ? e : two_minus_e;
}
// 0.5 s (1 + erf(s / sqrt(2)))
DNNL_ALWAYS_INLINE float gelu_erf_fwd(float s) {
    return 0.5f * s * gelu_erf_cdf2_f(s);
}
DNNL_ALWAYS_INLINE float round_fwd(float s) {
    return round_f(s);
}
// s * tanh(log(1 + e^s)); with e = e^s, tanh(log(1 + e)) = n / (n + 2),
// n = e (e + 2).
DNNL_ALWAYS_INLINE float mish_fwd(float s) {
    const float e = exp_f(s < 20.f ? s : 20.f);
    const float n = e * (e + 2.f);
    return s * (n / (n + 2.f));
}
// s * hardsigmoid(s)
DNNL_ALWAYS_INLINE float hardswish_fwd(float s, float alpha, float beta) {
    return s * hardsigmoid_fwd(s, alpha, beta);
}

// ---- eltwise algorithms: backward ------------------------------------------
// dd is diff_dst; s the source value, d the destination value (the
// *_use_dst variants). Results are diff_src.

DNNL_ALWAYS_INLINE float relu_bwd(float dd, float s, float alpha) {
    const float neg = dd * alpha;
    return s > 0.f ? dd : neg;
}
DNNL_ALWAYS_INLINE float relu_bwd_use_dst(float dd, float d, float alpha) {
    const float neg = dd * alpha;
    return d > 0.f ? dd : neg;
}
DNNL_ALWAYS_INLINE float tanh_bwd(float dd, float s) {
    const float t = tanh_f(s);
    return dd * (1.f - t) * (1.f + t);
}
DNNL_ALWAYS_INLINE float tanh_bwd_use_dst(float dd, float d) {
    return dd * (1.f - d) * (1.f + d);
}
DNNL_ALWAYS_INLINE float elu_bwd(float dd, float s, float alpha) {
    const float neg = alpha * exp_f(s);
    return dd * (s > 0.f ? 1.f : neg);
}
DNNL_ALWAYS_INLINE float elu_bwd_use_dst(float dd, float d, float alpha) {
    const float neg = d + alpha;
    return dd * (d > 0.f ? 1.f : neg);
}
DNNL_ALWAYS_INLINE float square_bwd(float dd, float s) {
    return dd * 2.f * s;
}
DNNL_ALWAYS_INLINE float abs_bwd(float dd, float s) {
    const float neg = -dd;
    return s > 0.f ? dd : (s < 0.f ? neg : 0.f);
}
DNNL_ALWAYS_INLINE float sqrt_bwd(float dd, float s) {
    return dd / (2.f * std::sqrt(s));
}
DNNL_ALWAYS_INLINE float sqrt_bwd_use_dst(float dd, float d) {
    return dd / (2.f * d);
}
DNNL_ALWAYS_INLINE float linear_bwd(float dd, float alpha) {
    return dd * alpha;
}
DNNL_ALWAYS_INLINE float soft_relu_bwd(float dd, float s, float alpha) {
    return dd * logistic_f(alpha * s);
}
DNNL_ALWAYS_INLINE float hardsigmoid_bwd(
        float dd, float s, float alpha, float beta) {
    const float v = alpha * s + beta;
    const float in = dd * alpha;
    return ((v > 0.f) & (v < 1.f)) ? in : 0.f;
}
// logistic'(s) = v (1 - v)
DNNL_ALWAYS_INLINE float logistic_bwd(float dd, float s) {
    float v, omv;
    logistic_pair_f(s, v, omv);
    return dd * v * omv;
}
DNNL_ALWAYS_INLINE float logistic_bwd_use_dst(float dd, float d) {
    return dd * d * (1.f - d);
}
DNNL_ALWAYS_INLINE float exp_bwd(float dd, float s) {
    return dd * exp_f(s);
}
DNNL_ALWAYS_INLINE float exp_bwd_use_dst(float dd, float d) {
    return dd * d;
}
// With v = logistic(2 g) (= 0.5 (1 + tanh g)):
// d/ds = v (1 + 2 s (1 - v) g'), g' = sqrt(2/pi) (1 + 3 * 0.044715 s^2).
DNNL_ALWAYS_INLINE float gelu_tanh_bwd(float dd, float s) {
    const float g = gelu_tanh_g(s);
    const float dg = 0.797884560803f * (1.f + 3.f * 0.044715f * s * s);
    float v, omv;
    logistic_pair_f(2.f * g, v, omv);
    return dd * v * (1.f + 2.f * s * omv * dg);
}
// v + alpha s v (1 - v) with v = logistic(alpha s)
DNNL_ALWAYS_INLINE float swish_bwd(float dd, float s, float alpha) {
    float v, omv;
    logistic_pair_f(alpha * s, v, omv);
    return dd * (v + alpha * s * v * omv);
}
DNNL_ALWAYS_INLINE float log_bwd(float dd, float s) {
    return dd / s;
}
DNNL_ALWAYS_INLINE float clip_bwd(float dd, float s, float alpha, float beta) {
    return dd * (((alpha < s) & (s <= beta)) ? 1.f : 0.f);
}
DNNL_ALWAYS_INLINE float clip_v2_bwd(
        float dd, float s, float alpha, float beta) {
    return dd * (((alpha < s) & (s < beta)) ? 1.f : 0.f);
}
DNNL_ALWAYS_INLINE float clip_v2_bwd_use_dst(
        float dd, float d, float alpha, float beta) {
    return clip_v2_bwd(dd, d, alpha, beta);
}
DNNL_ALWAYS_INLINE float pow_bwd(float dd, float s, float alpha, float beta) {
    if (beta == 0.f) return 0.f;
    return dd * alpha * beta * std::pow(s, beta - 1.f);
}
// 0.5 (1 + erf(s / sqrt 2)) + s e^{-s^2/2} / sqrt(2 pi)
DNNL_ALWAYS_INLINE float gelu_erf_bwd(float dd, float s) {
    const float cdf = 0.5f * gelu_erf_cdf2_f(s);
    const float pdf = 0.398942280401f * exp_f(-0.5f * s * s);
    return dd * (cdf + s * pdf);
}
// tanh(sp) + s * logistic(s) * (1 - tanh(sp)^2), sp = softplus(s); with
// e = e^s and n = e (e + 2): tanh(sp) = n / (n + 2) and
// 1 - tanh(sp)^2 = 4 (n + 1) / (n + 2)^2.
DNNL_ALWAYS_INLINE float mish_bwd(float dd, float s) {
    const float e = exp_f(s < 20.f ? s : 20.f);
    const float n = e * (e + 2.f);
    const float np2 = n + 2.f;
    const float tsp = n / np2;
    const float sig = e / (1.f + e);
    const float sech2 = 4.f * (n + 1.f) / (np2 * np2);
    return dd * (tsp + s * sig * sech2);
}
DNNL_ALWAYS_INLINE float hardswish_bwd(
        float dd, float s, float alpha, float beta) {
    const float v = alpha * s + beta;
    const float in = dd * (2.f * alpha * s + beta);
    return v <= 0.f ? 0.f : (v >= 1.f ? dd : in);
}

// ---- algorithm properties --------------------------------------------------

// True for the *_use_dst_for_bwd algorithms.
inline bool eltwise_is_use_dst_alg(alg_kind_t alg) {
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

// The algorithm a *_use_dst_for_bwd algorithm computes forward.
inline alg_kind_t eltwise_base_alg(alg_kind_t alg) {
    switch (alg) {
    case dnnl_eltwise_relu_use_dst_for_bwd:
        return dnnl_eltwise_relu;
    case dnnl_eltwise_tanh_use_dst_for_bwd:
        return dnnl_eltwise_tanh;
    case dnnl_eltwise_elu_use_dst_for_bwd:
        return dnnl_eltwise_elu;
    case dnnl_eltwise_sqrt_use_dst_for_bwd:
        return dnnl_eltwise_sqrt;
    case dnnl_eltwise_logistic_use_dst_for_bwd:
        return dnnl_eltwise_logistic;
    case dnnl_eltwise_exp_use_dst_for_bwd:
        return dnnl_eltwise_exp;
    case dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return dnnl_eltwise_clip_v2;
    default:
        return alg;
    }
}

// Any eltwise algorithm kind, valid parameters or not.
inline bool eltwise_is_known_alg(alg_kind_t alg) {
    return (alg >= dnnl_eltwise_relu && alg <= dnnl_eltwise_hardswish)
           || eltwise_is_use_dst_alg(alg);
}

// Whether oneDNN accepts (data type, algorithm, alpha, beta) for an eltwise
// operation: clip needs alpha <= beta, round is f32 only, integer data only
// for relu and linear, and the dst-based relu/elu need alpha >= 0.
inline bool eltwise_params_ok(
        data_type_t src_dt, alg_kind_t alg, float alpha, float beta) {
    if (!eltwise_is_known_alg(alg)) return false;
    const bool is_int =
            src_dt == dnnl_s32 || src_dt == dnnl_s8 || src_dt == dnnl_u8;
    if (eltwise_is_use_dst_alg(alg)) {
        if (is_int) return false;
        if ((alg == dnnl_eltwise_relu_use_dst_for_bwd
                    || alg == dnnl_eltwise_elu_use_dst_for_bwd)
                && !(alpha >= 0.f))
            return false;
        if (alg == dnnl_eltwise_clip_v2_use_dst_for_bwd && !(beta >= alpha))
            return false;
        return true;
    }
    if ((alg == dnnl_eltwise_clip || alg == dnnl_eltwise_clip_v2)
            && !(beta >= alpha))
        return false;
    if (alg == dnnl_eltwise_round && src_dt != dnnl_f32) return false;
    if (is_int && alg != dnnl_eltwise_relu && alg != dnnl_eltwise_linear)
        return false;
    return true;
}

// f(0) == 0 for the forward algorithm (padding may be processed as data).
inline bool eltwise_fwd_preserves_zero(
        alg_kind_t alg, float alpha, float beta) {
    switch (eltwise_base_alg(alg)) {
    case dnnl_eltwise_relu:
    case dnnl_eltwise_tanh:
    case dnnl_eltwise_elu:
    case dnnl_eltwise_square:
    case dnnl_eltwise_abs:
    case dnnl_eltwise_sqrt:
    case dnnl_eltwise_swish:
    case dnnl_eltwise_gelu_tanh:
    case dnnl_eltwise_gelu_erf:
    case dnnl_eltwise_round:
    case dnnl_eltwise_hardswish:
    case dnnl_eltwise_mish:
        return true;
    case dnnl_eltwise_clip:
    case dnnl_eltwise_clip_v2:
        return alpha <= 0.f && beta >= 0.f;
    case dnnl_eltwise_linear:
        return beta == 0.f;
    case dnnl_eltwise_pow:
        return beta > 0.f;
    default:
        return false;
    }
}

// ---- entry points ----------------------------------------------------------

// Forward value of algorithm `alg` (the *_use_dst_for_bwd kinds compute
// their base algorithm). Meaning of alpha / beta:
//   relu: negative slope alpha        elu: alpha (e^s - 1) for s <= 0
//   linear: alpha s + beta            soft_relu: log(1 + e^{alpha s}) / alpha
//   hardsigmoid / hardswish: clamp(alpha s + beta, 0, 1) [* s]
//   swish: s logistic(alpha s)        clip / clip_v2: clamp to [alpha, beta]
//   pow: alpha s^beta                 others: unused
inline float eltwise_fwd(alg_kind_t alg, float s, float alpha, float beta) {
    switch (eltwise_base_alg(alg)) {
    case dnnl_eltwise_relu:
        return relu_fwd(s, alpha);
    case dnnl_eltwise_tanh:
        return tanh_fwd(s);
    case dnnl_eltwise_elu:
        return elu_fwd(s, alpha);
    case dnnl_eltwise_square:
        return square_fwd(s);
    case dnnl_eltwise_abs:
        return abs_fwd(s);
    case dnnl_eltwise_sqrt:
        return sqrt_fwd(s);
    case dnnl_eltwise_linear:
        return linear_fwd(s, alpha, beta);
    case dnnl_eltwise_soft_relu:
        return soft_relu_fwd(s, alpha);
    case dnnl_eltwise_hardsigmoid:
        return hardsigmoid_fwd(s, alpha, beta);
    case dnnl_eltwise_logistic:
        return logistic_fwd(s);
    case dnnl_eltwise_exp:
        return exp_fwd(s);
    case dnnl_eltwise_gelu_tanh:
        return gelu_tanh_fwd(s);
    case dnnl_eltwise_swish:
        return swish_fwd(s, alpha);
    case dnnl_eltwise_log:
        return log_fwd(s);
    case dnnl_eltwise_clip:
        return clip_fwd(s, alpha, beta);
    case dnnl_eltwise_clip_v2:
        return clip_v2_fwd(s, alpha, beta);
    case dnnl_eltwise_pow:
        return pow_fwd(s, alpha, beta);
    case dnnl_eltwise_gelu_erf:
        return gelu_erf_fwd(s);
    case dnnl_eltwise_round:
        return round_fwd(s);
    case dnnl_eltwise_mish:
        return mish_fwd(s);
    case dnnl_eltwise_hardswish:
        return hardswish_fwd(s, alpha, beta);
    default:
        return nan_f();
    }
}

// diff_src for diff_dst `dd`; `v` is the source value, or the destination
// value for the *_use_dst_for_bwd algorithms.
inline float eltwise_bwd(
        alg_kind_t alg, float dd, float v, float alpha, float beta) {
    switch (alg) {
    case dnnl_eltwise_relu:
        return relu_bwd(dd, v, alpha);
    case dnnl_eltwise_tanh:
        return tanh_bwd(dd, v);
    case dnnl_eltwise_elu:
        return elu_bwd(dd, v, alpha);
    case dnnl_eltwise_square:
        return square_bwd(dd, v);
    case dnnl_eltwise_abs:
        return abs_bwd(dd, v);
    case dnnl_eltwise_sqrt:
        return sqrt_bwd(dd, v);
    case dnnl_eltwise_linear:
        return linear_bwd(dd, alpha);
    case dnnl_eltwise_soft_relu:
        return soft_relu_bwd(dd, v, alpha);
    case dnnl_eltwise_hardsigmoid:
        return hardsigmoid_bwd(dd, v, alpha, beta);
    case dnnl_eltwise_logistic:
        return logistic_bwd(dd, v);
    case dnnl_eltwise_exp:
        return exp_bwd(dd, v);
    case dnnl_eltwise_gelu_tanh:
        return gelu_tanh_bwd(dd, v);
    case dnnl_eltwise_swish:
        return swish_bwd(dd, v, alpha);
    case dnnl_eltwise_log:
        return log_bwd(dd, v);
    case dnnl_eltwise_clip:
        return clip_bwd(dd, v, alpha, beta);
    case dnnl_eltwise_clip_v2:
        return clip_v2_bwd(dd, v, alpha, beta);
    case dnnl_eltwise_pow:
        return pow_bwd(dd, v, alpha, beta);
    case dnnl_eltwise_gelu_erf:
        return gelu_erf_bwd(dd, v);
    case dnnl_eltwise_mish:
        return mish_bwd(dd, v);
    case dnnl_eltwise_hardswish:
        return hardswish_bwd(dd, v, alpha, beta);
    case dnnl_eltwise_relu_use_dst_for_bwd:
        return relu_bwd_use_dst(dd, v, alpha);
    case dnnl_eltwise_tanh_use_dst_for_bwd:
        return tanh_bwd_use_dst(dd, v);
    case dnnl_eltwise_elu_use_dst_for_bwd:
        return elu_bwd_use_dst(dd, v, alpha);
    case dnnl_eltwise_sqrt_use_dst_for_bwd:
        return sqrt_bwd_use_dst(dd, v);
    case dnnl_eltwise_logistic_use_dst_for_bwd:
        return logistic_bwd_use_dst(dd, v);
    case dnnl_eltwise_exp_use_dst_for_bwd:
        return exp_bwd_use_dst(dd, v);
    case dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return clip_v2_bwd_use_dst(dd, v, alpha, beta);
    default:
        return nan_f(); // round has no backward
    }
}

// ---- binary operations -----------------------------------------------------

DNNL_ALWAYS_INLINE float binary_add(float a, float b) {
    return a + b;
}
DNNL_ALWAYS_INLINE float binary_mul(float a, float b) {
    return a * b;
}
DNNL_ALWAYS_INLINE float binary_max(float a, float b) {
    return a > b ? a : b;
}
DNNL_ALWAYS_INLINE float binary_min(float a, float b) {
    return a < b ? a : b;
}
DNNL_ALWAYS_INLINE float binary_div(float a, float b) {
    return a / b;
}
DNNL_ALWAYS_INLINE float binary_sub(float a, float b) {
    return a - b;
}
DNNL_ALWAYS_INLINE float binary_ge(float a, float b) {
    return a >= b ? 1.f : 0.f;
}
DNNL_ALWAYS_INLINE float binary_gt(float a, float b) {
    return a > b ? 1.f : 0.f;
}
DNNL_ALWAYS_INLINE float binary_le(float a, float b) {
    return a <= b ? 1.f : 0.f;
}
DNNL_ALWAYS_INLINE float binary_lt(float a, float b) {
    return a < b ? 1.f : 0.f;
}
DNNL_ALWAYS_INLINE float binary_eq(float a, float b) {
    return a == b ? 1.f : 0.f;
}
DNNL_ALWAYS_INLINE float binary_ne(float a, float b) {
    return a != b ? 1.f : 0.f;
}
// c selects: a where c is non-zero, b elsewhere.
DNNL_ALWAYS_INLINE float binary_select(float a, float b, float c) {
    return c != 0.f ? a : b;
}
// A select post-op keeps the primitive's value where its condition is
// positive (what oneDNN 3.13's CPU implementations compute: a negative or
// NaN condition selects src1), unlike the select primitive's non-zero test.
DNNL_ALWAYS_INLINE float post_op_select(float acc, float src1, float c) {
    return c > 0.f ? acc : src1;
}

inline bool is_binary_alg(alg_kind_t alg) {
    return alg >= dnnl_binary_add && alg <= dnnl_binary_select;
}

// a = src0, b = src1, c = src2 (select's condition only).
inline float binary_op(alg_kind_t alg, float a, float b, float c = 0.f) {
    switch (alg) {
    case dnnl_binary_add:
        return binary_add(a, b);
    case dnnl_binary_mul:
        return binary_mul(a, b);
    case dnnl_binary_max:
        return binary_max(a, b);
    case dnnl_binary_min:
        return binary_min(a, b);
    case dnnl_binary_div:
        return binary_div(a, b);
    case dnnl_binary_sub:
        return binary_sub(a, b);
    case dnnl_binary_ge:
        return binary_ge(a, b);
    case dnnl_binary_gt:
        return binary_gt(a, b);
    case dnnl_binary_le:
        return binary_le(a, b);
    case dnnl_binary_lt:
        return binary_lt(a, b);
    case dnnl_binary_eq:
        return binary_eq(a, b);
    case dnnl_binary_ne:
        return binary_ne(a, b);
    case dnnl_binary_select:
        return binary_select(a, b, c);
    default:
        return nan_f();
    }
}

} // namespace math
} // namespace impl
} // namespace dnnl
