// Vectorised eltwise kernels on contiguous f32 arrays, one table per ISA
// (SSE4.1, AVX2, AVX-512), plus conversions between the stored data types
// and f32. The kernels are the math module's per-algorithm functions in
// plain loops, compiled once per ISA (eltwise_kernels.cpp).
#pragma once

#include "common/c_types.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

struct kernel_table_t {
    cpu_isa_t isa;
    const char *isa_name;
    // dst[i] = f(src[i]); src and dst may be the same array.
    void (*fwd)(alg_kind_t alg, float alpha, float beta, const float *src,
            float *dst, dim_t n);
    // diff_src[i] = f'(diff_dst[i], data[i]); diff_src may be diff_dst.
    void (*bwd)(alg_kind_t alg, float alpha, float beta, const float *diff_dst,
            const float *data, float *diff_src, dim_t n);
    void (*to_f32)(data_type_t dt, const void *src, float *dst, dim_t n);
    void (*from_f32)(data_type_t dt, const float *src, void *dst, dim_t n);
    // dst[i] = a[i] (op) b[i], and dst[i] = a[i] (op) b for a scalar b;
    // dst may be a. Binary algorithms except select.
    void (*binary)(alg_kind_t alg, const float *a, const float *b, float *dst,
            dim_t n);
    void (*binary_scalar)(
            alg_kind_t alg, const float *a, float b, float *dst, dim_t n);
};

// One kernel set per ISA that eltwise_kernels.cpp is compiled for, and
// the table of them, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_kernels: the first that may run).
const kernel_table_t &kernels_avx512_core();
const kernel_table_t &kernels_avx2();
const kernel_table_t &kernels_sse41();
const isa_table_t<kernel_table_t> &kernel_table();
const kernel_table_t *select_kernels();

// The generated kernels' vector levels (eltwise_jit_kernel.hpp), best
// first, and the pick among them (null below AVX2).
struct jit_target_t;
const isa_table_t<jit_target_t> &jit_table();
const jit_target_t *select_jit_target();

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
