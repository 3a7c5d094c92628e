// Packing of GEMM operands into the microkernel layouts (see
// gemm_ukernels.hpp), converting on the way: bf16/f16 -> f32 for the
// floating-point path, (u8/s8 - zero point) -> int16 pairs for the integer
// path. Operands have general element strides; unit-stride cases take
// loops that vectorise.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "common/c_types.hpp"
#include "common/float_convert.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

// Element conversion to the packed type.
template <typename T>
struct to_f32_t {
    static float cvt(T v) { return (float)v; }
};
// bf16 and f16 are both stored as uint16_t; tag types tell them apart.
struct bf16_tag_t {
    uint16_t v;
};
struct f16_tag_t {
    uint16_t v;
};
template <>
struct to_f32_t<bf16_tag_t> {
    static float cvt(bf16_tag_t v) { return bf16_to_f32(v.v); }
};
template <>
struct to_f32_t<f16_tag_t> {
    static float cvt(f16_tag_t v) { return f16_to_f32(v.v); }
};

// f32 inputs rounded to a lower precision (fpmath modes).
struct f32_as_bf16_t {
    float v;
};
struct f32_as_f16_t {
    float v;
};
struct f32_as_tf32_t {
    float v;
};
template <>
struct to_f32_t<f32_as_bf16_t> {
    static float cvt(f32_as_bf16_t v) { return bf16_to_f32(f32_to_bf16(v.v)); }
};
template <>
struct to_f32_t<f32_as_f16_t> {
    static float cvt(f32_as_f16_t v) { return f16_to_f32(f32_to_f16(v.v)); }
};
template <>
struct to_f32_t<f32_as_tf32_t> {
    static float cvt(f32_as_tf32_t v) {
        // Keep 10 mantissa bits, rounding to nearest even.
        uint32_t u = f32_bits(v.v);
        u = (u + 0xfffu + ((u >> 13) & 1u)) & 0xffffe000u;
        return bits_f32(u);
    }
};

// Transposes `rows` x 4 blocks of f32 with unit stride along k into
// k-major panels: out[q * ld + r] = src[r * rs + q], q < 4, for r in steps
// of 4 (rows a multiple of 4). 4x4 SSE transposes; true when done.
inline bool transpose_rows4_f32(
        const float *src, dim_t rs, dim_t rows, float *out, dim_t ld) {
#if defined(__SSE2__)
    for (dim_t r = 0; r < rows; r += 4) {
        __m128 x0 = _mm_loadu_ps(src + (r + 0) * rs);
        __m128 x1 = _mm_loadu_ps(src + (r + 1) * rs);
        __m128 x2 = _mm_loadu_ps(src + (r + 2) * rs);
        __m128 x3 = _mm_loadu_ps(src + (r + 3) * rs);
        _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
        _mm_storeu_ps(out + 0 * ld + r, x0);
        _mm_storeu_ps(out + 1 * ld + r, x1);
        _mm_storeu_ps(out + 2 * ld + r, x2);
        _mm_storeu_ps(out + 3 * ld + r, x3);
    }
    return true;
#else
    return false;
#endif
}

// Packs rows [0, m) x k-columns [0, kc) of A (element (i, p) at
// a[i * rs + p * cs]) into MR-row panels: out[panel][p][i].
template <typename T>
void pack_a_f32(const T *a, dim_t rs, dim_t cs, dim_t m, dim_t kc, int MR,
        float *out) {
    for (dim_t ir = 0; ir < m; ir += MR) {
        const dim_t mr = m - ir < MR ? m - ir : MR;
        const T *src = a + ir * rs;
        float *o = out + ir * kc;
        if (rs == 1) {
            for (dim_t p = 0; p < kc; ++p)
                for (dim_t i = 0; i < mr; ++i)
                    o[p * MR + i] = to_f32_t<T>::cvt(src[p * cs + i]);
        } else if (cs == 1) {
            dim_t p0 = 0;
            if (std::is_same<T, float>::value && mr % 4 == 0) {
                // Plain f32 rows: 4 x 4 transposes, 4 k at a time.
                const float *fs = reinterpret_cast<const float *>(src);
                for (; p0 + 4 <= kc; p0 += 4)
                    if (!transpose_rows4_f32(fs + p0, rs, mr, o + p0 * MR, MR)) break;
            }
            for (dim_t i = 0; i < mr; ++i)
                for (dim_t p = p0; p < kc; ++p)
                    o[p * MR + i] = to_f32_t<T>::cvt(src[i * rs + p]);
        } else {
            for (dim_t p = 0; p < kc; ++p)
                for (dim_t i = 0; i < mr; ++i)
                    o[p * MR + i] = to_f32_t<T>::cvt(src[i * rs + p * cs]);
        }
        if (mr < MR)
            for (dim_t p = 0; p < kc; ++p)
                for (dim_t i = mr; i < MR; ++i)
                    o[p * MR + i] = 0.f;
    }
}

