// Resampling row kernels compiled for AVX2 with FMA.

#include "cpu/resampling/resampling_kernels.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx2,fma")

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {
namespace {

#include "cpu/resampling/resampling_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_avx2() {
    static const kernel_table_t table{"avx2", axpy, linear_vec, copy_vec,
            blend_row, copy_row, inv_vec, inv_row};
    return table;
}

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
