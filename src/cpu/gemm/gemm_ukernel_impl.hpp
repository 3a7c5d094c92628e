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

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// V provides: vec, width, zero(), load(p), store(p, v), bcast(p) (one
// float broadcast), fma(a, b, c) = a * b + c, mul(a, b), set1(x).
template <typename V, int MR, int NV>
void f32_ukernel_impl(dim_t k, const float *a, const float *b, float *c,
        dim_t ldc, dim_t m, dim_t n, float alpha, float beta) {
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
    for (dim_t p = 0; p < k; ++p) {
        vec bv[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            bv[j] = V::load(b + j * W);
#pragma GCC unroll 32
        for (int i = 0; i < MR; ++i) {
            const vec av = V::bcast(a + i);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j)
                acc[i][j] = V::fma(av, bv[j], acc[i][j]);
        }
        a += MR;
        b += NR;
    }

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

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
