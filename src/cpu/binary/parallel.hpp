// Threading helper of the tensor-wide primitives: [0, units) cut into
// chunks that the threads take one at a time, so a thread that falls
// behind (descheduled on a busy machine, slower chunks) takes fewer.
#pragma once

#include <omp.h>

#include <atomic>

#include "common/c_types.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

// Calls f(ithr, begin, end) for consecutive chunks of [0, units), about
// `per_thread` chunks per thread; ithr < nthr identifies the calling
// thread (for per-thread buffers).
template <typename F>
void parallel_chunks(int nthr, dim_t units, F f, int per_thread = 8) {
    if (units <= 0) return;
    if (nthr <= 1 || units == 1) {
        f(0, (dim_t)0, units);
        return;
    }
    const dim_t nchunks =
            units < (dim_t)nthr * per_thread ? units : (dim_t)nthr * per_thread;
    std::atomic<dim_t> next(0);
#pragma omp parallel num_threads(nthr)
    {
        const int ithr = omp_get_thread_num();
        for (dim_t c = next.fetch_add(1); c < nchunks; c = next.fetch_add(1)) {
            dim_t b, e;
            eltwise::balance(units, (int)nchunks, (int)c, b, e);
            f(ithr, b, e);
        }
    }
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
