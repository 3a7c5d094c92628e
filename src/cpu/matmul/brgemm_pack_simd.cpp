// dnnl-isa: avx2 avx512_core
// Packing f32 weights whose K runs are contiguous (weights stored N x K,
// as an inner product's (OC, IC) rows or a matmul's transposed `ba`)
// into the BRGEMM panels, and transposing an f32 matrix: square blocks
// (16 x 16 on AVX-512, 8 x 8 on AVX2) transposed in registers, so every
// load reads a run of one row and every store writes a run of one panel
// row. Entered through the tables of brgemm_matmul_pack.cpp.
#include "cpu/matmul/brgemm_matmul_pack.hpp"

#include <immintrin.h>

#include "cpu/isa_unit.hpp"
#include "cpu/simd_transpose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

// One square block of W floats: masked row loads and stores, the
// transpose. The two ISAs differ only here.
#if defined(__AVX512F__)
constexpr int W = 16;
struct block_t {
    __m512 r[W];
    static __mmask16 mask(dim_t n) { return (__mmask16)((1u << n) - 1); }
    void load(int i, const float *p, dim_t n) {
        r[i] = _mm512_maskz_loadu_ps(mask(n), p);
    }
    void zero(int i) { r[i] = _mm512_setzero_ps(); }
    void transpose() { transpose_16x16_ps(r); }
    void store(int i, float *p) const { _mm512_storeu_ps(p, r[i]); }
    void store(int i, float *p, dim_t n) const {
        _mm512_mask_storeu_ps(p, mask(n), r[i]);
    }
};
#else
constexpr int W = 8;
struct block_t {
    __m256 r[W];
    static __m256i mask(dim_t n) {
        return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    }
    void load(int i, const float *p, dim_t n) {
        r[i] = n == W ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, mask(n));
    }
    void zero(int i) { r[i] = _mm256_setzero_ps(); }
    void transpose() { transpose_8x8_ps(r); }
    void store(int i, float *p) const { _mm256_storeu_ps(p, r[i]); }
    void store(int i, float *p, dim_t n) const {
        if (n == W)
            _mm256_storeu_ps(p, r[i]);
        else
            _mm256_maskstore_ps(p, mask(n), r[i]);
    }
};
#endif

bool pack_k_contiguous(
        float *o, const float *w, const pack_src_t &s, dim_t kn) {
    const dim_t panel = s.panel, wn = s.wn;
    if (panel % W) return false; // a block would straddle two panels
    const dim_t n_cols = (s.n + panel - 1) / panel * panel;
    // W columns at a time (panels are whole vectors wide), each column's
    // K run streamed front to back.
    for (dim_t j0 = 0; j0 < n_cols; j0 += W) {
        const dim_t nj = s.n - j0 < W ? (s.n > j0 ? s.n - j0 : 0) : W;
        float *out = o + (j0 / panel) * s.pstride + j0 % panel;
        const float *col[W];
        for (dim_t j = 0; j < W; ++j)
            col[j] = j < nj ? w + (j0 + j) * wn : nullptr;
        for (dim_t k0 = 0; k0 < kn; k0 += W) {
            const dim_t kk = kn - k0 < W ? kn - k0 : W;
            block_t b;
            for (int j = 0; j < W; ++j) {
                if (!col[j]) {
                    b.zero(j);
                    continue;
                }
                _mm_prefetch((const char *)(col[j] + k0 + 64), _MM_HINT_T0);
                b.load(j, col[j] + k0, kk);
            }
            b.transpose();
            for (dim_t i = 0; i < kk; ++i)
                b.store((int)i, out + (k0 + i) * panel);
        }
    }
    return true;
}

void transpose_blocks(const float *src, dim_t lds, dim_t rows, dim_t cols,
        float *dst, dim_t ldd) {
    for (dim_t r0 = 0; r0 < rows; r0 += W) {
        const dim_t nr = rows - r0 < W ? rows - r0 : W;
        for (dim_t c0 = 0; c0 < cols; c0 += W) {
            const dim_t nc = cols - c0 < W ? cols - c0 : W;
            block_t b;
            for (int i = 0; i < W; ++i) {
                if (i < nr)
                    b.load(i, src + (r0 + i) * lds + c0, nc);
                else
                    b.zero(i);
            }
            b.transpose();
            for (dim_t j = 0; j < nc; ++j)
                b.store((int)j, dst + (c0 + j) * ldd + r0, nr);
        }
    }
}

} // namespace

const pack_kernels_t &DNNL_ISA_NAME(pack_kernels)() {
    static const pack_kernels_t k{
            isa_unit::this_isa_name, pack_k_contiguous, transpose_blocks};
    return k;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
