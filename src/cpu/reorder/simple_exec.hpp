// Execution of the fast reorder's plan, compiled once per instruction set
// (simple_exec_kernels.cpp) and chosen when the primitive is created.
#pragma once

#include "cpu/isa_table.hpp"
#include "cpu/reorder/simple_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

// Quantization values as the kernels see them: arrays always present
// (a single 1 or 0 when absent) and an index multiplier (0 or 1) telling
// whether an array follows the common mask.
struct kq_t {
    const float *ss, *ds;
    const int32_t *sz, *dz;
    dim_t mss, mds, msz, mdz;
    float beta;
};

// The plan's main part (not the tail), compiled once per ISA
// (simple_exec_kernels.cpp).
struct exec_kernel_t {
    const char *isa;
    void (*run)(const simple_plan_t &p, const void *src, void *dst,
            const kq_t &q);
};

// One kernel per ISA that simple_exec_kernels.cpp is compiled for, and
// the table of them, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_exec_kernel: the first that may run).
const exec_kernel_t &exec_kernel_avx512_core();
const exec_kernel_t &exec_kernel_avx2();
const exec_kernel_t &exec_kernel_base();
const isa_table_t<exec_kernel_t> &exec_kernel_table();
const exec_kernel_t &select_exec_kernel();

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
