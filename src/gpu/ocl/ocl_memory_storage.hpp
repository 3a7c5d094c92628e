// Buffer memory storage of the OpenCL engine: one cl_mem (allocated by the
// library, or a user buffer), or none. Mapping goes through a stream's
// queue, or the engine's service queue when no stream is given, and blocks.
#pragma once

#include <CL/cl.h>

#include "common/memory.hpp"
#include "common/memory_storage.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

class ocl_buffer_memory_storage_t : public memory_storage_t {
public:
    explicit ocl_buffer_memory_storage_t(engine_t *engine)
        : memory_storage_t(engine)
    {}
    ~ocl_buffer_memory_storage_t() override;

    // Creates a read-write buffer of `size` bytes in the engine's context
    // (no buffer for size 0).
    status_t allocate(size_t size);

    cl_mem mem_object() const { return mem_; }
    void *data_handle() const override { return mem_; }
    // `handle` is a cl_mem of the engine's context (retained here) or
    // null (DNNL_MEMORY_NONE) for no buffer.
    status_t set_data_handle(void *handle) override;
    status_t map_data(void **ptr, stream_t *stream, size_t size) const override;
    status_t unmap_data(void *ptr, stream_t *stream) const override;
    bool is_host_accessible() const override { return false; }
    size_t owned_size() const override { return owned_size_; }

private:
    status_t queue_for(stream_t *stream, cl_command_queue &queue) const;
    void release();

    cl_mem mem_ = nullptr;
    size_t owned_size_ = 0;
};

// The storage of a memory object of the OpenCL runtime, else null.
ocl_buffer_memory_storage_t *as_ocl_storage(const memory_t *memory);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
