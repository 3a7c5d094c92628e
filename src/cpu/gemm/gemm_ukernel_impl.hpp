// Bodies of the GEMM microkernels, written once over a "vector traits"
// type V that wraps one ISA's intrinsics (or plain scalars). Each
// f32_gemm_*/s32_gemm_* translation unit switches the compiler's target
// ISA, defines its traits in an anonymous namespace and instantiates these
// templates; the anonymous traits type gives every instantiation internal
// linkage, so code compiled for different ISAs never merges at link time.
//
// Only templates live here (no inline functions), for the same reason.
#pragma once

#include <cstdint>

#include <type_traits>

#include "common/c_types.hpp"
#include "common/float_convert.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// Stores an MR x NV-vector tile of f32 accumulators: c = alpha * acc +
// beta * c (beta == 0: c not read) for the valid m x n part.
template <typename V, int MR, int NV>
__attribute__((always_inline)) inline void store_f32_tile(typename V::vec (&acc)[MR][NV], float *c, dim_t ldc,
        dim_t m, dim_t n, float alpha, float beta) {
    using vec = typename V::vec;
    constexpr int W = V::width;
    constexpr int NR = NV * W;
    if (m == MR && n == NR) {
        const vec va = V::set1(alpha);
        const vec vb = V::set1(beta);
        if (beta == 0.f) {
#pragma GCC unroll 32
            for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
                for (int j = 0; j < NV; ++j)
                    V::store(c + i * ldc + j * W, alpha == 1.f
                                    ? acc[i][j]
                                    : V::mul(va, acc[i][j]));
        } else if (alpha == 1.f && beta == 1.f) {
#pragma GCC unroll 32
            for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
                for (int j = 0; j < NV; ++j)
                    V::store(c + i * ldc + j * W,
                            V::add(acc[i][j], V::load(c + i * ldc + j * W)));
        } else {
#pragma GCC unroll 32
            for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
                for (int j = 0; j < NV; ++j)
                    V::store(c + i * ldc + j * W,
                            V::fma(va, acc[i][j],
                                    V::mul(vb, V::load(c + i * ldc + j * W))));
        }
        return;
    }
    // Partial tile: spill the accumulators and merge the valid part.
    alignas(64) float tmp[MR * NR];
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            V::store(tmp + i * NR + j * W, acc[i][j]);
    for (dim_t i = 0; i < m; ++i)
        for (dim_t j = 0; j < n; ++j) {
            const float r = alpha * tmp[i * NR + j];
            c[i * ldc + j] = beta == 0.f ? r : r + beta * c[i * ldc + j];
        }
}

// V provides: vec, width, zero(), load(p), store(p, v), bcast(p) (one
// float broadcast), fma(a, b, c) = a * b + c, mul(a, b), set1(x). MR rows
// are computed from A panels of MA rows (MA > MR: a row tail of a kernel
// whose panels are MA high, which then skips the rows it does not need).
template <typename V, int MR, int NV, int MA = MR>
void f32_ukernel_impl(dim_t k, const float *a, const float *b, float *c,
        dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next) {
    using vec = typename V::vec;
    constexpr int W = V::width;
    constexpr int NR = NV * W;
    // Cache lines of B one k step reads (and of b_next it prefetches);
    // without a next panel the prefetches touch this one (in cache).
    constexpr int lines = NR * 4 >= 64 ? NR * 4 / 64 : 1;
    const float *bn = b_next ? b_next : b;
    vec acc[MR][NV];
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            acc[i][j] = V::zero();

#pragma GCC unroll 2
    for (dim_t p = 0; p < k; ++p) {
        vec bv[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            bv[j] = V::load(b + j * W);
#pragma GCC unroll 4
        for (int l = 0; l < lines; ++l)
            __builtin_prefetch(bn + l * 16, 0, 2);
#pragma GCC unroll 32
        for (int i = 0; i < MR; ++i) {
            const vec av = V::bcast(a + i);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j)
                acc[i][j] = V::fma(av, bv[j], acc[i][j]);
        }
        a += MA;
        b += NR;
        bn += NR;
    }

    store_f32_tile<V, MR, NV>(acc, c, ldc, m, n, alpha, beta);
}

