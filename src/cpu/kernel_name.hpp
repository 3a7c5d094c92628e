// How CPU kernels name themselves in implementation names (verbose,
// impl_info_str): data type, operation with its tile or walk, then the ISA
// after a double underscore, as the GEMM microkernels do
// (f32_gemm_12x32__avx512f): f32_lnorm_rows__avx2,
// f32_pool_cvec64__avx512_core. The name says what runs, so a reader of a
// verbose line knows which table entry and which loop shape were picked.
// The data type: the stored types where the kernels convert as they load
// and store (eltwise, resampling, reorder and the tensor-wide row
// families; "bf16_f32" when input and output differ, dt_pair_name;
// shuffle, which moves elements bit-exactly, names their width, x32),
// the computing type "f32" for the families named by their f32 kernels
// (pooling, softmax, the normalizations, LRN).
#pragma once

#include <string>

#include "oneapi/dnnl/dnnl_debug.h"

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

// "<dt>_<op>__<isa>"; `op` carries the tile or walk ("softmax_rows",
// "transpose_16x16").
inline std::string kernel_name(
        const std::string &dt, const std::string &op, const char *isa) {
    return dt + "_" + op + "__" + isa;
}

// "f32", or "bf16_f32" when the two stored types differ.
inline std::string dt_pair_name(data_type_t a, data_type_t b) {
    std::string s = dnnl_dt2str(a);
    if (b != a) s += std::string("_") + dnnl_dt2str(b);
    return s;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
