// The loop nest shared by every flavour of the GEMM core (f32, bf16
// pairs, int16 pairs, u8 x s8 quads): block sizes, packing workspaces,
// the split of C over threads and the cache-blocked walk over one
// thread's part. The flavours plug in through an "ops" type (see
// gemm_block); gemm_driver.cpp and gemm_s32c4.cpp hold them.
#pragma once

#include <algorithm>
#include <cstdlib>

#include "common/c_types.hpp"
#include "common/utils.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {
namespace loops {

inline dim_t div_up(dim_t a, dim_t b) { return (a + b - 1) / b; }
inline dim_t rnd_up(dim_t a, dim_t b) { return div_up(a, b) * b; }

// Number of threads worth using for an M x N x K problem.
inline int effective_threads(dim_t M, dim_t N, dim_t K, bool parallel, int nthr) {
    if (!parallel || in_parallel()) return 1;
    if (nthr <= 0) nthr = max_threads();
    const double work = (double)M * (double)N * (double)std::max<dim_t>(K, 1);
    const double per_thread_min = 64.0 * 1024;
    // (Clamped before the conversion: a descriptor's problem may be far
    // past INT_MAX units of work.)
    const double by_work = std::max(1.0, work / per_thread_min);
    return std::max(1, (int)std::min((double)nthr, by_work));
}

// Block sizes for a problem: never larger than the problem itself.
struct blocking_t {
    int mr, nr;
    dim_t mc, kc, nc;
    dim_t kunit; // 2 for int16 pairs, 4 for byte quads
    size_t b_extra = 0; // bytes after each thread's B block (column sums)
    // K in segments of kseg rows that no K block straddles (0: one
    // segment), for a B pre-packed segment by segment.
    dim_t kseg = 0;
};

template <typename desc_t>
blocking_t make_blocking(const desc_t &d, dim_t M, dim_t N, dim_t K, dim_t kunit) {
    blocking_t b;
    b.mr = d.mr;
    b.nr = d.nr;
    b.kunit = kunit;
    // Balance the M blocks so the last one is not tiny: a block may exceed
    // d.mc by a quarter rather than leave a sliver of rows that would
    // stream all of B again (M = 128 with mc = 120 ran as 120 + 8).
    const dim_t mm = std::max<dim_t>(M, 1);
    const dim_t nmb = div_up(mm, d.mc + d.mc / 4);
    b.mc = rnd_up(div_up(mm, nmb), d.mr);
    b.nc = std::min(d.nc, rnd_up(std::max<dim_t>(N, 1), d.nr));
    // Balance the K blocks so the last one is not tiny.
    const dim_t kk = std::max<dim_t>(K, 1);
    const dim_t nkb = div_up(kk, d.kc);
    b.kc = rnd_up(div_up(kk, nkb), kunit);
    return b;
}

// K blocks that restart at every kseg rows: balanced within a segment,
// never longer than before.
inline void fit_k_segments(blocking_t &b, dim_t kseg) {
    if (kseg <= 0) return;
    const dim_t nkb = div_up(kseg, b.kc);
    b.kc = rnd_up(div_up(kseg, nkb), b.kunit);
    b.kseg = kseg;
}

// Workspace layout: one B block and one A block per thread.
inline size_t b_block_bytes(const blocking_t &b, size_t elt) {
    return align64((size_t)b.kc * b.nc * elt) + align64(b.b_extra);
}
inline size_t a_block_bytes(const blocking_t &b, size_t elt) {
    return align64((size_t)b.mc * b.kc * elt);
}
inline size_t workspace_bytes(const blocking_t &b, size_t elt, int nthr) {
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
inline void thread_grid(dim_t M, dim_t N, int nthr, int mr, int nr, int &tm, int &tn) {
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
inline void split(dim_t n, int parts, int i, dim_t unit, dim_t &beg, dim_t &end) {
    const dim_t units = div_up(n, unit);
    const dim_t base = units / parts, rem = units % parts;
    const dim_t ub = i * base + std::min<dim_t>(i, rem);
    const dim_t ue = ub + base + (i < rem ? 1 : 0);
    beg = std::min(n, ub * unit);
    end = std::min(n, ue * unit);
}

// The loop nest over one thread's block [m0, m1) x [n0, n1) of C: N block
// -> K block (pack B) -> M block (pack A) -> NR panels -> MR panels. ops_t
// provides packed_t, pack_a, pack_b, b_at (the B panel a kernel reads:
// the packed block, or the caller's pre-packed B), kernel, zero_k (C for
// K == 0) and finish (bias + post hook; it also gets the B block, whose
// extra bytes may carry data gathered while packing).
template <typename ops_t>
void gemm_block(const ops_t &op, const blocking_t &b, dim_t K, char *ws,
        dim_t m0, dim_t m1, dim_t n0, dim_t n1) {
    using P = typename ops_t::packed_t;
    P *bp = (P *)ws;
    P *ap = (P *)(ws + b_block_bytes(b, sizeof(P)));
    // K blocks: nkb_seg per segment of `seg` rows (one segment: all of K).
    const dim_t seg = b.kseg > 0 ? b.kseg : K;
    const dim_t nkb_seg = K > 0 ? div_up(seg, b.kc) : 1;
    const dim_t nkb = K > 0 ? K / seg * nkb_seg : 1;
    for (dim_t jc = n0; jc < n1; jc += b.nc) {
        const dim_t nc = std::min(b.nc, n1 - jc);
        for (dim_t kb = 0; kb < nkb; ++kb) {
            const dim_t in_seg = kb % nkb_seg * b.kc;
            const dim_t pc = kb / nkb_seg * seg + in_seg;
            const dim_t kc = K > 0 ? std::min(b.kc, seg - in_seg) : 0;
            const dim_t pk = rnd_up(kc, b.kunit);
            const bool first = kb == 0, last = kb == nkb - 1;
            if (kc > 0) op.pack_b(pc, jc, kc, nc, bp);
            for (dim_t ic = m0; ic < m1; ic += b.mc) {
                const dim_t mc = std::min(b.mc, m1 - ic);
                if (kc > 0) {
                    op.pack_a(ic, pc, mc, kc, ap);
                    for (dim_t jr = 0; jr < nc; jr += b.nr) {
                        // The next panel, prefetched by the kernels.
                        const P *next = jr + b.nr < nc
                                ? op.b_at(bp, pc, jc, jr + b.nr, pk)
                                : nullptr;
                        for (dim_t ir = 0; ir < mc; ir += b.mr)
                            op.kernel(kc, ap + ir * pk,
                                    op.b_at(bp, pc, jc, jr, pk), ic + ir,
                                    jc + jr, std::min<dim_t>(b.mr, mc - ir),
                                    std::min<dim_t>(b.nr, nc - jr), first, next);
                    }
                } else {
                    op.zero_k(ic, jc, mc, nc);
                }
                if (last) op.finish(ic, jc, mc, nc, bp);
            }
        }
    }
}

// Tiles per thread: C is cut into nthr * tiles_per_thread equal tiles that
// the threads claim one at a time, so that a thread the system deschedules
// on a busy machine leaves its remaining tiles to the others instead of
// holding up the whole call. On an idle machine every thread still takes
// the same number of equal tiles. Each tile repacks its A and B blocks, so
// tiles stay large: at least ~2^22 multiply-adds each (about 20 us).
inline int tiles_per_thread(dim_t M, dim_t N, dim_t K, int nthr) {
    const double work = (double)M * (double)N * (double)std::max<dim_t>(K, 1);
    const double min_tile = double(1 << 22);
    for (int f = 4; f > 1; f /= 2)
        if (work >= min_tile * f * nthr) return f;
    return 1;
}

// Splits C into tiles claimed dynamically by a team of threads
// (parallel_claim), each running gemm_block on its tiles with its own
// packing buffers.
template <typename ops_t>
void run_gemm(const ops_t &op, const blocking_t &b, dim_t M, dim_t N, dim_t K,
        int nthr, char *ws) {
    using P = typename ops_t::packed_t;
    const size_t per_thr = b_block_bytes(b, sizeof(P)) + a_block_bytes(b, sizeof(P));
    if (nthr == 1) {
        gemm_block(op, b, K, ws, 0, M, 0, N);
        return;
    }
    const int ntiles = nthr * tiles_per_thread(M, N, K, nthr);
    int tm, tn;
    thread_grid(M, N, ntiles, b.mr, b.nr, tm, tn);
    // Consecutive tiles share an M range, so a thread that takes two in a
    // row reads the same rows of A.
    parallel_claim(nthr, (dim_t)tm * tn, [&](int ithr, dim_t t) {
        dim_t mb, me, nb, ne;
        split(M, tm, (int)(t / tn), b.mr, mb, me);
        split(N, tn, (int)(t % tn), b.nr, nb, ne);
        if (mb < me && nb < ne)
            gemm_block(op, b, K, ws + ithr * per_thr, mb, me, nb, ne);
    });
}

} // namespace loops
} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
