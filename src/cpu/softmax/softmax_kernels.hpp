// Softmax kernels on f32 data, compiled once per ISA (baseline x86-64,
// AVX2+FMA, AVX-512) from softmax_kernels.cpp: the exp and log come from
// the shared math module, the max and sum reductions are `omp simd`
// reductions, so every loop vectorises in the ISA of its compilation.
//  - rows: one softmax over n contiguous values;
//  - lanes: nl independent softmaxes at once, value c of lane l at
//    p[c * ld + l] (the axis is not the innermost dim); each tensor has
//    its own leading dimension.
#pragma once

#include "common/c_types.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {

struct kernels_t {
    const char *isa;
    // y = softmax(x) * s, or (x - max - log(sum exp)) * s; y may be x.
    void (*fwd_row)(const float *x, float *y, dim_t n, bool log, float s);
    // d = softmax(s) along c for every lane; d may be s; tmp holds 2 * nl
    // floats.
    void (*fwd_lanes)(const float *s, dim_t sld, float *d, dim_t dld, dim_t C,
            dim_t nl, bool log, float scale, float *tmp);
    // ds = dst * (dd - sum(dd * dst)), or dd - exp(dst) * sum(dd).
    void (*bwd_row)(
            const float *dst, const float *dd, float *ds, dim_t n, bool log);
    void (*bwd_lanes)(const float *dst, dim_t ld_dst, const float *dd,
            dim_t ld_dd, float *ds, dim_t ld_ds, dim_t C, dim_t nl, bool log,
            float *tmp);
};

// One kernel set per ISA that softmax_kernels.cpp is compiled for, and
// the table of them, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_kernels: the first that may run).
const kernels_t &kernels_avx512_core();
const kernels_t &kernels_avx2();
const kernels_t &kernels_base();
const isa_table_t<kernels_t> &kernel_table();
const kernels_t &select_kernels();

} // namespace softmax
} // namespace cpu
} // namespace impl
} // namespace dnnl
