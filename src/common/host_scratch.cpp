// Per-thread reuse of CPU scratchpads (see host_scratch.hpp).
#include "common/host_scratch.hpp"

#include <cstdint>
#include <cstdlib>

namespace dnnl {
namespace impl {

namespace {

// The buffer a thread keeps between executions; freed when the thread ends.
struct kept_buffer_t {
    ~kept_buffer_t() { std::free(ptr); }
    void *ptr = nullptr;
    size_t bytes = 0;
};

thread_local kept_buffer_t kept;

size_t rounded(size_t bytes) {
    return (bytes + 63) / 64 * 64;
}

} // namespace

void *host_scratch_lease_t::acquire(size_t bytes) {
    if (ptr_) return bytes <= bytes_ ? ptr_ : nullptr; // one buffer a lease
    if (kept.ptr && kept.bytes >= bytes) {
        ptr_ = kept.ptr;
        bytes_ = kept.bytes;
        kept.ptr = nullptr;
        kept.bytes = 0;
        return ptr_;
    }
    // Too small to serve: let it go now rather than keep two.
    std::free(kept.ptr);
    kept.ptr = nullptr;
    kept.bytes = 0;
    if (bytes > SIZE_MAX - 63) return nullptr;
    const size_t size = rounded(bytes);
    ptr_ = size ? std::aligned_alloc(64, size) : nullptr;
    bytes_ = ptr_ ? size : 0;
    return ptr_;
}

host_scratch_lease_t::~host_scratch_lease_t() {
    if (!ptr_) return;
    if (!kept.ptr && bytes_ <= kept_bytes_max) {
        kept.ptr = ptr_;
        kept.bytes = bytes_;
    } else {
        std::free(ptr_);
    }
}

} // namespace impl
} // namespace dnnl
