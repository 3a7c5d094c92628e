// Portable GEMM microkernels (baseline ISA, scalar code the compiler may
// vectorise): f32 4x8 and s32 4x8 on int16 pairs. Correct everywhere; the
// fallback when no vector ISA kernel applies.
#include <cstdint>

#include "common/c_types.hpp"
#include "cpu/gemm/gemm_ukernel_impl.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {
namespace {

struct f32_scalar_t {
    using vec = float;
    static constexpr int width = 1;
    static vec zero() { return 0.f; }
    static vec load(const float *p) { return *p; }
    static void store(float *p, vec v) { *p = v; }
    static vec bcast(const float *p) { return *p; }
    static vec set1(float x) { return x; }
    static vec fma(vec a, vec b, vec c) { return a * b + c; }
    static vec mul(vec a, vec b) { return a * b; }
    static vec add(vec a, vec b) { return a + b; }
    static float hsum(vec a) { return a; }
};

struct s32_scalar_t {
    // One int32 lane holding the pair sum; b points at a pair.
    struct vec {
        int32_t lo, hi; // the pair of int16 values, or lo = the sum
    };
    static constexpr int width = 1;
    static vec zero() { return {0, 0}; }
    static vec load(const int16_t *p) { return {p[0], p[1]}; }
    static vec loadc(const int32_t *p) { return {*p, 0}; }
    static void store(int32_t *p, vec v) { *p = v.lo; }
    static vec bcast2(const int16_t *p) { return {p[0], p[1]}; }
    static vec dot(vec acc, vec a, vec b) {
        const uint32_t s = (uint32_t)(a.lo * b.lo) + (uint32_t)(a.hi * b.hi);
        return {(int32_t)((uint32_t)acc.lo + s), 0};
    }
    static vec add(vec a, vec b) {
        return {(int32_t)((uint32_t)a.lo + (uint32_t)b.lo), 0};
    }
};

} // namespace

void f32_gemm_4x8__generic(dim_t k, const float *a, const float *b, float *c,
        dim_t ldc, dim_t m, dim_t n, float alpha, float beta,
        const float *b_next) {
    f32_ukernel_impl<f32_scalar_t, 4, 8>(k, a, b, c, ldc, m, n, alpha, beta, b_next);
}

const f32_gemv_desc_t f32_gemv__generic = {
        {f32_gemv_n_impl<f32_scalar_t, 1>, f32_gemv_n_impl<f32_scalar_t, 2>,
                f32_gemv_n_impl<f32_scalar_t, 3>, f32_gemv_n_impl<f32_scalar_t, 4>},
        {f32_gemv_t_impl<f32_scalar_t, 1>, f32_gemv_t_impl<f32_scalar_t, 2>,
                f32_gemv_t_impl<f32_scalar_t, 3>, f32_gemv_t_impl<f32_scalar_t, 4>}};

void s32_gemm_4x8c2__generic(dim_t kp, const int16_t *a, const int16_t *b,
        int32_t *c, dim_t ldc, dim_t m, dim_t n, bool accumulate) {
    s32_ukernel_impl<s32_scalar_t, 4, 8>(kp, a, b, c, ldc, m, n, accumulate);
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
