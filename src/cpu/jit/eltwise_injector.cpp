// The eltwise injector's algorithms (see eltwise_injector.hpp). Each
// block mirrors its scalar counterpart in common/math/eltwise_math.hpp;
// comments name the scalar step where the vector form differs.
#include "cpu/jit/eltwise_injector.hpp"

#include "common/math/eltwise_math.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

using namespace Xbyak;

namespace {

// vcmpps predicates (ordered, quiet unless named _uq / unord).
constexpr int eq_oq = 0x00, unord_q = 0x03, lt_oq = 0x11, ge_oq = 0x1d,
              gt_oq = 0x1e, ngt_uq = 0x1a;
constexpr uint32_t abs_bits = 0x7fffffffu, sign_bits = 0x80000000u;

// Horner steps p = p * x + c for each coefficient, highest degree first.
void horner(jit_generator_t &g, const Xmm &p, const Xmm &x,
        std::initializer_list<float> coefs) {
    for (float c : coefs) g.vfmadd213ps(p, x, g.bcast(c));
}

} // namespace

bool eltwise_injector_t::supports(alg_kind_t alg, float alpha, float beta) {
    switch (math::eltwise_base_alg(alg)) {
    case dnnl_eltwise_relu:
    case dnnl_eltwise_tanh:
    case dnnl_eltwise_elu:
    case dnnl_eltwise_square:
    case dnnl_eltwise_abs:
    case dnnl_eltwise_sqrt:
    case dnnl_eltwise_linear:
    case dnnl_eltwise_soft_relu:
    case dnnl_eltwise_hardsigmoid:
    case dnnl_eltwise_logistic:
    case dnnl_eltwise_exp:
    case dnnl_eltwise_gelu_tanh:
    case dnnl_eltwise_swish:
    case dnnl_eltwise_log:
    case dnnl_eltwise_clip:
    case dnnl_eltwise_clip_v2:
    case dnnl_eltwise_gelu_erf:
    case dnnl_eltwise_round:
    case dnnl_eltwise_mish:
    case dnnl_eltwise_hardswish:
        return true;
    // Other exponents go through libm's pow in the compiled kernels.
    case dnnl_eltwise_pow:
        return beta == 0.f || beta == 1.f || beta == 2.f || beta == -1.f;
    default:
        return false;
    }
}

eltwise_injector_t::eltwise_injector_t(jit_generator_t &g, alg_kind_t alg,
        float alpha, float beta, const std::vector<int> &scratch, int mask_vreg)
    : g_(g), alg_(math::eltwise_base_alg(alg)), alpha_(alpha), beta_(beta),
      scratch_(scratch), mask_vreg_(mask_vreg) {}

void eltwise_injector_t::cmp(const Xmm &a, const Operand &b, int predicate) {
    if (g_.is_zmm())
        g_.vcmpps(g_.k1, a, b, predicate);
    else
        g_.vcmpps(g_.vreg(mask_vreg_), a, b, predicate);
}

void eltwise_injector_t::select(const Xmm &dst, const Operand &src) {
    if (g_.is_zmm())
        g_.vblendmps(dst | g_.k1, dst, src);
    else
        g_.vblendvps(dst, dst, src, g_.vreg(mask_vreg_));
}

void eltwise_injector_t::vand(const Xmm &d, const Xmm &a, const Operand &b) {
    g_.vandps(d, a, b);
}

void eltwise_injector_t::vor(const Xmm &d, const Xmm &a, const Operand &b) {
    g_.vorps(d, a, b);
}

void eltwise_injector_t::reciprocal(const Xmm &r, const Xmm &d, const Xmm &e) {
    auto &g = g_;
    if (g.is_zmm())
        g.vrcp14ps(r, d);
    else
        g.vrcpps(r, d);
    g.vmovaps(e, d);
    g.vfnmadd213ps(e, r, c(1.f)); // e = 1 - d r
    g.vfmadd231ps(r, e, r);       // r += r e
}

// exp_reduce_f: k = round(x log2 e), x = r = x - k ln2 (ln2 in two
// parts).
void eltwise_injector_t::exp_reduce(const Xmm &x, const Xmm &k) {
    auto &g = g_;
    g.vmulps(k, x, c(1.44269504088896341f));
    if (g.is_zmm())
        g.vrndscaleps(k, k, 0);
    else
        g.vroundps(k, k, 0);
    g.vfnmadd231ps(x, k, c(0.693359375f));
    g.vfnmadd231ps(x, k, c(-2.12194440e-4f));
}

