// The fast reorder's kernels by ISA, best first, and the pick among them.
#include "cpu/reorder/simple_exec.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

const isa_table_t<exec_kernel_t> &exec_kernel_table() {
    static const isa_table_t<exec_kernel_t> table {
            {avx512_core, &exec_kernel_avx512_core()}, {avx2, &exec_kernel_avx2()},
            {isa_undef, &exec_kernel_base()}};
    return table;
}

const exec_kernel_t &select_exec_kernel() {
    return *isa_select(exec_kernel_table());
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
