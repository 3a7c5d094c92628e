// How the eltwise kernels name themselves (cpu/kernel_name.hpp): the data
// types, "eltwise_" (plus "bwd_" backward) and the algorithm, the walk,
// the ISA. Walks: "flat" (the compiled kernels straight on f32 arrays),
// "stage1024" (other types or post-ops: converted through f32 blocks of
// 1024 per thread), "u<elements>" (the generated kernel's main loop:
// that many elements per iteration). Algorithms that compute from the
// destination drop oneDNN's "_use_dst_for_bwd" for "_dst":
// f32_eltwise_relu_u64__avx512_core, bf16_eltwise_bwd_tanh_dst_stage1024__avx2.
#pragma once

#include <string>

#include "oneapi/dnnl/dnnl_debug.h"

#include "common/c_types.hpp"
#include "cpu/kernel_name.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

// "eltwise_gelu_erf", "eltwise_bwd_relu_dst".
inline std::string op_name(alg_kind_t alg, bool bwd) {
    std::string a = dnnl_alg_kind2str(alg);
    const std::string pre = "eltwise_", dst = "_use_dst_for_bwd";
    if (a.compare(0, pre.size(), pre) == 0) a.erase(0, pre.size());
    if (a.size() > dst.size()
            && a.compare(a.size() - dst.size(), dst.size(), dst) == 0)
        a.replace(a.size() - dst.size(), dst.size(), "_dst");
    return pre + (bwd ? "bwd_" : "") + a;
}

inline std::string eltwise_kernel_name(const std::string &dts,
        alg_kind_t alg, bool bwd, const std::string &walk, const char *isa) {
    return kernel_name(dts, op_name(alg, bwd) + "_" + walk, isa);
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
