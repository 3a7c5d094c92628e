// The CPU GEMM core: cache-blocked, packed, register-tiled matrix
// multiplication used by matmul, inner product and convolution.
//
// Two generic entry points do all the work:
//   gemm_f32()  C(f32) = alpha * op(A) * op(B) + beta * C, with A and B in
//               f32, bf16 or f16 (converted to f32 while packing; bf16
//               pairs go to a vdpbf16ps kernel where the CPU has one);
//   gemm_s32()  C(s32) = (A - a_zp) * (B - b_zp) [+ C], A and B in u8/s8,
//               exact integer arithmetic (int16 pairs, vpmaddwd/vpdpwssd);
// each with general element strides for A and B, an optional bias and a
// post-processing hook called on every finished block of C while it is
// still in cache. f32 problems with M <= 4 and a unit-stride B skip
// packing (GEMV-like kernels). The BLAS-like wrappers below (row-major,
// like dnnl_sgemm) are thin layers over them. Microkernels are picked by
// ISA (AVX-512 / AVX2+FMA / portable) within dnnl_set_max_cpu_isa.
//
// Threading: tiles of a 2D grid over C, claimed by the threads of the
// threading layer, when `parallel` is true and
// the caller is not already inside a parallel region. Every entry point is
// reentrant; packing buffers come from `workspace` when given (sized with
// gemm_workspace_size) or from a per-thread cache.
#pragma once

#include <cstdint>
#include <functional>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// Where a bias vector varies: one value per row of C (per M index) or per
// column of C (per N index).
enum class bias_kind_t { none, per_row, per_col };

// Post-processing hook: called exactly once for every block of C after its
// final value (bias included) is stored: rows [m0, m0 + m), columns
// [n0, n0 + n); `c` points at C(m0, n0) and `ldc` is C's row stride. Calls
// for disjoint blocks may run concurrently on different threads of the
// threading layer. Blocks are at most a few hundred
// rows by a few thousand columns.
using gemm_post_f32_t = std::function<void(
        dim_t m0, dim_t n0, dim_t m, dim_t n, float *c, dim_t ldc)>;
using gemm_post_s32_t = std::function<void(
        dim_t m0, dim_t n0, dim_t m, dim_t n, int32_t *c, dim_t ldc)>;

// Floating-point GEMM. Element (i, k) of A is a[i * a_rs + k * a_cs],
// element (k, j) of B is b[k * b_rs + j * b_cs], element (i, j) of C is
// c[i * ldc + j]. Any strides work (transposes, gathers); unit strides on
// one side pack fastest.
struct gemm_f32_args_t {
    dim_t M = 0, N = 0, K = 0;
    const void *a = nullptr;
    data_type_t a_dt = dnnl_f32; // f32, bf16, f16
    dim_t a_rs = 0, a_cs = 1;
    const void *b = nullptr;
    data_type_t b_dt = dnnl_f32; // f32, bf16, f16
    dim_t b_rs = 0, b_cs = 1;
    // f32 inputs only: bf16 / f16 / tf32 round A and B to that precision
    // while packing (fpmath emulation); strict and any leave them as is.
    fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;
    // B pre-packed in the f32 kernel's panel layout (see
    // f32_packed_b_nr()): panel j / NR at b + (j / NR) * K * NR holds
    // b(k, j) at [k * NR + j % NR]; b_rs / b_cs are ignored. f32 A and B,
    // fpmath strict or any only.
    bool b_packed = false;
    // Pre-packed B in segments of K (0: one segment): rows
    // [s * b_packed_kseg, (s + 1) * b_packed_kseg) are a packed B of
    // b_packed_kseg rows of their own at b + s * b_packed_seg_stride
    // (floats). K must be a multiple of b_packed_kseg.
    dim_t b_packed_kseg = 0, b_packed_seg_stride = 0;
    float *c = nullptr;
    dim_t ldc = 0;
    float alpha = 1.f;
    float beta = 0.f; // 0: C is not read (may hold NaN garbage)
    const float *bias = nullptr; // added after alpha/beta
    bias_kind_t bias_kind = bias_kind_t::none;
    gemm_post_f32_t post; // optional
    bool parallel = true;
    int nthr = 0; // 0: max_threads() of the threading layer
    void *workspace = nullptr; // optional, gemm_workspace_size() bytes
};
status_t gemm_f32(const gemm_f32_args_t &args);

// Integer GEMM: C = sum_k (A(i,k) - a_zp) * (B(k,j) - b_zp), plus the old
// C when `accumulate`, plus bias (s32), exact modulo 2^32 for any zero
// points. On VNNI machines (AVX-512 VNNI, AVX-VNNI) the products run on
// u8 x s8 quads (vpdpbusd): s8 A is shifted to u8 and u8 B to s8, and the
// shifts and zero points are compensated with row / column sums.
// Otherwise int16 pairs (vpmaddwd) serve zero points that keep |A - a_zp|
// and |B - b_zp| below 2^15, and a plain exact loop the rest.
struct gemm_s32_args_t {
    dim_t M = 0, N = 0, K = 0;
    const void *a = nullptr;
    data_type_t a_dt = dnnl_u8; // u8, s8
    dim_t a_rs = 0, a_cs = 1;
    int32_t a_zp = 0;
    const void *b = nullptr;
    data_type_t b_dt = dnnl_s8; // u8, s8
    dim_t b_rs = 0, b_cs = 1;
    int32_t b_zp = 0;
    // B (s8) pre-packed in the u8 x s8 kernel's layout (see
    // s32_packed_b_nr()): panel j / NR at b + (j / NR) * b_packed_k * NR
    // holds b(k, j) at [(k / 4 * NR + j % NR) * 4 + k % 4]; b_packed_k is
    // K rounded up to the layout's K block (a multiple of 4).
    bool b_packed = false;
    dim_t b_packed_k = 0;
    int32_t *c = nullptr;
    dim_t ldc = 0;
    bool accumulate = false; // false: C is not read
    const int32_t *bias = nullptr;
    bias_kind_t bias_kind = bias_kind_t::none;
    gemm_post_s32_t post; // optional
    bool parallel = true;
    int nthr = 0;
    void *workspace = nullptr;
};
status_t gemm_s32(const gemm_s32_args_t &args);

