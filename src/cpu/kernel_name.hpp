// How CPU kernels name themselves in implementation names (verbose,
// impl_info_str): data type, operation with its tile or walk, then the ISA
// after a double underscore, as the GEMM microkernels do
// (f32_gemm_12x32__avx512f): f32_lnorm_rows__avx2,
// f32_pool_cvec64__avx512_core. The name says what runs, so a reader of a
// verbose line knows which table entry and which loop shape were picked.
#pragma once

#include <string>

namespace dnnl {
namespace impl {
namespace cpu {

// "<dt>_<op>__<isa>"; `op` carries the tile or walk ("softmax_rows",
// "transpose_16x16").
inline std::string kernel_name(
        const std::string &dt, const std::string &op, const char *isa) {
    return dt + "_" + op + "__" + isa;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
