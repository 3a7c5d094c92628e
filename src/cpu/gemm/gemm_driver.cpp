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

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

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

// Block sizes for a problem: never larger than the problem itself.
struct blocking_t {
    int mr, nr;
    dim_t mc, kc, nc;
    dim_t kunit; // 2 for int16 pairs
};

template <typename desc_t>
blocking_t make_blocking(const desc_t &d, dim_t M, dim_t N, dim_t K, dim_t kunit) {
    blocking_t b;
    b.mr = d.mr;
    b.nr = d.nr;
    b.kunit = kunit;
    b.mc = std::min(d.mc, rnd_up(std::max<dim_t>(M, 1), d.mr));
    b.nc = std::min(d.nc, rnd_up(std::max<dim_t>(N, 1), d.nr));
    // Balance the K blocks so the last one is not tiny.
    const dim_t kk = std::max<dim_t>(K, 1);
    const dim_t nkb = div_up(kk, d.kc);
    b.kc = rnd_up(div_up(kk, nkb), kunit);
    return b;
}

// Workspace layout: one B block and one A block per thread.
size_t b_block_bytes(const blocking_t &b, size_t elt) {
    return align64((size_t)b.kc * b.nc * elt);
}
size_t a_block_bytes(const blocking_t &b, size_t elt) {
    return align64((size_t)b.mc * b.kc * elt);
}
size_t workspace_bytes(const blocking_t &b, size_t elt, int nthr) {
    return nthr * (b_block_bytes(b, elt) + a_block_bytes(b, elt));
}

// Packing buffers when the caller gave no workspace: a per-thread cache
// that grows to the largest size used (up to 64 MiB), so repeated calls do
// not map and fault in fresh pages every time; a nested call (from a post
// hook) or a larger need gets its own allocation.
struct workspace_t {
    workspace_t(void *given, size_t bytes) : ptr_((char *)given) {
        if (ptr_ || !bytes) return;
        cache_t &c = cache();
        const size_t max_cached = size_t(64) << 20;
        if (!c.busy && bytes <= max_cached) {
            if (c.size < bytes) {
                std::free(c.ptr);
                c.ptr = (char *)std::aligned_alloc(64, align64(bytes));
                c.size = c.ptr ? bytes : 0;
            }
            if (c.ptr) {
                c.busy = true;
                cached_ = true;
                ptr_ = c.ptr;
                return;
            }
        }
        owned_ = (char *)std::aligned_alloc(64, align64(bytes));
        ptr_ = owned_;
    }
    ~workspace_t() {
        std::free(owned_);
        if (cached_) cache().busy = false;
    }
    char *get() const { return ptr_; }

private:
    struct cache_t {
        char *ptr = nullptr;
        size_t size = 0;
        bool busy = false;
        ~cache_t() { std::free(ptr); }
    };
    static cache_t &cache() {
        thread_local cache_t c;
        return c;
    }
    char *ptr_ = nullptr;
    char *owned_ = nullptr;
    bool cached_ = false;
};

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

// The loop nest over one thread's block [m0, m1) x [n0, n1) of C: N block
// -> K block (pack B) -> M block (pack A) -> NR panels -> MR panels. ops_t
// provides packed_t, pack_a, pack_b, kernel, zero_k (C for K == 0) and
// finish (bias + post hook).
template <typename ops_t>
void gemm_block(const ops_t &op, const blocking_t &b, dim_t K, char *ws,
        dim_t m0, dim_t m1, dim_t n0, dim_t n1) {
    using P = typename ops_t::packed_t;
    P *bp = (P *)ws;
    P *ap = (P *)(ws + b_block_bytes(b, sizeof(P)));
    const dim_t nkb = K > 0 ? div_up(K, b.kc) : 1;
    for (dim_t jc = n0; jc < n1; jc += b.nc) {
        const dim_t nc = std::min(b.nc, n1 - jc);
        for (dim_t kb = 0; kb < nkb; ++kb) {
            const dim_t pc = kb * b.kc;
            const dim_t kc = K > 0 ? std::min(b.kc, K - pc) : 0;
            const dim_t pk = rnd_up(kc, b.kunit);
            const bool first = kb == 0, last = kb == nkb - 1;
            if (kc > 0) op.pack_b(pc, jc, kc, nc, bp);
            for (dim_t ic = m0; ic < m1; ic += b.mc) {
                const dim_t mc = std::min(b.mc, m1 - ic);
                if (kc > 0) {
                    op.pack_a(ic, pc, mc, kc, ap);
                    for (dim_t jr = 0; jr < nc; jr += b.nr)
                        for (dim_t ir = 0; ir < mc; ir += b.mr)
                            op.kernel(kc, ap + ir * pk, bp + jr * pk, ic + ir,
                                    jc + jr, std::min<dim_t>(b.mr, mc - ir),
                                    std::min<dim_t>(b.nr, nc - jr), first);
                } else {
                    op.zero_k(ic, jc, mc, nc);
                }
                if (last) op.finish(ic, jc, mc, nc);
            }
        }
    }
}

