// How the members of a parallel_claim team claim items (runtime_omp.cpp,
// runtime_tbb.cpp): with affinity. Items [0, n) are cut into one
// contiguous block per member (balance); member t claims the items of its
// own block in order, then, once it is empty, what is left of the others'
// blocks. On an idle machine every call gives a member the same items, so
// a memory-bound family whose per-thread share fits a core's caches finds
// it there on the next call (layer norm forward, doc/performance.md); a
// member the system deschedules still leaves its remaining items to the
// others, which take them one at a time at the end.
#pragma once

#include <atomic>
#include <memory>

#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

class affine_claims_t {
public:
    affine_claims_t(dim_t n, int nthr)
        : nthr_(nthr), blocks_(new block_t[(size_t)nthr]) {
        for (int t = 0; t < nthr; ++t) {
            dim_t b, e;
            balance(n, nthr, t, b, e);
            blocks_[t].next.store(b, std::memory_order_relaxed);
            blocks_[t].end = e;
        }
    }

    // The next item for member ithr (ithr < nthr), or -1 when every block
    // is empty.
    dim_t next(int ithr) {
        for (int d = 0; d < nthr_; ++d) {
            block_t &b = blocks_[(ithr + d) % nthr_];
            if (b.next.load(std::memory_order_relaxed) >= b.end) continue;
            const dim_t i = b.next.fetch_add(1, std::memory_order_relaxed);
            if (i < b.end) return i;
        }
        return -1;
    }

private:
    // One cache line per block: members claiming from their own blocks
    // do not share lines.
    struct alignas(64) block_t {
        std::atomic<dim_t> next {0};
        dim_t end = 0;
    };
    int nthr_;
    std::unique_ptr<block_t[]> blocks_;
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
