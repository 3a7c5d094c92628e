// Weight layouts that `any` resolves to for the forward inner product: the
// GEMM core's pre-packed B layouts, so that every execution reads the
// weights in place instead of repacking them.
//   f32:  [OC / NR][K][NR] with K in the source's order (K = IC x spatial;
//         "Ab32a" / "Abcd32a" / "Acdb32a" for NR 32);
//   s8:   2D only, "AB16b<NR>a4b" = [OC / NR][IC / 64][16][NR][4], i.e.
//         quads of K per output channel, as the u8 x s8 kernels read them.
// Both start from the plain weights descriptor (dims in the source's
// order) that the generic format resolution produced.
#pragma once

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

status_t packed_f32_weights_md(
        memory_desc_t &md, const memory_desc_t &plain, int nr);
// `kpad` receives K rounded up to the layout's K block (the panel height).
status_t packed_s8_weights_md(
        memory_desc_t &md, const memory_desc_t &plain, int nr, dim_t &kpad);

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
