// GEMM microkernels: the register-tiled inner loops of the GEMM core,
// named XNNPACK-style (type_gemm_MRxNR[cK]__isa). Microkernels know nothing
// of operators or blocking: they multiply one packed MR-row panel of A by
// one packed NR-column panel of B and store an m x n (m <= MR, n <= NR)
// tile of C. The driver picks one entry of the tables below.
//
// Packed layouts (zero padded to full MR / NR):
//   f32: A panel a[p * MR + i], B panel b[p * NR + j], p < k.
//   s32 and bf16 ("c2"): pairs of k (16 bits each): A panel
//        a[(p * MR + i) * 2 + t], B panel b[(p * NR + j) * 2 + t] for k
//        index 2p + t, p < kp.
//   u8 x s8 ("c4"): quads of k (8 bits each): A panel (u8)
//        a[(q * MR + i) * 4 + t], B panel (s8) b[(q * NR + j) * 4 + t]
//        for k index 4q + t, q < kq.
#pragma once

#include <cstdint>

#include "common/c_types.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// c[i * ldc + j] = alpha * sum_p a(i, p) b(p, j) + beta * c[i * ldc + j];
// with beta == 0, c is not read. b_next (may be null) is the B panel of
// the caller's next call: its first k x NR values are prefetched into L2
// while this call computes, so that a B streamed from memory (pre-packed
// weights read once per call) arrives ahead of its first use.
using f32_ukernel_f = void (*)(dim_t k, const float *a, const float *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next);

// c[i * ldc + j] = sum_p a(i, p) b(p, j) (+ c[i * ldc + j] when accumulate)
using s32_ukernel_f = void (*)(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate);

// bf16 pairs (s32 "c2" layout) accumulated into f32 C with alpha / beta
// as the f32 kernels.
using bf16_ukernel_f = void (*)(dim_t kp, const int16_t *a, const int16_t *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta);

// c[i * ldc + j] = sum_q sum_t a(i, q, t) b(q, t, j) over u8 a and s8 b
// (+ c[i * ldc + j] when accumulate), wrapping modulo 2^32. Each ISA
// provides one function per row count m = 1..MR (all reading A panels of
// MR rows), so short tiles do not pay for the full MR.
using s32c4_ukernel_f = void (*)(dim_t kq, const uint8_t *a, const int8_t *b,
        int32_t *c, dim_t ldc, dim_t n, bool accumulate);

// One table entry: the kernel with its tile and the cache blocking that
// suits it (mc multiple of mr, nc multiple of nr, kc even).
template <typename F>
struct ukernel_desc_t {
    const char *name;
    int mr, nr;
    dim_t mc, kc, nc;
    F fn;
};
using f32_ukernel_desc_t = ukernel_desc_t<f32_ukernel_f>;
using s32_ukernel_desc_t = ukernel_desc_t<s32_ukernel_f>;
using bf16_ukernel_desc_t = ukernel_desc_t<bf16_ukernel_f>;
// fn[m - 1] computes m rows.
struct s32c4_ukernel_desc_t {
    const char *name;
    int mr, nr;
    dim_t mc, kc, nc;
    const s32c4_ukernel_f *fn;
};
extern const s32c4_ukernel_f s32_gemm_12x32c4__avx512vnni[12];
extern const s32c4_ukernel_f s32_gemm_6x16c4__avx2vnni[6];

void f32_gemm_12x32__avx512f(dim_t k, const float *a, const float *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next);
void f32_gemm_6x16__avx2_fma(dim_t k, const float *a, const float *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next);
void f32_gemm_4x8__generic(dim_t k, const float *a, const float *b, float *c,
        dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next);

void f32_gemm_12x32c2__avx512bf16(dim_t kp, const int16_t *a,
        const int16_t *b, float *c, dim_t ldc, dim_t m, dim_t n, float alpha,
        float beta);

void s32_gemm_12x32c2__avx512vnni(dim_t kp, const int16_t *a,
        const int16_t *b, int32_t *c, dim_t ldc, dim_t m, dim_t n,
        bool accumulate);
void s32_gemm_12x32c2__avx512bw(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate);
void s32_gemm_6x16c2__avx2(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate);
void s32_gemm_4x8c2__generic(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate);

// Small-M kernels without packing (see f32_gemv_*_impl): one entry per
// M in 1..4, index M - 1.
using f32_gemv_n_f = void (*)(dim_t n, dim_t k, float alpha, const float *a,
        dim_t a_rs, dim_t a_cs, const float *b, dim_t ldb, float beta,
        float *c, dim_t ldc);
using f32_gemv_t_f = void (*)(dim_t n, dim_t k, float alpha, const float *a,
        dim_t lda, const float *b, dim_t ldb, float beta, float *c, dim_t ldc);
// The n form over bf16 inputs (uint16_t), f32 products and sums; null in
// an entry without it.
using bf16_gemv_n_f = void (*)(dim_t n, dim_t k, float alpha, const uint16_t *a,
        dim_t a_rs, dim_t a_cs, const uint16_t *b, dim_t ldb, float beta,
        float *c, dim_t ldc);
struct f32_gemv_desc_t {
    f32_gemv_n_f n[4];
    f32_gemv_t_f t[4];
    bf16_gemv_n_f bf16_n[4];
};
extern const f32_gemv_desc_t f32_gemv__avx512f;
extern const f32_gemv_desc_t f32_gemv__avx2_fma;
extern const f32_gemv_desc_t f32_gemv__generic;

// Integer products of up to four rows without packing (batch-1 int8
// inner products and matmuls): for columns [0, n) of B and rows [0, m)
// of A (row i at a + i * lda, contiguous along k), the exact sums
// ab[i * n + j] = sum_p a(i, p) b(p, j) and, where bsum is not null,
// bsum[j] = sum_p b(p, j). B is either in n form (row p at b + p * ldb,
// contiguous along j) or t form (column j at b + j * ldb, contiguous
// along p). fn[t form][A signed][B signed]; A and B are u8 or s8.
using s32_small_m_f = void (*)(dim_t m, dim_t n, dim_t k, const void *a,
        dim_t lda, const void *b, dim_t ldb, int64_t *ab, int64_t *bsum);
struct s32_small_m_desc_t {
    s32_small_m_f fn[2][2][2];
};
const s32_small_m_desc_t &s32_small_m_avx512_core();
const s32_small_m_desc_t &s32_small_m_avx2();
const s32_small_m_desc_t &s32_small_m_base();

// The tables, best first (cpu/isa_table.hpp), and the kernels this
// machine runs best among them (within dnnl_set_max_cpu_isa and the ISA
// hints).
const isa_table_t<f32_ukernel_desc_t> &f32_ukernel_table();
const isa_table_t<f32_gemv_desc_t> &f32_gemv_table();
const isa_table_t<s32_ukernel_desc_t> &s32_ukernel_table();
const isa_table_t<bf16_ukernel_desc_t> &bf16_ukernel_table();
const isa_table_t<s32c4_ukernel_desc_t> &s32c4_ukernel_table();
const isa_table_t<s32_small_m_desc_t> &s32_small_m_table();
const f32_ukernel_desc_t &select_f32_ukernel();
const s32_small_m_desc_t &select_s32_small_m();
const s32_ukernel_desc_t &select_s32_ukernel();
const f32_gemv_desc_t &select_f32_gemv();
// Null when the machine has no bf16 dot product instructions.
const bf16_ukernel_desc_t *select_bf16_ukernel();
// Null when the machine (within the ISA limit) has no u8 x s8 dot product
// instructions (vpdpbusd).
const s32c4_ukernel_desc_t *select_s32c4_ukernel();

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
