// Weights for the BRGEMM matmul: the kernel's panels as a memory
// descriptor (what `any` resolves to), and packing plain weights into
// them per execution (f32 rows, bf16 k pairs from bf16 or rounded f32,
// s8 k quads), a group of panels at a time.
#pragma once

#include <cstdint>

#include "common/c_types.hpp"
#include "common/memory_desc.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

// 2D weights (K x N) in panels of `panel` columns, N blocks outermost,
// then K; bf16 panels keep k in pairs, s8 ones in quads (inner blocks
// 64b2a / 64b4a: the k group innermost, K padded with zeros), as
// oneDNN's VNNI layouts do.
memory_desc_t brgemm_weights_md(const memory_desc_t &wei, dim_t panel);

// Where plain weights are packed from: element strides wk along K and wn
// along N, `n` columns (up to a group of panels), and the panels' layout
// in the buffer (`panel` columns, `pstride` elements apart).
struct pack_src_t {
    dim_t wk, wn, n, panel, pstride;
};

// Rows [0, kn) of the weights at w as panel rows in `o`, columns past n
// zero: f32 a row per k; bf16 (from bf16, or from f32 rounded to nearest
// even: fpmath_mode bf16) a row per pair of k, s8 per quad, each
// column's values adjacent and zeros past kn.
// f32 weights whose K runs are contiguous (wk 1: stored N x K) go through
// in-register transposes where the ISA has them.
void pack_f32(float *o, const float *w, const pack_src_t &s, dim_t kn);
void pack_bf16(uint16_t *o, const uint16_t *w, const pack_src_t &s, dim_t kn);
void pack_bf16(uint16_t *o, const float *w, const pack_src_t &s, dim_t kn);
void pack_s8(int8_t *o, const int8_t *w, const pack_src_t &s, dim_t kn);

// dst (cols x rows, row stride ldd) = the transpose of src (rows x cols,
// row stride lds), f32; in-register transposes where the ISA has them.
void transpose_f32(const float *src, dim_t lds, dim_t rows, dim_t cols,
        float *dst, dim_t ldd);

// The in-register forms of the two above, one set per ISA
// (brgemm_pack_simd.cpp: square blocks, 16 x 16 on AVX-512, 8 x 8 on
// AVX2), best first in pack_kernel_table(); none below AVX2 (the callers'
// scalar loops). The packer returns false, writing nothing, when a panel
// is not a whole number of blocks wide.
struct pack_kernels_t {
    const char *isa;
    bool (*pack_f32_k_contiguous)(
            float *o, const float *w, const pack_src_t &s, dim_t kn);
    void (*transpose_f32)(const float *src, dim_t lds, dim_t rows, dim_t cols,
            float *dst, dim_t ldd);
};
const pack_kernels_t &pack_kernels_avx512_core();
const pack_kernels_t &pack_kernels_avx2();
const isa_table_t<pack_kernels_t> &pack_kernel_table();

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