// An MR-row kernel that computes only as many rows as the tile has, in
// steps of MR / 3 (MR a multiple of 3): M = 32 on 12 rows runs as
// 12 + 12 + 8 instead of 3 x 12, M = 16 as 12 + 4.
template <typename V, int MR, int NV>
void f32_ukernel_thirds(dim_t k, const float *a, const float *b, float *c,
        dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next) {
    static_assert(MR % 3 == 0, "rows in thirds");
    constexpr int R = MR / 3;
    if (m <= R)
        f32_ukernel_impl<V, R, NV, MR>(k, a, b, c, ldc, m, n, alpha, beta, b_next);
    else if (m <= 2 * R)
        f32_ukernel_impl<V, 2 * R, NV, MR>(k, a, b, c, ldc, m, n, alpha, beta, b_next);
    else
        f32_ukernel_impl<V, MR, NV>(k, a, b, c, ldc, m, n, alpha, beta, b_next);
}

// V provides: vec, width (int32 lanes), zero(), load(p) (2 * width int16),
// store(p, v) (width int32), loadc(p) (width int32), bcast2(p) (one pair
// of int16 broadcast), dot(acc, a, b) = acc + pairwise int16 products
// summed per int32 lane, add(a, b).
template <typename V, int MR, int NV>
void s32_ukernel_impl(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate) {
    using vec = typename V::vec;
    constexpr int W = V::width;
    constexpr int NR = NV * W;
    vec acc[MR][NV];
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            acc[i][j] = V::zero();

#pragma GCC unroll 2
    for (dim_t p = 0; p < kp; ++p) {
        vec bv[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            bv[j] = V::load(b + 2 * j * W);
#pragma GCC unroll 32
        for (int i = 0; i < MR; ++i) {
            const vec av = V::bcast2(a + 2 * i);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j)
                acc[i][j] = V::dot(acc[i][j], av, bv[j]);
        }
        a += 2 * MR;
        b += 2 * NR;
    }

    if (m == MR && n == NR) {
#pragma GCC unroll 32
        for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j) {
                int32_t *cp = c + i * ldc + j * W;
                V::store(cp, accumulate ? V::add(acc[i][j], V::loadc(cp))
                                        : acc[i][j]);
            }
        return;
    }
    alignas(64) int32_t tmp[MR * NR];
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            V::store(tmp + i * NR + j * W, acc[i][j]);
    for (dim_t i = 0; i < m; ++i)
        for (dim_t j = 0; j < n; ++j) {
            const int32_t r = tmp[i * NR + j];
            c[i * ldc + j] = accumulate
                    ? (int32_t)((uint32_t)r + (uint32_t)c[i * ldc + j])
                    : r;
        }
}

// f32 accumulation of 16-bit pairs (bf16 dot products): V provides the
// f32 traits plus pvec (a vector of pairs), loadp(p) (2 * width values),
// bcast2(p) (one pair broadcast) and dot(acc, a, b) = acc + a0 b0 + a1 b1
// per lane. Packed layouts as the s32 ("c2") kernels; C as f32 kernels.
template <typename V, int MR, int NV>
void f32c2_ukernel_impl(dim_t kp, const int16_t *a, const int16_t *b,
        float *c, dim_t ldc, dim_t m, dim_t n, float alpha, float beta) {
    using vec = typename V::vec;
    using pvec = typename V::pvec;
    constexpr int W = V::width;
    constexpr int NR = NV * W;
    vec acc[MR][NV];
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            acc[i][j] = V::zero();
#pragma GCC unroll 2
    for (dim_t p = 0; p < kp; ++p) {
        pvec bv[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            bv[j] = V::loadp(b + 2 * j * W);
#pragma GCC unroll 32
        for (int i = 0; i < MR; ++i) {
            const pvec av = V::bcast2(a + 2 * i);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j)
                acc[i][j] = V::dot(acc[i][j], av, bv[j]);
        }
        a += 2 * MR;
        b += 2 * NR;
    }
    store_f32_tile<V, MR, NV>(acc, c, ldc, m, n, alpha, beta);
}

