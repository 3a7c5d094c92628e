// Execution of the fast reorder's plan, compiled once per instruction set
// (simple_exec_*.cpp include simple_exec_body.inc) and chosen at run time.
#pragma once

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

// Runs the plan's main part (not the tail) with the best kernels the
// processor allows.
void simple_exec(
        const simple_plan_t &p, const void *src, void *dst, const kq_t &q);

// Per-ISA versions (x86-64 baseline, AVX2, AVX-512).
void simple_exec_base(
        const simple_plan_t &p, const void *src, void *dst, const kq_t &q);
void simple_exec_avx2(
        const simple_plan_t &p, const void *src, void *dst, const kq_t &q);
void simple_exec_avx512(
        const simple_plan_t &p, const void *src, void *dst, const kq_t &q);

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