// Packs k-rows [0, kc) x columns [0, n) of B (element (p, j) at
// b[p * rs + j * cs]) into NR-column panels: out[panel][p][j].
template <typename T>
void pack_b_f32(const T *b, dim_t rs, dim_t cs, dim_t kc, dim_t n, int NR,
        float *out) {
    if (cs == 1) {
        // Rows in order, a few at a time across every panel: each source
        // row is read front to back (a panel's rows one after the other
        // would step through memory by the row stride, two cache lines a
        // row, and lose the rows to set conflicts before the next panel
        // reads them).
        constexpr dim_t rows = 8;
        for (dim_t p0 = 0; p0 < kc; p0 += rows) {
            const dim_t p1 = kc - p0 < rows ? kc : p0 + rows;
            for (dim_t jr = 0; jr < n; jr += NR) {
                const dim_t nr = n - jr < NR ? n - jr : NR;
                const T *src = b + jr;
                float *o = out + jr * kc;
                for (dim_t p = p0; p < p1; ++p) {
                    for (dim_t j = 0; j < nr; ++j)
                        o[p * NR + j] = to_f32_t<T>::cvt(src[p * rs + j]);
                    for (dim_t j = nr; j < NR; ++j)
                        o[p * NR + j] = 0.f;
                }
            }
        }
        return;
    }
    for (dim_t jr = 0; jr < n; jr += NR) {
        const dim_t nr = n - jr < NR ? n - jr : NR;
        const T *src = b + jr * cs;
        float *o = out + jr * kc;
        if (nr < NR)
            for (dim_t p = 0; p < kc; ++p)
                for (dim_t j = nr; j < NR; ++j)
                    o[p * NR + j] = 0.f;
        dim_t p0 = 0;
        if (std::is_same<T, float>::value && rs == 1 && nr % 4 == 0) {
            // Transposed f32 B (columns contiguous in k): 4 x 4
            // transposes, 4 k at a time.
            const float *fs = reinterpret_cast<const float *>(src);
            for (; p0 + 4 <= kc; p0 += 4)
                if (!transpose_rows4_f32(fs + p0, cs, nr, o + p0 * NR, NR)) break;
        }
        for (dim_t j = 0; j < nr; ++j)
            for (dim_t p = p0; p < kc; ++p)
                o[p * NR + j] = to_f32_t<T>::cvt(src[p * rs + j * cs]);
    }
}

// Conversion to the 16-bit packed value: integers minus the zero point;
// bf16 as its raw bits (zp unused); f32 rounded to bf16 bits (fpmath).
template <typename T>
struct to_s16_t {
    static int16_t cvt(T v, int32_t zp) { return (int16_t)((int32_t)v - zp); }
};
template <>
struct to_s16_t<bf16_tag_t> {
    static int16_t cvt(bf16_tag_t v, int32_t) { return (int16_t)v.v; }
};
template <>
struct to_s16_t<f32_as_bf16_t> {
    static int16_t cvt(f32_as_bf16_t v, int32_t) {
        return (int16_t)f32_to_bf16(v.v);
    }
};

// One row of A or column of B (values s[p * step], p < kc) as 16-bit
// pairs of k, a pair at a time (one 32-bit store each, no division per
// value), pairs dstep values apart in d; an odd kc's last partner is 0.
template <typename T>
inline void put_pairs(const T *s, dim_t step, dim_t kc, int32_t zp,
        int16_t *d, dim_t dstep) {
    dim_t p = 0;
    for (; p + 2 <= kc; p += 2, d += dstep) {
        d[0] = to_s16_t<T>::cvt(s[p * step], zp);
        d[1] = to_s16_t<T>::cvt(s[(p + 1) * step], zp);
    }
    if (p < kc) {
        d[0] = to_s16_t<T>::cvt(s[p * step], zp);
        d[1] = 0;
    }
}

