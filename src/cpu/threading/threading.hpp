// The CPU threading layer: the only interface through which kernels run
// in parallel. The runtime behind it (OpenMP, TBB or none, chosen at build
// time by ONEDNN_CPU_RUNTIME) is reached from runtime_<name>.cpp alone.
//
// Two shapes of parallel region:
// - parallel(nthr, f): f(ithr, nthr) once per team member, for code that
//   splits its work statically (balance) or keeps per-thread buffers;
// - parallel_claim(nthr, n, f): items [0, n) claimed one at a time, each
//   thread from its own contiguous block first (claims.hpp), so a thread
//   keeps the same items from call to call on an idle machine, and one the
//   system deschedules on a busy machine leaves its remaining items to the
//   others. This is the shape to prefer; parallel_chunks and parallel_nd
//   are built on it.
// Neither may wait for a teammate inside f: under TBB the members of a
// team are tasks that need not run at the same time.
#pragma once

#include <functional>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

// Threads a parallel region started from outside any region gets (the
// runtime's limit; 1 without a runtime), the same inside a region as
// outside: primitives plan their buffers and key the primitive cache by
// it wherever they are created, as oneDNN does. A region inside a region
// runs on the caller alone whatever it asks (parallel, parallel_claim).
int max_threads();
// Whether the calling thread runs inside a parallel region.
bool in_parallel();
// The runtime's name ("OpenMP", "TBB", "sequential").
const char *runtime_name();

// The runtime's regions behind parallel and parallel_claim (runtime_*.cpp),
// for teams of two or more.
void parallel_region(int nthr, const std::function<void(int, int)> &f);
void parallel_claim_region(
        int nthr, dim_t n, const std::function<void(int, dim_t)> &f);

// Calls f(ithr, nthr) for every ithr of a team of nthr members (nthr <= 1:
// on the calling thread). nthr seen by f may be smaller than asked (the
// runtime's limit); the caller's thread is member 0. A team of one calls
// f directly: wrapping it in a std::function allocated its captures on
// every call of a small primitive.
template <typename F>
void parallel(int nthr, F &&f) {
    if (nthr <= 1) {
        f(0, 1);
        return;
    }
    parallel_region(nthr, f);
}

// Calls f(ithr, item) for every item of [0, n), items claimed dynamically
// by up to nthr threads (ithr < nthr names the thread's buffers), each
// from its own block of [0, n) first, then from the others'. While
// the machine is found oversubscribed (see team_sync.hpp) the calling
// thread does every item itself.
template <typename F>
void parallel_claim(int nthr, dim_t n, F &&f) {
    if (n <= 0) return;
    if (nthr <= 1 || n == 1) {
        for (dim_t i = 0; i < n; ++i)
            f(0, i);
        return;
    }
    parallel_claim_region(nthr, n, f);
}

// [start, end) of part ithr when [0, n) is cut into nthr near-equal
// contiguous parts; with `align`, part boundaries are multiples of it.
inline void balance(dim_t n, int nthr, int ithr, dim_t &start, dim_t &end,
        dim_t align = 1) {
    const dim_t units = (n + align - 1) / align;
    const dim_t base = units / nthr, rem = units % nthr;
    const dim_t s = ithr * base + (ithr < rem ? ithr : rem);
    const dim_t e = s + base + (ithr < rem ? 1 : 0);
    start = s * align < n ? s * align : n;
    end = e * align < n ? e * align : n;
}

// Threads worth using for `work` units when each thread should get at
// least `min_per_thread` of them: small problems run on the caller.
inline int nthr_for(dim_t work, dim_t min_per_thread) {
    if (work <= min_per_thread) return 1;
    const int max = max_threads();
    const dim_t want = (work + min_per_thread - 1) / min_per_thread;
    return want < max ? (int)want : max;
}

// Calls f(ithr, begin, end) for consecutive chunks of [0, units), about
// `per_thread` chunks per thread, claimed dynamically.
template <typename F>
void parallel_chunks(int nthr, dim_t units, F f, int per_thread = 8) {
    if (units <= 0) return;
    if (nthr <= 1 || units == 1) {
        f(0, (dim_t)0, units);
        return;
    }
    const dim_t nchunks = units < (dim_t)nthr * per_thread
            ? units
            : (dim_t)nthr * per_thread;
    parallel_claim(nthr, nchunks, [&](int ithr, dim_t c) {
        dim_t b, e;
        balance(units, (int)nchunks, (int)c, b, e);
        f(ithr, b, e);
    });
}

// f(i) for i in [0, n) (or f(i, j) over [0, n0) x [0, n1)), in chunks
// claimed dynamically when the work is worth more than one thread;
// `min_per_thread` counts index points.
template <typename F>
void parallel_nd(dim_t n, F f, dim_t min_per_thread = 1) {
    parallel_chunks(nthr_for(n, min_per_thread), n,
            [&](int, dim_t b, dim_t e) {
                for (dim_t i = b; i < e; ++i)
                    f(i);
            });
}

template <typename F>
void parallel_nd(dim_t n0, dim_t n1, F f, dim_t min_per_thread = 1) {
    if (n0 <= 0 || n1 <= 0) return;
    parallel_chunks(nthr_for(n0 * n1, min_per_thread), n0 * n1,
            [&](int, dim_t b, dim_t e) {
                for (dim_t k = b; k < e; ++k)
                    f(k / n1, k % n1);
            });
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
