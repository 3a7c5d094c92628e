// memory_storage_t: the buffer behind a memory object, per runtime (host
// pointer on CPU, cl_mem on OpenCL).
#pragma once

#include "common/engine.hpp"

namespace dnnl {
namespace impl {

struct memory_storage_t {
    explicit memory_storage_t(engine_t *engine) : engine_(engine) {}
    virtual ~memory_storage_t() = default;

    engine_t *engine() const { return engine_; }
    // Host pointer (CPU) or runtime handle (cl_mem); null when empty.
    virtual void *data_handle() const = 0;
    virtual status_t set_data_handle(void *handle) = 0;
    // Makes the data host-accessible for `size` bytes; CPU storage returns
    // its pointer.
    virtual status_t map_data(void **ptr, stream_t *stream, size_t size) const = 0;
    virtual status_t unmap_data(void *ptr, stream_t *stream) const = 0;
    virtual bool is_host_accessible() const = 0;
    // Bytes the library allocated itself (0 for a user buffer).
    virtual size_t owned_size() const = 0;

private:
    engine_t *engine_; // not owned: the memory object keeps the engine alive
};

} // namespace impl
} // namespace dnnl
