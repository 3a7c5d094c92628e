// Row kernels compiled for baseline x86-64 (SSE2).

// Selects with trapping math do not become blends below AVX-512; set
// before any include so every function here shares the option.
#pragma GCC optimize("no-trapping-math")
#include <cmath>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/binary/rows.hpp"


namespace dnnl {
namespace impl {
namespace cpu {
namespace rows {
namespace {
namespace k {
#include "cpu/binary/rows_body.inc"
} // namespace k
} // namespace

const kernels_t &kernels_base() {
    static const kernels_t table{"sse2", k::load, k::store, k::scale, k::binary,
            k::binary_block, k::prelu_block, k::binary_half, k::reduce_run,
            k::reduce_lanes, k::gather32, k::prelu_fwd, k::prelu_bwd,
            k::eltwise, k::apply};
    return table;
}

} // namespace rows
} // namespace cpu
} // namespace impl
} // namespace dnnl


#include "cpu/cpu_isa.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rows {

const kernels_t &select_kernels() {
    if (mayiuse(avx512_core)) return kernels_avx512();
    if (mayiuse(avx2) && cpu_has_fma() && cpu_has_f16c()) return kernels_avx2();
    return kernels_base();
}

} // namespace rows
} // namespace cpu
} // namespace impl
} // namespace dnnl
