// Compiles a region of a per-ISA kernel file for that ISA. GCC takes
// push_options/target pragmas; clang (which ignores those) takes a target
// attribute applied to every function declared in the region. Open the
// region after all includes, so that inline functions of headers keep the
// baseline ISA and can never be picked up by code that runs anywhere.
#pragma once

#define DNNL_ISA_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define DNNL_ISA_TARGET_PUSH(isa) \
    DNNL_ISA_PRAGMA(clang attribute push(__attribute__((target(isa))), \
            apply_to = function))
#define DNNL_ISA_TARGET_POP DNNL_ISA_PRAGMA(clang attribute pop)
#else
#define DNNL_ISA_TARGET_PUSH(isa) \
    DNNL_ISA_PRAGMA(GCC push_options) DNNL_ISA_PRAGMA(GCC target(isa))
#define DNNL_ISA_TARGET_POP DNNL_ISA_PRAGMA(GCC pop_options)
#endif