// u8 x s8 quads accumulated into s32: V provides vec, width (int32
// lanes), zero(), loadb(p) (4 * width bytes), bcast4(p) (one quad of bytes
// broadcast to every lane), dot(acc, a, b) = acc + per lane sum of the four
// u8 (a) x s8 (b) byte products (vpdpbusd, no saturation), loadc(p),
// store(p, v) and add(a, b) on int32. ROWS rows of an MR-row A panel.
template <typename V, int MR, int NV, int ROWS>
void s32c4_ukernel_impl(dim_t kq, const uint8_t *a, const int8_t *b,
        int32_t *c, dim_t ldc, dim_t n, bool accumulate) {
    using vec = typename V::vec;
    constexpr int W = V::width;
    constexpr int NR = NV * W;
    vec acc[ROWS][NV];
#pragma GCC unroll 32
    for (int i = 0; i < ROWS; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            acc[i][j] = V::zero();

#pragma GCC unroll 2
    for (dim_t q = 0; q < kq; ++q) {
        vec bv[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            bv[j] = V::loadb(b + 4 * j * W);
#pragma GCC unroll 32
        for (int i = 0; i < ROWS; ++i) {
            const vec av = V::bcast4(a + 4 * i);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j)
                acc[i][j] = V::dot(acc[i][j], av, bv[j]);
        }
        a += 4 * MR;
        b += 4 * NR;
    }

    if (n == NR) {
#pragma GCC unroll 32
        for (int i = 0; i < ROWS; ++i)
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j) {
                int32_t *cp = c + i * ldc + j * W;
                V::store(cp, accumulate ? V::add(acc[i][j], V::loadc(cp))
                                        : acc[i][j]);
            }
        return;
    }
    alignas(64) int32_t tmp[ROWS * NR];
#pragma GCC unroll 32
    for (int i = 0; i < ROWS; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            V::store(tmp + i * NR + j * W, acc[i][j]);
    for (int i = 0; i < ROWS; ++i)
        for (dim_t j = 0; j < n; ++j) {
            const int32_t r = tmp[i * NR + j];
            c[i * ldc + j] = accumulate
                    ? (int32_t)((uint32_t)r + (uint32_t)c[i * ldc + j])
                    : r;
        }
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// Small-M GEMM without packing, for M rows (M <= 4) and B with unit column
// stride: c(i, j) = alpha * sum_p a(i, p) b(p, j) + beta * c(i, j), with
// a(i, p) = a[i * a_rs + p * a_cs] and b(p, j) = b[p * ldb + j]. Columns go
// in chunks whose M accumulator rows stay in L1 (16 KiB at most, half
// of it) while the rows of B stream through contiguously, four at a
// time: runs of 16 KiB of each row for one row of A, 4 KiB for four.
// T: the inputs' type, float or uint16_t for bf16 (V::load widens bf16
// vectors; products and sums in f32 either way).
template <typename V, int M, typename T = float>
void f32_gemv_n_impl(dim_t n, dim_t k, float alpha, const T *a, dim_t a_rs,
        dim_t a_cs, const T *b, dim_t ldb, float beta, float *c, dim_t ldc) {
    using vec = typename V::vec;
    auto cv = [](T x) -> float {
        if constexpr (std::is_same<T, uint16_t>::value)
            return bf16_to_f32(x);
        else
            return x;
    };
    constexpr int W = V::width;
    constexpr dim_t JB = M == 1 ? 4096 : M == 2 ? 2048 : 1024;
    alignas(64) float acc[M][JB];
    for (dim_t j0 = 0; j0 < n; j0 += JB) {
        const dim_t jb = n - j0 < JB ? n - j0 : JB;
        const dim_t jv = jb / W * W;
        for (int i = 0; i < M; ++i)
            for (dim_t j = 0; j < jb; ++j)
                acc[i][j] = 0.f;
        dim_t p = 0;
        for (; p + 4 <= k; p += 4) {
            const T *b0 = b + p * ldb + j0, *b1 = b0 + ldb, *b2 = b1 + ldb,
                    *b3 = b2 + ldb;
#pragma GCC unroll 4
            for (int i = 0; i < M; ++i) {
                const T *ai = a + i * a_rs + p * a_cs;
                const float s0 = cv(ai[0]), s1 = cv(ai[a_cs]),
                            s2 = cv(ai[2 * a_cs]), s3 = cv(ai[3 * a_cs]);
                const vec a0 = V::set1(s0), a1 = V::set1(s1), a2 = V::set1(s2),
                          a3 = V::set1(s3);
                float *ci = acc[i];
                for (dim_t j = 0; j < jv; j += W) {
                    vec x = V::load(ci + j);
                    x = V::fma(a0, V::load(b0 + j), x);
                    x = V::fma(a1, V::load(b1 + j), x);
                    x = V::fma(a2, V::load(b2 + j), x);
                    x = V::fma(a3, V::load(b3 + j), x);
                    V::store(ci + j, x);
                }
                for (dim_t j = jv; j < jb; ++j)
                    ci[j] += s0 * cv(b0[j]) + s1 * cv(b1[j]) + s2 * cv(b2[j])
                             + s3 * cv(b3[j]);
            }
        }
        for (; p < k; ++p) {
            const T *b0 = b + p * ldb + j0;
#pragma GCC unroll 4
            for (int i = 0; i < M; ++i) {
                const float s0 = cv(a[i * a_rs + p * a_cs]);
                const vec a0 = V::set1(s0);
                float *ci = acc[i];
                for (dim_t j = 0; j < jv; j += W)
                    V::store(ci + j, V::fma(a0, V::load(b0 + j), V::load(ci + j)));
                for (dim_t j = jv; j < jb; ++j) ci[j] += s0 * cv(b0[j]);
            }
        }
        for (int i = 0; i < M; ++i) {
            float *cr = c + i * ldc + j0;
            if (beta == 0.f)
                for (dim_t j = 0; j < jb; ++j)
                    cr[j] = alpha * acc[i][j];
            else
                for (dim_t j = 0; j < jb; ++j)
                    cr[j] = alpha * acc[i][j] + beta * cr[j];
        }
    }
}

// R rows of B^T at once (columns j .. j + R - 1 of C) against the M rows
// of A: M * R dot products of contiguous rows, vectorised over p.
template <typename V, int M, int R>
void f32_gemv_t_rows(dim_t j, dim_t k, float alpha, const float *a, dim_t lda,
        const float *b, dim_t ldb, float beta, float *c, dim_t ldc) {
    using vec = typename V::vec;
    constexpr int W = V::width;
    const dim_t kv = k / W * W;
    const float *br[R];
    vec acc[M][R];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        br[r] = b + (j + r) * ldb;
#pragma GCC unroll 4
        for (int i = 0; i < M; ++i)
            acc[i][r] = V::zero();
    }
    for (dim_t p = 0; p < kv; p += W) {
        vec x[R];
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r)
            x[r] = V::load(br[r] + p);
#pragma GCC unroll 4
        for (int i = 0; i < M; ++i) {
            const vec av = V::load(a + i * lda + p);
#pragma GCC unroll 4
            for (int r = 0; r < R; ++r)
                acc[i][r] = V::fma(av, x[r], acc[i][r]);
        }
    }
    for (int i = 0; i < M; ++i)
        for (int r = 0; r < R; ++r) {
            float s = V::hsum(acc[i][r]);
            for (dim_t p = kv; p < k; ++p)
                s += a[i * lda + p] * br[r][p];
            float &cr = c[i * ldc + j + r];
            cr = beta == 0.f ? alpha * s : alpha * s + beta * cr;
        }
}

// Small-M GEMM for B with unit row stride (b(p, j) = b[j * ldb + p]) and
// A with unit column stride: dot products of contiguous rows, vectorised
// over p. V additionally provides hsum(v) (sum of the lanes). Rows of B
// go four at a time for one or two rows of A (more loads in flight),
// two otherwise.
template <typename V, int M>
void f32_gemv_t_impl(dim_t n, dim_t k, float alpha, const float *a, dim_t lda,
        const float *b, dim_t ldb, float beta, float *c, dim_t ldc) {
    constexpr int R = M <= 2 ? 4 : 2;
    dim_t j = 0;
    for (; j + R <= n; j += R)
        f32_gemv_t_rows<V, M, R>(j, k, alpha, a, lda, b, ldb, beta, c, ldc);
    for (; j < n; ++j)
        f32_gemv_t_rows<V, M, 1>(j, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
