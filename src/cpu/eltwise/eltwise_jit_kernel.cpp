// The generated forward eltwise kernel: its loop (unrolled body, single
// vectors, a masked tail), its kernel-cache key and its creation.
#include "cpu/eltwise/eltwise_jit_kernel.hpp"

#include <cstring>
#include <functional>

#include "oneapi/dnnl/dnnl_debug.h"

#include "common/verbose.hpp"
#include "cpu/eltwise/eltwise_kernel_name.hpp"
#include "cpu/jit/eltwise_injector.hpp"
#include "cpu/jit/jit_generator.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

namespace {

using namespace Xbyak;

// Vector values per iteration of the main loop: enough independent work
// to hide latencies of the cheap algorithms; the expensive ones are
// bound by their arithmetic either way.
constexpr int unroll = 4;

class fwd_generator_t : public jit::jit_generator_t {
public:
    explicit fwd_generator_t(const jit_kernel_config_t &cfg)
        : jit_generator_t(jit_kernel_name(cfg), cfg.target->zmm), cfg_(cfg) {}

    void generate() {
        // Registers: values 0..unroll-1; the injector's scratch above them
        // (zmm16+ on AVX-512); on AVX2 its mask and the tail mask.
        const bool z = is_zmm();
        std::vector<int> scratch;
        for (int i = 0; i < jit::eltwise_injector_t::n_scratch; ++i)
            scratch.push_back((z ? 16 : unroll) + i);
        const int inj_mask = unroll + jit::eltwise_injector_t::n_scratch;
        const Xmm tail_mask = vreg(inj_mask + 1);
        jit::eltwise_injector_t inj(
                *this, cfg_.alg, cfg_.alpha, cfg_.beta, scratch, inj_mask);

        const Reg64 src = rdi, dst = rsi, n = rdx;
        const int vl = vlen_bytes() / 4, vb = vlen_bytes();
        Label main_loop, single_loop, tail, done;
        preamble();

        L(main_loop);
        cmp(n, unroll * vl);
        jb(single_loop, T_NEAR);
        for (int u = 0; u < unroll; ++u) vmovups(vreg(u), ptr[src + u * vb]);
        for (int u = 0; u < unroll; ++u) inj.compute(vreg(u));
        for (int u = 0; u < unroll; ++u) vmovups(ptr[dst + u * vb], vreg(u));
        add(src, unroll * vb);
        add(dst, unroll * vb);
        sub(n, unroll * vl);
        jmp(main_loop, T_NEAR);

        L(single_loop);
        cmp(n, vl);
        jb(tail, T_NEAR);
        vmovups(vreg(0), ptr[src]);
        inj.compute(vreg(0));
        vmovups(ptr[dst], vreg(0));
        add(src, vb);
        add(dst, vb);
        sub(n, vl);
        jmp(single_loop, T_NEAR);

        // 0 < n < vl elements left: masked loads and stores, so nothing
        // past the arrays is touched.
        L(tail);
        test(n, n);
        jz(done, T_NEAR);
        if (z) {
            mov(ecx, edx);
            mov(eax, 1);
            shl(eax, cl);
            sub(eax, 1);
            kmovw(k7, eax);
            vmovups(vreg(0) | k7 | T_z, ptr[src]);
            inj.compute(vreg(0));
            vmovups(ptr[dst] | k7, vreg(0));
        } else {
            // Lanes i < n from a sliding window over 8 ones and 8 zeros.
            std::vector<uint32_t> window(16, 0);
            for (int i = 0; i < 8; ++i) window[i] = 0xffffffffu;
            lea(rax, table(window));
            mov(rcx, 8);
            sub(rcx, n);
            vmovups(tail_mask, ptr[rax + rcx * 4]);
            vmaskmovps(vreg(0), tail_mask, ptr[src]);
            inj.compute(vreg(0));
            vmaskmovps(ptr[dst], tail_mask, vreg(0));
        }
        L(done);
        postamble();
    }

private:
    jit_kernel_config_t cfg_;
};

uint32_t bits_of(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}

// The configuration as a kernel-cache key (floats compared bitwise).
struct jit_key_t : public kernel_cache::key_impl_t {
    cpu_isa_t isa;
    alg_kind_t alg;
    uint32_t alpha, beta;

    explicit jit_key_t(const jit_kernel_config_t &cfg)
        : isa(cfg.target->isa), alg(cfg.alg), alpha(bits_of(cfg.alpha)),
          beta(bits_of(cfg.beta)) {}
    bool equal(const kernel_cache::key_impl_t &o) const override {
        const auto &k = static_cast<const jit_key_t &>(o);
        return isa == k.isa && alg == k.alg && alpha == k.alpha
               && beta == k.beta;
    }
    size_t hash() const override {
        size_t h = std::hash<unsigned>()(isa);
        for (uint32_t v : {(uint32_t)alg, alpha, beta, 0xe17u})
            h = h * 1000003u ^ std::hash<uint32_t>()(v);
        return h;
    }
};

} // namespace

std::string jit_kernel_name(const jit_kernel_config_t &cfg) {
    const int lanes = cfg.target->zmm ? 16 : 8;
    return eltwise_kernel_name("f32", cfg.alg, false,
            "u" + std::to_string(unroll * lanes), cfg.target->isa_name);
}

status_t generate_jit_kernel(
        const jit_kernel_config_t &cfg, std::shared_ptr<jit_kernel_t> &out) {
    return jit::generate_kernel<fwd_generator_t>(cfg, "eltwise", out);
}

status_t get_jit_kernel(const jit_kernel_config_t &cfg,
        std::shared_ptr<const jit_kernel_t> &out, bool &hit) {
    return jit::get_cached_kernel<jit_key_t>(
            cfg, generate_jit_kernel, out, hit);
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
