// The threading layer on OpenMP (ONEDNN_CPU_RUNTIME=OMP, the default).
#include <omp.h>

#include "cpu/threading/claims.hpp"
#include "cpu/threading/team_sync.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

// Inside a region this is the nthreads-var a nested region would be
// offered, which is the outer value unless the application changed it.
int max_threads() { return omp_get_max_threads(); }

bool in_parallel() { return omp_in_parallel() != 0; }

const char *runtime_name() { return "OpenMP"; }

// Every region gets the whole team (omp_get_max_threads()); members past
// the nthr asked for return at once. libgomp re-forms its team whenever a
// region asks for another size than the last, and on 16 cores that cost
// more than small regions do: a reorder whose padding fill took 2
// threads between regions of 16 ran 0.60 ms instead of 0.05, and a
// 150-problem suite of small primitives took 0.88x the time with the
// whole team each time (doc/performance.md).
static int whole_team(int nthr) {
    const int m = omp_get_max_threads();
    return nthr < m ? m : nthr;
}

void parallel_region(int nthr, const std::function<void(int, int)> &f) {
    if (nthr <= 1 || omp_in_parallel()) {
        f(0, 1);
        return;
    }
#pragma omp parallel num_threads(whole_team(nthr))
    {
        const int n =
                omp_get_num_threads() < nthr ? omp_get_num_threads() : nthr;
        if (omp_get_thread_num() < n) f(omp_get_thread_num(), n);
    }
}

// Items are claimed with affinity (claims.hpp). While the straggler guard
// has seen a team lose lately, the team waits for its last member asleep
// (team_sync_t) rather than in libgomp's spinning barrier; otherwise in
// libgomp's barrier alone. The caller tells the guard whether the team
// was worth it.
void parallel_claim_region(
        int nthr, dim_t n, const std::function<void(int, dim_t)> &f) {
    if (n <= 0) return;
    if (nthr > n) nthr = (int)n;
    if (nthr <= 1 || omp_in_parallel()
            || !straggler_guard_t::parallel_allowed()) {
        for (dim_t i = 0; i < n; ++i)
            f(0, i);
        return;
    }
    affine_claims_t claims(n, nthr);
    team_sync_t sync;
    const bool wary = straggler_guard_t::wary();
    int64_t idle0 = 0, done0 = 0; // the calling thread's account
    const int64_t t0 = straggler_guard_t::now_ns();
#pragma omp parallel num_threads(whole_team(nthr))
    if (omp_get_thread_num() < nthr) {
        const int ithr = omp_get_thread_num();
        int64_t done = 0;
        for (dim_t i = claims.next(ithr); i >= 0;
                i = claims.next(ithr), ++done)
            f(ithr, i);
        if (ithr == 0) {
            idle0 = straggler_guard_t::now_ns();
            done0 = done;
        }
        if (wary)
            sync.arrive_and_wait(omp_get_num_threads() < nthr
                                         ? omp_get_num_threads()
                                         : nthr);
    }
    straggler_guard_t::report(t0, idle0, straggler_guard_t::now_ns(), done0, n);
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