// y = f u(r) (exp_reduced_u_f's polynomial), or f e^r = f (1 + r u(r))
// with `times_r_plus_1`; f a power of two, so every step scales exactly.
void eltwise_injector_t::exp_poly(
        const Xmm &y, const Xmm &r, float f, bool times_r_plus_1) {
    g_.load_const(y, f * 1.38144125e-3f);
    horner(g_, y, r,
            {f * 8.36870819e-3f, f * 4.16683890e-2f, f * 1.66665211e-1f,
                    f * 4.99999940e-1f, f});
    if (times_r_plus_1) g_.vfmadd213ps(y, r, c(f));
}

// exp_f: clamp, k = round(x log2 e), r = x - k ln2 (ln2 in two parts),
// e^r = 1 + r u(r) (exp_reduced_u_f's degree-6 fit), times 2^k as one
// factor. Unlike exp_f, no subnormal is ever made (see the exp algorithm
// in compute): x is clamped below at -87 (normal_only) or -86.6, where
// the top of the range (k = 128, x up to 88.7) is reached as
// (2 e^r) 2^(k-1), the polynomial's coefficients doubled (exactly). NaN
// becomes the lower clamp; callers that care put it back.
void eltwise_injector_t::exp(
        const Xmm &y, const Xmm &x, const Xmm &k, bool normal_only) {
    auto &g = g_;
    const float f = normal_only ? 1.f : 2.f; // e^r's factor
    g.vmaxps(x, x, c(normal_only ? -87.f : -86.6f));
    g.vminps(x, x, c(normal_only ? 88.f : 89.f));
    exp_reduce(x, k);
    exp_poly(y, x, f, true);
    g.vcvtps2dq(k, k);
    // 2^k (normal_only: k in [-126, 127]) or 2^(k-1) (k - 1 in [-126, 127]).
    g.vpaddd(k, k, ci(normal_only ? 127 : 126));
    g.vpslld(k, k, 23);
    g.vmulps(y, y, k);
}

// expm1_nonpos_f: e^x - 1 for x <= 0 (larger x count as 0; the callers
// select another value there) as 2^k s + (2^k - 1), s = r u(r). NaN
// stays.
void eltwise_injector_t::expm1_nonpos(const Xmm &y, const Xmm &x, const Xmm &t0,
        const Xmm &t1, const Xmm &t2) {
    auto &g = g_;
    g.vmaxps(t0, x, c(-88.f));
    g.vminps(t0, t0, c(0.f));
    exp_reduce(t0, t1);
    exp_poly(y, t0, 1.f, false); // u
    g.vmulps(y, y, t0);          // s
    g.vcvtps2dq(t1, t1);
    g.vpaddd(t1, t1, ci(127));
    g.vpslld(t1, t1, 23); // 2^k
    g.vsubps(t2, t1, c(1.f));
    g.vfmadd213ps(y, t1, t2);
    cmp(x, x, unord_q);
    select(y, x);
}

// log_f without its special inputs: subnormals scaled by 2^23, x = 2^e m
// with m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f) and the
// atanh series in s^2.
void eltwise_injector_t::log_core(const Xmm &v, const Xmm &t0, const Xmm &t1,
        const Xmm &t2, const Xmm &t3) {
    auto &g = g_;
    g.vmulps(t0, v, c(8388608.f));
    cmp(v, c(1.17549435e-38f), lt_oq);
    g.vxorps(t1, t1, t1);
    select(t1, c(-23.f));
    select(v, t0);
    g.vpsrld(t0, v, 23);
    vand(t0, t0, ci(0xffu));
    g.vpsubd(t0, t0, ci(127));
    g.vcvtdq2ps(t0, t0);
    g.vaddps(t1, t1, t0); // exponent
    vand(v, v, ci(0x007fffffu));
    vor(v, v, ci(0x3f800000u)); // mantissa in [1, 2)
    cmp(v, c(1.41421356f), gt_oq);
    g.vmulps(t0, v, c(0.5f));
    select(v, t0);
    g.vaddps(t0, t1, c(1.f));
    select(t1, t0);
    g.vsubps(v, v, c(1.f)); // f
    g.vaddps(t0, v, c(2.f));
    g.vdivps(t0, v, t0);  // s
    g.vmulps(t2, t0, t0); // z
    g.load_const(t3, 2.f / 9);
    horner(g, t3, t2, {2.f / 7, 2.f / 5, 2.f / 3});
    g.vmulps(t3, t3, t2); // R
    g.vmulps(t2, v, v);
    g.vmulps(t2, t2, c(0.5f)); // hfsq
    g.vaddps(t3, t3, t2);
    g.vmulps(t3, t3, t0);
    g.vfmadd231ps(t3, t1, c(-2.12194440e-4f));
    g.vsubps(t2, t2, t3);
    g.vsubps(t2, t2, v);
    g.vmulps(v, t1, c(0.693359375f));
    g.vsubps(v, v, t2);
}

