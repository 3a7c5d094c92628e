// The convolution kernel sets by ISA, best first, and the pick among them.
#include "cpu/convolution/conv_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

const isa_table_t<conv_kernels_t> &conv_kernel_table() {
    static const isa_table_t<conv_kernels_t> table {
            {avx512_core, &conv_kernels_avx512_core()},
            {avx2, &conv_kernels_avx2()}, {isa_undef, &conv_kernels_base()}};
    return table;
}

const conv_kernels_t &select_conv_kernels() {
    return *isa_select(conv_kernel_table());
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
