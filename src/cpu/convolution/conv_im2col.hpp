// im2col and col2im for one image and one group, in both activation
// layouts. Column buffers match the GEMM operands of the kernels:
//   nspc: col[r][kd][kh][kw][ic]   (a row per output point)
//   ncsp: col[ic][kd][kh][kw][r]   (a row per reduction index)
// for output points r in [sp0, sp0 + nsp). Sources point at channel 0 of
// the group in image n; `ch_stride`/`row_stride` are those of the tensor.
#pragma once

#include <cstdint>

#include "cpu/convolution/conv_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

// Raw copies (T is a 1, 2 or 4-byte element type); padding gets `fill`.
template <typename T>
void im2col_nspc(const conv_conf_t &c, const T *src, T *col, dim_t sp0,
        dim_t nsp, T fill);
template <typename T>
void im2col_ncsp(const conv_conf_t &c, const T *src, T *col, dim_t sp0,
        dim_t nsp, T fill);

// Converting copies: col = f32(src) - zp[ic] (zp may be null; zp_per_c
// selects zp[ic] over zp[0]); padding is 0. `src_dt` is the source type.
void im2col_nspc_f32(const conv_conf_t &c, data_type_t src_dt,
        const void *src, const int32_t *zp, bool zp_per_c, float *col,
        dim_t sp0, dim_t nsp);
void im2col_ncsp_f32(const conv_conf_t &c, data_type_t src_dt,
        const void *src, const int32_t *zp, bool zp_per_c, float *col,
        dim_t sp0, dim_t nsp);

// Gathers a full-image column buffer (nsp = osp) back into the input
// rows [r0, r1) of the (id, ih) plane rows: out = sum of contributions
// (written, not accumulated). T is float or int32_t. `ldo` is the stride
// between input points of `out` (channels are contiguous).
template <typename T>
void col2im_nspc(const conv_conf_t &c, const T *col, T *out, dim_t ldo,
        dim_t r0, dim_t r1);
// ncsp: rows are (ic, id, ih) triples in [r0, r1).
template <typename T>
void col2im_ncsp(const conv_conf_t &c, const T *col, T *out, dim_t r0,
        dim_t r1);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
