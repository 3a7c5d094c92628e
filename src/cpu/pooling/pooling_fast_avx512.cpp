// Pooling kernels (row walk, channel-vector walk) compiled for AVX-512.

// The max loops are selects; with trapping math GCC keeps them as
// branches. Set before any include so every function here shares it.
#pragma GCC optimize("no-trapping-math")
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <immintrin.h>

#include "cpu/threading/threading.hpp"
#include "cpu/pooling/pooling_fast.hpp"

// 8x8 register transposes for the ncsp walk (pooling_transpose.inc).
#define DNNL_POOL_AVX 1

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx512f,avx512vl,avx512bw,avx512dq,fma")

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {
namespace {
#include "cpu/pooling/pooling_fast_body.inc"
#include "cpu/pooling/pooling_cv_rows.inc"
#include "cpu/pooling/pooling_transpose.inc"
#include "cpu/pooling/pooling_cv_walk.inc"
} // namespace

const fast_kernels_t &fast_kernels_avx512() {
    static const fast_kernels_t table = make_table("avx512");
    return table;
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
