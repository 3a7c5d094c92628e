// The library-owned scratchpad of a non-CPU execution, kept per stream.
//
// Making a device buffer for every execution (clCreateBuffer of the
// scratchpad's size, released after enqueueing) cost 0.05-0.1 ms per
// execution on an NVIDIA H100, as much as a whole recurrent decoder step.
// A primitive now keeps the buffer its last execution on a stream used
// and hands it to that stream's next execution: a stream runs its
// executions in order, so the next one's kernels start after the previous
// one's finished with the buffer. Other streams get buffers of their own,
// so one primitive may still run on several streams at once. The buffer
// is lent while an execution enqueues its kernels: another thread
// executing the same primitive on the same stream at that moment (its
// kernels could interleave with the first one's) gets a buffer of its own
// for that execution, as before.
//
// Streams are told apart by a number no other stream ever had (a stream
// made where a destroyed one was may share its address while the old
// queue still runs). A few streams' buffers are kept, the most recently
// used; a dropped buffer stays alive for kernels still queued on it (the
// runtime counts their references).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "common/c_types.hpp"

struct dnnl_stream;

namespace dnnl {
namespace impl {

struct memory_storage_t;

class device_scratch_cache_t {
public:
    device_scratch_cache_t();
    ~device_scratch_cache_t();
    device_scratch_cache_t(const device_scratch_cache_t &) = delete;
    device_scratch_cache_t &operator=(const device_scratch_cache_t &) = delete;

    struct entry_t;

    // The buffer of one execution: lent from the cache, or its own.
    class lease_t {
    public:
        lease_t() = default;
        ~lease_t();
        lease_t(const lease_t &) = delete;
        lease_t &operator=(const lease_t &) = delete;
        // The runtime's handle (a cl_mem for OpenCL).
        void *handle() const;

    private:
        friend class device_scratch_cache_t;
        device_scratch_cache_t *cache_ = nullptr;
        entry_t *lent_ = nullptr;
        std::unique_ptr<memory_storage_t> own_;
    };

    // A buffer of at least `bytes` on `engine` for an execution on
    // `stream`, held by `lease` until the execution has enqueued its work.
    status_t acquire(const dnnl_stream *stream, engine_t *engine, size_t bytes, lease_t &lease);

    // Buffers kept at most (streams).
    static constexpr size_t kept = 4;

private:
    void give_back(entry_t *e);
    std::mutex mutex_;
    std::vector<std::unique_ptr<entry_t>> entries_; // most recently used last
};

} // namespace impl
} // namespace dnnl
