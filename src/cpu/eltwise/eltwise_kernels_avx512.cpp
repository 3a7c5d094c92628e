// Eltwise kernels compiled for AVX-512 (avx512_core: F, BW, VL, DQ).

// The loops are selects between computed values; with trapping math GCC
// will not turn those into blends below AVX-512. Set before any include so
// every function of this file shares the option (and can be inlined).
#pragma GCC optimize("no-trapping-math")
#include <immintrin.h>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {
namespace {

void sqrt_block(const float *s, float *d, dim_t n) {
    dim_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(d + i, _mm512_maskz_sqrt_ps((__mmask16)0xffff,
                                        _mm512_loadu_ps(s + i)));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(d + i, m,
                _mm512_maskz_sqrt_ps(m, _mm512_maskz_loadu_ps(m, s + i)));
    }
}

#include "cpu/eltwise/eltwise_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_avx512() {
    static const kernel_table_t table{avx512_core, "avx512_core", fwd_f32,
            bwd_f32, to_f32, from_f32, binary_f32, binary_scalar_f32};
    return table;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
