// The OpenCL engine: creation on an enumerated device or a user's device
// and context, its streams and its memory storage.
#include "gpu/ocl/ocl_engine.hpp"

#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "common/op_desc.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_disk_programs.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_memory_storage.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

ocl_engine_t::ocl_engine_t(
        cl_device_id device, cl_context context, size_t index)
    : engine_t(dnnl_gpu, runtime_kind_t::ocl, index), device_(device),
      context_(context)
{
    clRetainDevice(device_);
    clRetainContext(context_);
}

ocl_engine_t::~ocl_engine_t()
{
    disk_programs_save(this);
    if (service_queue_) clReleaseCommandQueue(service_queue_);
    if (uses_default_context_) release_default_context(device_, context_);
    clReleaseContext(context_);
    clReleaseDevice(device_);
}

// True when `context` is a valid context that contains `device`.
static bool context_has_device(cl_context context, cl_device_id device)
{
    size_t bytes = 0;
    if (clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &bytes)
                    != CL_SUCCESS
            || bytes == 0)
        return false;
    std::vector<cl_device_id> devices(bytes / sizeof(cl_device_id));
    if (clGetContextInfo(
                context, CL_CONTEXT_DEVICES, bytes, devices.data(), nullptr)
            != CL_SUCCESS)
        return false;
    for (cl_device_id d : devices)
        if (d == device) return true;
    return false;
}

status_t ocl_engine_t::create(engine_t **engine, cl_device_id device,
        cl_context context, size_t index, bool is_default_context)
{
    if (!engine || !device || !context) return dnnl_invalid_arguments;
    cl_device_type type = 0;
    if (get_info(clGetDeviceInfo, device, CL_DEVICE_TYPE, type) != CL_SUCCESS) {
        verbose_error("ocl", "engine: the device is not a valid cl_device_id");
        return dnnl_invalid_arguments;
    }
    if (!context_has_device(context, device)) {
        verbose_error("ocl",
                "engine: the context is invalid or does not hold the device");
        return dnnl_invalid_arguments;
    }
    const device_info_t *info = nullptr;
    DNNL_CHECK(get_device_info(device, info));
    ocl_engine_t *e = new (std::nothrow) ocl_engine_t(device, context, index);
    if (!e) return dnnl_out_of_memory;
    e->info_ = info;
    cl_int err = CL_SUCCESS;
    e->service_queue_ = clCreateCommandQueue(context, device, 0, &err);
    if (err != CL_SUCCESS) {
        e->service_queue_ = nullptr;
        e->release();
        return check_cl(err, "clCreateCommandQueue");
    }
    // Only now: a failed engine leaves the registration to its caller.
    e->uses_default_context_ = is_default_context;
    disk_programs_load(e);
    *engine = e;
    return dnnl_success;
}

status_t ocl_engine_t::create_stream(stream_t **stream, unsigned flags)
{
    cl_int err = CL_SUCCESS;
    const cl_command_queue_properties props
            = (flags & dnnl_stream_profiling) ? CL_QUEUE_PROFILING_ENABLE : 0;
    cl_command_queue queue
            = clCreateCommandQueue(context_, device_, props, &err);
    OCL_CHECK(err);
    *stream = new (std::nothrow) ocl_stream_t(this, flags, queue);
    if (!*stream) {
        clReleaseCommandQueue(queue);
        return dnnl_out_of_memory;
    }
    return dnnl_success;
}

status_t ocl_engine_t::create_stream(stream_t **stream, cl_command_queue queue)
{
    if (!stream || !queue) return dnnl_invalid_arguments;
    cl_context ctx = nullptr;
    cl_device_id dev = nullptr;
    cl_command_queue_properties props = 0;
    if (get_info(clGetCommandQueueInfo, queue, CL_QUEUE_CONTEXT, ctx)
                    != CL_SUCCESS
            || get_info(clGetCommandQueueInfo, queue, CL_QUEUE_DEVICE, dev)
                       != CL_SUCCESS
            || get_info(
                       clGetCommandQueueInfo, queue, CL_QUEUE_PROPERTIES, props)
                       != CL_SUCCESS) {
        verbose_error("ocl", "stream: the queue is not a valid command queue");
        return dnnl_invalid_arguments;
    }
    if (ctx != context_ || dev != device_) {
        verbose_error("ocl",
                "stream: the queue belongs to another device or context "
                "than the engine");
        return dnnl_invalid_arguments;
    }
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        verbose_error("ocl", "stream: out-of-order queues are not supported");
        return dnnl_invalid_arguments;
    }
    unsigned flags = dnnl_stream_in_order;
    if (props & CL_QUEUE_PROFILING_ENABLE) flags |= dnnl_stream_profiling;
    OCL_CHECK(clRetainCommandQueue(queue));
    *stream = new (std::nothrow) ocl_stream_t(this, flags, queue);
    if (!*stream) {
        clReleaseCommandQueue(queue);
        return dnnl_out_of_memory;
    }
    return dnnl_success;
}

