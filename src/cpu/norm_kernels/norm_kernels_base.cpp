// Normalization row kernels compiled for the build's baseline ISA (SSE2 on
// x86-64).
#include <cstring>

#include "cpu/norm_kernels/norm_kernels.hpp"


namespace dnnl {
namespace impl {
namespace cpu {
namespace norm {
namespace {
#include "cpu/norm_kernels/norm_kernels_body.inc"
} // namespace

const kernels_t &kernels_base() {
    static const kernels_t table = make_table("base");
    return table;
}

} // namespace norm
} // namespace cpu
} // namespace impl
} // namespace dnnl


#include "cpu/cpu_isa.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace norm {

const kernels_t &select_kernels() {
    if (mayiuse(avx512_core) && !prefer_ymm()) return kernels_avx512();
    if (mayiuse(avx2) && cpu_has_fma()) return kernels_avx2();
    return kernels_base();
}

} // namespace norm
} // namespace cpu
} // namespace impl
} // namespace dnnl
