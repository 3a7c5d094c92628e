// The library-owned scratchpad of a CPU execution, reused per thread.
//
// A scratchpad used to be allocated and freed around every execution. For
// the sizes convolutions and recurrent primitives ask (hundreds of KiB to
// MiB) the allocator hands out fresh mappings, so each execution paid page
// faults on memory it had just given back. Each thread now keeps the last
// buffer it used and lends it to its next execution when it is big enough.
//
// The buffer is lent, not shared: a lease takes it out of the thread's
// slot, so an execution nested inside another on the same thread (a
// primitive running a nested one) gets a buffer of its own, and one
// primitive may still run on many threads at once. Buffers above
// kept_bytes_max are not kept, so a single huge execution does not pin its
// scratchpad for the thread's life. The bound is set above the working
// copies of large training layers (a bf16 depthwise backward pass at
// mb32 x 32 x 112 x 112 asks for about 100 MiB; paying the page faults
// again on every execution took it from 9.6 to 41 ms on two cores).
#pragma once

#include <cstddef>

namespace dnnl {
namespace impl {

class host_scratch_lease_t {
public:
    host_scratch_lease_t() = default;
    ~host_scratch_lease_t();
    host_scratch_lease_t(const host_scratch_lease_t &) = delete;
    host_scratch_lease_t &operator=(const host_scratch_lease_t &) = delete;

    // At least `bytes` (64-byte aligned); null when the allocation failed.
    void *acquire(size_t bytes);

    static constexpr size_t kept_bytes_max = size_t(256) << 20;

private:
    void *ptr_ = nullptr;
    size_t bytes_ = 0;
};

} // namespace impl
} // namespace dnnl
