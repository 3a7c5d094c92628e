// Included by a per-ISA kernel file (one that opens with `// dnnl-isa:`,
// see cmake/isa_sources.cmake): the ISA it is being compiled for.
//
// DNNL_ISA_NAME(kernels) is kernels_<isa> (kernels_avx2, kernels_base,
// ...): the name of this compilation's entry point, which the family's
// header declares once per ISA. this_isa is the matching cpu_isa_t
// (isa_undef for `base`) for the file's table entry.
#pragma once

#include "cpu/cpu_isa.hpp"

#ifndef DNNL_ISA
#error "a per-ISA kernel file is compiled through cmake/isa_sources.cmake"
#endif

#define DNNL_ISA_CAT2(a, b) a##_##b
#define DNNL_ISA_CAT(a, b) DNNL_ISA_CAT2(a, b)
#define DNNL_ISA_NAME(name) DNNL_ISA_CAT(name, DNNL_ISA)
#define DNNL_ISA_STR2(x) #x
#define DNNL_ISA_STR(x) DNNL_ISA_STR2(x)

namespace dnnl {
namespace impl {
namespace cpu {
namespace isa_unit {
// `base` is no cpu_isa_t: the baseline needs nothing beyond x86-64.
constexpr cpu_isa_t base = isa_undef;
constexpr cpu_isa_t this_isa = DNNL_ISA;
// For kernel and implementation names: x86-64's baseline is SSE2.
constexpr const char *this_isa_name
        = this_isa == isa_undef ? "sse2" : DNNL_ISA_STR(DNNL_ISA);
} // namespace isa_unit
} // namespace cpu
} // namespace impl
} // namespace dnnl