// logistic_f: e = e^{-|x|}, q = 1 / (1 + e); q for x >= 0, e q else, 0
// below -87 (no subnormal).
void eltwise_injector_t::logistic(
        const Xmm &y, const Xmm &x, const Xmm &t0, const Xmm &t1) {
    auto &g = g_;
    vor(t0, x, ci(sign_bits));
    exp(y, t0, t1, true); // no subnormal e (see compute's exp)
    g.vaddps(t1, y, c(1.f));
    reciprocal(t0, t1, t1); // 1 + e is in [1, 2]; e may overwrite d
    g.vmulps(y, y, t0);
    cmp(x, c(0.f), ge_oq);
    select(y, t0);
    cmp(x, c(-87.f), lt_oq); // 0 where e^x is no normal number
    select(y, c(0.f));
    cmp(x, x, unord_q);
    select(y, x);
}

// clamp(alpha x + beta, 0, 1); max/min with the bound first keep NaN.
void eltwise_injector_t::hardsigmoid(
        const Xmm &y, const Xmm &x, const Xmm &t0) {
    auto &g = g_;
    g.vmulps(y, x, c(alpha_));
    g.vaddps(y, y, c(beta_));
    g.vxorps(t0, t0, t0);
    g.vmaxps(y, t0, y);
    g.load_const(t0, 1.f);
    g.vminps(y, t0, y);
}

void eltwise_injector_t::relu(const Xmm &x) {
    auto &g = g_;
    if (alpha_ == 0.f) {
        g.vxorps(t(0), t(0), t(0));
        g.vmaxps(x, t(0), x); // NaN stays
        return;
    }
    g.vmulps(t(0), x, c(alpha_));
    cmp(x, c(0.f), ngt_uq);
    select(x, t(0));
}

// tanh_f: e = expm1_nonpos(-2|x|), |tanh x| = -e / (e + 2), sign copied back.
void eltwise_injector_t::tanh(const Xmm &x) {
    auto &g = g_;
    vand(t(0), x, ci(abs_bits));
    g.vmulps(t(0), t(0), c(-2.f));
    expm1_nonpos(t(1), t(0), t(2), t(3), t(4));
    g.vaddps(t(2), t(1), c(2.f));
    g.vdivps(t(1), t(1), t(2));
    vand(t(1), t(1), ci(abs_bits));
    vand(t(2), x, ci(sign_bits));
    vor(x, t(1), t(2));
}

void eltwise_injector_t::elu(const Xmm &x) {
    expm1_nonpos(t(0), x, t(1), t(2), t(3));
    g_.vmulps(t(0), t(0), c(alpha_));
    cmp(x, c(0.f), ngt_uq);
    select(x, t(0));
}

void eltwise_injector_t::log(const Xmm &x) {
    g_.vmovaps(t(0), x);
    log_core(t(0), t(1), t(2), t(3), t(4));
    cmp(x, c(0.f), eq_oq);
    select(t(0), ci(0xff800000u));  // -inf
    cmp(x, ci(0x7f800000u), eq_oq); // +inf
    select(t(0), x);
    cmp(x, c(0.f), lt_oq);
    select(t(0), ci(0x7fc00000u)); // NaN
    cmp(x, x, unord_q);
    select(t(0), x);
    g_.vmovaps(x, t(0));
}

