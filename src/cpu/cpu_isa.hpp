// CPU instruction-set detection and dispatch limits.
//
// ISAs are named by the bit values of the public dnnl_cpu_isa_t: every ISA
// value contains the bits of the ISAs it extends, so "a includes b" is
// (a & b) == b. mayiuse(isa) is true when the processor (and OS) supports
// the ISA and the library-wide maximum (dnnl_set_max_cpu_isa or the
// ONEDNN_MAX_CPU_ISA environment variable) allows it.
//
// The maximum and the hints are "set once, before first use": the first
// read that is not `soft` fixes them, after which setting fails.
#pragma once

#include <string>

#include "common/c_types.hpp"

namespace Xbyak {
namespace util {
class Cpu;
}
} // namespace Xbyak

namespace dnnl {
namespace impl {
namespace cpu {

enum cpu_isa_t : unsigned {
    isa_undef = 0u,
    sse41 = dnnl_cpu_isa_sse41,
    avx = dnnl_cpu_isa_avx,
    avx2 = dnnl_cpu_isa_avx2,
    avx2_vnni = dnnl_cpu_isa_avx2_vnni,
    avx2_vnni_2 = dnnl_cpu_isa_avx2_vnni_2,
    avx512_core = dnnl_cpu_isa_avx512_core,
    avx512_core_vnni = dnnl_cpu_isa_avx512_core_vnni,
    avx512_core_bf16 = dnnl_cpu_isa_avx512_core_bf16,
    avx10_1_512 = dnnl_cpu_isa_avx10_1_512,
    avx512_core_fp16 = avx10_1_512,
    avx10_1_512_amx = dnnl_cpu_isa_avx10_1_512_amx,
    avx512_core_amx = avx10_1_512_amx,
    avx10_1_512_amx_fp16 = dnnl_cpu_isa_avx10_1_512_amx_fp16,
    avx512_core_amx_fp16 = avx10_1_512_amx_fp16,
    avx10_2 = dnnl_cpu_isa_avx10_2,
    avx10_2_amx_2 = dnnl_cpu_isa_avx10_2_amx_2,
    // Everything the library uses unless limited: AVX10.2 (bit 17) and
    // AMX-2 (bit 13) are opt-in, as in oneDNN.
    isa_all = ~((1u << 17) | (1u << 13)),
};

// Whether the hardware supports `isa`, ignoring the library limit.
bool cpu_has_isa(cpu_isa_t isa);
// Whether kernels of `isa` may run: supported and within the limit.
// `soft` reads do not fix the limit (for diagnostics and tests).
bool mayiuse(cpu_isa_t isa, bool soft = false);

// The best ISA mayiuse() allows, isa_undef when not even SSE4.1.
cpu_isa_t get_max_cpu_isa(bool soft = false);
// The current limit as a mask of ISA bits.
unsigned get_max_cpu_isa_mask(bool soft = false);
dnnl_cpu_isa_hints_t get_cpu_isa_hints(bool soft = false);
// True when the user asked for 256-bit vectors on AVX-512 machines.
bool prefer_ymm(bool soft = false);

// Fail with dnnl_invalid_arguments (max ISA) / dnnl_runtime_error (hints)
// once the setting was read or set before.
status_t set_max_cpu_isa(dnnl_cpu_isa_t isa);
status_t set_cpu_isa_hints(dnnl_cpu_isa_hints_t hints);

// Short name ("avx512_core") and oneDNN-style description ("Intel AVX2").
const char *isa_name(cpu_isa_t isa);
const char *isa_description(cpu_isa_t isa);
// Parses an ONEDNN_MAX_CPU_ISA value (case-insensitive, aliases allowed).
// Returns false for unknown names.
bool isa_from_name(const std::string &name, unsigned &mask);

// Processor features as seen by Xbyak (the same object for everyone).
const Xbyak::util::Cpu &xbyak_cpu();
// Individual features that some kernels need beyond their ISA.
bool cpu_has_fma();
bool cpu_has_f16c();

} // namespace cpu
} // namespace impl
} // namespace dnnl
