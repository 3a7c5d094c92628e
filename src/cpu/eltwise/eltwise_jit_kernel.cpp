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
#include "cpu/kernel_name.hpp"

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
        // (zmm16+ on AVX-512); on AVX2 its mask and the tail mask. bf16
        // stores use zmm10..13 (a temporary, then 1, 0x7fff and 0x40).
        const bool z = is_zmm();
        std::vector<int> scratch;
        for (int i = 0; i < jit::eltwise_injector_t::n_scratch; ++i)
            scratch.push_back((z ? 16 : unroll) + i);
        const int inj_mask = unroll + jit::eltwise_injector_t::n_scratch;
        const Xmm tail_mask = vreg(inj_mask + 1);
        jit::eltwise_injector_t inj(
                *this, cfg_.alg, cfg_.alpha, cfg_.beta, scratch, inj_mask);

        const Reg64 src = rdi, dst = rsi, n = rdx;
        const int vl = vlen_bytes() / 4;
        const int sb = vl * bytes_of(cfg_.sdt), db = vl * bytes_of(cfg_.ddt);
        Label main_loop, single_loop, tail, done;
        preamble();
        if (cfg_.ddt == dnnl_bf16) {
            vpbroadcastd(Zmm(11), table({1u}));
            vpbroadcastd(Zmm(12), table({0x7fffu}));
            vpbroadcastd(Zmm(13), table({0x40u}));
        }

        L(main_loop);
        cmp(n, unroll * vl);
        jb(single_loop, T_NEAR);
        for (int u = 0; u < unroll; ++u) load(u, ptr[src + u * sb]);
        for (int u = 0; u < unroll; ++u) inj.compute(vreg(u));
        for (int u = 0; u < unroll; ++u) store(ptr[dst + u * db], u);
        add(src, unroll * sb);
        add(dst, unroll * db);
        sub(n, unroll * vl);
        jmp(main_loop, T_NEAR);

        L(single_loop);
        cmp(n, vl);
        jb(tail, T_NEAR);
        load(0, ptr[src]);
        inj.compute(vreg(0));
        store(ptr[dst], 0);
        add(src, sb);
        add(dst, db);
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
            load(0, ptr[src], true);
            inj.compute(vreg(0));
            store(ptr[dst], 0, true);
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
    static int bytes_of(data_type_t dt) { return dt == dnnl_f32 ? 4 : 2; }

    // Value register v from memory of type sdt (bf16: its 16 bits above
    // 16 zeros; f16: the hardware conversion); `masked`: the lanes of k7,
    // the others zero (zmm only).
    void load(int v, const Address &a, bool masked = false) {
        const Zmm zv(v);
        switch (cfg_.sdt) {
        case dnnl_bf16:
            vpmovzxwd(masked ? zv | k7 | T_z : zv, a);
            vpslld(zv, zv, 16);
            break;
        case dnnl_f16:
            vcvtph2ps(masked ? zv | k7 | T_z : zv, a);
            break;
        default:
            if (masked)
                vmovups(zv | k7 | T_z, a);
            else
                vmovups(vreg(v), a);
            break;
        }
    }

    // Value register v to memory of type ddt: bf16 rounded to nearest
    // even with NaNs kept quiet (as f32_to_bf16 does), f16 by the
    // hardware's round-to-nearest-even conversion.
    void store(const Address &a, int v, bool masked = false) {
        const Zmm zv(v), t(10);
        switch (cfg_.ddt) {
        case dnnl_bf16:
            vpsrld(t, zv, 16);
            vpandd(t, t, Zmm(11));
            vpaddd(t, t, zv);
            vpaddd(t, t, Zmm(12));
            vpsrld(t, t, 16);
            vfpclassps(k6, zv, 0x81); // quiet or signalling NaN
            vpsrld(t | k6, zv, 16);
            vpord(t | k6, t, Zmm(13));
            if (masked)
                vpmovdw(a | k7, t);
            else
                vpmovdw(a, t);
            break;
        case dnnl_f16:
            if (masked)
                vcvtps2ph(a | k7, zv, 0);
            else
                vcvtps2ph(a, zv, 0);
            break;
        default:
            if (masked)
                vmovups(a | k7, zv);
            else
                vmovups(a, vreg(v));
            break;
        }
    }

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
    data_type_t sdt, ddt;

    explicit jit_key_t(const jit_kernel_config_t &cfg)
        : isa(cfg.target->isa), alg(cfg.alg), alpha(bits_of(cfg.alpha)),
          beta(bits_of(cfg.beta)), sdt(cfg.sdt), ddt(cfg.ddt) {}
    bool equal(const kernel_cache::key_impl_t &o) const override {
        const auto &k = static_cast<const jit_key_t &>(o);
        return isa == k.isa && alg == k.alg && alpha == k.alpha
               && beta == k.beta && sdt == k.sdt && ddt == k.ddt;
    }
    size_t hash() const override {
        size_t h = std::hash<unsigned>()(isa);
        for (uint32_t v : {(uint32_t)alg, alpha, beta, (uint32_t)sdt,
                     (uint32_t)ddt, 0xe17u})
            h = h * 1000003u ^ std::hash<uint32_t>()(v);
        return h;
    }
};

} // namespace

bool jit_converts(
        const jit_target_t &target, data_type_t sdt, data_type_t ddt) {
    const auto known = [](data_type_t dt) {
        return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
    };
    const bool plain = sdt == dnnl_f32 && ddt == dnnl_f32;
    return known(sdt) && known(ddt) && (plain || target.zmm);
}

std::string jit_kernel_name(const jit_kernel_config_t &cfg) {
    const int lanes = cfg.target->zmm ? 16 : 8;
    return eltwise_kernel_name(dt_pair_name(cfg.sdt, cfg.ddt), cfg.alg, false,
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
