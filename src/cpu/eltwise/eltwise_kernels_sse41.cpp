// Eltwise kernels compiled for SSE4.1, and the choice among the ISA tables.

// The loops are selects between computed values; with trapping math GCC
// will not turn those into blends below AVX-512. Set before any include so
// every function of this file shares the option (and can be inlined).
#pragma GCC optimize("no-trapping-math")
#include <immintrin.h>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("sse4.1")

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {
namespace {

void sqrt_block(const float *s, float *d, dim_t n) {
    dim_t i = 0;
    for (; i + 4 <= n; i += 4)
        _mm_storeu_ps(d + i, _mm_sqrt_ps(_mm_loadu_ps(s + i)));
    for (; i < n; ++i) _mm_store_ss(d + i, _mm_sqrt_ss(_mm_load_ss(s + i)));
}

#include "cpu/eltwise/eltwise_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_sse41() {
    static const kernel_table_t table{sse41, "sse41", fwd_f32, bwd_f32, to_f32,
            from_f32, binary_f32, binary_scalar_f32};
    return table;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

const kernel_table_t *select_kernels() {
    // The ymm hint keeps AVX-512 machines on 256-bit vectors.
    if (mayiuse(avx512_core) && !prefer_ymm() && cpu_has_fma()
            && cpu_has_f16c())
        return &kernels_avx512();
    if (mayiuse(avx2) && cpu_has_fma() && cpu_has_f16c())
        return &kernels_avx2();
    if (mayiuse(sse41)) return &kernels_sse41();
    return nullptr;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
