// The threading layer without a runtime (ONEDNN_CPU_RUNTIME=SEQ): every
// region runs on the calling thread.
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

int max_threads() { return 1; }

bool in_parallel() { return false; }

const char *runtime_name() { return "sequential"; }

// Members run one after the other, so code that splits its work by nthr
// still covers all of it.
void parallel_region(int nthr, const std::function<void(int, int)> &f) {
    if (nthr < 1) nthr = 1;
    for (int ithr = 0; ithr < nthr; ++ithr)
        f(ithr, nthr);
}

void parallel_claim_region(
        int, dim_t n, const std::function<void(int, dim_t)> &f) {
    for (dim_t i = 0; i < n; ++i)
        f(0, i);
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
