// Host side of ocl_types.clh: the defines that give a kernel a tensor's
// data type.
#pragma once

#include "common/c_types.hpp"

#include <initializer_list>
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// True for the types every kernel loads and stores: f32, f16, bf16, s8,
// u8, s32.
bool kernel_supports(data_type_t dt);
// kernel_supports, or f8 (e5m2, e4m3), which LOAD / STORE convert too:
// taken by the primitives whose CPU side takes every type it converts
// through f32 (eltwise, binary and binary post-ops, reduction, PReLU,
// sum, concat).
bool kernel_converts(data_type_t dt);
// The primitives that take f64 where oneDNN's gpu engine does (reorder,
// eltwise, matmul, inner product, convolution, deconvolution, pooling,
// layer normalization) accept f64 beside kernel_supports' types, asking
// this first: false (with a verbose line) when one of `mds` is f64 and
// the device lacks cl_khr_fp64. Their kernels compute in double then
// (FLT_T in ocl_types.clh).
bool f64_supported(engine_t *engine, const char *prim,
        std::initializer_list<const memory_desc_t *> mds);
// Whether one of `mds` (null entries skipped) is f64.
bool any_f64(std::initializer_list<const memory_desc_t *> mds);
// Defines <name>_DT and <name>_T for `dt` (which kernel_converts, or f64:
// then also WITH_F64).
void define_data_type(kernel_options_t &opts, const char *name, data_type_t dt);
// The same for the integer types of weight decompression: s4 / u4 as
// <name>_T uchar and <name>_INT4 (1: s4, 0: u4; int4_to_f32 in
// ocl_types.clh reads them), the others through define_data_type.
void define_int_type(kernel_options_t &opts, const char *name, data_type_t dt);
// Defines WITH_SROUND and the parameters of stochastic rounding to `dt`
// (ocl_random.clh); false when the rounding does not define `dt`.
bool define_stochastic_rounding(kernel_options_t &opts, data_type_t dt);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
