// Buffer memory storage of the OpenCL engine.
#include "gpu/ocl/ocl_memory_storage.hpp"

#include "common/verbose.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

ocl_buffer_memory_storage_t::~ocl_buffer_memory_storage_t()
{
    release();
}

void ocl_buffer_memory_storage_t::release()
{
    if (mem_) clReleaseMemObject(mem_);
    mem_ = nullptr;
    owned_size_ = 0;
}

status_t ocl_buffer_memory_storage_t::allocate(size_t size)
{
    release();
    if (size == 0) return dnnl_success;
    auto *engine = static_cast<ocl_engine_t *>(this->engine());
    // Some drivers create buffers beyond the device's limit and fail only
    // when they are used: a size the device cannot hold is refused here,
    // as oneDNN refuses it (out of memory).
    const size_t limit = engine->info().max_alloc_size;
    if (limit != 0 && size > limit) {
        verbose_error("ocl", "memory: %zu bytes exceed the device's largest "
                             "allocation (%zu)", size, limit);
        return dnnl_out_of_memory;
    }
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(
            engine->context(), CL_MEM_READ_WRITE, size, nullptr, &err);
    OCL_CHECK(err);
    mem_ = mem;
    owned_size_ = size;
    return dnnl_success;
}

status_t ocl_buffer_memory_storage_t::set_data_handle(void *handle)
{
    cl_mem mem = static_cast<cl_mem>(handle);
    if (mem) {
        auto *engine = static_cast<ocl_engine_t *>(this->engine());
        cl_context ctx = nullptr;
        cl_mem_object_type type = 0;
        if (get_info(clGetMemObjectInfo, mem, CL_MEM_CONTEXT, ctx) != CL_SUCCESS
                || get_info(clGetMemObjectInfo, mem, CL_MEM_TYPE, type)
                           != CL_SUCCESS) {
            verbose_error("ocl", "memory: the handle is not a valid cl_mem");
            return dnnl_invalid_arguments;
        }
        if (type != CL_MEM_OBJECT_BUFFER) {
            verbose_error("ocl", "memory: the cl_mem is not a buffer");
            return dnnl_invalid_arguments;
        }
        if (ctx != engine->context()) {
            verbose_error("ocl",
                    "memory: the cl_mem belongs to another context than the "
                    "engine");
            return dnnl_invalid_arguments;
        }
        OCL_CHECK(clRetainMemObject(mem));
    }
    release();
    mem_ = mem;
    return dnnl_success;
}

status_t ocl_buffer_memory_storage_t::queue_for(
        stream_t *stream, cl_command_queue &queue) const
{
    auto *engine = static_cast<ocl_engine_t *>(this->engine());
    if (!stream) {
        queue = engine->service_queue();
        return dnnl_success;
    }
    ocl_stream_t *s = as_ocl_stream(stream);
    if (!s || as_ocl_engine(s->engine())->context() != engine->context()) {
        verbose_error(
                "ocl", "memory: the stream is not on the memory's engine");
        return dnnl_invalid_arguments;
    }
    queue = s->queue();
    return dnnl_success;
}

status_t ocl_buffer_memory_storage_t::map_data(
        void **ptr, stream_t *stream, size_t size) const
{
    if (!ptr) return dnnl_invalid_arguments;
    *ptr = nullptr;
    if (!mem_ || size == 0) return dnnl_success;
    size_t mem_size = 0;
    OCL_CHECK(get_info(clGetMemObjectInfo, mem_, CL_MEM_SIZE, mem_size));
    if (mem_size < size) {
        verbose_error("ocl",
                "memory: the buffer holds %zu bytes, the descriptor needs %zu",
                mem_size, size);
        return dnnl_invalid_arguments;
    }
    cl_command_queue queue = nullptr;
    DNNL_CHECK(queue_for(stream, queue));
    cl_int err = CL_SUCCESS;
    void *p = clEnqueueMapBuffer(queue, mem_, CL_TRUE,
            CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, nullptr, nullptr, &err);
    OCL_CHECK(err);
    *ptr = p;
    return dnnl_success;
}

status_t ocl_buffer_memory_storage_t::unmap_data(
        void *ptr, stream_t *stream) const
{
    if (!ptr) return dnnl_success;
    if (!mem_) return dnnl_invalid_arguments;
    cl_command_queue queue = nullptr;
    DNNL_CHECK(queue_for(stream, queue));
    cl_event done = nullptr;
    OCL_CHECK(clEnqueueUnmapMemObject(queue, mem_, ptr, 0, nullptr, &done));
    cl_int err = clWaitForEvents(1, &done);
    clReleaseEvent(done);
    OCL_CHECK(err);
    return dnnl_success;
}

ocl_buffer_memory_storage_t *as_ocl_storage(const memory_t *memory)
{
    if (!memory || !memory->engine() || !memory->storage()
            || memory->engine()->runtime_kind() != runtime_kind_t::ocl)
        return nullptr;
    return static_cast<ocl_buffer_memory_storage_t *>(memory->storage());
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
