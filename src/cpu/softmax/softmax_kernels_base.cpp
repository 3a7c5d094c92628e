// Softmax kernels compiled for baseline x86-64 (SSE2).

// Selects with trapping math do not become blends below AVX-512; set
// before any include so every function here shares the option.
#pragma GCC optimize("no-trapping-math")
#include "common/math/eltwise_math.hpp"
#include "cpu/softmax/softmax_kernels.hpp"


namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {
namespace {
#include "cpu/softmax/softmax_kernels_body.inc"
} // namespace

const kernels_t &kernels_base() {
    static const kernels_t k{"sse2", fwd_row, fwd_lanes, bwd_row, bwd_lanes};
    return k;
}

} // namespace softmax
} // namespace cpu
} // namespace impl
} // namespace dnnl


#include "cpu/cpu_isa.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {

const kernels_t &select_kernels() {
    if (mayiuse(avx512_core)) return kernels_avx512();
    if (mayiuse(avx2) && cpu_has_fma()) return kernels_avx2();
    return kernels_base();
}

} // namespace softmax
} // namespace cpu
} // namespace impl
} // namespace dnnl
