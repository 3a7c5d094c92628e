// C API of dnnl_ocl.h: engines from a user's device and context, streams on
// a user's queue, buffer memory objects and execution with OpenCL events.
// The engine cache blob functions are in ocl_engine_blob.cpp.
#include "oneapi/dnnl/dnnl_ocl.h"

#include "api/c_enum.hpp"
#include "common/memory.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_memory_storage.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_utils.hpp"

using namespace dnnl::impl;
using namespace dnnl::impl::gpu::ocl;

// ---- engine ----

dnnl_status_t dnnl_ocl_interop_engine_create(
        dnnl_engine_t *engine, cl_device_id device, cl_context context)
{
    if (!engine || !device || !context) return dnnl_invalid_arguments;
    // A device that engine kind `gpu` enumerates keeps its index, so that
    // the engine reads the same in verbose lines; any other device
    // (a sub-device, say) gets index 0. The cache key holds the device and
    // context themselves, which is what tells engines apart.
    const int index = device_index(device);
    return ocl_engine_t::create(
            engine, device, context, index >= 0 ? (size_t)index : 0);
}

dnnl_status_t dnnl_ocl_interop_engine_get_context(
        dnnl_engine_t engine, cl_context *context)
{
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e || !context) return dnnl_invalid_arguments;
    *context = e->context();
    return dnnl_success;
}

dnnl_status_t dnnl_ocl_interop_get_device(
        dnnl_engine_t engine, cl_device_id *device)
{
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e || !device) return dnnl_invalid_arguments;
    *device = e->device();
    return dnnl_success;
}

// ---- stream ----

dnnl_status_t dnnl_ocl_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, cl_command_queue queue)
{
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!stream || !e || !queue) return dnnl_invalid_arguments;
    return e->create_stream(stream, queue);
}

dnnl_status_t dnnl_ocl_interop_stream_get_command_queue(
        dnnl_stream_t stream, cl_command_queue *queue)
{
    ocl_stream_t *s = as_ocl_stream(stream);
    if (!s || !queue) return dnnl_invalid_arguments;
    *queue = s->queue();
    return dnnl_success;
}

// ---- memory ----

dnnl_status_t dnnl_ocl_interop_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_ocl_interop_memory_kind_t memory_kind, void *handle)
{
    if (!memory || !as_ocl_engine(engine)) return dnnl_invalid_arguments;
    // Read as an integer: a C caller may pass any value (api/c_enum.hpp).
    switch (raw_value(memory_kind)) {
    case dnnl_ocl_interop_buffer:
        // The OpenCL engine's plain memory objects are buffer memory.
        return dnnl_memory_create(memory, memory_desc, engine, handle);
    case dnnl_ocl_interop_usm:
        verbose_error("ocl", "memory: USM memory is not implemented");
        return dnnl_unimplemented;
    default:
        return dnnl_invalid_arguments;
    }
}

dnnl_status_t dnnl_ocl_interop_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_ocl_interop_memory_kind_t memory_kind, int nhandles,
        void **handles)
{
    if (nhandles != 1 || !handles) {
        // Several buffers are only meaningful for sparse memory.
        return nhandles > 1 ? dnnl_unimplemented : dnnl_invalid_arguments;
    }
    return dnnl_ocl_interop_memory_create(
            memory, memory_desc, engine, memory_kind, handles[0]);
}

dnnl_status_t dnnl_ocl_interop_memory_get_memory_kind(
        const_dnnl_memory_t memory, dnnl_ocl_interop_memory_kind_t *memory_kind)
{
    if (!as_ocl_storage(memory) || !memory_kind) return dnnl_invalid_arguments;
    *memory_kind = dnnl_ocl_interop_buffer;
    return dnnl_success;
}

dnnl_status_t dnnl_ocl_interop_memory_get_mem_object(
        const_dnnl_memory_t memory, cl_mem *mem_object)
{
    ocl_buffer_memory_storage_t *s = as_ocl_storage(memory);
    if (!s || !mem_object) return dnnl_invalid_arguments;
    *mem_object = s->mem_object();
    return dnnl_success;
}

dnnl_status_t dnnl_ocl_interop_memory_set_mem_object(
        dnnl_memory_t memory, cl_mem mem_object)
{
    ocl_buffer_memory_storage_t *s = as_ocl_storage(memory);
    if (!s) return dnnl_invalid_arguments;
    return s->set_data_handle(mem_object);
}

// ---- execution ----

dnnl_status_t dnnl_ocl_interop_primitive_execute(
        const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs,
        const dnnl_exec_arg_t *args, const cl_event *deps, int ndeps,
        cl_event *return_event)
{
    if (return_event) *return_event = nullptr;
    ocl_stream_t *s = as_ocl_stream(stream);
    if (!primitive || !s || nargs < 0 || (nargs > 0 && !args) || ndeps < 0
            || (ndeps > 0 && !deps))
        return dnnl_invalid_arguments;
    if (!(primitive->engine()->engine_id() == s->engine()->engine_id())) {
        verbose_error("ocl", "execute: stream and primitive engines differ");
        return dnnl_invalid_arguments;
    }
    cl_command_queue queue = s->queue();
    // The queue is in order: a barrier on the dependencies holds back
    // everything the primitive enqueues after it.
    if (ndeps > 0)
        OCL_CHECK(clEnqueueBarrierWithWaitList(
                queue, (cl_uint)ndeps, deps, nullptr));
    {
        stream_exec_scope_t profiled(s);
        DNNL_CHECK(profiled.done(primitive->execute(s, nargs, args)));
    }
    // An event that completes once all the primitive's work has: the
    // caller owns it (clReleaseEvent).
    if (return_event)
        OCL_CHECK(clEnqueueMarkerWithWaitList(queue, 0, nullptr, return_event));
    return dnnl_success;
}
