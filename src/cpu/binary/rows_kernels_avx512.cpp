// Row kernels compiled for AVX-512.

// Selects with trapping math do not become blends below AVX-512; set
// before any include so every function here shares the option.
#pragma GCC optimize("no-trapping-math")
#include <cmath>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/binary/rows.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")

namespace dnnl {
namespace impl {
namespace cpu {
namespace rows {
namespace {
namespace k {
#include "cpu/binary/rows_body.inc"
} // namespace k
} // namespace

const kernels_t &kernels_avx512() {
    static const kernels_t table{"avx512", k::load, k::store, k::scale, k::binary,
            k::binary_block, k::prelu_block, k::binary_half, k::reduce_run,
            k::reduce_lanes, k::gather32, k::prelu_fwd, k::prelu_bwd,
            k::eltwise, k::apply};
    return table;
}

} // namespace rows
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
