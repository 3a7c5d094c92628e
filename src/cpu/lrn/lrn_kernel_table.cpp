// The lrn kernel sets by ISA, best first, and the pick among them.
#include "cpu/lrn/lrn_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {

const isa_table_t<kernel_table_t> &kernel_table() {
    static const isa_table_t<kernel_table_t> table {{avx512_core, &kernels_avx512_core()},
            {avx2, &kernels_avx2()},
            {isa_undef, &kernels_base()}};
    return table;
}

const kernel_table_t &select_kernels() {
    return *isa_select(kernel_table());
}

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl
