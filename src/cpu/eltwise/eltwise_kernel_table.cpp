// The eltwise kernel sets by ISA, best first, and the pick among them:
// the generated (JIT) forward kernels' vector levels, then the compiled
// kernel sets they fall back to.
#include "cpu/eltwise/eltwise_jit_kernel.hpp"
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

const isa_table_t<jit_target_t> &jit_table() {
    static const jit_target_t avx512 {avx512_core, "avx512_core", true};
    static const jit_target_t avx2_ {avx2, "avx2", false};
    static const isa_table_t<jit_target_t> table {
            {avx512_core, &avx512}, {avx2, &avx2_}};
    return table;
}

const jit_target_t *select_jit_target() {
    return isa_select(jit_table());
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
