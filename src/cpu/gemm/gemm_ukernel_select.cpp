// Microkernel tables of the GEMM core and the choice among them by the
// ISA this machine supports. Tables are ordered best first.
#include "cpu/gemm/gemm_ukernels.hpp"

#include <cstdlib>
#include <cctype>
#include <cstring>
#include <string>

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {

enum class isa_t { generic = 0, avx2 = 1, avx512 = 2, avx512_vnni = 3 };

// Highest ISA the kernels may use: what the CPU supports, capped by
// DNNL_MAX_CPU_ISA (sse41/avx/avx2*... -> caps below AVX-512).
isa_t max_isa() {
    static const isa_t isa = [] {
        __builtin_cpu_init();
        isa_t hw = isa_t::generic;
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            hw = isa_t::avx2;
        if (hw == isa_t::avx2 && __builtin_cpu_supports("avx512f")
                && __builtin_cpu_supports("avx512bw")
                && __builtin_cpu_supports("avx512vl")
                && __builtin_cpu_supports("avx512dq"))
            hw = isa_t::avx512;
        if (hw == isa_t::avx512 && __builtin_cpu_supports("avx512vnni"))
            hw = isa_t::avx512_vnni;
        const char *env = std::getenv("DNNL_MAX_CPU_ISA");
        if (!env) env = std::getenv("ONEDNN_MAX_CPU_ISA");
        if (env && *env) {
            std::string s(env);
            for (auto &ch : s)
                ch = (char)std::tolower((unsigned char)ch);
            isa_t cap = isa_t::avx512_vnni;
            if (s == "sse41" || s == "avx" || s == "default_generic")
                cap = isa_t::generic;
            else if (s.rfind("avx2", 0) == 0)
                cap = isa_t::avx2;
            else if (s == "avx512_core")
                cap = isa_t::avx512;
            if (cap < hw) hw = cap;
        }
        return hw;
    }();
    return isa;
}

// mc, kc, nc: A block (mc x kc) stays in L2, B micro-panel (kc x nr) in L1.
const f32_ukernel_desc_t f32_table[] = {
        {"f32_gemm_12x32__avx512f", 12, 32, 120, 384, 3072,
                f32_gemm_12x32__avx512f},
        {"f32_gemm_6x16__avx2_fma", 6, 16, 120, 256, 3072,
                f32_gemm_6x16__avx2_fma},
        {"f32_gemm_4x8__generic", 4, 8, 64, 256, 1024, f32_gemm_4x8__generic},
};

const s32_ukernel_desc_t s32_table[] = {
        {"s32_gemm_12x32c2__avx512vnni", 12, 32, 120, 768, 3072,
                s32_gemm_12x32c2__avx512vnni},
        {"s32_gemm_12x32c2__avx512bw", 12, 32, 120, 768, 3072,
                s32_gemm_12x32c2__avx512bw},
        {"s32_gemm_6x16c2__avx2", 6, 16, 120, 512, 3072,
                s32_gemm_6x16c2__avx2},
        {"s32_gemm_4x8c2__generic", 4, 8, 64, 256, 1024,
                s32_gemm_4x8c2__generic},
};

} // namespace

const f32_ukernel_desc_t &select_f32_ukernel() {
    switch (max_isa()) {
        case isa_t::avx512_vnni:
        case isa_t::avx512: return f32_table[0];
        case isa_t::avx2: return f32_table[1];
        default: return f32_table[2];
    }
}

const s32_ukernel_desc_t &select_s32_ukernel() {
    switch (max_isa()) {
        case isa_t::avx512_vnni: return s32_table[0];
        case isa_t::avx512: return s32_table[1];
        case isa_t::avx2: return s32_table[2];
        default: return s32_table[3];
    }
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
