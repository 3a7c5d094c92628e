// dnnl-isa: base avx2 avx512_core
// Kernels and the threaded driver of the fast reorder, compiled once per
// ISA listed above (cmake/isa_sources.cmake); the table is
// simple_exec_table.cpp. The loops are plain C++ over the inline
// conversions of reorder_cvt.hpp, so they vectorise in the compilation's
// instruction set; transposes use SSE2, AVX2 (where __AVX2__ is defined)
// or AVX-512 (__AVX512F__: 16 x 16 blocks of 4-byte elements) intrinsics.
// Plans that stream their destination (simple_plan_t::stream_dst) write
// whole 64-byte lines with non-temporal stores where they are aligned.
#include <immintrin.h>

#include <cstring>
#include <memory>
#include <type_traits>

#include "cpu/isa_unit.hpp"
#include "cpu/simd_transpose.hpp"
#include "cpu/reorder/reorder_cvt.hpp"
#include "cpu/reorder/simple_exec.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {
namespace {

#if defined(__AVX2__)
constexpr bool have_avx2 = true;
#else
constexpr bool have_avx2 = false;
#endif
#if defined(__AVX512F__)
constexpr bool have_avx512 = true;
#else
constexpr bool have_avx512 = false;
#endif

constexpr dim_t tmax = 32; // largest tile side

// ---- per-element operations (no sum, one set of quantization values) ----

// The plans without a sum and with scalar quantization values (or none)
// run fused kernels instantiated per type pair; the others go through f32
// rows ("split", below), instantiated per type.
template <typename S, typename D, qmode_t Q>
struct elem_op_t {
    static_assert(Q == qmode_t::none || Q == qmode_t::scalar,
            "fused kernels take no sum and no indexed values");
    explicit elem_op_t(const kq_t &q)
        : ss_(q.ss[0]), ds_(q.ds[0]), sz_(q.sz[0]), dz_(q.dz[0]) {}

    REORDER_INLINE D operator()(S s) const {
        if constexpr (Q == qmode_t::none)
            return cvt_direct<S, D>(s);
        else
            return from_f32<D>(ss_ * sub_zp(s, sz_) / ds_ + (float)dz_);
    }

