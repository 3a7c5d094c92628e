// The GEMM driver: splits C over threads, walks the cache blocks of each
// thread's part (N block -> K block -> M block), packs A and B blocks and
// runs the microkernel over every MR x NR tile; finishes each block with
// bias and the post hook once its last K block is done.
#include "cpu/gemm/gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>

#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {

dim_t div_up(dim_t a, dim_t b) { return (a + b - 1) / b; }
dim_t rnd_up(dim_t a, dim_t b) { return div_up(a, b) * b; }
size_t align64(size_t x) { return (x + 63) / 64 * 64; }

// Number of threads worth using for an M x N x K problem.
int effective_threads(dim_t M, dim_t N, dim_t K, bool parallel, int nthr) {
    if (!parallel || omp_in_parallel()) return 1;
    if (nthr <= 0) nthr = omp_get_max_threads();
    const double work = (double)M * (double)N * (double)std::max<dim_t>(K, 1);
    const double per_thread_min = 64.0 * 1024;
    const int by_work = (int)std::max(1.0, work / per_thread_min);
    return std::max(1, std::min(nthr, by_work));
}

// Grid of tm x tn threads over C: the factorisation with the smallest
// per-thread tile (rounded to the microkernel tile) plus packing cost.
void thread_grid(dim_t M, dim_t N, int nthr, int mr, int nr, int &tm, int &tn) {
    double best = -1;
    tm = 1;
    tn = nthr;
    for (int m = 1; m <= nthr; ++m) {
        if (nthr % m) continue;
        const int n = nthr / m;
        const double mb = (double)rnd_up(div_up(M, m), mr);
        const double nb = (double)rnd_up(div_up(N, n), nr);
        const double cost = mb * nb + 16.0 * (mb + nb);
        if (best < 0 || cost < best) {
            best = cost;
            tm = m;
            tn = n;
        }
    }
}

// Range [beg, end) of part `i` of `parts` over [0, n), in units of `unit`.
void split(dim_t n, int parts, int i, dim_t unit, dim_t &beg, dim_t &end) {
    const dim_t units = div_up(n, unit);
    const dim_t base = units / parts, rem = units % parts;
    const dim_t ub = i * base + std::min<dim_t>(i, rem);
    const dim_t ue = ub + base + (i < rem ? 1 : 0);
    beg = std::min(n, ub * unit);
    end = std::min(n, ue * unit);
}

// Effective block sizes for a problem: never larger than the problem.
struct blocking_t {
    int mr, nr;
    dim_t mc, kc, nc;
};

template <typename desc_t>
blocking_t make_blocking(const desc_t &d, dim_t M, dim_t N, dim_t K, dim_t k_unit) {
    blocking_t b;
    b.mr = d.mr;
    b.nr = d.nr;
    b.mc = std::min(d.mc, rnd_up(std::max<dim_t>(M, 1), d.mr));
    b.nc = std::min(d.nc, rnd_up(std::max<dim_t>(N, 1), d.nr));
    // Balance the K blocks so the last one is not tiny.
    const dim_t kk = std::max<dim_t>(K, 1);
    const dim_t nkb = div_up(kk, d.kc);
    b.kc = rnd_up(div_up(kk, nkb), k_unit);
    return b;
}

size_t per_thread_bytes(const blocking_t &b, size_t elt) {
    return align64(b.mc * b.kc * elt) + align64(b.kc * b.nc * elt);
}

// Owns an aligned buffer when the caller gave no workspace.
struct workspace_t {
    workspace_t(void *given, size_t bytes) : ptr_((char *)given) {
        if (!ptr_ && bytes) {
            owned_ = (char *)std::aligned_alloc(64, align64(bytes));
            ptr_ = owned_;
        }
    }
    ~workspace_t() { std::free(owned_); }
    char *get() const { return ptr_; }

private:
    char *ptr_ = nullptr;
    char *owned_ = nullptr;
};

// Runs `body(ithr, m_beg, m_end, n_beg, n_end)` over a tm x tn grid.
template <typename F>
void run_grid(dim_t M, dim_t N, int nthr, const blocking_t &b, F body) {
    if (nthr == 1) {
        body(0, 0, M, 0, N);
        return;
    }
    int tm, tn;
    thread_grid(M, N, nthr, b.mr, b.nr, tm, tn);
#pragma omp parallel num_threads(nthr)
    {
        const int ithr = omp_get_thread_num();
        if (ithr < tm * tn) {
            dim_t mb, me, nb, ne;
            split(M, tm, ithr / tn, b.mr, mb, me);
            split(N, tn, ithr % tn, b.nr, nb, ne);
            if (mb < me && nb < ne) body(ithr, mb, me, nb, ne);
        }
    }
}

