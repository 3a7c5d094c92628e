// The fast reorder's kernels compiled for AVX-512 (F, BW, VL, DQ).

// Selects must be allowed to become blends: set before any include so that
// every function of this file shares the option (and can be inlined).
#pragma GCC optimize("no-trapping-math")
#include <immintrin.h>

#include <cstring>
#include <memory>
#include <type_traits>

#include "cpu/reorder/reorder_cvt.hpp"
#include "cpu/threading/threading.hpp"
#include "cpu/reorder/simple_exec.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")
#define REORDER_HAVE_AVX2 1

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {
namespace {
#include "cpu/reorder/simple_exec_body.inc"
} // namespace

void simple_exec_avx512(
        const simple_plan_t &p, const void *src, void *dst, const kq_t &q) {
    run_any(p, src, dst, q);
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