    // The source half of the operation (scale and zero point), to f32.
    REORDER_INLINE float first(S s) const {
        if constexpr (Q == qmode_t::none)
            return to_f32(s);
        else
            return ss_ * sub_zp(s, sz_);
    }
    // The destination half, from the f32 the first half made.
    REORDER_INLINE D second(float f) const {
        if constexpr (Q == qmode_t::none)
            return from_f32<D>(f);
        else
            return from_f32<D>(f / ds_ + (float)dz_);
    }

private:
    float ss_, ds_;
    int32_t sz_, dz_;
};

template <typename T>
using bits_of = typename std::conditional<sizeof(T) == 4, uint32_t,
        typename std::conditional<sizeof(T) == 2, uint16_t,
                uint8_t>::type>::type;

// ---- non-temporal stores ----

// One 64-byte line from s to the 64-byte aligned d, bypassing the caches.
REORDER_INLINE void stream_line(void *d, const void *s) {
#if defined(__AVX512F__)
    _mm512_stream_si512((__m512i *)d, _mm512_loadu_si512(s));
#elif defined(__AVX2__)
    _mm256_stream_si256((__m256i *)d, _mm256_loadu_si256((const __m256i *)s));
    _mm256_stream_si256((__m256i *)((char *)d + 32),
            _mm256_loadu_si256((const __m256i *)((const char *)s + 32)));
#else
    for (int i = 0; i < 4; ++i)
        _mm_stream_si128((__m128i *)((char *)d + 16 * i),
                _mm_loadu_si128((const __m128i *)((const char *)s + 16 * i)));
#endif
}

// Copies `bytes` from s to d: ordinary stores up to d's first 64-byte
// boundary and after its last, whole lines streamed between.
REORDER_INLINE void stream_copy(void *d, const void *s, size_t bytes) {
    char *dc = (char *)d;
    const char *sc = (const char *)s;
    size_t head = (64 - ((uintptr_t)dc & 63)) & 63;
    if (head > bytes) head = bytes;
    std::memcpy(dc, sc, head);
    size_t i = head;
    for (; i + 64 <= bytes; i += 64) stream_line(dc + i, sc + i);
    std::memcpy(dc + i, sc + i, bytes - i);
}

// Orders this thread's non-temporal stores before whatever follows.
REORDER_INLINE void stream_fence() {
    _mm_sfence();
}

// ---- 1-D kernel ----

// With nt the destination is streamed (non-temporal stores).
template <typename S, typename D, qmode_t Q>
REORDER_INLINE void linear_run(const S *__restrict s, dim_t is, D *__restrict d,
        dim_t os, dim_t n, const elem_op_t<S, D, Q> &op, bool nt) {
    constexpr bool copy = Q == qmode_t::none && std::is_same<S, D>::value;
    if (is != 1 || os != 1) {
        for (dim_t i = 0; i < n; ++i)
            d[i * os] = op(s[i * is]);
    } else if (nt) {
        if constexpr (copy) {
            stream_copy(d, s, n * sizeof(S));
        } else {
            // Converted into a buffer in L1, then streamed out.
            constexpr dim_t piece = 1024;
            alignas(64) D buf[piece];
            for (dim_t i0 = 0; i0 < n; i0 += piece) {
                const dim_t m = n - i0 < piece ? n - i0 : piece;
                for (dim_t i = 0; i < m; ++i)
                    buf[i] = op.second(op.first(s[i0 + i]));
                stream_copy(d + i0, buf, m * sizeof(D));
            }
        }
    } else if constexpr (copy) {
        const size_t bytes = n * sizeof(S);
        if (bytes == 32) {
            std::memcpy(d, s, 32); // blocks of 8 or 16: fixed moves
        } else if (bytes == 64) {
            std::memcpy(d, s, 64);
        } else if (n >= 64) {
            std::memcpy(d, s, bytes);
        } else {
            using B = bits_of<S>;
            const B *__restrict sb = (const B *)s;
            B *__restrict db = (B *)d;
            for (dim_t i = 0; i < n; ++i) db[i] = sb[i];
        }
    } else {
        for (dim_t i = 0; i < n; ++i)
            d[i] = op.second(op.first(s[i]));
    }
}

// ---- transposes of square blocks: row r of the source (stride is)
// becomes column r of the destination (stride os) ----

// (Unused where __AVX2__ gives the 8x8 one.)
template <bool NT = false>
[[maybe_unused]] REORDER_INLINE void transpose_4x4_b32(
        const uint32_t *s, dim_t is, uint32_t *d, dim_t os) {
    __m128 r0 = _mm_loadu_ps((const float *)s);
    __m128 r1 = _mm_loadu_ps((const float *)(s + is));
    __m128 r2 = _mm_loadu_ps((const float *)(s + 2 * is));
    __m128 r3 = _mm_loadu_ps((const float *)(s + 3 * is));
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    if (NT) {
        _mm_stream_ps((float *)d, r0);
        _mm_stream_ps((float *)(d + os), r1);
        _mm_stream_ps((float *)(d + 2 * os), r2);
        _mm_stream_ps((float *)(d + 3 * os), r3);
    } else {
        _mm_storeu_ps((float *)d, r0);
        _mm_storeu_ps((float *)(d + os), r1);
        _mm_storeu_ps((float *)(d + 2 * os), r2);
        _mm_storeu_ps((float *)(d + 3 * os), r3);
    }
}

#if defined(__AVX2__)
template <bool NT = false>
REORDER_INLINE void transpose_8x8_b32(
        const uint32_t *s, dim_t is, uint32_t *d, dim_t os) {
    __m256 t[8];
    for (int i = 0; i < 8; ++i)
        t[i] = _mm256_loadu_ps((const float *)(s + i * is));
    transpose_8x8_ps(t);
    for (int i = 0; i < 8; ++i) {
        if (NT)
            _mm256_stream_ps((float *)(d + i * os), t[i]);
        else
            _mm256_storeu_ps((float *)(d + i * os), t[i]);
    }
}
#endif

#if defined(__AVX512F__)
// 16 x 16 4-byte elements in zmm registers: interleave pairs of rows,
// then pairs of pairs, then exchange 128-bit lanes twice. With NT the
// destination rows (64-byte aligned) are streamed; `pf` (elements along
// the source rows, 0: none) prefetches what a later block will read.
template <bool NT>
REORDER_INLINE void transpose_16x16_b32(
        const uint32_t *s, dim_t is, uint32_t *d, dim_t os, dim_t pf) {
    // (The zero-masking forms with every lane set are the plain
    // instructions; GCC's plain forms warn of an undefined pass-through.)
    constexpr __mmask16 all = 0xffff;
    __m512 r[16], t[16];
    for (int i = 0; i < 16; ++i) {
        r[i] = _mm512_loadu_ps((const float *)(s + i * is));
        if (pf) _mm_prefetch((const char *)(s + i * is + pf), _MM_HINT_T0);
    }
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_maskz_unpacklo_ps(all, r[i], r[i + 1]);
        t[i + 1] = _mm512_maskz_unpackhi_ps(all, r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_maskz_shuffle_ps(all, t[i], t[i + 2], 0x44);
        r[i + 1] = _mm512_maskz_shuffle_ps(all, t[i], t[i + 2], 0xee);
        r[i + 2] = _mm512_maskz_shuffle_ps(all, t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm512_maskz_shuffle_ps(all, t[i + 1], t[i + 3], 0xee);
    }
    // r[4g + j] holds, in 128-bit lane L, column 4L + j of rows 4g..4g+3.
    for (int j = 0; j < 4; ++j) {
        t[j] = _mm512_maskz_shuffle_f32x4(all, r[j], r[j + 4], 0x88);
        t[j + 4] = _mm512_maskz_shuffle_f32x4(all, r[j], r[j + 4], 0xdd);
        t[j + 8] = _mm512_maskz_shuffle_f32x4(all, r[j + 8], r[j + 12], 0x88);
        t[j + 12] = _mm512_maskz_shuffle_f32x4(all, r[j + 8], r[j + 12], 0xdd);
    }
    for (int j = 0; j < 4; ++j) {
        r[j] = _mm512_maskz_shuffle_f32x4(all, t[j], t[j + 8], 0x88);
        r[j + 8] = _mm512_maskz_shuffle_f32x4(all, t[j], t[j + 8], 0xdd);
        r[j + 4] = _mm512_maskz_shuffle_f32x4(all, t[j + 4], t[j + 12], 0x88);
        r[j + 12] = _mm512_maskz_shuffle_f32x4(all, t[j + 4], t[j + 12], 0xdd);
    }
    for (int i = 0; i < 16; ++i) {
        if (NT)
            _mm512_stream_ps((float *)(d + i * os), r[i]);
        else
            _mm512_storeu_ps((float *)(d + i * os), r[i]);
    }
}
#endif

REORDER_INLINE void transpose_8x8_b16(
        const uint16_t *s, dim_t is, uint16_t *d, dim_t os) {
    __m128i r[8], t[8];
    for (int i = 0; i < 8; ++i)
        r[i] = _mm_loadu_si128((const __m128i *)(s + i * is));
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm_unpacklo_epi16(r[i], r[i + 1]);
        t[i + 1] = _mm_unpackhi_epi16(r[i], r[i + 1]);
    }
    // t0: rows 0,1 cols 0-3; t1: rows 0,1 cols 4-7; t2/t3: rows 2,3 ...
    for (int i = 0; i < 8; i += 4) {
        r[i] = _mm_unpacklo_epi32(t[i], t[i + 2]);     // rows i..i+3, cols 0-1
        r[i + 1] = _mm_unpackhi_epi32(t[i], t[i + 2]); // cols 2-3
        r[i + 2] = _mm_unpacklo_epi32(t[i + 1], t[i + 3]); // cols 4-5
        r[i + 3] = _mm_unpackhi_epi32(t[i + 1], t[i + 3]); // cols 6-7
    }
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm_unpacklo_epi64(r[i], r[i + 4]);
        t[2 * i + 1] = _mm_unpackhi_epi64(r[i], r[i + 4]);
    }
    for (int i = 0; i < 8; ++i) _mm_storeu_si128((__m128i *)(d + i * os), t[i]);
}

