// Device scratchpads kept per stream (see device_scratch.hpp).
#include "common/device_scratch.hpp"

#include "common/engine.hpp"
#include "common/memory_storage.hpp"
#include "common/stream.hpp"

namespace dnnl {
namespace impl {

struct device_scratch_cache_t::entry_t {
    uint64_t stream_id;
    size_t bytes;
    std::unique_ptr<memory_storage_t> buffer;
    bool lent = false;
};

device_scratch_cache_t::device_scratch_cache_t() = default;
device_scratch_cache_t::~device_scratch_cache_t() = default;

device_scratch_cache_t::lease_t::~lease_t() {
    if (lent_) cache_->give_back(lent_);
}

void *device_scratch_cache_t::lease_t::handle() const {
    return lent_ ? lent_->buffer->data_handle() : own_ ? own_->data_handle() : nullptr;
}

void device_scratch_cache_t::give_back(entry_t *e) {
    std::lock_guard<std::mutex> lock(mutex_);
    e->lent = false;
}

status_t device_scratch_cache_t::acquire(
        const dnnl_stream *stream, engine_t *engine, size_t bytes, lease_t &lease) {
    const uint64_t id = stream->unique_id();
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < entries_.size(); ++i) {
        entry_t &e = *entries_[i];
        if (e.stream_id != id) continue;
        if (e.lent) {
            // Another thread is enqueueing on this stream with it.
            return engine->create_memory_storage(lease.own_, DNNL_MEMORY_ALLOCATE, bytes);
        }
        std::unique_ptr<entry_t> moved = std::move(entries_[i]);
        entries_.erase(entries_.begin() + (std::ptrdiff_t)i);
        if (moved->bytes >= bytes) {
            moved->lent = true;
            lease.cache_ = this;
            lease.lent_ = moved.get();
            entries_.push_back(std::move(moved));
            return dnnl_success;
        }
        break; // too small: made anew below
    }
    std::unique_ptr<entry_t> e(new entry_t {id, bytes, nullptr});
    DNNL_CHECK(engine->create_memory_storage(e->buffer, DNNL_MEMORY_ALLOCATE, bytes));
    // Drop the least recently used buffer that no execution holds.
    if (entries_.size() >= kept)
        for (size_t i = 0; i < entries_.size(); ++i)
            if (!entries_[i]->lent) {
                entries_.erase(entries_.begin() + (std::ptrdiff_t)i);
                break;
            }
    e->lent = true;
    lease.cache_ = this;
    lease.lent_ = e.get();
    entries_.push_back(std::move(e));
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
