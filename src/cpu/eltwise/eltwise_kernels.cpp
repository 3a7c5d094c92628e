// dnnl-isa: sse41 avx2 avx512_core
// Eltwise kernels on contiguous f32 arrays: every loop is a plain
// element-wise map over the math module's inline functions, the switch
// over algorithms happens once per call. Compiled once per ISA listed
// above (cmake/isa_sources.cmake); the table is eltwise_kernel_table.cpp.

#include <cmath>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"
#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {
namespace {

// Square roots of a block (without errno, the compiler vectorises sqrt).
void sqrt_block(const float *s, float *d, dim_t n) {
#pragma omp simd
    for (dim_t i = 0; i < n; ++i)
        d[i] = std::sqrt(s[i]);
}

using namespace ::dnnl::impl::math;

template <typename F>
inline void map1(const float *s, float *d, dim_t n, F f) {
#pragma omp simd
    for (dim_t i = 0; i < n; ++i) d[i] = f(s[i]);
}

template <typename F>
inline void map1i(const float *s, float *d, dim_t n, F f) {
#pragma omp simd
    for (dim_t i = 0; i < n; ++i) d[i] = f(s[i], i);
}

template <typename F>
inline void map2(const float *a, const float *b, float *d, dim_t n, F f) {
#pragma omp simd
    for (dim_t i = 0; i < n; ++i) d[i] = f(a[i], b[i]);
}

// alpha * s^beta: exact special cases for common exponents, libm otherwise.
void pow_fwd_block(float alpha, float beta, const float *s, float *d, dim_t n) {
    if (beta == 0.f)
        map1(s, d, n, [alpha](float) { return alpha; });
    else if (beta == 1.f)
        map1(s, d, n, [alpha](float x) { return alpha * x; });
    else if (beta == 2.f)
        map1(s, d, n, [alpha](float x) { return alpha * (x * x); });
    else if (beta == -1.f)
        map1(s, d, n, [alpha](float x) { return alpha * (1.f / x); });
    else
        for (dim_t i = 0; i < n; ++i) d[i] = pow_fwd(s[i], alpha, beta);
}

void pow_bwd_block(float alpha, float beta, const float *dd, const float *s,
        float *ds, dim_t n) {
    if (beta == 0.f)
        map2(dd, s, ds, n, [](float, float) { return 0.f; });
    else if (beta == 1.f)
        map2(dd, s, ds, n, [alpha](float g, float) { return g * alpha; });
    else if (beta == 2.f)
        map2(dd, s, ds, n,
                [alpha](float g, float x) { return g * alpha * 2.f * x; });
    else
        for (dim_t i = 0; i < n; ++i) ds[i] = pow_bwd(dd[i], s[i], alpha, beta);
}

// dd / (2 sqrt(s)) through a small buffer, as diff_src may be diff_dst.
void sqrt_bwd_block(const float *dd, const float *s, float *ds, dim_t n) {
    constexpr dim_t chunk = 256;
    alignas(64) float root[chunk];
    for (dim_t off = 0; off < n; off += chunk) {
        const dim_t len = n - off < chunk ? n - off : chunk;
        sqrt_block(s + off, root, len);
        map2(dd + off, root, ds + off, len,
                [](float g, float r) { return g / (2.f * r); });
    }
}

void fwd_f32(alg_kind_t alg, float alpha, float beta, const float *s, float *d,
        dim_t n) {
    switch (eltwise_base_alg(alg)) {
    case dnnl_eltwise_relu:
        map1(s, d, n, [alpha](float x) { return relu_fwd(x, alpha); });
        break;
    case dnnl_eltwise_tanh:
        map1(s, d, n, [](float x) { return tanh_fwd(x); });
        break;
    case dnnl_eltwise_elu:
        map1(s, d, n, [alpha](float x) { return elu_fwd(x, alpha); });
        break;
    case dnnl_eltwise_square:
        map1(s, d, n, [](float x) { return square_fwd(x); });
        break;
    case dnnl_eltwise_abs:
        map1(s, d, n, [](float x) { return abs_fwd(x); });
        break;
    case dnnl_eltwise_sqrt:
        sqrt_block(s, d, n);
        break;
    case dnnl_eltwise_linear:
        map1(s, d, n,
                [alpha, beta](float x) { return linear_fwd(x, alpha, beta); });
        break;
    case dnnl_eltwise_soft_relu:
        map1(s, d, n, [alpha](float x) { return soft_relu_fwd(x, alpha); });
        break;
    case dnnl_eltwise_hardsigmoid:
        map1(s, d, n, [alpha, beta](float x) {
            return hardsigmoid_fwd(x, alpha, beta);
        });
        break;
    case dnnl_eltwise_logistic:
        map1(s, d, n, [](float x) { return logistic_fwd(x); });
        break;
    case dnnl_eltwise_exp:
        map1(s, d, n, [](float x) { return exp_fwd(x); });
        break;
    case dnnl_eltwise_gelu_tanh:
        map1(s, d, n, [](float x) { return gelu_tanh_fwd(x); });
        break;
    case dnnl_eltwise_swish:
        map1(s, d, n, [alpha](float x) { return swish_fwd(x, alpha); });
        break;
    case dnnl_eltwise_log:
        map1(s, d, n, [](float x) { return log_fwd(x); });
        break;
    case dnnl_eltwise_clip:
        map1(s, d, n,
                [alpha, beta](float x) { return clip_fwd(x, alpha, beta); });
        break;
    case dnnl_eltwise_clip_v2:
        map1(s, d, n,
                [alpha, beta](float x) { return clip_v2_fwd(x, alpha, beta); });
        break;
    case dnnl_eltwise_pow:
        pow_fwd_block(alpha, beta, s, d, n);
        break;
    case dnnl_eltwise_gelu_erf:
        map1(s, d, n, [](float x) { return gelu_erf_fwd(x); });
        break;
    case dnnl_eltwise_round:
        map1(s, d, n, [](float x) { return round_fwd(x); });
        break;
    case dnnl_eltwise_mish:
        map1(s, d, n, [](float x) { return mish_fwd(x); });
        break;
    case dnnl_eltwise_hardswish:
        map1(s, d, n, [alpha, beta](float x) {
            return hardswish_fwd(x, alpha, beta);
        });
        break;
    default:
        for (dim_t i = 0; i < n; ++i)
            d[i] = eltwise_fwd(alg, s[i], alpha, beta);
        break;
    }
}

void bwd_f32(alg_kind_t alg, float alpha, float beta, const float *dd,
        const float *v, float *ds, dim_t n) {
    switch (alg) {
    case dnnl_eltwise_relu:
        map2(dd, v, ds, n,
                [alpha](float g, float x) { return relu_bwd(g, x, alpha); });
        break;
    case dnnl_eltwise_relu_use_dst_for_bwd:
        map2(dd, v, ds, n, [alpha](float g, float y) {
            return relu_bwd_use_dst(g, y, alpha);
        });
        break;
    case dnnl_eltwise_tanh:
        map2(dd, v, ds, n, [](float g, float x) { return tanh_bwd(g, x); });
        break;
    case dnnl_eltwise_tanh_use_dst_for_bwd:
        map2(dd, v, ds, n,
                [](float g, float y) { return tanh_bwd_use_dst(g, y); });
        break;
    case dnnl_eltwise_elu:
        map2(dd, v, ds, n,
                [alpha](float g, float x) { return elu_bwd(g, x, alpha); });
        break;
    case dnnl_eltwise_elu_use_dst_for_bwd:
        map2(dd, v, ds, n, [alpha](float g, float y) {
            return elu_bwd_use_dst(g, y, alpha);
        });
        break;
    case dnnl_eltwise_square:
        map2(dd, v, ds, n, [](float g, float x) { return square_bwd(g, x); });
        break;
    case dnnl_eltwise_abs:
        map2(dd, v, ds, n, [](float g, float x) { return abs_bwd(g, x); });
        break;
    case dnnl_eltwise_sqrt:
        sqrt_bwd_block(dd, v, ds, n);
        break;
    case dnnl_eltwise_sqrt_use_dst_for_bwd:
        map2(dd, v, ds, n,
                [](float g, float y) { return sqrt_bwd_use_dst(g, y); });
        break;
    case dnnl_eltwise_linear:
        map2(dd, v, ds, n,
                [alpha](float g, float) { return linear_bwd(g, alpha); });
        break;
    case dnnl_eltwise_soft_relu:
        map2(dd, v, ds, n, [alpha](float g, float x) {
            return soft_relu_bwd(g, x, alpha);
        });
        break;
    case dnnl_eltwise_hardsigmoid:
        map2(dd, v, ds, n, [alpha, beta](float g, float x) {
            return hardsigmoid_bwd(g, x, alpha, beta);
        });
        break;
    case dnnl_eltwise_logistic:
        map2(dd, v, ds, n, [](float g, float x) { return logistic_bwd(g, x); });
        break;
    case dnnl_eltwise_logistic_use_dst_for_bwd:
        map2(dd, v, ds, n,
                [](float g, float y) { return logistic_bwd_use_dst(g, y); });
        break;
    case dnnl_eltwise_exp:
        map2(dd, v, ds, n, [](float g, float x) { return exp_bwd(g, x); });
        break;
    case dnnl_eltwise_exp_use_dst_for_bwd:
        map2(dd, v, ds, n,
                [](float g, float y) { return exp_bwd_use_dst(g, y); });
        break;
    case dnnl_eltwise_gelu_tanh:
        map2(dd, v, ds, n,
                [](float g, float x) { return gelu_tanh_bwd(g, x); });
        break;
    case dnnl_eltwise_swish:
        map2(dd, v, ds, n,
                [alpha](float g, float x) { return swish_bwd(g, x, alpha); });
        break;
    case dnnl_eltwise_log:
        map2(dd, v, ds, n, [](float g, float x) { return log_bwd(g, x); });
        break;
    case dnnl_eltwise_clip:
        map2(dd, v, ds, n, [alpha, beta](float g, float x) {
            return clip_bwd(g, x, alpha, beta);
        });
        break;
    case dnnl_eltwise_clip_v2:
        map2(dd, v, ds, n, [alpha, beta](float g, float x) {
            return clip_v2_bwd(g, x, alpha, beta);
        });
        break;
    case dnnl_eltwise_clip_v2_use_dst_for_bwd:
        map2(dd, v, ds, n, [alpha, beta](float g, float y) {
            return clip_v2_bwd_use_dst(g, y, alpha, beta);
        });
        break;
    case dnnl_eltwise_pow:
        pow_bwd_block(alpha, beta, dd, v, ds, n);
        break;
    case dnnl_eltwise_gelu_erf:
        map2(dd, v, ds, n, [](float g, float x) { return gelu_erf_bwd(g, x); });
        break;
    case dnnl_eltwise_mish:
        map2(dd, v, ds, n, [](float g, float x) { return mish_bwd(g, x); });
        break;
    case dnnl_eltwise_hardswish:
        map2(dd, v, ds, n, [alpha, beta](float g, float x) {
            return hardswish_bwd(g, x, alpha, beta);
        });
        break;
    default:
        for (dim_t i = 0; i < n; ++i)
            ds[i] = eltwise_bwd(alg, dd[i], v[i], alpha, beta);
        break;
    }
}

template <typename T, typename F>
inline void load_loop(const void *src, float *dst, dim_t n, F f) {
    const T *s = static_cast<const T *>(src);
#pragma omp simd
    for (dim_t i = 0; i < n; ++i) dst[i] = f(s[i]);
}

template <typename T, typename F>
inline void store_loop(const float *src, void *dst, dim_t n, F f) {
    T *d = static_cast<T *>(dst);
#pragma omp simd
    for (dim_t i = 0; i < n; ++i) d[i] = f(src[i]);
}

void to_f32(data_type_t dt, const void *src, float *dst, dim_t n) {
    switch (dt) {
    case dnnl_f32:
        load_loop<float>(src, dst, n, [](float v) { return v; });
        break;
    case dnnl_bf16:
        load_loop<uint16_t>(
                src, dst, n, [](uint16_t v) { return bf16_to_f32(v); });
        break;
    case dnnl_f16:
        load_loop<uint16_t>(
                src, dst, n, [](uint16_t v) { return f16_to_f32(v); });
        break;
    case dnnl_f8_e5m2:
        load_loop<uint8_t>(
                src, dst, n, [](uint8_t v) { return f8_e5m2_to_f32(v); });
        break;
    case dnnl_f8_e4m3:
        load_loop<uint8_t>(
                src, dst, n, [](uint8_t v) { return f8_e4m3_to_f32(v); });
        break;
    case dnnl_s8:
        load_loop<int8_t>(src, dst, n, [](int8_t v) { return float(v); });
        break;
    case dnnl_u8:
        load_loop<uint8_t>(src, dst, n, [](uint8_t v) { return float(v); });
        break;
    case dnnl_s32:
        load_loop<int32_t>(src, dst, n, [](int32_t v) { return float(v); });
        break;
    default:
        break;
    }
}

void from_f32(data_type_t dt, const float *src, void *dst, dim_t n) {
    switch (dt) {
    case dnnl_f32:
        store_loop<float>(src, dst, n, [](float v) { return v; });
        break;
    case dnnl_bf16:
        store_loop<uint16_t>(
                src, dst, n, [](float v) { return f32_to_bf16(v); });
        break;
    case dnnl_f16:
        store_loop<uint16_t>(
                src, dst, n, [](float v) { return f32_to_f16(v); });
        break;
    case dnnl_f8_e5m2:
        store_loop<uint8_t>(
                src, dst, n, [](float v) { return f32_to_f8_e5m2(v); });
        break;
    case dnnl_f8_e4m3:
        store_loop<uint8_t>(
                src, dst, n, [](float v) { return f32_to_f8_e4m3(v); });
        break;
    case dnnl_s8:
        store_loop<int8_t>(src, dst, n, [](float v) { return f32_to_s8(v); });
        break;
    case dnnl_u8:
        store_loop<uint8_t>(src, dst, n, [](float v) { return f32_to_u8(v); });
        break;
    case dnnl_s32:
        store_loop<int32_t>(src, dst, n, [](float v) { return f32_to_s32(v); });
        break;
    default:
        break;
    }
}

// Binary operations for post-ops; `B` yields the second operand of
// element i (an array or a broadcast scalar).
template <typename B>
void binary_with(alg_kind_t alg, const float *a, B b, float *d, dim_t n) {
    switch (alg) {
    case dnnl_binary_add:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_add(x, b(i)); });
        break;
    case dnnl_binary_mul:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_mul(x, b(i)); });
        break;
    case dnnl_binary_max:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_max(x, b(i)); });
        break;
    case dnnl_binary_min:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_min(x, b(i)); });
        break;
    case dnnl_binary_div:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_div(x, b(i)); });
        break;
    case dnnl_binary_sub:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_sub(x, b(i)); });
        break;
    case dnnl_binary_ge:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_ge(x, b(i)); });
        break;
    case dnnl_binary_gt:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_gt(x, b(i)); });
        break;
    case dnnl_binary_le:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_le(x, b(i)); });
        break;
    case dnnl_binary_lt:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_lt(x, b(i)); });
        break;
    case dnnl_binary_eq:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_eq(x, b(i)); });
        break;
    case dnnl_binary_ne:
        map1i(a, d, n, [&](float x, dim_t i) { return binary_ne(x, b(i)); });
        break;
    default:
        for (dim_t i = 0; i < n; ++i) d[i] = binary_op(alg, a[i], b(i));
        break;
    }
}

void binary_f32(
        alg_kind_t alg, const float *a, const float *b, float *d, dim_t n) {
    binary_with(
            alg, a, [b](dim_t i) { return b[i]; }, d, n);
}

void binary_scalar_f32(
        alg_kind_t alg, const float *a, float b, float *d, dim_t n) {
    binary_with(
            alg, a, [b](dim_t) { return b; }, d, n);
}

} // namespace

const kernel_table_t &DNNL_ISA_NAME(kernels)() {
    static const kernel_table_t table{isa_unit::this_isa, isa_unit::this_isa_name, fwd_f32, bwd_f32, to_f32,
            from_f32, binary_f32, binary_scalar_f32};
    return table;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