// ---- f32 ---------------------------------------------------------------

template <typename TA, typename TB>
void f32_thread(const gemm_f32_args_t &g, const f32_ukernel_desc_t &uk,
        const blocking_t &b, char *ws, dim_t m0, dim_t m1, dim_t n0, dim_t n1) {
    float *ap = (float *)ws;
    float *bp = (float *)(ws + align64(b.mc * b.kc * sizeof(float)));
    const TA *A = (const TA *)g.a;
    const TB *B = (const TB *)g.b;
    const dim_t K = g.K;
    for (dim_t jc = n0; jc < n1; jc += b.nc) {
        const dim_t nc = std::min(b.nc, n1 - jc);
        for (dim_t pc = 0; pc < std::max<dim_t>(K, 1); pc += b.kc) {
            const dim_t kc = std::min(b.kc, K - pc);
            const bool first = pc == 0, last = pc + b.kc >= K;
            if (kc > 0)
                pack_b_f32(B + pc * g.b_rs + jc * g.b_cs, g.b_rs, g.b_cs, kc,
                        nc, b.nr, bp);
            for (dim_t ic = m0; ic < m1; ic += b.mc) {
                const dim_t mc = std::min(b.mc, m1 - ic);
                float *cblk = g.c + ic * g.ldc + jc;
                if (kc > 0) {
                    pack_a_f32(A + ic * g.a_rs + pc * g.a_cs, g.a_rs, g.a_cs,
                            mc, kc, b.mr, ap);
                    const float beta = first ? g.beta : 1.f;
                    for (dim_t jr = 0; jr < nc; jr += b.nr)
                        for (dim_t ir = 0; ir < mc; ir += b.mr)
                            uk.fn(kc, ap + ir * kc, bp + jr * kc,
                                    cblk + ir * g.ldc + jr, g.ldc,
                                    std::min<dim_t>(b.mr, mc - ir),
                                    std::min<dim_t>(b.nr, nc - jr), g.alpha,
                                    beta);
                } else { // K == 0: C = beta * C
                    for (dim_t i = 0; i < mc; ++i)
                        for (dim_t j = 0; j < nc; ++j) {
                            float &c = cblk[i * g.ldc + j];
                            c = g.beta == 0.f ? 0.f : g.beta * c;
                        }
                }
                if (!last) continue;
                if (g.bias_kind == bias_kind_t::per_row)
                    for (dim_t i = 0; i < mc; ++i) {
                        const float bv = g.bias[ic + i];
                        for (dim_t j = 0; j < nc; ++j)
                            cblk[i * g.ldc + j] += bv;
                    }
                else if (g.bias_kind == bias_kind_t::per_col)
                    for (dim_t i = 0; i < mc; ++i)
                        for (dim_t j = 0; j < nc; ++j)
                            cblk[i * g.ldc + j] += g.bias[jc + j];
                if (g.post) g.post(ic, jc, mc, nc, cblk, g.ldc);
            }
        }
    }
}

using f32_thread_f = void (*)(const gemm_f32_args_t &, const f32_ukernel_desc_t &,
        const blocking_t &, char *, dim_t, dim_t, dim_t, dim_t);

template <typename TA>
f32_thread_f f32_thread_for_b(data_type_t b_dt) {
    switch (b_dt) {
        case dnnl_f32: return f32_thread<TA, float>;
        case dnnl_bf16: return f32_thread<TA, bf16_tag_t>;
        case dnnl_f16: return f32_thread<TA, f16_tag_t>;
        default: return nullptr;
    }
}

f32_thread_f f32_thread_for(
        data_type_t a_dt, data_type_t b_dt, fpmath_mode_t fpmath) {
    if (a_dt == dnnl_f32 && b_dt == dnnl_f32) {
        switch (fpmath) {
            case dnnl_fpmath_mode_bf16:
                return f32_thread<f32_as_bf16_t, f32_as_bf16_t>;
            case dnnl_fpmath_mode_f16:
                return f32_thread<f32_as_f16_t, f32_as_f16_t>;
            case dnnl_fpmath_mode_tf32:
                return f32_thread<f32_as_tf32_t, f32_as_tf32_t>;
            default: break;
        }
    }
    switch (a_dt) {
        case dnnl_f32: return f32_thread_for_b<float>(b_dt);
        case dnnl_bf16: return f32_thread_for_b<bf16_tag_t>(b_dt);
        case dnnl_f16: return f32_thread_for_b<f16_tag_t>(b_dt);
        default: return nullptr;
    }
}

// ---- s32 ---------------------------------------------------------------