// softplus(alpha x) / alpha = max(a, 0) + log1p(e^{-|a|}), a = alpha x,
// with log1p(e) = log(u) + (e - (u - 1)) / u, u = 1 + e.
void eltwise_injector_t::soft_relu(const Xmm &x) {
    auto &g = g_;
    g.vmulps(x, x, c(alpha_));
    vor(t(0), x, ci(sign_bits));
    exp(t(1), t(0), t(2), true);
    g.vxorps(t(0), t(0), t(0));
    g.vmaxps(x, t(0), x);
    g.vaddps(t(2), t(1), c(1.f));
    g.vsubps(t(3), t(2), c(1.f));
    g.vsubps(t(3), t(1), t(3));
    g.vdivps(t(3), t(3), t(2));
    log_core(t(2), t(0), t(1), t(4), t(5));
    g.vaddps(t(2), t(2), t(3));
    g.vaddps(x, x, t(2));
    if (alpha_ != 1.f) g.vdivps(x, x, c(alpha_));
}

// x logistic(2 g), g = sqrt(2/pi) x (1 + 0.044715 x^2).
void eltwise_injector_t::gelu_tanh(const Xmm &x) {
    auto &g = g_;
    g.vmulps(t(0), x, c(0.044715f));
    g.vmulps(t(0), t(0), x);
    g.vaddps(t(0), t(0), c(1.f));
    g.vmulps(t(1), x, c(0.797884560803f));
    g.vmulps(t(0), t(1), t(0));
    g.vaddps(t(0), t(0), t(0));
    logistic(t(1), t(0), t(2), t(3));
    g.vmulps(x, x, t(1));
}

// 0.5 x (1 + erf(x / sqrt 2)) through erfc_scaled_f: with a = |x| / sqrt 2,
// erfc(a) = e^{-x^2/2} P(1 / (1 + 0.4 a)); 2 - erfc for x >= 0, erfc
// else (no cancellation in the negative tail). Unlike the scalar version,
// e^{-x^2/2} takes the rounded x^2 (see below), t the reciprocal
// estimate (a division measured 1.4x slower on AVX-512, equal on AVX2),
// and erfc is 0 from |x| = 12.6 on (a = 8.9), with x clamped there:
// below, e^{-x^2/2} P(t) stays above 1e-36, so no lane ever makes a
// subnormal, whose microcode assists cost 2.3x on whole tensors of large
// values (gelu(-12.6) is -1e-35 already). NaN and infinities come out of
// the arithmetic (gelu(-inf) = -inf * 0, NaN, as the formula gives).
void eltwise_injector_t::gelu_erf(const Xmm &x) {
    auto &g = g_;
    vand(t(0), x, ci(abs_bits));
    g.vmulps(t(2), t(0), c(0.4f * 0.707106781187f));
    g.vminps(t(2), t(2), c(0.4f * 10.1f));
    g.vaddps(t(2), t(2), c(1.f));
    reciprocal(t(3), t(2), t(4)); // t; 1 + 0.4 a is in [1, 5.04]
    g.load_const(t(2), 0.07034974545f);
    horner(g, t(2), t(3),
            {-0.379481554f, 0.6631774306f, -0.3630985022f, 0.4122851789f,
                    0.132545799f, 0.2400025427f, 0.2241498977f,
                    6.931900862e-05f});
    // e^{-x^2/2} from the rounded square: its relative error (x^2/2
    // times an ulp, below 1e-5 where erfc is still above the f32 range's
    // floor) stays far inside the tests' bound and saves the split.
    g.vminps(t(4), t(0), c(12.6f)); // xc
    g.vmulps(t(4), t(4), t(4));
    g.vmulps(t(4), t(4), c(-0.5f));
    exp(t(3), t(4), t(1), true);
    cmp(t(0), c(12.6f), gt_oq);
    select(t(3), c(0.f));
    g.vmovaps(t(4), t(3));
    g.vfnmadd213ps(t(4), t(2), c(2.f)); // 2 - erfc
    g.vmulps(t(3), t(3), t(2));         // erfc
    cmp(x, c(0.f), lt_oq);
    select(t(4), t(3));
    g.vmulps(x, x, c(0.5f));
    g.vmulps(x, x, t(4));
}

