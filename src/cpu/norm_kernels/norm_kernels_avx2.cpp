// Normalization row kernels compiled for AVX2 with FMA.
#include <cstring>

#include "cpu/norm_kernels/norm_kernels.hpp"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

namespace dnnl {
namespace impl {
namespace cpu {
namespace norm {
namespace {
#include "cpu/norm_kernels/norm_kernels_body.inc"
} // namespace

const kernels_t &kernels_avx2() {
    static const kernels_t table = make_table("avx2");
    return table;
}

} // namespace norm
} // namespace cpu
} // namespace impl
} // namespace dnnl

#pragma GCC pop_options
