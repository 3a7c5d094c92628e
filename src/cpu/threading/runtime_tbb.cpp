// The threading layer on oneTBB (ONEDNN_CPU_RUNTIME=TBB). A team of nthr
// is nthr tasks of one parallel_for; TBB's workers steal tasks, so a
// descheduled worker holds up nobody for long and idle workers sleep
// after a short spin.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "cpu/threading/claims.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

namespace {
// Depth of this layer's regions on the calling thread: a nested region
// runs inline (TBB could nest, but the callers size buffers by nthr).
thread_local int region_depth = 0;

struct region_scope_t {
    region_scope_t() { ++region_depth; }
    ~region_scope_t() { --region_depth; }
};
} // namespace

int max_threads() { return tbb::this_task_arena::max_concurrency(); }

bool in_parallel() { return region_depth > 0; }

const char *runtime_name() { return "TBB"; }

void parallel_region(int nthr, const std::function<void(int, int)> &f) {
    if (nthr <= 1 || region_depth > 0) {
        f(0, 1);
        return;
    }
    tbb::parallel_for(
            0, nthr,
            [&](int ithr) {
                region_scope_t scope;
                f(ithr, nthr);
            },
            tbb::static_partitioner());
}

// Each of the nthr tasks claims items until none is left, its own block
// first (claims.hpp): a task that starts late (its worker was busy) finds
// its block taken by the others, possibly all of it.
void parallel_claim_region(
        int nthr, dim_t n, const std::function<void(int, dim_t)> &f) {
    if (n <= 0) return;
    if (nthr > n) nthr = (int)n;
    affine_claims_t claims(n, nthr);
    parallel(nthr, [&](int ithr, int) {
        for (dim_t i = claims.next(ithr); i >= 0; i = claims.next(ithr))
            f(ithr, i);
    });
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