bool zp_fits_s16(data_type_t dt, int32_t zp) {
    const int64_t lo = dt == dnnl_u8 ? 0 : -128, hi = dt == dnnl_u8 ? 255 : 127;
    return lo - (int64_t)zp >= -32767 && hi - (int64_t)zp <= 32767;
}

template <typename TA, typename TB>
void s32_thread(const gemm_s32_args_t &g, const s32_ukernel_desc_t &uk,
        const blocking_t &b, char *ws, dim_t m0, dim_t m1, dim_t n0, dim_t n1) {
    int16_t *ap = (int16_t *)ws;
    int16_t *bp = (int16_t *)(ws + align64(b.mc * b.kc * sizeof(int16_t)));
    const TA *A = (const TA *)g.a;
    const TB *B = (const TB *)g.b;
    const dim_t K = g.K;
    for (dim_t jc = n0; jc < n1; jc += b.nc) {
        const dim_t nc = std::min(b.nc, n1 - jc);
        for (dim_t pc = 0; pc < std::max<dim_t>(K, 1); pc += b.kc) {
            const dim_t kc = std::min(b.kc, K - pc);
            const dim_t kp = (kc + 1) / 2;
            const bool first = pc == 0, last = pc + b.kc >= K;
            if (kc > 0)
                pack_b_s16(B + pc * g.b_rs + jc * g.b_cs, g.b_rs, g.b_cs,
                        g.b_zp, kc, nc, b.nr, bp);
            for (dim_t ic = m0; ic < m1; ic += b.mc) {
                const dim_t mc = std::min(b.mc, m1 - ic);
                int32_t *cblk = g.c + ic * g.ldc + jc;
                if (kc > 0) {
                    pack_a_s16(A + ic * g.a_rs + pc * g.a_cs, g.a_rs, g.a_cs,
                            g.a_zp, mc, kc, b.mr, ap);
                    const bool acc = first ? g.accumulate : true;
                    for (dim_t jr = 0; jr < nc; jr += b.nr)
                        for (dim_t ir = 0; ir < mc; ir += b.mr)
                            uk.fn(kp, ap + ir * kp * 2, bp + jr * kp * 2,
                                    cblk + ir * g.ldc + jr, g.ldc,
                                    std::min<dim_t>(b.mr, mc - ir),
                                    std::min<dim_t>(b.nr, nc - jr), acc);
                } else if (!g.accumulate) {
                    for (dim_t i = 0; i < mc; ++i)
                        for (dim_t j = 0; j < nc; ++j)
                            cblk[i * g.ldc + j] = 0;
                }
                if (!last) continue;
                if (g.bias_kind == bias_kind_t::per_row)
                    for (dim_t i = 0; i < mc; ++i)
                        for (dim_t j = 0; j < nc; ++j)
                            cblk[i * g.ldc + j] = (int32_t)(
                                    (uint32_t)cblk[i * g.ldc + j]
                                    + (uint32_t)g.bias[ic + i]);
                else if (g.bias_kind == bias_kind_t::per_col)
                    for (dim_t i = 0; i < mc; ++i)
                        for (dim_t j = 0; j < nc; ++j)
                            cblk[i * g.ldc + j] = (int32_t)(
                                    (uint32_t)cblk[i * g.ldc + j]
                                    + (uint32_t)g.bias[jc + j]);
                if (g.post) g.post(ic, jc, mc, nc, cblk, g.ldc);
            }
        }
    }
}

// Exact fallback for zero points that do not fit the int16 packing: plain
// loops in 64-bit, parallel over rows.
template <typename TA, typename TB>
void s32_naive(const gemm_s32_args_t &g, int nthr) {
    const TA *A = (const TA *)g.a;
    const TB *B = (const TB *)g.b;
#pragma omp parallel for num_threads(nthr) if (nthr > 1)
    for (dim_t i = 0; i < g.M; ++i) {
        for (dim_t j = 0; j < g.N; ++j) {
            int64_t s = 0;
            for (dim_t k = 0; k < g.K; ++k)
                s += ((int64_t)A[i * g.a_rs + k * g.a_cs] - g.a_zp)
                        * ((int64_t)B[k * g.b_rs + j * g.b_cs] - g.b_zp);
            uint32_t r = (uint32_t)(int64_t)s;
            if (g.accumulate) r += (uint32_t)g.c[i * g.ldc + j];
            if (g.bias_kind == bias_kind_t::per_row) r += (uint32_t)g.bias[i];
            if (g.bias_kind == bias_kind_t::per_col) r += (uint32_t)g.bias[j];
            g.c[i * g.ldc + j] = (int32_t)r;
        }
        if (g.post) g.post(i, 0, 1, g.N, g.c + i * g.ldc, g.ldc);
    }
}