status_t ocl_engine_t::create_memory_storage(
        std::unique_ptr<memory_storage_t> &storage, void *handle, size_t size)
{
    std::unique_ptr<ocl_buffer_memory_storage_t> s(
            new (std::nothrow) ocl_buffer_memory_storage_t(this));
    if (!s) return dnnl_out_of_memory;
    if (handle == DNNL_MEMORY_ALLOCATE) {
        DNNL_CHECK(s->allocate(size));
    } else {
        DNNL_CHECK(s->set_data_handle(handle));
    }
    storage = std::move(s);
    return dnnl_success;
}

const impl_list_item_t *ocl_engine_t::get_implementation_list(
        const op_desc_t &desc) const
{
    return impl_list_for(desc.primitive_kind);
}

ocl_engine_t *as_ocl_engine(engine_t *engine)
{
    if (!engine || engine->kind() != dnnl_gpu
            || engine->runtime_kind() != runtime_kind_t::ocl)
        return nullptr;
    return static_cast<ocl_engine_t *>(engine);
}

// The default contexts of engines made by index, per device: the registry
// holds one reference to each and counts the engines using it; the last
// such engine's destructor drops the registry's reference. Objects made in
// the context (programs in the kernel cache) keep it alive beyond that
// through references of their own.
namespace {
struct default_context_t {
    cl_context context = nullptr;
    int engines = 0; // engines created by index that hold it
};
std::mutex &default_context_mutex() {
    static std::mutex *m = new std::mutex;
    return *m;
}
std::map<cl_device_id, default_context_t> &default_contexts() {
    static auto *m = new std::map<cl_device_id, default_context_t>;
    return *m;
}
} // namespace

status_t default_context(cl_device_id device, cl_context &context) {
    std::lock_guard<std::mutex> lock(default_context_mutex());
    auto &entry = default_contexts()[device];
    if (!entry.context) {
        cl_platform_id platform = nullptr;
        OCL_CHECK(get_info(
                clGetDeviceInfo, device, CL_DEVICE_PLATFORM, platform));
        const cl_context_properties props[]
                = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
        cl_int err = CL_SUCCESS;
        cl_context c
                = clCreateContext(props, 1, &device, nullptr, nullptr, &err);
        OCL_CHECK(err);
        entry.context = c; // the registry's reference
    }
    ++entry.engines;
    OCL_CHECK(clRetainContext(entry.context)); // the caller's reference
    context = entry.context;
    return dnnl_success;
}

void release_default_context(cl_device_id device, cl_context context) {
    std::lock_guard<std::mutex> lock(default_context_mutex());
    auto it = default_contexts().find(device);
    if (it == default_contexts().end() || it->second.context != context)
        return;
    if (--it->second.engines > 0) return;
    clReleaseContext(it->second.context);
    default_contexts().erase(it);
}

void retire_default_context(cl_device_id device, cl_context context) {
    std::lock_guard<std::mutex> lock(default_context_mutex());
    auto it = default_contexts().find(device);
    if (it == default_contexts().end() || it->second.context != context)
        return;
    // Engines still using it keep their own references; their release
    // finds no entry for it and leaves the registry alone.
    clReleaseContext(it->second.context);
    default_contexts().erase(it);
}

} // namespace ocl

size_t ocl_engine_count()
{
    return ocl::enumerate_devices().size();
}

status_t ocl_engine_create(engine_t **engine, size_t index)
{
    using namespace ocl;
    if (!engine) return dnnl_invalid_arguments;
    const auto devices = enumerate_devices();
    if (index >= devices.size()) {
        verbose_error("ocl", "no gpu engine with index %zu (%zu devices)",
                index, devices.size());
        return dnnl_invalid_arguments;
    }
    cl_device_id device = devices[index];
    cl_context context = nullptr;
    DNNL_CHECK(default_context(device, context));
    // The engine keeps a reference of its own; drop the lookup's one.
    status_t st = ocl_engine_t::create(engine, device, context, index, true);
    if (st != dnnl_success) release_default_context(device, context);
    clReleaseContext(context);
    return st;
}

} // namespace gpu
} // namespace impl
} // namespace dnnl
