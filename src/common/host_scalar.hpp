// Host-scalar memory (format kind host_scalar): one value kept inside the
// memory object itself, on no engine, passed to primitives for arguments
// their attributes declare host-side (scales and zero points set with
// is_on_host). CPU implementations read it through the host pointer like
// any one-element tensor.
#pragma once

#include <cstring>

#include "common/memory_desc.hpp"
#include "common/memory_storage.hpp"

namespace dnnl {
namespace impl {

inline bool is_host_scalar(const memory_desc_t &md) {
    return md.format_kind == dnnl_format_kind_host_scalar;
}

// The value's bytes, copied in at creation; the handle cannot be replaced.
struct host_scalar_storage_t : public memory_storage_t {
    host_scalar_storage_t(const void *value, size_t size)
        : memory_storage_t(nullptr), size_(size) {
        std::memcpy(value_, value, size);
    }
    void *data_handle() const override { return const_cast<char *>(value_); }
    status_t set_data_handle(void *) override { return dnnl_invalid_arguments; }
    status_t map_data(void **ptr, stream_t *, size_t) const override {
        *ptr = data_handle();
        return dnnl_success;
    }
    status_t unmap_data(void *, stream_t *) const override { return dnnl_success; }
    bool is_host_accessible() const override { return true; }
    size_t owned_size() const override { return 0; }
    size_t size() const { return size_; }

private:
    alignas(8) char value_[8] = {};
    size_t size_;
};

} // namespace impl
} // namespace dnnl
