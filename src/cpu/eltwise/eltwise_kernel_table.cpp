// The eltwise kernel sets by ISA, best first, and the pick among them.
#include "cpu/eltwise/eltwise_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

const isa_table_t<kernel_table_t> &kernel_table() {
    static const isa_table_t<kernel_table_t> table {{avx512_core, &kernels_avx512_core()},
            {avx2, &kernels_avx2()},
            {sse41, &kernels_sse41()}};
    return table;
}

const kernel_table_t *select_kernels() {
    return isa_select(kernel_table());
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