// Rows of kc contiguous 8-bit values (ld apart; u8, or s8 with
// is_signed) as 16-bit pairs of k minus the zero point, in panels of
// `width` rows: out[panel][pair][row][2], rows past nrows and an odd kc's
// last partner 0. The layout pack_a_s16 writes for A by rows and
// pack_b_s16 for B by columns. Vectorised per ISA (gemm_pack_pairs.cpp);
// pack_rows_s16 returns false (nothing written) where no entry may run.
struct pack_pairs_kernels_t {
    const char *isa;
    void (*rows)(const void *src, bool is_signed, dim_t ld, dim_t nrows,
            dim_t kc, int32_t zp, int width, int16_t *out);
};
const pack_pairs_kernels_t &pack_pairs_kernels_avx2();
const isa_table_t<pack_pairs_kernels_t> &pack_pairs_table();
bool pack_rows_s16(const void *src, bool is_signed, dim_t ld, dim_t nrows,
        dim_t kc, int32_t zp, int width, int16_t *out);

// 8-bit element types take the vectorised packer when their k runs are
// contiguous.
template <typename T>
bool pack_rows_s16_if_8bit(const T *src, dim_t ld, dim_t step, dim_t nrows,
        dim_t kc, int32_t zp, int width, int16_t *out) {
    constexpr bool u8 = std::is_same<T, uint8_t>::value;
    constexpr bool s8 = std::is_same<T, int8_t>::value;
    if (!(u8 || s8) || step != 1) return false;
    return pack_rows_s16(src, s8, ld, nrows, kc, zp, width, out);
}

// Packing into 16-bit pairs of k (integers, or bf16 for the bf16 dot
// product kernels); kc may be odd (the missing
// partner is 0). Panel p-stride is 2 * MR (A) or 2 * NR (B).
template <typename T>
void pack_a_s16(const T *a, dim_t rs, dim_t cs, int32_t zp, dim_t m,
        dim_t kc, int MR, int16_t *out) {
    if (pack_rows_s16_if_8bit(a, rs, cs, m, kc, zp, MR, out)) return;
    const dim_t kp = (kc + 1) / 2;
    for (dim_t ir = 0; ir < m; ir += MR) {
        const dim_t mr = m - ir < MR ? m - ir : MR;
        const T *src = a + ir * rs;
        int16_t *o = out + ir * kp * 2;
        for (dim_t i = 0; i < mr; ++i)
            put_pairs(src + i * rs, cs, kc, zp, o + i * 2, 2 * MR);
        if (mr < MR)
            for (dim_t p = 0; p < kp; ++p)
                for (dim_t i = mr; i < MR; ++i)
                    o[(p * MR + i) * 2] = o[(p * MR + i) * 2 + 1] = 0;
    }
}

template <typename T>
void pack_b_s16(const T *b, dim_t rs, dim_t cs, int32_t zp, dim_t kc,
        dim_t n, int NR, int16_t *out) {
    if (cs != 1 && pack_rows_s16_if_8bit(b, cs, rs, n, kc, zp, NR, out))
        return;
    const dim_t kp = (kc + 1) / 2;
    for (dim_t jr = 0; jr < n; jr += NR) {
        const dim_t nr = n - jr < NR ? n - jr : NR;
        const T *src = b + jr * cs;
        int16_t *o = out + jr * kp * 2;
        // Pairs of k at a time: rows of the pair interleaved across the
        // panel (contiguous columns), or column by column.
        if (cs == 1) {
            dim_t p = 0;
            for (; p + 2 <= kc; p += 2) {
                const T *s0 = src + p * rs, *s1 = s0 + rs;
                int16_t *d = o + p / 2 * NR * 2;
                for (dim_t j = 0; j < nr; ++j) {
                    d[2 * j] = to_s16_t<T>::cvt(s0[j], zp);
                    d[2 * j + 1] = to_s16_t<T>::cvt(s1[j], zp);
                }
            }
            if (p < kc) {
                const T *s0 = src + p * rs;
                int16_t *d = o + p / 2 * NR * 2;
                for (dim_t j = 0; j < nr; ++j) {
                    d[2 * j] = to_s16_t<T>::cvt(s0[j], zp);
                    d[2 * j + 1] = 0;
                }
            }
        } else {
            for (dim_t j = 0; j < nr; ++j)
                put_pairs(src + j * cs, rs, kc, zp, o + j * 2, 2 * NR);
        }
        if (nr < NR)
            for (dim_t p = 0; p < kp; ++p)
                for (dim_t j = nr; j < NR; ++j)
                    o[(p * NR + j) * 2] = o[(p * NR + j) * 2 + 1] = 0;
    }
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