// x n / (n + 2), n = e (e + 2), e = e^{min(x, 20)}.
void eltwise_injector_t::mish(const Xmm &x) {
    auto &g = g_;
    g.vminps(t(0), x, c(20.f));
    exp(t(1), t(0), t(2), true);
    cmp(x, c(-87.f), lt_oq); // e = 0 where e^x is no normal number
    select(t(1), c(0.f));
    g.vaddps(t(2), t(1), c(2.f));
    g.vmulps(t(1), t(1), t(2));
    g.vaddps(t(2), t(1), c(2.f));
    g.vdivps(t(1), t(1), t(2));
    g.vmulps(x, x, t(1));
}

void eltwise_injector_t::pow(const Xmm &x) {
    auto &g = g_;
    if (beta_ == 0.f) {
        g.load_const(x, alpha_);
    } else if (beta_ == 1.f) {
        g.vmulps(x, x, c(alpha_));
    } else if (beta_ == 2.f) {
        g.vmulps(x, x, x);
        g.vmulps(x, x, c(alpha_));
    } else { // -1
        g.load_const(t(0), 1.f);
        g.vdivps(t(0), t(0), x);
        g.vmulps(x, t(0), c(alpha_));
    }
}

void eltwise_injector_t::compute(const Xmm &x) {
    auto &g = g_;
    switch (alg_) {
    case dnnl_eltwise_relu:
        relu(x);
        break;
    case dnnl_eltwise_tanh:
        tanh(x);
        break;
    case dnnl_eltwise_elu:
        elu(x);
        break;
    case dnnl_eltwise_square:
        g.vmulps(x, x, x);
        break;
    case dnnl_eltwise_abs:
        vand(x, x, ci(abs_bits));
        break;
    case dnnl_eltwise_sqrt:
        g.vsqrtps(x, x);
        break;
    case dnnl_eltwise_linear:
        g.vmulps(x, x, c(alpha_));
        g.vaddps(x, x, c(beta_));
        break;
    case dnnl_eltwise_soft_relu:
        soft_relu(x);
        break;
    case dnnl_eltwise_hardsigmoid:
        hardsigmoid(t(0), x, t(1));
        g.vmovaps(x, t(0));
        break;
    case dnnl_eltwise_logistic:
        logistic(t(0), x, t(1), t(2));
        g.vmovaps(x, t(0));
        break;
    case dnnl_eltwise_exp:
        // Results from x < -86.6 are 0 (e^-86.6 is 2.4e-38, twice the
        // smallest normal number; oneDNN's generated code cuts at ln
        // 2^-126), never subnormal: every operation on a subnormal takes
        // a microcode assist, 2-3x the whole kernel's time on inputs such
        // as masked attention scores (measured on AVX2). The other users
        // of exp never make one either.
        g.vmovaps(t(0), x);
        exp(t(1), t(0), t(2));
        cmp(x, c(-86.6f), lt_oq);
        select(t(1), c(0.f));
        cmp(x, x, unord_q);
        select(t(1), x);
        g.vmovaps(x, t(1));
        break;
    case dnnl_eltwise_gelu_tanh:
        gelu_tanh(x);
        break;
    case dnnl_eltwise_swish:
        g.vmulps(t(0), x, c(alpha_));
        logistic(t(1), t(0), t(2), t(3));
        g.vmulps(x, x, t(1));
        break;
    case dnnl_eltwise_log:
        log(x);
        break;
    case dnnl_eltwise_clip: // max(x, alpha) keeps alpha for NaN, as > does
        g.vmaxps(x, x, c(alpha_));
        g.load_const(t(0), beta_);
        g.vminps(x, t(0), x);
        break;
    case dnnl_eltwise_clip_v2:
        g.vmaxps(x, x, c(alpha_));
        g.vminps(x, x, c(beta_));
        break;
    case dnnl_eltwise_pow:
        pow(x);
        break;
    case dnnl_eltwise_gelu_erf:
        gelu_erf(x);
        break;
    case dnnl_eltwise_round:
        if (g.is_zmm())
            g.vrndscaleps(x, x, 0);
        else
            g.vroundps(x, x, 0);
        break;
    case dnnl_eltwise_mish:
        mish(x);
        break;
    case dnnl_eltwise_hardswish:
        hardsigmoid(t(0), x, t(1));
        g.vmulps(x, x, t(0));
        break;
    default:
        break;
    }
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
