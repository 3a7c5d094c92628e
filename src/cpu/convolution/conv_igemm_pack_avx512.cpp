// dnnl-isa: avx512_core
// The AVX-512 pack loop of the implicit-GEMM convolution's fast B-panel
// gathering (see conv_igemm_pack.hpp), entered through the AVX-512 entry
// of the convolution kernel table; callers check igemm_gather_fits()
// first.
#include "cpu/convolution/conv_igemm_pack.hpp"

#include <immintrin.h>

#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {

template <int SW>
void pack_rows(const conv_conf_t &c, const float *src,
        const igemm_gather_t &g, dim_t pc, dim_t kc, int NR, float *bp) {
    const dim_t ksp = c.ksp(), isp = c.isp();
    const dim_t kcNR = kc * NR, S = g.per_vec;
    const dim_t vpp = NR / 16; // vectors per panel
    const __m512i even = _mm512_setr_epi32(
            0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    for (dim_t p = 0; p < kc; ++p) {
        const dim_t k = pc + p;
        const float *plane = src + (k / ksp) * isp;
        const igemm_load_t *t = g.loads.data() + (k % ksp) * g.nvec * S;
        float *row = bp + p * NR;
        for (dim_t v = 0; v < g.nvec; ++v, t += S) {
            __m512 acc = _mm512_setzero_ps();
            for (dim_t s = 0; s < S; ++s) {
                const igemm_load_t &e = t[s];
                const float *r = plane + e.off;
                if (SW == 1) {
                    acc = _mm512_mask_loadu_ps(acc, (__mmask16)e.m, r);
                } else {
                    // Lane l takes element 2l of two loads, compacted.
                    const __m512 a = _mm512_maskz_loadu_ps((__mmask16)e.m2, r);
                    const __m512 b = _mm512_maskz_loadu_ps(
                            (__mmask16)(e.m2 >> 16), r + 16);
                    acc = _mm512_mask_mov_ps(acc, (__mmask16)e.m,
                            _mm512_permutex2var_ps(a, even, b));
                }
            }
            _mm512_storeu_ps(row + (v / vpp) * kcNR + (v % vpp) * 16, acc);
        }
    }
}

} // namespace

void DNNL_ISA_NAME(igemm_pack_f32_ncsp)(const conv_conf_t &c, const float *src,
        const igemm_gather_t &g, dim_t pc, dim_t kc, int NR, float *bp) {
    if (c.sw == 1)
        pack_rows<1>(c, src, g, pc, kc, NR, bp);
    else
        pack_rows<2>(c, src, g, pc, kc, NR, bp);
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
