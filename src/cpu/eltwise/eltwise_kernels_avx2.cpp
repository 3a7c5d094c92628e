// Eltwise kernels compiled for AVX2 with FMA and F16C.

// The loops are selects between computed values; with trapping math GCC
// will not turn those into blends below AVX-512. Set before any include so
// every function of this file shares the option (and can be inlined).
#pragma GCC optimize("no-trapping-math")
#include <immintrin.h>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx2,fma,f16c")

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {
namespace {

void sqrt_block(const float *s, float *d, dim_t n) {
    dim_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(d + i, _mm256_sqrt_ps(_mm256_loadu_ps(s + i)));
    for (; i < n; ++i) _mm_store_ss(d + i, _mm_sqrt_ss(_mm_load_ss(s + i)));
}

#include "cpu/eltwise/eltwise_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_avx2() {
    static const kernel_table_t table{avx2, "avx2", fwd_f32, bwd_f32, to_f32,
            from_f32, binary_f32, binary_scalar_f32};
    return table;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