// Splits C over a grid of threads, each running gemm_block on its part
// with its own packing buffers (no synchronisation until the end).
template <typename ops_t>
void run_gemm(const ops_t &op, const blocking_t &b, dim_t M, dim_t N, dim_t K,
        int nthr, char *ws) {
    using P = typename ops_t::packed_t;
    const size_t per_thr = b_block_bytes(b, sizeof(P)) + a_block_bytes(b, sizeof(P));
    if (nthr == 1) {
        gemm_block(op, b, K, ws, 0, M, 0, N);
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
            if (mb < me && nb < ne)
                gemm_block(op, b, K, ws + ithr * per_thr, mb, me, nb, ne);
        }
    }
}

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
        pack_b_f32((const TB *)g.b + pc * g.b_rs + jc * g.b_cs, g.b_rs, g.b_cs,
                kc, nc, uk.nr, buf);
    }
    void kernel(dim_t kc, const float *a, const float *b, dim_t i, dim_t j,
            dim_t m, dim_t n, bool first) const {
        uk.fn(kc, a, b, c_at(i, j), g.ldc, m, n, g.alpha, first ? g.beta : 1.f);
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
    void kernel(dim_t kc, const int16_t *a, const int16_t *b, dim_t i, dim_t j,
            dim_t m, dim_t n, bool first) const {
        uk.fn((kc + 1) / 2, a, b, out.c_at(i, j), g.ldc, m, n, g.alpha,
                first ? g.beta : 1.f);
    }
    void zero_k(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
        out.zero_k(i0, j0, m, n);
    }
    void finish(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
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
    void kernel(dim_t kc, const int16_t *a, const int16_t *b, dim_t i, dim_t j,
            dim_t m, dim_t n, bool first) const {
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
};

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
            int32_t r = (int32_t)(uint32_t)(uint64_t)s;
            if (g.accumulate) r = wrap_add(r, g.c[i * g.ldc + j]);
            if (g.bias_kind == bias_kind_t::per_row) r = wrap_add(r, g.bias[i]);
            if (g.bias_kind == bias_kind_t::per_col) r = wrap_add(r, g.bias[j]);
            g.c[i * g.ldc + j] = r;
        }
        if (g.post) g.post(i, 0, 1, g.N, g.c + i * g.ldc, g.ldc);
    }
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
// streamed once (GEMV-like shapes: batch-1 inference). Threads split N.
bool small_m_ok(const gemm_f32_args_t &g) {
    const bool exact_inputs = g.fpmath == dnnl_fpmath_mode_strict
            || g.fpmath == dnnl_fpmath_mode_any;
    return g.a_dt == dnnl_f32 && g.b_dt == dnnl_f32 && exact_inputs && g.M <= 4
            && g.K > 0 && (g.b_cs == 1 || (g.b_rs == 1 && g.a_cs == 1));
}

void run_small_m(const gemm_f32_args_t &g, int nthr) {
    const f32_gemv_desc_t &kd = select_f32_gemv();
    const f32_ops_t<float, float> op {g, select_f32_ukernel()};
    const bool n_form = g.b_cs == 1;
    const dim_t unit = n_form ? 64 : 8;
    auto part = [&](dim_t j0, dim_t j1) {
        if (j0 >= j1) return;
        const float *a = (const float *)g.a;
        const float *b = (const float *)g.b;
        if (n_form)
            kd.n[g.M - 1](j1 - j0, g.K, g.alpha, a, g.a_rs, g.a_cs, b + j0,
                    g.b_rs, g.beta, g.c + j0, g.ldc);
        else
            kd.t[g.M - 1](j1 - j0, g.K, g.alpha, a, g.a_rs, b + j0 * g.b_cs,
                    g.b_cs, g.beta, g.c + j0, g.ldc);
        op.finish(0, j0, g.M, j1 - j0);
    };
    if (nthr == 1) {
        part(0, g.N);
        return;
    }
#pragma omp parallel num_threads(nthr)
    {
        dim_t j0, j1;
        split(g.N, omp_get_num_threads(), omp_get_thread_num(), unit, j0, j1);
        part(j0, j1);
    }
}

} // namespace

size_t gemm_workspace_size(
        dim_t M, dim_t N, dim_t K, bool is_int, bool parallel, int nthr) {
    const int nt = effective_threads(M, N, K, parallel, nthr);
    if (is_int)
        return workspace_bytes(make_blocking(select_s32_ukernel(), M, N, K, 2),
                sizeof(int16_t), nt);
    size_t bytes = workspace_bytes(
            make_blocking(select_f32_ukernel(), M, N, K, 1), sizeof(float), nt);
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
const char *s32_kernel_name() { return select_s32_ukernel().name; }

status_t gemm_f32(const gemm_f32_args_t &g) {
    if (g.M < 0 || g.N < 0 || g.K < 0) return dnnl_invalid_arguments;
    if (g.M == 0 || g.N == 0) return dnnl_success;
    if (!g.c || (g.K > 0 && (!g.a || !g.b))) return dnnl_invalid_arguments;
    if (g.bias_kind != bias_kind_t::none && !g.bias) return dnnl_invalid_arguments;
    const f32_run_f fn = f32_run_for(g.a_dt, g.b_dt, g.fpmath);
    if (!fn) return dnnl_unimplemented;

    const int nthr = effective_threads(g.M, g.N, g.K, g.parallel, g.nthr);
    if (small_m_ok(g)) {
        run_small_m(g, nthr);
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
    const blocking_t b = make_blocking(uk, g.M, g.N, g.K, 1);
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
