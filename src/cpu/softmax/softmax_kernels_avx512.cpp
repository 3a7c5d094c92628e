// Softmax kernels compiled for AVX-512.

// Selects with trapping math do not become blends below AVX-512; set
// before any include so every function here shares the option.
#pragma GCC optimize("no-trapping-math")
#include "common/math/eltwise_math.hpp"
#include "cpu/softmax/softmax_kernels.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")

namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {
namespace {
#include "cpu/softmax/softmax_kernels_body.inc"
} // namespace

const kernels_t &kernels_avx512() {
    static const kernels_t k{"avx512", fwd_row, fwd_lanes, bwd_row, bwd_lanes};
    return k;
}

} // namespace softmax
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
