// Layouts of the gpu convolution kernels: what format `any` resolves to,
// and how a descriptor travels to the kernels (conv_addr.clh): as strides
// when it has no inner blocks, else as a generic layout_t.
//
// `any` resolves to channels-last activations (nwc, nhwc, ndhwc) unless
// the other activation is given plainly (ncw, nchw, ncdhw), whose class
// it then follows; weights follow the activations: (g)(d)(h)w-i-o with
// channels last, so that the reduction index runs along input channels
// and output channels are contiguous, (g)oi(d)(h)w with channels first.
// On GPUs channels-last keeps neighbouring work-items on neighbouring
// channels for every kernel point, which the gathers coalesce.
#pragma once

#include "common/memory_desc.hpp"
#include "gpu/ocl/ocl_layout.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Mirrors conv_strides_t of conv_addr.clh.
struct conv_strides_t {
    int64_t off0;
    int64_t s[6];
};

// Mirrors conv_blocked_t of conv_addr.clh: the fields of layout_t that
// kernels address with, for the GEMM kernel's argument budget.
struct conv_blocked_t {
    int64_t offset0, ndims, nblks;
    int64_t strides[layout_max_ndims], blk_size[layout_max_ndims];
    int64_t inner_blk[layout_max_blks], inner_idx[layout_max_blks];
    int64_t inner_stride[layout_max_blks], inner_within[layout_max_blks];
};
conv_blocked_t conv_blocked(const memory_desc_t &md);

// Whether `any` activations become channels-last, from the user's two
// activation descriptors.
bool conv_channels_last(const memory_desc_t &a, const memory_desc_t &b);
// Replace a format-`any` descriptor (others are left alone); `wei` has
// convolution order ((g,) oc, ic, spatial).
status_t conv_resolve_act(memory_desc_t &md, bool channels_last);
status_t conv_resolve_wei(
        memory_desc_t &md, bool channels_last, bool with_groups);
status_t conv_resolve_bias(memory_desc_t &md);

// True when `md` travels as strides (no inner blocks).
inline bool conv_is_strided(const memory_desc_t &md) {
    return md.format_desc.blocking.inner_nblks == 0;
}
// Strides of (n, c, d, h, w) of an activation, ((g,) o, i, d, h, w) of
// weights in convolution order; 0 for absent dims.
conv_strides_t conv_act_strides(const memory_desc_t &md);
conv_strides_t conv_wei_strides(const memory_desc_t &md, bool with_groups);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
