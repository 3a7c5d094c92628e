// C++-linkage functions and objects that oneDNN exports from libdnnl.so.3
// for its own test programs (the gtests include oneDNN's internal headers
// and call these). A program built that way against our library must find
// them here, under the same names, or it stops at load time:
//   dnnl::impl::bfloat16_t::operator=(float), operator float()
//                                     bf16 conversions (round to nearest
//                                     even, NaN kept quiet);
//   dnnl::impl::glob_zero_md          the zero memory descriptor;
//   dnnl::impl::cpu::platform::*      which data types the CPU engine takes,
//                                     the ymm hint;
//   dnnl::impl::cpu::x64::*           the ISA limit as oneDNN's internal
//                                     feature bits, the hints, AMX.
// The names and the bit values of oneDNN's internal ISA enumeration are
// facts of that interface; the answers are this library's own.
#include <cstdint>

#include "oneapi/dnnl/dnnl.h"

#include "common/float_convert.hpp"
#include "common/memory_desc.hpp"
#include "cpu/cpu_isa.hpp"

namespace dnnl {
namespace impl {

// oneDNN's bf16 type: two bytes of raw bits with out-of-line conversions.
struct bfloat16_t {
    uint16_t raw_bits_;
    DNNL_API bfloat16_t &operator=(float f);
    DNNL_API operator float() const;
};

bfloat16_t &bfloat16_t::operator=(float f) {
    raw_bits_ = f32_to_bf16(f);
    return *this;
}

bfloat16_t::operator float() const {
    return bf16_to_f32(raw_bits_);
}

// Zero-initialised, as oneDNN's: ndims 0, every field zero.
extern DNNL_API memory_desc_t glob_zero_md;
memory_desc_t glob_zero_md = memory_desc_t();

namespace cpu {
namespace x64 {

// oneDNN's internal ISA feature bits (cpu_isa_bit_t).
enum onednn_isa_bit_t : unsigned {
    xmm_bit = 1u << 4,
    ymm_bit = 1u << 5,
    zmm_bit = 1u << 6,
    amx_tile_bit = 1u << 7,
    evex_core_bit = 1u << 8,
    avx2_bit = 1u << 9,
    vex_vnni_bit = 1u << 10,
    vex_vnni_2_bit = 1u << 11,
    evex_core_vnni_bit = 1u << 12,
    evex_core_bf16_bit = 1u << 13,
    evex_core_fp16_bit = 1u << 14,
    amx_int8_bit = 1u << 15,
    amx_bf16_bit = 1u << 16,
    amx_fp16_bit = 1u << 17,
    amx_2_bit = 1u << 18,
    avx10_version_1 = 1u << 0,
    avx10_version_2 = 2u << 0,
    prefer_ymm_bit = 1u << 31,
};

namespace {

// The internal bits each public ISA brings beyond the ISAs it extends.
struct isa_bits_t {
    dnnl_cpu_isa_t isa;
    unsigned bits;
};

constexpr isa_bits_t isa_bits[] = {
        {dnnl_cpu_isa_sse41, xmm_bit},
        {dnnl_cpu_isa_avx, ymm_bit},
        {dnnl_cpu_isa_avx2, avx2_bit},
        {dnnl_cpu_isa_avx2_vnni, vex_vnni_bit},
        {dnnl_cpu_isa_avx2_vnni_2, vex_vnni_2_bit},
        {dnnl_cpu_isa_avx512_core, evex_core_bit | zmm_bit},
        {dnnl_cpu_isa_avx512_core_vnni, evex_core_vnni_bit},
        {dnnl_cpu_isa_avx512_core_bf16, evex_core_bf16_bit},
        {dnnl_cpu_isa_avx10_1_512, evex_core_fp16_bit},
        {dnnl_cpu_isa_avx10_1_512_amx,
                amx_tile_bit | amx_int8_bit | amx_bf16_bit},
        {dnnl_cpu_isa_avx10_1_512_amx_fp16, amx_fp16_bit},
        {dnnl_cpu_isa_avx10_2, vex_vnni_2_bit},
        {dnnl_cpu_isa_avx10_2_amx_2, amx_2_bit},
};

} // namespace

// The library's ISA limit in oneDNN's internal bits. Without a limit,
// oneDNN's "everything" (all bits but the hints), so that a check of any
// ISA falls to the processor's features, as in oneDNN.
DNNL_API unsigned get_max_cpu_isa_mask(bool soft) {
    const unsigned limit = cpu::get_max_cpu_isa_mask(soft);
    if (limit == unsigned(cpu::isa_all)) return ~prefer_ymm_bit;
    auto allowed = [limit](dnnl_cpu_isa_t isa) {
        return (limit & unsigned(isa)) == unsigned(isa);
    };
    unsigned bits = 0;
    for (const auto &e : isa_bits)
        if (allowed(e.isa)) bits |= e.bits;
    // The low bits hold the AVX10 version, a number rather than flags.
    if (allowed(dnnl_cpu_isa_avx10_2))
        bits |= avx10_version_2;
    else if (allowed(dnnl_cpu_isa_avx10_1_512))
        bits |= avx10_version_1;
    return bits;
}

DNNL_API dnnl_cpu_isa_hints_t get_cpu_isa_hints(bool soft) {
    return cpu::get_cpu_isa_hints(soft);
}

namespace amx {
// The processor has AMX and Linux let this process use its tile data.
DNNL_API bool is_available() {
    return cpu::cpu_has_isa(cpu::avx10_1_512_amx);
}
} // namespace amx

} // namespace x64

namespace platform {

DNNL_API bool prefer_ymm_requested() {
    return cpu::prefer_ymm();
}

// Whether the CPU engine takes tensors of `dt` throughout. Its
// implementations convert bf16 and f16 on every ISA, computing in f32
// where the processor has no instructions for them; f8 is taken by some
// primitives only (reorders, matmul destinations), f64 and the 4-bit
// floats by none.
DNNL_API bool has_data_type_support(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f64:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3:
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return false;
        default: return true;
    }
}

// Whether backward passes take `dt`: the floating-point types the forward
// passes compute in.
DNNL_API bool has_training_support(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_bf16:
        case dnnl_f16: return true;
        default: return false;
    }
}

} // namespace platform
} // namespace cpu
} // namespace impl
} // namespace dnnl
