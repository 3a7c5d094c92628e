// The GEMM driver: splits C over a grid of threads; each thread walks the
// cache blocks of its part (N block -> K block -> M block) with its own
// packing buffers (no synchronisation, which keeps a loaded machine from
// stalling threads at barriers), packs A and B blocks and runs the
// microkernel over every MR x NR tile; at the last K block it adds the
// bias and calls the post hook on the block while it is in cache.
//
// f32_ops_t / bf16_ops_t / s32_ops_t adapt the one loop nest (gemm_block)
// to the flavours: packing with conversion, microkernel call, K == 0 and
// bias. Small-M f32 problems take run_small_m (no packing) instead.
#include "cpu/gemm/gemm.hpp"


#include <algorithm>
#include <cstdlib>
#include <memory>

#include "cpu/gemm/gemm_loops.hpp"
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_s32c4.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {

using namespace loops;

// ---- f32 ---------------------------------------------------------------

template <typename TA, typename TB>
struct f32_ops_t {
    using packed_t = float;
    const gemm_f32_args_t &g;
    const f32_ukernel_desc_t &uk;

    float *c_at(dim_t i, dim_t j) const { return g.c + i * g.ldc + j; }
    void pack_a(dim_t ic, dim_t pc, dim_t mc, dim_t kc, float *buf) const {
        pack_a_f32((const TA *)g.a + ic * g.a_rs + pc * g.a_cs, g.a_rs, g.a_cs,
                mc, kc, uk.mr, buf);
    }
    void pack_b(dim_t pc, dim_t jc, dim_t kc, dim_t nc, float *buf) const {
        if (g.b_packed) return;
        pack_b_f32((const TB *)g.b + pc * g.b_rs + jc * g.b_cs, g.b_rs, g.b_cs,
                kc, nc, uk.nr, buf);
    }
    // Pre-packed B: panel (jc + jr) / NR of K x NR values, rows from pc.
    const float *b_at(const float *bp, dim_t pc, dim_t jc, dim_t jr, dim_t pk) const {
        if (!g.b_packed) return bp + jr * pk;
        const dim_t seg = g.b_packed_kseg > 0 ? g.b_packed_kseg : g.K;
        return (const float *)g.b + pc / seg * g.b_packed_seg_stride
                + (jc + jr) / uk.nr * seg * uk.nr + pc % seg * uk.nr;
    }
    void kernel(dim_t kc, const float *a, const float *b, dim_t i, dim_t j,
            dim_t m, dim_t n, bool first, const float *b_next) const {
        // C's rows are read (beta != 0) or written at the end of the
        // tile, from memory when C is large: fetch them while the tile
        // computes. A short K leaves too little time for this tile, so
        // there the tile two below (run after the next) is fetched
        // (rank-k updates such as weight gradients over a small batch).
        const float beta = first ? g.beta : 1.f;
        const bool short_k = kc <= 64;
        if (short_k || beta != 0.f) {
            const dim_t r0 = short_k ? i + 2 * m : i;
            const dim_t r1 = std::min(g.M, r0 + m);
            for (dim_t r = r0; r < r1; ++r)
                for (dim_t x = 0; x < n; x += 16)
                    __builtin_prefetch(c_at(r, j + x), 1, 3);
        }
        uk.fn(kc, a, b, c_at(i, j), g.ldc, m, n, g.alpha, beta, b_next);
    }
    void zero_k(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
        for (dim_t i = 0; i < m; ++i) {
            float *c = c_at(i0 + i, j0);
            for (dim_t j = 0; j < n; ++j)
                c[j] = g.beta == 0.f ? 0.f : g.beta * c[j];
        }
    }
    void finish(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
        if (g.bias_kind == bias_kind_t::per_row)
            for (dim_t i = 0; i < m; ++i) {
                float *c = c_at(i0 + i, j0);
                const float bv = g.bias[i0 + i];
                for (dim_t j = 0; j < n; ++j)
                    c[j] += bv;
            }
        else if (g.bias_kind == bias_kind_t::per_col)
            for (dim_t i = 0; i < m; ++i) {
                float *c = c_at(i0 + i, j0);
                const float *bv = g.bias + j0;
                for (dim_t j = 0; j < n; ++j)
                    c[j] += bv[j];
            }
        if (g.post) g.post(i0, j0, m, n, c_at(i0, j0), g.ldc);
    }
    void finish(dim_t i0, dim_t j0, dim_t m, dim_t n, const void *) const {
        finish(i0, j0, m, n);
    }
};

using f32_run_f = void (*)(const gemm_f32_args_t &, const f32_ukernel_desc_t &,
        const blocking_t &, int, char *);

template <typename TA, typename TB>
void f32_run(const gemm_f32_args_t &g, const f32_ukernel_desc_t &uk,
        const blocking_t &b, int nthr, char *ws) {
    run_gemm(f32_ops_t<TA, TB> {g, uk}, b, g.M, g.N, g.K, nthr, ws);
}

template <typename TA>
f32_run_f f32_run_for_b(data_type_t b_dt) {
    switch (b_dt) {
        case dnnl_f32: return f32_run<TA, float>;
        case dnnl_bf16: return f32_run<TA, bf16_tag_t>;
        case dnnl_f16: return f32_run<TA, f16_tag_t>;
        default: return nullptr;
    }
}

f32_run_f f32_run_for(data_type_t a_dt, data_type_t b_dt, fpmath_mode_t fpmath) {
    if (a_dt == dnnl_f32 && b_dt == dnnl_f32) {
        switch (fpmath) {
            case dnnl_fpmath_mode_bf16: return f32_run<f32_as_bf16_t, f32_as_bf16_t>;
            case dnnl_fpmath_mode_f16: return f32_run<f32_as_f16_t, f32_as_f16_t>;
            case dnnl_fpmath_mode_tf32: return f32_run<f32_as_tf32_t, f32_as_tf32_t>;
            default: break;
        }
    }
    switch (a_dt) {
        case dnnl_f32: return f32_run_for_b<float>(b_dt);
        case dnnl_bf16: return f32_run_for_b<bf16_tag_t>(b_dt);
        case dnnl_f16: return f32_run_for_b<f16_tag_t>(b_dt);
        default: return nullptr;
    }
}

// ---- bf16 pairs into f32 --------------------------------------------------

template <typename TA, typename TB>
struct bf16_ops_t {
    using packed_t = int16_t;
    const gemm_f32_args_t &g;
    const bf16_ukernel_desc_t &uk;
    const f32_ops_t<float, float> out; // C side: K == 0, bias, post

    void pack_a(dim_t ic, dim_t pc, dim_t mc, dim_t kc, int16_t *buf) const {
        pack_a_s16((const TA *)g.a + ic * g.a_rs + pc * g.a_cs, g.a_rs, g.a_cs,
                0, mc, kc, uk.mr, buf);
    }
    void pack_b(dim_t pc, dim_t jc, dim_t kc, dim_t nc, int16_t *buf) const {
        pack_b_s16((const TB *)g.b + pc * g.b_rs + jc * g.b_cs, g.b_rs, g.b_cs,
                0, kc, nc, uk.nr, buf);
    }
    const int16_t *b_at(const int16_t *bp, dim_t, dim_t, dim_t jr, dim_t pk) const {
        return bp + jr * pk;
    }
    void kernel(dim_t kc, const int16_t *a, const int16_t *b, dim_t i, dim_t j,
            dim_t m, dim_t n, bool first, const int16_t *) const {
        uk.fn((kc + 1) / 2, a, b, out.c_at(i, j), g.ldc, m, n, g.alpha,
                first ? g.beta : 1.f);
    }
    void zero_k(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
        out.zero_k(i0, j0, m, n);
    }
    void finish(dim_t i0, dim_t j0, dim_t m, dim_t n, const void *) const {
        out.finish(i0, j0, m, n);
    }
};

// The bf16 dot product kernel serves bf16 inputs and f32 inputs under
// fpmath bf16 (rounded to bf16 while packing) when the machine has it.
const bf16_ukernel_desc_t *bf16_kernel_for(
        data_type_t a_dt, data_type_t b_dt, fpmath_mode_t fpmath) {
    const bool bf16_in = a_dt == dnnl_bf16 && b_dt == dnnl_bf16;
    const bool f32_as_bf16 = a_dt == dnnl_f32 && b_dt == dnnl_f32
            && fpmath == dnnl_fpmath_mode_bf16;
    return bf16_in || f32_as_bf16 ? select_bf16_ukernel() : nullptr;
}

void run_bf16(const gemm_f32_args_t &g, const bf16_ukernel_desc_t &uk,
        int nthr, char *ws, const blocking_t &b) {
    const f32_ops_t<float, float> out {g, select_f32_ukernel()};
    if (g.a_dt == dnnl_bf16)
        run_gemm(bf16_ops_t<bf16_tag_t, bf16_tag_t> {g, uk, out}, b, g.M, g.N,
                g.K, nthr, ws);
    else
        run_gemm(bf16_ops_t<f32_as_bf16_t, f32_as_bf16_t> {g, uk, out}, b, g.M,
                g.N, g.K, nthr, ws);
}

// ---- s32 ---------------------------------------------------------------

bool zp_fits_s16(data_type_t dt, int32_t zp) {
    const int64_t lo = dt == dnnl_u8 ? 0 : -128, hi = dt == dnnl_u8 ? 255 : 127;
    return lo - (int64_t)zp >= -32767 && hi - (int64_t)zp <= 32767;
}

int32_t wrap_add(int32_t a, int32_t b) {
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

template <typename TA, typename TB>
struct s32_ops_t {
    using packed_t = int16_t;
    const gemm_s32_args_t &g;
    const s32_ukernel_desc_t &uk;

    int32_t *c_at(dim_t i, dim_t j) const { return g.c + i * g.ldc + j; }
    void pack_a(dim_t ic, dim_t pc, dim_t mc, dim_t kc, int16_t *buf) const {
        pack_a_s16((const TA *)g.a + ic * g.a_rs + pc * g.a_cs, g.a_rs, g.a_cs,
                g.a_zp, mc, kc, uk.mr, buf);
    }
    void pack_b(dim_t pc, dim_t jc, dim_t kc, dim_t nc, int16_t *buf) const {
        pack_b_s16((const TB *)g.b + pc * g.b_rs + jc * g.b_cs, g.b_rs, g.b_cs,
                g.b_zp, kc, nc, uk.nr, buf);
    }
    const int16_t *b_at(const int16_t *bp, dim_t, dim_t, dim_t jr, dim_t pk) const {
        return bp + jr * pk;
    }
    void kernel(dim_t kc, const int16_t *a, const int16_t *b, dim_t i, dim_t j,
            dim_t m, dim_t n, bool first, const int16_t *) const {
        uk.fn((kc + 1) / 2, a, b, c_at(i, j), g.ldc, m, n,
                first ? g.accumulate : true);
    }
    void zero_k(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
        if (g.accumulate) return;
        for (dim_t i = 0; i < m; ++i)
            std::fill_n(c_at(i0 + i, j0), n, 0);
    }
    void finish(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
        if (g.bias_kind == bias_kind_t::per_row)
            for (dim_t i = 0; i < m; ++i) {
                int32_t *c = c_at(i0 + i, j0);
                for (dim_t j = 0; j < n; ++j)
                    c[j] = wrap_add(c[j], g.bias[i0 + i]);
            }
        else if (g.bias_kind == bias_kind_t::per_col)
            for (dim_t i = 0; i < m; ++i) {
                int32_t *c = c_at(i0 + i, j0);
                for (dim_t j = 0; j < n; ++j)
                    c[j] = wrap_add(c[j], g.bias[j0 + j]);
            }
        if (g.post) g.post(i0, j0, m, n, c_at(i0, j0), g.ldc);
    }
    void finish(dim_t i0, dim_t j0, dim_t m, dim_t n, const void *) const {
        finish(i0, j0, m, n);
    }
};

// Exact fallback for zero points that do not fit the int16 packing: plain
// loops in 64-bit, parallel over rows.
template <typename TA, typename TB>
void s32_naive(const gemm_s32_args_t &g, int nthr) {
    const TA *A = (const TA *)g.a;
    const TB *B = (const TB *)g.b;
    parallel_claim(nthr, g.M, [&](int, dim_t i) {
        for (dim_t j = 0; j < g.N; ++j) {
            int64_t s = 0;
            for (dim_t k = 0; k < g.K; ++k)
                s += ((int64_t)A[i * g.a_rs + k * g.a_cs] - g.a_zp)
                        * ((int64_t)B[k * g.b_rs + j * g.b_cs] - g.b_zp);
            int32_t r = (int32_t)(uint32_t)(uint64_t)s;
            if (g.accumulate) r = wrap_add(r, g.c[i * g.ldc + j]);
            if (g.bias_kind == bias_kind_t::per_row) r = wrap_add(r, g.bias[i]);
            if (g.bias_kind == bias_kind_t::per_col) r = wrap_add(r, g.bias[j]);
            g.c[i * g.ldc + j] = r;
        }
        if (g.post) g.post(i, 0, 1, g.N, g.c + i * g.ldc, g.ldc);
    });
}

// Small M (<= 4) with A contiguous along K and B contiguous along K (t
// form: inner-product weights) or N (n form): no packing, B is streamed
// once through the small-M kernels (gemm_ukernels.hpp). Packing B into
// 16-bit pairs or VNNI quads first took 6-16x longer than oneDNN on
// batch-1 int8 inner products (2048 x 1000 weights). The kernels give
// exact raw sums; zero points are corrections here, all modulo 2^64 and
// the result modulo 2^32, as the packed path's. The n form takes one row
// of A only: with four (4x4096:4096x4096) it measured 2.5x slower than
// packing for the VNNI kernels on a 16-core Xeon, one row 1.2-2.3x faster.
bool s32_small_m_ok(const gemm_s32_args_t &g) {
    return g.M <= 4 && g.K > 0 && !g.b_packed && g.a_cs == 1
            && (g.b_rs == 1 || (g.b_cs == 1 && g.M == 1));
}

void s32_small_m(const gemm_s32_args_t &g, int nthr) {
    const bool t_form = g.b_rs == 1;
    const s32_small_m_f fn = select_s32_small_m()
                                     .fn[t_form][g.a_dt == dnnl_s8]
                                        [g.b_dt == dnnl_s8];
    // Sums of each A row (for B's zero point).
    int64_t a_sum[4] = {0, 0, 0, 0};
    if (g.b_zp != 0)
        for (dim_t i = 0; i < g.M; ++i)
            for (dim_t k = 0; k < g.K; ++k)
                a_sum[i] += g.a_dt == dnnl_s8
                        ? (int64_t)((const int8_t *)g.a)[i * g.a_rs + k]
                        : (int64_t)((const uint8_t *)g.a)[i * g.a_rs + k];
    // Wrapping arithmetic for the corrections (only the low 32 bits count).
    auto u = [](int64_t v) { return (uint64_t)v; };
    const uint64_t zz = u(g.K) * u(g.a_zp) * u(g.b_zp);
    // Columns per kernel call: runs of up to 512 of the n form's rows
    // (see gemm_s32_small_m.cpp), fewer where that leaves threads idle
    // (768 columns on 16 threads), in multiples of 64.
    constexpr dim_t max_unit = 512;
    const dim_t unit = std::max<dim_t>(
            64, std::min(max_unit, rnd_up(div_up(g.N, nthr), 64)));
    const dim_t nunits = div_up(g.N, unit);
    parallel_chunks(std::min<dim_t>(nthr, nunits), nunits,
            [&](int, dim_t u0, dim_t u1) {
        int64_t ab[4 * max_unit], b_sum[max_unit];
        for (dim_t un = u0; un < u1; ++un) {
            const dim_t j0 = un * unit, n = std::min(g.N, j0 + unit) - j0;
            // 8-bit elements: offsets in bytes.
            const char *b = (const char *)g.b + (t_form ? j0 * g.b_cs : j0);
            fn(g.M, n, g.K, g.a, g.a_rs, b, t_form ? g.b_cs : g.b_rs, ab,
                    g.a_zp != 0 ? b_sum : nullptr);
            for (dim_t i = 0; i < g.M; ++i)
                for (dim_t j = 0; j < n; ++j) {
                    const uint64_t v = u(ab[i * n + j])
                            - (g.a_zp != 0 ? u(g.a_zp) * u(b_sum[j]) : 0)
                            - u(g.b_zp) * u(a_sum[i]) + zz;
                    int32_t r = (int32_t)(uint32_t)v;
                    int32_t &c = g.c[i * g.ldc + j0 + j];
                    if (g.accumulate) r = wrap_add(r, c);
                    if (g.bias_kind == bias_kind_t::per_row)
                        r = wrap_add(r, g.bias[i]);
                    if (g.bias_kind == bias_kind_t::per_col)
                        r = wrap_add(r, g.bias[j0 + j]);
                    c = r;
                }
            if (g.post) g.post(0, j0, g.M, n, g.c + j0, g.ldc);
        }
    });
}

using s32_run_f = void (*)(const gemm_s32_args_t &, const s32_ukernel_desc_t &,
        const blocking_t &, int, char *);
using s32_naive_f = void (*)(const gemm_s32_args_t &, int);

template <typename TA, typename TB>
void s32_run(const gemm_s32_args_t &g, const s32_ukernel_desc_t &uk,
        const blocking_t &b, int nthr, char *ws) {
    run_gemm(s32_ops_t<TA, TB> {g, uk}, b, g.M, g.N, g.K, nthr, ws);
}

template <typename TA>
void s32_fns_for_b(data_type_t b_dt, s32_run_f &t, s32_naive_f &n) {
    if (b_dt == dnnl_u8) {
        t = s32_run<TA, uint8_t>;
        n = s32_naive<TA, uint8_t>;
    } else if (b_dt == dnnl_s8) {
        t = s32_run<TA, int8_t>;
        n = s32_naive<TA, int8_t>;
    }
}

// Small M (<= 4) with f32 inputs and a unit-stride B: no packing, B is
// streamed once (GEMV-like shapes: batch-1 inference). bf16 inputs too
// where B's rows are contiguous (n form) and the kernels have them: B
// widened to f32 as it streams, where packing it into pairs first took
// 3-8x longer than oneDNN (Llama decode, 1x4096:4096x4096).
bool small_m_bf16(const gemm_f32_args_t &g) {
    return g.a_dt == dnnl_bf16 && g.b_dt == dnnl_bf16 && g.b_cs == 1
           && select_f32_gemv().bf16_n[0];
}

bool small_m_ok(const gemm_f32_args_t &g) {
    const bool exact_inputs = g.fpmath == dnnl_fpmath_mode_strict
            || g.fpmath == dnnl_fpmath_mode_any;
    const bool f32_in = g.a_dt == dnnl_f32 && g.b_dt == dnnl_f32 && exact_inputs
                        && (g.b_cs == 1 || (g.b_rs == 1 && g.a_cs == 1));
    return (f32_in || small_m_bf16(g)) && g.M <= 4 && !g.b_packed && g.K > 0;
}

// How a small-M problem whose B rows are contiguous (n form) is cut.
// Rows of B read whole, or in runs of at least `min_run` columns, stream
// at the memory's speed; shorter runs (every thread's share of a narrow
// N) leave the hardware prefetchers a new page every few lines. So
// narrow problems are cut along K as well: items are (column range, K
// range) pairs, each item writes the sums of its K range into that
// range's buffer of partial sums, and the buffers are added in order at
// the end. The cut depends on the shape alone, so results do not depend
// on the thread count.
struct small_m_split_t {
    dim_t ncol = 1, nk = 1; // column ranges, K ranges
    bool partials() const { return nk > 1; }
};
constexpr dim_t small_m_min_run = 4096; // columns (16 KiB of f32)
constexpr dim_t small_m_min_k = 256;    // rows of B per K range
constexpr size_t small_m_max_partials = size_t(256) << 10; // bytes

small_m_split_t small_m_split(dim_t M, dim_t N, dim_t K) {
    small_m_split_t sp;
    sp.ncol = std::max<dim_t>(1, N / small_m_min_run);
    if (sp.ncol >= 8) return sp; // enough long column ranges
    const dim_t by_bytes =
            (dim_t)(small_m_max_partials / ((size_t)M * N * sizeof(float)));
    sp.nk = std::max<dim_t>(
            1, std::min({K / small_m_min_k, by_bytes, (dim_t)16}));
    return sp;
}

size_t small_m_partials_bytes(dim_t M, dim_t N, dim_t K) {
    const small_m_split_t sp = small_m_split(M, N, K);
    return sp.partials()
                   ? (size_t)sp.nk * align64((size_t)M * N * sizeof(float))
                   : 0;
}

void run_small_m(const gemm_f32_args_t &g, int nthr, char *ws) {
    const f32_gemv_desc_t &kd = select_f32_gemv();
    const f32_ops_t<float, float> op {g, select_f32_ukernel()};
    const bool n_form = g.b_cs == 1;
    const dim_t unit = n_form ? 64 : 8;
    const float *a = (const float *)g.a;
    const float *b = (const float *)g.b;
    const bool bf16 = small_m_bf16(g);
    const uint16_t *ah = (const uint16_t *)g.a, *bh = (const uint16_t *)g.b;
    // Columns [j0, j1) and rows [k0, k1) of the product into c.
    auto block = [&](dim_t j0, dim_t j1, dim_t k0, dim_t k1, float alpha,
                         float beta, float *c, dim_t ldc) {
        if (bf16)
            kd.bf16_n[g.M - 1](j1 - j0, k1 - k0, alpha, ah + k0 * g.a_cs,
                    g.a_rs, g.a_cs, bh + k0 * g.b_rs + j0, g.b_rs, beta, c + j0,
                    ldc);
        else if (n_form)
            kd.n[g.M - 1](j1 - j0, k1 - k0, alpha, a + k0 * g.a_cs, g.a_rs,
                    g.a_cs, b + k0 * g.b_rs + j0, g.b_rs, beta, c + j0, ldc);
        else
            kd.t[g.M - 1](j1 - j0, g.K, alpha, a, g.a_rs, b + j0 * g.b_cs,
                    g.b_cs, beta, c + j0, ldc);
    };
    const small_m_split_t sp =
            n_form ? small_m_split(g.M, g.N, g.K) : small_m_split_t{};
    if (!sp.partials()) {
        if (nthr == 1) {
            block(0, g.N, 0, g.K, g.alpha, g.beta, g.c, g.ldc);
            op.finish(0, 0, g.M, g.N);
            return;
        }
        // Column chunks claimed dynamically, 4 per thread.
        const int nparts = 4 * nthr;
        parallel_claim(nthr, nparts, [&](int, dim_t t) {
            dim_t j0, j1;
            split(g.N, nparts, (int)t, unit, j0, j1);
            if (j0 >= j1) return;
            block(j0, j1, 0, g.K, g.alpha, g.beta, g.c, g.ldc);
            op.finish(0, j0, g.M, j1 - j0);
        });
        return;
    }
    // (column range, K range) items, K innermost, so that a thread's own
    // block of items is one stretch of B.
    const size_t part_stride = align64((size_t)g.M * g.N * sizeof(float));
    auto part = [&](dim_t k) { return (float *)(ws + k * part_stride); };
    parallel_claim(nthr, sp.ncol * sp.nk, [&](int, dim_t item) {
        dim_t j0, j1, k0, k1;
        split(g.N, (int)sp.ncol, (int)(item / sp.nk), unit, j0, j1);
        split(g.K, (int)sp.nk, (int)(item % sp.nk), 4, k0, k1);
        if (j0 >= j1) return;
        if (k0 >= k1) { // (not with K ranges of 256 rows and more)
            for (dim_t i = 0; i < g.M; ++i)
                std::fill(part(item % sp.nk) + i * g.N + j0,
                        part(item % sp.nk) + i * g.N + j1, 0.f);
            return;
        }
        block(j0, j1, k0, k1, 1.f, 0.f, part(item % sp.nk), g.N);
    });
    // C = alpha * (the partials added in order) + beta * C, then bias and
    // post.
    const int nthr_sum = nthr_for(g.M * g.N, 16 * 1024);
    parallel_chunks(nthr_sum, div_up(g.N, unit), [&](int, dim_t u0, dim_t u1) {
        const dim_t j0 = u0 * unit, j1 = std::min(g.N, u1 * unit);
        for (dim_t i = 0; i < g.M; ++i) {
            float *c = g.c + i * g.ldc;
            for (dim_t j = j0; j < j1; ++j) {
                float sum = part(0)[i * g.N + j];
                for (dim_t k = 1; k < sp.nk; ++k) sum += part(k)[i * g.N + j];
                c[j] = g.beta == 0.f ? g.alpha * sum
                                     : g.alpha * sum + g.beta * c[j];
            }
        }
        op.finish(0, j0, g.M, j1 - j0);
    });
}

} // namespace

size_t gemm_workspace_size(
        dim_t M, dim_t N, dim_t K, bool is_int, bool parallel, int nthr) {
    const int nt = effective_threads(M, N, K, parallel, nthr);
    // Partial sums of a small-M problem split over K (when its inputs
    // take that path).
    const size_t small_m = !is_int && M <= 4 && M > 0 && N > 0
                                   ? small_m_partials_bytes(M, N, K)
                                   : 0;
    if (is_int && select_s32c4_ukernel())
        return s32c4_workspace_size(M, N, K, nt);
    if (is_int)
        return workspace_bytes(make_blocking(select_s32_ukernel(), M, N, K, 2),
                sizeof(int16_t), nt);
    size_t bytes = std::max(small_m,
            workspace_bytes(make_blocking(select_f32_ukernel(), M, N, K, 1),
                    sizeof(float), nt));
    if (const bf16_ukernel_desc_t *bk = select_bf16_ukernel())
        bytes = std::max(bytes,
                workspace_bytes(make_blocking(*bk, M, N, K, 2), sizeof(int16_t), nt));
    return bytes;
}

const char *f32_kernel_name() { return select_f32_ukernel().name; }
const char *f32_kernel_name(
        data_type_t a_dt, data_type_t b_dt, fpmath_mode_t fpmath) {
    const bf16_ukernel_desc_t *bk = bf16_kernel_for(a_dt, b_dt, fpmath);
    return bk ? bk->name : select_f32_ukernel().name;
}
const char *s32_kernel_name() {
    const s32c4_ukernel_desc_t *c4 = select_s32c4_ukernel();
    return c4 ? c4->name : select_s32_ukernel().name;
}

int f32_packed_b_nr(data_type_t a_dt, data_type_t b_dt, fpmath_mode_t fpmath) {
    const bool exact = fpmath == dnnl_fpmath_mode_strict
            || fpmath == dnnl_fpmath_mode_any;
    return a_dt == dnnl_f32 && b_dt == dnnl_f32 && exact
            ? select_f32_ukernel().nr
            : 0;
}

int s32_packed_b_nr() {
    const s32c4_ukernel_desc_t *c4 = select_s32c4_ukernel();
    return c4 ? c4->nr : 0;
}

status_t gemm_f32(const gemm_f32_args_t &g) {
    if (g.M < 0 || g.N < 0 || g.K < 0) return dnnl_invalid_arguments;
    if (g.M == 0 || g.N == 0) return dnnl_success;
    if (!g.c || (g.K > 0 && (!g.a || !g.b))) return dnnl_invalid_arguments;
    if (g.bias_kind != bias_kind_t::none && !g.bias) return dnnl_invalid_arguments;
    const f32_run_f fn = f32_run_for(g.a_dt, g.b_dt, g.fpmath);
    if (!fn) return dnnl_unimplemented;
    if (g.b_packed && !f32_packed_b_nr(g.a_dt, g.b_dt, g.fpmath))
        return dnnl_invalid_arguments;
    if (g.b_packed_kseg < 0 || (g.b_packed_kseg > 0 && (!g.b_packed || g.K % g.b_packed_kseg)))
        return dnnl_invalid_arguments;

    const int nthr = effective_threads(g.M, g.N, g.K, g.parallel, g.nthr);
    if (small_m_ok(g)) {
        const size_t bytes =
                g.b_cs == 1 ? small_m_partials_bytes(g.M, g.N, g.K) : 0;
        workspace_t ws(g.workspace, bytes);
        if (bytes && !ws.get()) return dnnl_out_of_memory;
        run_small_m(g, nthr, ws.get());
        return dnnl_success;
    }
    if (const bf16_ukernel_desc_t *bk = bf16_kernel_for(g.a_dt, g.b_dt, g.fpmath)) {
        const blocking_t b = make_blocking(*bk, g.M, g.N, g.K, 2);
        workspace_t ws(g.workspace, workspace_bytes(b, sizeof(int16_t), nthr));
        if (!ws.get()) return dnnl_out_of_memory;
        run_bf16(g, *bk, nthr, ws.get(), b);
        return dnnl_success;
    }
    const f32_ukernel_desc_t &uk = select_f32_ukernel();
    blocking_t b = make_blocking(uk, g.M, g.N, g.K, 1);
    fit_k_segments(b, g.b_packed_kseg);
    workspace_t ws(g.workspace, workspace_bytes(b, sizeof(float), nthr));
    if (!ws.get()) return dnnl_out_of_memory;
    fn(g, uk, b, nthr, ws.get());
    return dnnl_success;
}

status_t gemm_s32(const gemm_s32_args_t &g) {
    if (g.M < 0 || g.N < 0 || g.K < 0) return dnnl_invalid_arguments;
    if (g.M == 0 || g.N == 0) return dnnl_success;
    if (!g.c || (g.K > 0 && (!g.a || !g.b))) return dnnl_invalid_arguments;
    if (g.bias_kind != bias_kind_t::none && !g.bias) return dnnl_invalid_arguments;
    s32_run_f fn = nullptr;
    s32_naive_f naive = nullptr;
    if (g.a_dt == dnnl_u8)
        s32_fns_for_b<uint8_t>(g.b_dt, fn, naive);
    else if (g.a_dt == dnnl_s8)
        s32_fns_for_b<int8_t>(g.b_dt, fn, naive);
    if (!fn) return dnnl_unimplemented;

    const int nthr = effective_threads(g.M, g.N, g.K, g.parallel, g.nthr);
    if (s32_small_m_ok(g)) {
        s32_small_m(g, nthr);
        return dnnl_success;
    }
    if (select_s32c4_ukernel()) return run_s32c4(g, nthr);
    if (g.b_packed) return dnnl_invalid_arguments;
    if (!zp_fits_s16(g.a_dt, g.a_zp) || !zp_fits_s16(g.b_dt, g.b_zp)) {
        naive(g, nthr);
        return dnnl_success;
    }
    const s32_ukernel_desc_t &uk = select_s32_ukernel();
    const blocking_t b = make_blocking(uk, g.M, g.N, g.K, 2);
    workspace_t ws(g.workspace, workspace_bytes(b, sizeof(int16_t), nthr));
    if (!ws.get()) return dnnl_out_of_memory;
    fn(g, uk, b, nthr, ws.get());
    return dnnl_success;
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
