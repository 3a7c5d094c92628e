// The integer GEMM on u8 x s8 quad kernels (vpdpbusd), used by gemm_s32
// when the machine has them (select_s32c4_ukernel() is not null).
#pragma once

#include <cstddef>

#include "cpu/gemm/gemm.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// Packing workspace bytes for an M x N x K problem on `nthr` threads.
size_t s32c4_workspace_size(dim_t M, dim_t N, dim_t K, int nthr);
// Runs the checked problem `g` on `nthr` threads.
status_t run_s32c4(const gemm_s32_args_t &g, int nthr);

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
