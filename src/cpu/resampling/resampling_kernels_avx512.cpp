// Resampling row kernels compiled for AVX-512 (avx512_core).

#include "cpu/resampling/resampling_kernels.hpp"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {
namespace {

#include "cpu/resampling/resampling_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_avx512() {
    static const kernel_table_t table{"avx512_core", axpy, linear_vec, copy_vec,
            blend_row, copy_row, inv_vec, inv_row};
    return table;
}

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl

#pragma GCC pop_options
