// Resampling row kernels compiled for the baseline x86-64 ISA (SSE2), and the
// choice among the ISA tables.

#include "cpu/cpu_isa.hpp"
#include "cpu/resampling/resampling_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {
namespace {

#include "cpu/resampling/resampling_kernels_body.inc"

} // namespace

const kernel_table_t &kernels_base() {
    static const kernel_table_t table{"sse2", axpy, linear_vec, copy_vec,
            blend_row, copy_row, inv_vec, inv_row};
    return table;
}

const kernel_table_t &select_kernels() {
    if (mayiuse(avx512_core)) return kernels_avx512();
    if (mayiuse(avx2)) return kernels_avx2();
    return kernels_base();
}

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
