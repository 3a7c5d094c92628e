// The RNN cell kernel sets by ISA, best first, and the pick among them.
#include "cpu/rnn/rnn_cells.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

const isa_table_t<cell_kernels_t> &cell_kernel_table() {
    static const isa_table_t<cell_kernels_t> table{
            {avx512_core, &cell_kernels_avx512_core()},
            {avx2, &cell_kernels_avx2()}, {isa_undef, &cell_kernels_base()}};
    return table;
}

const cell_kernels_t &cells() {
    static const cell_kernels_t *k = isa_select(cell_kernel_table());
    return *k;
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
