// Scales, zero points and the sum post-op of the gpu reorder: what the
// attributes ask (checked at creation, where unsupported requests give
// dnnl_unimplemented), the kernel defines they turn into, and the kernel
// arguments one execution passes (the arrays' buffers, checked for
// presence and size). The formula is oneDNN's:
//   dst = saturate(round((src_scale * (src - src_zp) + beta * dst_old)
//                        / dst_scale + dst_zp)).
#pragma once

#include "common/exec_ctx.hpp"
#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Defines <name>_DT and <name>_T (as define_data_type does) and
// <name>_RAW, the type elements are stored as in reorder kernels (ushort
// for f16 and bf16, which the kernels convert bit by bit).
void define_raw_type(kernel_options_t &opts, const char *name, data_type_t dt);

struct reorder_quant_t {
    // The four arrays, in kernel-argument order.
    enum { src_scale = 0, dst_scale, src_zp, dst_zp, count };

    bool with[count] = {};
    int mask[count] = {}; // over the tensor's dims
    int kernel_mask[count] = {}; // over the dims the kernel tracks
    data_type_t dt[count] = {};
    bool with_sum = false;
    float beta = 0.f;

    // Checks the attributes; dnnl_unimplemented (with a verbose line) for
    // what the kernels do not do.
    status_t init(const primitive_attr_t &attr, const memory_desc_t &src,
            const memory_desc_t &dst);
    // Bits of the dims some array varies over.
    int dims_mask() const;
    // Anything beyond a plain conversion (the sum included).
    bool any() const;
    // Masks in tracked dims: dim_map[d] is the tracked index of dim d or -1
    // (a unit dim, which no index depends on).
    void map_masks(const int *dim_map, int ndims);
    void define(kernel_options_t &opts, bool exact_division) const;
    // The arrays' buffers and offsets, then beta, in the order the kernels
    // declare them (QUANT_ARGS of reorder.cl).
    status_t set_args(kernel_args_t &args, const exec_ctx_t &ctx,
            const memory_desc_t &src) const;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