// Bytes of packing workspace a call of the given shape needs with `nthr`
// threads (0: the threading layer's max_threads()). `is_int` selects gemm_s32 sizing.
size_t gemm_workspace_size(
        dim_t M, dim_t N, dim_t K, bool is_int, bool parallel, int nthr = 0);

// Name of the f32 / s32 microkernel the dispatcher picks on this machine
// (e.g. "f32_gemm_6x16__avx2_fma"), for impl_info_str and tests.
const char *f32_kernel_name();
// The kernel gemm_f32 uses for these inputs (a bf16 dot product kernel for
// bf16 inputs or fpmath bf16 where the machine has one).
const char *f32_kernel_name(
        data_type_t a_dt, data_type_t b_dt, fpmath_mode_t fpmath);
const char *s32_kernel_name();

// NR of the pre-packed B layout gemm_f32 accepts for these inputs
// (b_packed), 0 when such inputs run another kernel (bf16 pairs, fpmath
// down-conversion) that has none.
int f32_packed_b_nr(data_type_t a_dt, data_type_t b_dt, fpmath_mode_t fpmath);
// NR of the pre-packed s8 B layout gemm_s32 accepts (b_packed), 0 when the
// machine has no u8 x s8 dot product kernel.
int s32_packed_b_nr();

// ---- BLAS-like row-major wrappers (the semantics of dnnl_sgemm) -----------
// Checks the arguments of a BLAS-like call (trans flags, sizes, leading
// dimensions, and offsetc for the integer GEMMs when not 0).
status_t check_gemm_args(char transa, char transb, dim_t M, dim_t N, dim_t K,
        dim_t lda, dim_t ldb, dim_t ldc, char offsetc = 0);

// C = alpha * op(A) * op(B) + beta * C with op(X) = X or X^T
// (trans 'N'/'n' or 'T'/'t'); A is M x K after op, B is K x N, C is M x N;
// all row-major with leading dimensions lda/ldb/ldc.
status_t sgemm(char transa, char transb, dim_t M, dim_t N, dim_t K,
        float alpha, const float *A, dim_t lda, const float *B, dim_t ldb,
        float beta, float *C, dim_t ldc, bool parallel = true);

// Same with a bias added after alpha/beta (per row or per column of C) and
// an optional post hook.
status_t sgemm_ex(char transa, char transb, dim_t M, dim_t N, dim_t K,
        float alpha, const float *A, dim_t lda, const float *B, dim_t ldb,
        float beta, float *C, dim_t ldc, const float *bias,
        bias_kind_t bias_kind, const gemm_post_f32_t &post = nullptr,
        bool parallel = true);

// bf16 / f16 inputs (raw 16-bit storage), f32 output.
status_t gemm_bf16bf16f32(char transa, char transb, dim_t M, dim_t N,
        dim_t K, float alpha, const uint16_t *A, dim_t lda, const uint16_t *B,
        dim_t ldb, float beta, float *C, dim_t ldc, bool parallel = true);
status_t gemm_f16f16f32(char transa, char transb, dim_t M, dim_t N, dim_t K,
        float alpha, const uint16_t *A, dim_t lda, const uint16_t *B,
        dim_t ldb, float beta, float *C, dim_t ldc, bool parallel = true);

// Integer GEMMs with the semantics of dnnl_gemm_u8s8s32 / s8s8s32:
// C = alpha * (op(A) - ao) * (op(B) - bo) + beta * C + co, where offsetc
// 'F' (co[0] for all), 'C' (a column of offsets: co[i], one per row of C)
// or 'R' (a row of offsets: co[j], one per column). With alpha == 1 and
// beta 0 or 1 the result is exact (wrapping) integer arithmetic; otherwise
// it is computed in floating point, rounded half away from zero and
// saturated, as oneDNN does.
status_t gemm_u8s8s32(char transa, char transb, char offsetc, dim_t M,
        dim_t N, dim_t K, float alpha, const uint8_t *A, dim_t lda, uint8_t ao,
        const int8_t *B, dim_t ldb, int8_t bo, float beta, int32_t *C,
        dim_t ldc, const int32_t *co, bool parallel = true);
status_t gemm_s8s8s32(char transa, char transb, char offsetc, dim_t M,
        dim_t N, dim_t K, float alpha, const int8_t *A, dim_t lda, int8_t ao,
        const int8_t *B, dim_t ldb, int8_t bo, float beta, int32_t *C,
        dim_t ldc, const int32_t *co, bool parallel = true);
// A in s8, B in u8 (convolution with weights as A and im2col'd u8 as B).
status_t gemm_s8u8s32(char transa, char transb, char offsetc, dim_t M,
        dim_t N, dim_t K, float alpha, const int8_t *A, dim_t lda, int8_t ao,
        const uint8_t *B, dim_t ldb, uint8_t bo, float beta, int32_t *C,
        dim_t ldc, const int32_t *co, bool parallel = true);

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
