// Kernels of the fast reorder: the per-element operation for each
// quantization mode, a 1-D loop (contiguous or strided) and a 2-D tile
// transpose, with an SSE 4x4 block for 4-byte copies.
#pragma once

#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cpu/reorder/reorder_cvt.hpp"
#include "cpu/reorder/simple_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

// Quantization values as the kernels see them: arrays always present
// (a single 1 or 0 when absent) and an index multiplier (0 or 1) telling
// whether an array follows the common mask.
struct kq_t {
    const float *ss, *ds;
    const int32_t *sz, *dz;
    dim_t mss, mds, msz, mdz;
    float beta;
};

// The element operation of a quantization mode; `qi` is the element's
// index in the arrays of the common mask.
template <typename S, typename D, qmode_t Q>
struct elem_op_t {
    explicit elem_op_t(const kq_t &q)
        : q_(q)
        , ss_(q.ss[0])
        , ds_(q.ds[0])
        , beta_(q.beta)
        , sz_(q.sz[0])
        , dz_(q.dz[0]) {}

    inline D operator()(S s, const D *old, dim_t qi) const {
        if constexpr (Q == qmode_t::none) {
            return cvt_direct<S, D>(s);
        } else if constexpr (Q == qmode_t::scalar) {
            const float f = ss_ * sub_zp(s, sz_);
            return from_f32<D>(f / ds_ + (float)dz_);
        } else if constexpr (Q == qmode_t::scalar_sum) {
            const float f = ss_ * sub_zp(s, sz_) + beta_ * to_f32(*old);
            return from_f32<D>(f / ds_ + (float)dz_);
        } else {
            return cvt_quant<S, D>(s, old, q_.ss[qi * q_.mss],
                    q_.sz[qi * q_.msz], q_.ds[qi * q_.mds], q_.dz[qi * q_.mdz],
                    beta_);
        }
    }

private:
    const kq_t &q_;
    float ss_, ds_, beta_;
    int32_t sz_, dz_;
};

// n elements, source stride is, destination stride os.
template <typename S, typename D, qmode_t Q>
inline void linear_kernel(const S *s, dim_t is, D *d, dim_t os, dim_t n,
        const elem_op_t<S, D, Q> &op, dim_t qb, dim_t qs) {
    if (is == 1 && os == 1) {
        if constexpr (Q == qmode_t::none && std::is_same<S, D>::value) {
            std::memcpy(d, s, n * sizeof(S));
        } else if constexpr (Q == qmode_t::indexed) {
            for (dim_t i = 0; i < n; ++i)
                d[i] = op(s[i], d + i, qb + i * qs);
        } else {
            for (dim_t i = 0; i < n; ++i)
                d[i] = op(s[i], d + i, 0);
        }
    } else {
        for (dim_t i = 0; i < n; ++i)
            d[i * os] = op(s[i * is], d + i * os, qb + i * qs);
    }
}

#if defined(__SSE2__)
// 4x4 block of 4-byte elements: row r of the source (stride is) becomes
// column r of the destination (stride os).
inline void transpose_4x4_b32(const void *sv, dim_t is, void *dv, dim_t os) {
    const float *s = static_cast<const float *>(sv);
    float *d = static_cast<float *>(dv);
    __m128 r0 = _mm_loadu_ps(s);
    __m128 r1 = _mm_loadu_ps(s + is);
    __m128 r2 = _mm_loadu_ps(s + 2 * is);
    __m128 r3 = _mm_loadu_ps(s + 3 * is);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(d, r0);
    _mm_storeu_ps(d + os, r1);
    _mm_storeu_ps(d + 2 * os, r2);
    _mm_storeu_ps(d + 3 * os, r3);
}
#endif

// A tile of na x nb elements: a runs along the destination's contiguous
// dim (source stride is_a), b along the source's (destination stride os_b).
template <typename S, typename D, qmode_t Q>
inline void tile_kernel(const S *s, dim_t is_a, D *d, dim_t os_b, dim_t na,
        dim_t nb, const elem_op_t<S, D, Q> &op, dim_t qb, dim_t qs_a,
        dim_t qs_b) {
#if defined(__SSE2__)
    if constexpr (Q == qmode_t::none && std::is_same<S, D>::value
            && sizeof(S) == 4) {
        const dim_t na4 = na & ~dim_t(3), nb4 = nb & ~dim_t(3);
        for (dim_t b = 0; b < nb4; b += 4)
            for (dim_t a = 0; a < na4; a += 4)
                transpose_4x4_b32(s + a * is_a + b, is_a, d + a + b * os_b, os_b);
        // Edges.
        for (dim_t b = 0; b < nb; ++b) {
            const dim_t a0 = b < nb4 ? na4 : 0;
            for (dim_t a = a0; a < na; ++a)
                d[a + b * os_b] = s[a * is_a + b];
        }
        return;
    }
#endif
    for (dim_t b = 0; b < nb; ++b) {
        const S *sp = s + b;
        D *dp = d + b * os_b;
        const dim_t qbb = qb + b * qs_b;
        for (dim_t a = 0; a < na; ++a)
            dp[a] = op(sp[a * is_a], dp + a, qbb + a * qs_a);
    }
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
