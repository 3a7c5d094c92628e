// Pooling kernels (row walk, channel-vector walk) compiled for the build's baseline ISA.

// The max loops are selects; with trapping math GCC keeps them as
// branches. Set before any include so every function here shares it.
#pragma GCC optimize("no-trapping-math")
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "cpu/threading/threading.hpp"
#include "cpu/pooling/pooling_fast.hpp"


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

const fast_kernels_t &fast_kernels_base() {
    static const fast_kernels_t table = make_table("base");
    return table;
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl

