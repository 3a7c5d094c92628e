// Microkernel tables of the GEMM core and the choice among them by the
// ISA this machine supports. Tables are ordered best first.
#include "cpu/gemm/gemm_ukernels.hpp"

#include "cpu/cpu_isa.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {

enum class isa_t { generic = 0, avx2 = 1, avx512 = 2, avx512_vnni = 3 };

// Highest ISA the kernels may use: what the CPU supports within the
// library's limit (dnnl_set_max_cpu_isa / ONEDNN_MAX_CPU_ISA); the
// prefer_ymm hint keeps AVX-512 machines on the 256-bit kernels.
isa_t max_isa() {
    static const isa_t isa = [] {
        if (mayiuse(avx512_core) && !prefer_ymm())
            return mayiuse(avx512_core_vnni) ? isa_t::avx512_vnni : isa_t::avx512;
        if (mayiuse(avx2) && cpu_has_fma()) return isa_t::avx2;
        return isa_t::generic;
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

const f32_gemv_desc_t &select_f32_gemv() {
    switch (max_isa()) {
        case isa_t::avx512_vnni:
        case isa_t::avx512: return f32_gemv__avx512f;
        case isa_t::avx2: return f32_gemv__avx2_fma;
        default: return f32_gemv__generic;
    }
}

const bf16_ukernel_desc_t *select_bf16_ukernel() {
    static const bf16_ukernel_desc_t desc = {"f32_gemm_12x32c2__avx512bf16", 12,
            32, 120, 768, 3072, f32_gemm_12x32c2__avx512bf16};
    static const bool ok = (max_isa() == isa_t::avx512
                                   || max_isa() == isa_t::avx512_vnni)
            && mayiuse(avx512_core_bf16);
    return ok ? &desc : nullptr;
}

// u8 x s8 quads: the AVX-512 kernel where the 512-bit ISA with VNNI is
// allowed, the VEX one on AVX-VNNI (which AVX-512 VNNI does not imply).
const s32c4_ukernel_desc_t *select_s32c4_ukernel() {
    static const s32c4_ukernel_desc_t avx512 = {"s32_gemm_12x32c4__avx512vnni",
            12, 32, 120, 768, 3072, s32_gemm_12x32c4__avx512vnni};
    static const s32c4_ukernel_desc_t avx2 = {"s32_gemm_6x16c4__avx2vnni", 6,
            16, 120, 1024, 3072, s32_gemm_6x16c4__avx2vnni};
    static const s32c4_ukernel_desc_t *desc = []() -> const s32c4_ukernel_desc_t * {
        if (max_isa() == isa_t::avx512_vnni) return &avx512;
        if (mayiuse(avx2_vnni)) return &avx2;
        return nullptr;
    }();
    return desc;
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
