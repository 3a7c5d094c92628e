// The rows kernel sets by ISA, best first, and the pick among them.
#include "cpu/tensor_walk/rows.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rows {

const isa_table_t<kernels_t> &kernel_table() {
    static const isa_table_t<kernels_t> table {{avx512_core, &kernels_avx512_core()},
            {avx2, &kernels_avx2()},
            {isa_undef, &kernels_base()}};
    return table;
}

const kernels_t &select_kernels() {
    return *isa_select(kernel_table());
}

} // namespace rows
} // namespace cpu
} // namespace impl
} // namespace dnnl