REORDER_INLINE void transpose_16x16_b8(
        const uint8_t *s, dim_t is, uint8_t *d, dim_t os) {
    __m128i r[16], t[16];
    for (int i = 0; i < 16; ++i)
        r[i] = _mm_loadu_si128((const __m128i *)(s + i * is));
    // Four rounds of interleaving pairs (8, 16, 32, 64-bit) leave column c
    // in register c.
    for (int i = 0; i < 16; i += 2) {
        t[i / 2] = _mm_unpacklo_epi8(r[i], r[i + 1]);
        t[i / 2 + 8] = _mm_unpackhi_epi8(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 2) {
        r[i / 2] = _mm_unpacklo_epi16(t[i], t[i + 1]);
        r[i / 2 + 8] = _mm_unpackhi_epi16(t[i], t[i + 1]);
    }
    for (int i = 0; i < 16; i += 2) {
        t[i / 2] = _mm_unpacklo_epi32(r[i], r[i + 1]);
        t[i / 2 + 8] = _mm_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 2) {
        r[i / 2] = _mm_unpacklo_epi64(t[i], t[i + 1]);
        r[i / 2 + 8] = _mm_unpackhi_epi64(t[i], t[i + 1]);
    }
    // The interleaving order leaves column c in register bitrev4(c).
    static const int order[16] = {
            0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
    for (int c = 0; c < 16; ++c)
        _mm_storeu_si128((__m128i *)(d + c * os), r[order[c]]);
}

// Transposes an na x nb block of elements of `size` bytes: element (a, b)
// from s[a * is + b] to d[b * os + a]. Full SIMD blocks, scalar edges.
// With NT, blocks of 4-byte elements whose destination rows are aligned
// to the block's row are streamed.
template <typename T, bool NT = false>
REORDER_INLINE void transpose_block(
        const T *s, dim_t is, T *d, dim_t os, dim_t na, dim_t nb) {
    dim_t blk;
    if constexpr (sizeof(T) == 4)
        blk = have_avx2 ? 8 : 4;
    else if constexpr (sizeof(T) == 2)
        blk = 8;
    else
        blk = 16;
    const dim_t na_full = na / blk * blk, nb_full = nb / blk * blk;
    for (dim_t b = 0; b < nb_full; b += blk)
        for (dim_t a = 0; a < na_full; a += blk) {
            const T *sp = s + a * is + b;
            T *dp = d + b * os + a;
            if constexpr (sizeof(T) == 4) {
                const bool nt =
                        NT && ((uintptr_t)dp % (blk * 4)) == 0 && os % blk == 0;
#if defined(__AVX2__)
                if (nt)
                    transpose_8x8_b32<true>(
                            (const uint32_t *)sp, is, (uint32_t *)dp, os);
                else
                    transpose_8x8_b32(
                            (const uint32_t *)sp, is, (uint32_t *)dp, os);
#else
                if (nt)
                    transpose_4x4_b32<true>(
                            (const uint32_t *)sp, is, (uint32_t *)dp, os);
                else
                    transpose_4x4_b32(
                            (const uint32_t *)sp, is, (uint32_t *)dp, os);
#endif
            } else if constexpr (sizeof(T) == 2) {
                transpose_8x8_b16((const uint16_t *)sp, is, (uint16_t *)dp, os);
            } else {
                transpose_16x16_b8((const uint8_t *)sp, is, (uint8_t *)dp, os);
            }
        }
    // Edges: the columns past nb_full, then the rows past na_full.
    for (dim_t b = nb_full; b < nb; ++b)
        for (dim_t a = 0; a < na; ++a) d[b * os + a] = s[a * is + b];
    for (dim_t b = 0; b < nb_full; ++b)
        for (dim_t a = na_full; a < na; ++a) d[b * os + a] = s[a * is + b];
}

// 4-byte elements. Tiles read from memory (streamed, or prefetched: pf
// not 0) go through 16 x 16 blocks on AVX-512 (streamed with NT where a
// destination row is a whole aligned line), the rest of them through the
// blocks above. Tiles in the caches take 8 x 8 ymm blocks throughout: on
// processors that split zmm shuffles in two (AMD Zen 4) those are fewer
// shuffle operations for the same elements (a 64 x 3136 transpose in L2:
// 0.035 ms against 0.048 through zmm blocks).
template <bool NT>
REORDER_INLINE void transpose_block_b32(const uint32_t *s, dim_t is,
        uint32_t *d, dim_t os, dim_t na, dim_t nb, dim_t pf) {
#if defined(__AVX512F__)
    if ((!NT && pf == 0) || na < 16 || nb < 16) {
        transpose_block<uint32_t, NT>(s, is, d, os, na, nb);
        return;
    }
    const dim_t na_full = na / 16 * 16, nb_full = nb / 16 * 16;
    for (dim_t b = 0; b < nb_full; b += 16)
        for (dim_t a = 0; a < na_full; a += 16) {
            const uint32_t *sp = s + a * is + b;
            uint32_t *dp = d + b * os + a;
            const bool nt = NT && ((uintptr_t)dp & 63) == 0 && (os & 15) == 0;
            if (nt)
                transpose_16x16_b32<true>(sp, is, dp, os, pf);
            else
                transpose_16x16_b32<false>(sp, is, dp, os, pf);
        }
    if (nb_full < nb)
        transpose_block<uint32_t>(
                s + nb_full, is, d + nb_full * os, os, na, nb - nb_full);
    if (na_full < na)
        transpose_block<uint32_t>(
                s + na_full * is, is, d + na_full, os, na - na_full, nb_full);
#else
    (void)pf;
    transpose_block<uint32_t, NT>(s, is, d, os, na, nb);
#endif
}
// ---- 2-D tile kernel: a runs along the destination's contiguous dim
// (source stride is_a), b along the source's (destination stride os_b) ----

struct tile_scratch_t {
    alignas(64) float f0[tmax * tmax];
    alignas(64) float f1[tmax * tmax];
};

// pf: prefetch distance along the source rows (elements, 0: none). With
// nt the destination rows are streamed.
template <typename S, typename D, qmode_t Q>
REORDER_INLINE void tile_run(const S *s, dim_t is_a, D *d, dim_t os_b, dim_t na,
        dim_t nb, const elem_op_t<S, D, Q> &op, tile_scratch_t &tmp, dim_t pf,
        bool nt) {
    if constexpr (Q == qmode_t::none && std::is_same<S, D>::value) {
        using B = bits_of<S>;
        if constexpr (sizeof(S) == 4) {
            const auto *s32 = (const uint32_t *)s;
            auto *d32 = (uint32_t *)d;
            if (nt)
                transpose_block_b32<true>(s32, is_a, d32, os_b, na, nb, pf);
            else
                transpose_block_b32<false>(s32, is_a, d32, os_b, na, nb, pf);
        } else {
            transpose_block<B>((const B *)s, is_a, (B *)d, os_b, na, nb);
        }
    } else {
        // Source half in source order, a 4-byte transpose, destination
        // half in destination order: every loop is contiguous.
        for (dim_t a = 0; a < na; ++a) {
            const S *__restrict sp = s + a * is_a;
            float *__restrict fp = tmp.f0 + a * tmax;
            for (dim_t b = 0; b < nb; ++b) fp[b] = op.first(sp[b]);
        }
        transpose_block_b32<false>((const uint32_t *)tmp.f0, tmax,
                (uint32_t *)tmp.f1, tmax, na, nb, 0);
        for (dim_t b = 0; b < nb; ++b) {
            const float *__restrict fp = tmp.f1 + b * tmax;
            D *__restrict dp = d + b * os_b;
            if (nt) {
                // At least a line: stream_copy's whole-line loop is then
                // in bounds even where the compiler cannot see na <= tmax.
                constexpr dim_t row_n = tmax * (dim_t)sizeof(D) < 64
                        ? 64 / (dim_t)sizeof(D)
                        : tmax;
                alignas(64) D row[row_n];
                for (dim_t a = 0; a < na; ++a)
                    row[a] = op.second(fp[a]);
                stream_copy(dp, row, na * sizeof(D));
            } else {
                for (dim_t a = 0; a < na; ++a) dp[a] = op.second(fp[a]);
            }
        }
    }
}

// ---- split kernels: a sum or indexed quantization values ----
// Every element as cvt_quant computes it, in two halves through f32 rows:
// the source half instantiated per source type, the destination half per
// destination type (per type pair, these rarer modes took most of this
// file's compile time). The index of element i's values is qb + i * qs.

// Rows of split kernels hold at most this many elements (tile rows hold
// tmax), so that per-element quantization values fit local arrays.
constexpr dim_t split_row = 256;
static_assert(tmax <= split_row, "a tile row is a split row");

// The values of a row's elements, qb + i * qs for i < n, gathered into v
// (contiguous, so that the loops over the row vectorise).
template <typename T>
REORDER_INLINE void gather_values(float *__restrict v, const T *a, dim_t m,
        dim_t qb, dim_t qs, dim_t n) {
    const T *p = a + qb * m;
    const dim_t step = qs * m;
    for (dim_t i = 0; i < n; ++i) v[i] = (float)p[i * step];
}

// The same for f32 values, read in place where they are contiguous.
REORDER_INLINE const float *values_row(float *buf, const float *a, dim_t m,
        dim_t qb, dim_t qs, dim_t n) {
    if (qs * m == 1) return a + qb;
    gather_values(buf, a, m, qb, qs, n);
    return buf;
}

// Calls f with stride st, a compile-time 1 where it is 1 (so that the
// contiguous loops vectorise).
template <typename F>
REORDER_INLINE void with_stride(dim_t st, F &&f) {
    if (st == 1)
        f(std::integral_constant<dim_t, 1>());
    else
        f(st);
}

// f[i] = source scale * (s[i * is] - source zero point), n <= split_row.
template <typename S>
REORDER_INLINE void split_load_row(const S *__restrict s, dim_t is_rt,
        dim_t n, float *__restrict f, const kq_t &q, dim_t qb, dim_t qs) {
    alignas(64) float ss_buf[split_row];
    const float *__restrict ss = qs == 0
            ? nullptr
            : values_row(ss_buf, q.ss, q.mss, qb, qs, n);
    with_stride(is_rt, [&](auto is) {
        if (qs == 0) {
            const float ssc = q.ss[qb * q.mss];
            const int32_t sz = q.sz[qb * q.msz];
            for (dim_t i = 0; i < n; ++i) f[i] = ssc * sub_zp(s[i * is], sz);
        } else if (q.msz == 0) {
            const int32_t sz = q.sz[0];
            for (dim_t i = 0; i < n; ++i)
                f[i] = ss[i] * sub_zp(s[i * is], sz);
        } else {
            const int32_t *sz = q.sz + qb * q.msz;
            const dim_t zs = qs * q.msz;
            for (dim_t i = 0; i < n; ++i)
                f[i] = ss[i] * sub_zp(s[i * is], sz[i * zs]);
        }
    });
}

// d[i * os] = saturate(round((f[i] + beta * d[i * os]) / destination scale
//                            + destination zero point)), n <= split_row;
// without a sum (beta 0) the old destination is not read.
template <typename D>
REORDER_INLINE void split_store_row(const float *__restrict f,
        D *__restrict d, dim_t os_rt, dim_t n, const kq_t &q, dim_t qb,
        dim_t qs) {
    const float beta = q.beta;
    // The values as functions of i: constants, or rows of them.
    const auto run = [&](auto ds_at, auto dz_at) {
        with_stride(os_rt, [&](auto os) {
            if (beta != 0.f) {
                for (dim_t i = 0; i < n; ++i)
                    d[i * os] = from_f32<D>(
                            (f[i] + beta * to_f32(d[i * os])) / ds_at(i)
                            + dz_at(i));
            } else {
                for (dim_t i = 0; i < n; ++i)
                    d[i * os] = from_f32<D>(f[i] / ds_at(i) + dz_at(i));
            }
        });
    };
    if (qs == 0) {
        const float ds = q.ds[qb * q.mds], dz = (float)q.dz[qb * q.mdz];
        run([ds](dim_t) { return ds; }, [dz](dim_t) { return dz; });
        return;
    }
    alignas(64) float ds_buf[split_row];
    const float *__restrict ds = values_row(ds_buf, q.ds, q.mds, qb, qs, n);
    const auto ds_at = [ds](dim_t i) { return ds[i]; };
    // Without destination zero points (the common case) one constant.
    if (q.mdz == 0) {
        const float dz = (float)q.dz[0];
        run(ds_at, [dz](dim_t) { return dz; });
    } else {
        alignas(64) float dz[split_row];
        gather_values(dz, q.dz, q.mdz, qb, qs, n);
        run(ds_at, [&dz](dim_t i) { return dz[i]; });
    }
}

// The rows r < nr of a split piece: row r starts at element r * rs of the
// source (or destination) and r * ldf of f, its values at qb + r * qrs.
template <typename S>
void split_load(const void *sv, dim_t rs, dim_t nr, dim_t is, dim_t n,
        float *f, dim_t ldf, const kq_t &q, dim_t qb, dim_t qrs, dim_t qs) {
    const S *s = static_cast<const S *>(sv);
    for (dim_t r = 0; r < nr; ++r)
        split_load_row(s + r * rs, is, n, f + r * ldf, q, qb + r * qrs, qs);
}

template <typename D>
void split_store(const float *f, dim_t ldf, void *dv, dim_t rs, dim_t nr,
        dim_t os, dim_t n, const kq_t &q, dim_t qb, dim_t qrs, dim_t qs) {
    D *d = static_cast<D *>(dv);
    for (dim_t r = 0; r < nr; ++r)
        split_store_row(f + r * ldf, d + r * rs, os, n, q, qb + r * qrs, qs);
}

// ---- driver ----

// Source elements ahead of a tile that its loads prefetch (1 KiB of
// 4-byte elements: 16 tiles along the source rows), for sources of 2 MiB
// and more (smaller ones are mostly in the caches already).
constexpr dim_t tile_prefetch = 256;
constexpr size_t tile_prefetch_min_bytes = size_t(2) << 20;

// Runs plan p's pieces on the threads: run.tile for the pieces of a tile
// plan, run.linear for the others, with element offsets into the source
// and destination and the index of the pieces' quantization values.
template <typename Runner>
void drive(const simple_plan_t &p, size_t src_elem_size, bool nt,
        const Runner &run) {
    const auto &outer = p.outer;
    const int no = (int)outer.size();
    dim_t w_outer = 1;
    for (const auto &n : outer) w_outer *= n.n;
    const bool tile = p.kind == kernel_kind_t::tile;
    // Work items: outer positions times kernel pieces (tiles, b tiles
    // outside a tiles; or chunks of the linear kernel).
    const dim_t nta = tile ? (p.ka.n + p.tile_a - 1) / p.tile_a : 1;
    const dim_t ntb = tile ? (p.kb.n + p.tile_b - 1) / p.tile_b : 1;
    const bool chunk_k2 = p.k2.n > 1; // chunks of k3 (if any) or k2
    const bool with_k3 = p.k3.n > 1;
    const dim_t chunked_n = chunk_k2 ? (with_k3 ? p.k3.n : p.k2.n) : p.k1.n;
    const dim_t nch = tile ? nta * ntb : (chunked_n + p.chunk - 1) / p.chunk;
    const dim_t items = w_outer * nch;
    const int nthr = nthr_for(p.elems, 16 * 1024);
    const bool prefetch
            = (size_t)p.elems * src_elem_size >= tile_prefetch_min_bytes;

    // Consecutive items in chunks claimed by the threads (each from its
    // own block first).
    parallel_chunks(nthr, items, [&](int, dim_t start, dim_t end) {
        // On the stack (8 KiB): a zeroed heap block per call was a third
        // of a tiny reorder's time.
        tile_scratch_t scratch;
        dim_t idx[2 * max_ndims + 2];
        dim_t piece = start % nch;
        {
            dim_t w = start / nch;
            for (int k = no - 1; k >= 0; --k) {
                idx[k] = w % outer[k].n;
                w /= outer[k].n;
            }
        }
        for (dim_t it = start; it < end; ++it) {
            dim_t sb = p.s0, db = p.d0, qb = p.q0;
            for (int k = 0; k < no; ++k) {
                sb += idx[k] * outer[k].is;
                db += idx[k] * outer[k].os;
                qb += idx[k] * outer[k].qs;
            }
            if (tile) {
                const dim_t a0 = (piece % nta) * p.tile_a;
                const dim_t b0 = (piece / nta) * p.tile_b;
                const dim_t na = std::min(p.tile_a, p.ka.n - a0);
                const dim_t nb = std::min(p.tile_b, p.kb.n - b0);
                const dim_t pf = prefetch && b0 + nb + tile_prefetch <= p.kb.n
                        ? tile_prefetch
                        : 0;
                run.tile(sb + a0 * p.ka.is + b0, p.ka.is,
                        db + a0 + b0 * p.kb.os, p.kb.os, na, nb,
                        qb + a0 * p.ka.qs + b0 * p.kb.qs, p.ka.qs, p.kb.qs,
                        scratch, pf);
            } else if (chunk_k2) {
                const node_t &k1 = p.k1, &k2 = p.k2, &k3 = p.k3;
                const dim_t j0 = piece * p.chunk;
                const dim_t j1 = std::min(chunked_n, j0 + p.chunk);
                const dim_t l0 = with_k3 ? j0 : 0, l1 = with_k3 ? j1 : 1;
                const dim_t m0 = with_k3 ? 0 : j0, m1 = with_k3 ? k2.n : j1;
                for (dim_t l = l0; l < l1; ++l)
                    for (dim_t j = m0; j < m1; ++j)
                        run.linear(sb + l * k3.is + j * k2.is, k1.is,
                                db + l * k3.os + j * k2.os, k1.os, k1.n,
                                qb + l * k3.qs + j * k2.qs, k1.qs);
            } else {
                const dim_t c0 = piece * p.chunk;
                const dim_t n = std::min(p.chunk, p.k1.n - c0);
                run.linear(sb + c0 * p.k1.is, p.k1.is, db + c0 * p.k1.os,
                        p.k1.os, n, qb + c0 * p.k1.qs, p.k1.qs);
            }
            if (++piece < nch) continue;
            piece = 0;
            for (int k = no - 1; k >= 0; --k) {
                if (++idx[k] < outer[k].n) break;
                idx[k] = 0;
            }
        }
        if (nt) stream_fence();
    });
}

// The fused kernels of one type pair (their quantization index unused).
template <typename S, typename D, qmode_t Q>
struct fused_runner_t {
    const S *src;
    D *dst;
    elem_op_t<S, D, Q> op;
    bool nt;

    void tile(dim_t so, dim_t is_a, dim_t dof, dim_t os_b, dim_t na, dim_t nb,
            dim_t, dim_t, dim_t, tile_scratch_t &tmp, dim_t pf) const {
        tile_run<S, D, Q>(
                src + so, is_a, dst + dof, os_b, na, nb, op, tmp, pf, nt);
    }
    void linear(dim_t so, dim_t is, dim_t dof, dim_t os, dim_t n, dim_t,
            dim_t) const {
        linear_run<S, D, Q>(src + so, is, dst + dof, os, n, op, nt);
    }
};

template <typename S, typename D, qmode_t Q>
void run_fused(const simple_plan_t &p, const void *src, void *dst,
        const kq_t &q) {
    const fused_runner_t<S, D, Q> run {static_cast<const S *>(src),
            static_cast<D *>(dst), elem_op_t<S, D, Q>(q), p.stream_dst};
    drive(p, sizeof(S), p.stream_dst, run);
}

// The split kernels: the halves of the plan's source and destination types.
struct split_runner_t {
    using load_fn = void (*)(const void *, dim_t, dim_t, dim_t, dim_t,
            float *, dim_t, const kq_t &, dim_t, dim_t, dim_t);
    using store_fn = void (*)(const float *, dim_t, void *, dim_t, dim_t,
            dim_t, dim_t, const kq_t &, dim_t, dim_t, dim_t);
    const char *src;
    char *dst;
    dim_t ssz, dsz; // element sizes
    load_fn load;
    store_fn store;
    const kq_t &q;

    // Source rows along b to f32, a 4-byte transpose, destination rows
    // along a from f32.
    void tile(dim_t so, dim_t is_a, dim_t dof, dim_t os_b, dim_t na, dim_t nb,
            dim_t qb, dim_t qs_a, dim_t qs_b, tile_scratch_t &tmp,
            dim_t) const {
        load(src + so * ssz, is_a, na, 1, nb, tmp.f0, tmax, q, qb, qs_a, qs_b);
        transpose_block_b32<false>((const uint32_t *)tmp.f0, tmax,
                (uint32_t *)tmp.f1, tmax, na, nb, 0);
        store(tmp.f1, tmax, dst + dof * dsz, os_b, nb, 1, na, q, qb, qs_b,
                qs_a);
    }
    void linear(dim_t so, dim_t is, dim_t dof, dim_t os, dim_t n, dim_t qb,
            dim_t qs) const {
        alignas(64) float buf[split_row];
        for (dim_t i0 = 0; i0 < n; i0 += split_row) {
            const dim_t m = std::min(split_row, n - i0);
            load(src + (so + i0 * is) * ssz, 0, 1, is, m, buf, 0, q,
                    qb + i0 * qs, 0, qs);
            store(buf, 0, dst + (dof + i0 * os) * dsz, 0, 1, os, m, q,
                    qb + i0 * qs, 0, qs);
        }
    }
};

void run_split(const simple_plan_t &p, const void *src, void *dst,
        const kq_t &q) {
    split_runner_t run {static_cast<const char *>(src),
            static_cast<char *>(dst), 0, 0, nullptr, nullptr, q};
    with_data_type(p.sdt, [&](auto s) {
        using S = decltype(s);
        run.ssz = sizeof(S);
        run.load = split_load<S>;
    });
    with_data_type(p.ddt, [&](auto d) {
        using D = decltype(d);
        run.dsz = sizeof(D);
        run.store = split_store<D>;
    });
    drive(p, run.ssz, false, run);
}

template <typename S, typename D>
void run_typed(
        const simple_plan_t &p, const void *src, void *dst, const kq_t &q) {
    if (p.qmode == qmode_t::none)
        run_fused<S, D, qmode_t::none>(p, src, dst, q);
    else
        run_fused<S, D, qmode_t::scalar>(p, src, dst, q);
}

void run_any(
        const simple_plan_t &p, const void *src, void *dst, const kq_t &q) {
    if (p.qmode == qmode_t::scalar_sum || p.qmode == qmode_t::indexed)
        return run_split(p, src, dst, q);
    with_data_type(p.sdt, [&](auto s) {
        with_data_type(p.ddt, [&](auto d) {
            run_typed<decltype(s), decltype(d)>(p, src, dst, q);
        });
    });
}
} // namespace

const exec_kernel_t &DNNL_ISA_NAME(exec_kernel)() {
    static const exec_kernel_t k {isa_unit::this_isa_name, run_any};
    return k;
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
