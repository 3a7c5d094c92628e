// The softmax kernel sets by ISA, best first, and the pick among them.
#include "cpu/softmax/softmax_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {

const isa_table_t<kernels_t> &kernel_table() {
    static const isa_table_t<kernels_t> table {{avx512_core, &kernels_avx512_core()},
            {avx2, &kernels_avx2()},
            {isa_undef, &kernels_base()}};
    return table;
}

const kernels_t &select_kernels() {
    return *isa_select(kernel_table());
}

} // namespace softmax
} // namespace cpu
} // namespace impl
} // namespace dnnl
