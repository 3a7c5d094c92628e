// Normalization row kernels compiled for AVX2 with FMA.
#include <cstring>

#include "cpu/norm_kernels/norm_kernels.hpp"

#include "cpu/isa_target.hpp"
DNNL_ISA_TARGET_PUSH("avx2,fma")

namespace dnnl {
namespace impl {
namespace cpu {
namespace norm {
namespace {
#include "cpu/norm_kernels/norm_kernels_body.inc"
} // namespace

const kernels_t &kernels_avx2() {
    static const kernels_t table = make_table("avx2");
    return table;
}

} // namespace norm
} // namespace cpu
} // namespace impl
} // namespace dnnl

DNNL_ISA_TARGET_POP