using s32_thread_f = void (*)(const gemm_s32_args_t &, const s32_ukernel_desc_t &,
        const blocking_t &, char *, dim_t, dim_t, dim_t, dim_t);
using s32_naive_f = void (*)(const gemm_s32_args_t &, int);

template <typename TA>
void s32_fns_for_b(data_type_t b_dt, s32_thread_f &t, s32_naive_f &n) {
    if (b_dt == dnnl_u8) {
        t = s32_thread<TA, uint8_t>;
        n = s32_naive<TA, uint8_t>;
    } else if (b_dt == dnnl_s8) {
        t = s32_thread<TA, int8_t>;
        n = s32_naive<TA, int8_t>;
    }
}

} // namespace

size_t gemm_workspace_size(
        dim_t M, dim_t N, dim_t K, bool is_int, bool parallel, int nthr) {
    const int nt = effective_threads(M, N, K, parallel, nthr);
    if (is_int) {
        const blocking_t b = make_blocking(select_s32_ukernel(), M, N, K, 2);
        return nt * per_thread_bytes(b, sizeof(int16_t));
    }
    const blocking_t b = make_blocking(select_f32_ukernel(), M, N, K, 1);
    return nt * per_thread_bytes(b, sizeof(float));
}

const char *f32_kernel_name() { return select_f32_ukernel().name; }
const char *s32_kernel_name() { return select_s32_ukernel().name; }

status_t gemm_f32(const gemm_f32_args_t &g) {
    if (g.M < 0 || g.N < 0 || g.K < 0) return dnnl_invalid_arguments;
    if (g.M == 0 || g.N == 0) return dnnl_success;
    if (!g.c || (g.K > 0 && (!g.a || !g.b))) return dnnl_invalid_arguments;
    if (g.bias_kind != bias_kind_t::none && !g.bias) return dnnl_invalid_arguments;
    f32_thread_f fn = f32_thread_for(g.a_dt, g.b_dt, g.fpmath);
    if (!fn) return dnnl_unimplemented;

    const f32_ukernel_desc_t &uk = select_f32_ukernel();
    const blocking_t b = make_blocking(uk, g.M, g.N, g.K, 1);
    const int nthr = effective_threads(g.M, g.N, g.K, g.parallel, g.nthr);
    const size_t per_thr = per_thread_bytes(b, sizeof(float));
    workspace_t ws(g.workspace, nthr * per_thr);
    if (!ws.get()) return dnnl_out_of_memory;
    run_grid(g.M, g.N, nthr, b,
            [&](int ithr, dim_t mb, dim_t me, dim_t nb, dim_t ne) {
                fn(g, uk, b, ws.get() + ithr * per_thr, mb, me, nb, ne);
            });
    return dnnl_success;
}

status_t gemm_s32(const gemm_s32_args_t &g) {
    if (g.M < 0 || g.N < 0 || g.K < 0) return dnnl_invalid_arguments;
    if (g.M == 0 || g.N == 0) return dnnl_success;
    if (!g.c || (g.K > 0 && (!g.a || !g.b))) return dnnl_invalid_arguments;
    if (g.bias_kind != bias_kind_t::none && !g.bias) return dnnl_invalid_arguments;
    s32_thread_f fn = nullptr;
    s32_naive_f naive = nullptr;
    if (g.a_dt == dnnl_u8)
        s32_fns_for_b<uint8_t>(g.b_dt, fn, naive);
    else if (g.a_dt == dnnl_s8)
        s32_fns_for_b<int8_t>(g.b_dt, fn, naive);
    if (!fn) return dnnl_unimplemented;

    const int nthr = effective_threads(g.M, g.N, g.K, g.parallel, g.nthr);
    if (!zp_fits_s16(g.a_dt, g.a_zp) || !zp_fits_s16(g.b_dt, g.b_zp)) {
        naive(g, nthr);
        return dnnl_success;
    }
    const s32_ukernel_desc_t &uk = select_s32_ukernel();
    const blocking_t b = make_blocking(uk, g.M, g.N, g.K, 2);
    const size_t per_thr = per_thread_bytes(b, sizeof(int16_t));
    workspace_t ws(g.workspace, nthr * per_thr);
    if (!ws.get()) return dnnl_out_of_memory;
    run_grid(g.M, g.N, nthr, b,
            [&](int ithr, dim_t mb, dim_t me, dim_t nb, dim_t ne) {
                fn(g, uk, b, ws.get() + ithr * per_thr, mb, me, nb, ne);
            });
    return dnnl_success;
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
