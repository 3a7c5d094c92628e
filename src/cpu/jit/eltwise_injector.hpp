// Emits the forward eltwise algorithms on vector registers (AVX-512 zmm
// or AVX2 ymm) into a jit_generator_t. The arithmetic follows the scalar
// math module (common/math/eltwise_math.hpp) step by step, same range
// reductions and polynomials, so generated and compiled kernels agree
// within the tests' bounds; the few departures (reciprocal estimates,
// gelu_erf's exponential, no subnormal results or intermediates) are
// marked where they happen. Kernels own the loops; the injector only
// transforms one register in place, with scratch registers and a mask
// the kernel lends it (shared by all values: renaming keeps unrolled
// copies independent).
#pragma once

#include <vector>

#include "common/c_types.hpp"
#include "cpu/jit/jit_generator.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

class eltwise_injector_t {
public:
    // Scratch vector registers compute() needs at most (besides the mask:
    // k1 on AVX-512, one more vector register on AVX2).
    static constexpr int n_scratch = 6;

    // Whether the forward algorithm (or a *_use_dst_for_bwd kind, which
    // computes its base algorithm) with these parameters is generated;
    // the others stay with the compiled kernels.
    static bool supports(alg_kind_t alg, float alpha, float beta);

    // `scratch`: n_scratch register indices; `mask_vreg`: the AVX2 mask
    // register index (unused on AVX-512, which uses k1).
    eltwise_injector_t(jit_generator_t &g, alg_kind_t alg, float alpha,
            float beta, const std::vector<int> &scratch, int mask_vreg);

    // x = f(x).
    void compute(const Xbyak::Xmm &x);

private:
    using Xmm = Xbyak::Xmm;
    using Operand = Xbyak::Operand;

    Xmm t(int i) const { return g_.vreg(scratch_[i]); }
    // The mask is set by a comparison and used by select: dst = m ? src : dst.
    void cmp(const Xmm &a, const Operand &b, int predicate);
    void select(const Xmm &dst, const Operand &src);
    Xbyak::Address c(float v) { return g_.bcast(v); }
    Xbyak::Address ci(uint32_t bits) { return g_.bcast_bits(bits); }
    void vand(const Xmm &d, const Xmm &a, const Operand &b);
    void vor(const Xmm &d, const Xmm &a, const Operand &b);
    // r = 1 / d for d in [1, 8): the hardware estimate and one Newton
    // step (within 2 ulp), far cheaper than a division; writes e too
    // (e may be d).
    void reciprocal(const Xmm &r, const Xmm &d, const Xmm &e);

    // Building blocks; each says which registers it writes.
    // y = e^x, x is consumed; x below -86.6 counts as that (no
    // subnormal results: callers zero them where it matters).
    // `normal_only`: -87 instead, and x above 88 counts as 88, for
    // callers that never reach it (the same instructions).
    // expm1_nonpos: y = e^x - 1 for x <= 0 (x is kept; larger x count
    // as 0).
    void exp(const Xmm &y, const Xmm &x, const Xmm &tmp,
            bool normal_only = false);
    void exp_reduce(const Xmm &x, const Xmm &k);
    void exp_poly(const Xmm &y, const Xmm &r, float f, bool times_r_plus_1);
    void expm1_nonpos(const Xmm &y, const Xmm &x, const Xmm &t0, const Xmm &t1,
            const Xmm &t2);
    void log_core(const Xmm &v, const Xmm &t0, const Xmm &t1, const Xmm &t2,
            const Xmm &t3); // v = log(v) for v > 0 or NaN
    void logistic(const Xmm &y, const Xmm &x, const Xmm &t0, const Xmm &t1);
    void hardsigmoid(const Xmm &y, const Xmm &x, const Xmm &t0);

    void relu(const Xmm &x);
    void tanh(const Xmm &x);
    void elu(const Xmm &x);
    void log(const Xmm &x);
    void soft_relu(const Xmm &x);
    void gelu_tanh(const Xmm &x);
    void gelu_erf(const Xmm &x);
    void mish(const Xmm &x);
    void pow(const Xmm &x);

    jit_generator_t &g_;
    alg_kind_t alg_;
    float alpha_, beta_;
    std::vector<int> scratch_;
    int mask_vreg_;
};

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
