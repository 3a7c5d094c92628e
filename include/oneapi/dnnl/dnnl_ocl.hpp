// C++ wrappers of the OpenCL interoperability API (dnnl_ocl.h): engines,
// streams and memory objects built from or exposing OpenCL objects.
#ifndef ONEAPI_DNNL_DNNL_OCL_HPP
#define ONEAPI_DNNL_DNNL_OCL_HPP

#include "oneapi/dnnl/dnnl.hpp"

#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl_ocl.h"

#include <CL/cl.h>

namespace dnnl {
namespace ocl_interop {

// How a memory object holds its OpenCL data.
enum class memory_kind {
    usm = dnnl_ocl_interop_usm,
    buffer = dnnl_ocl_interop_buffer,
};

inline dnnl_ocl_interop_memory_kind_t convert_to_c(memory_kind akind) {
    return static_cast<dnnl_ocl_interop_memory_kind_t>(akind);
}

// Engine cache blobs: the id of a device and the blob of an engine.
inline std::vector<uint8_t> get_engine_cache_blob_id(cl_device_id device) {
    size_t size = 0;
    error::wrap_c_api(
            dnnl_ocl_interop_engine_get_cache_blob_id(device, &size, nullptr),
            "could not get the size of an engine cache blob id");
    std::vector<uint8_t> id(size);
    error::wrap_c_api(
            dnnl_ocl_interop_engine_get_cache_blob_id(device, &size, id.data()),
            "could not get an engine cache blob id");
    return id;
}

inline std::vector<uint8_t> get_engine_cache_blob(const engine &aengine) {
    size_t size = 0;
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob(
                              aengine.get(), &size, nullptr),
            "could not get the size of an engine cache blob");
    std::vector<uint8_t> blob(size);
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob(
                              aengine.get(), &size, blob.data()),
            "could not get an engine cache blob");
    return blob;
}

// Engines over an existing OpenCL device and context.
inline engine make_engine(cl_device_id device, cl_context context,
        const std::vector<uint8_t> &cache_blob) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_engine_create_from_cache_blob(&e,
                              device, context, cache_blob.size(),
                              cache_blob.data()),
            "could not create an engine from a cache blob");
    return engine(e);
}

inline engine make_engine(cl_device_id device, cl_context context) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_engine_create(&e, device, context),
            "could not create an engine");
    return engine(e);
}

inline cl_context get_context(const engine &aengine) {
    cl_context ctx = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_engine_get_context(aengine.get(), &ctx),
            "could not get the OpenCL context of an engine");
    return ctx;
}

inline cl_device_id get_device(const engine &aengine) {
    cl_device_id dev = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_get_device(aengine.get(), &dev),
            "could not get the OpenCL device of an engine");
    return dev;
}

// Streams over an existing OpenCL command queue.
inline stream make_stream(const engine &aengine, cl_command_queue queue) {
    dnnl_stream_t s = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_stream_create(&s, aengine.get(), queue),
            "could not create a stream");
    return stream(s);
}

inline cl_command_queue get_command_queue(const stream &astream) {
    cl_command_queue q = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_stream_get_command_queue(astream.get(), &q),
            "could not get the OpenCL command queue of a stream");
    return q;
}

// OpenCL buffers and USM pointers of memory objects.
inline cl_mem get_mem_object(const memory &amemory) {
    cl_mem mem = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_memory_get_mem_object(amemory.get(), &mem),
            "could not get the OpenCL buffer of a memory object");
    return mem;
}

inline void set_mem_object(memory &amemory, cl_mem mem_object) {
    error::wrap_c_api(
            dnnl_ocl_interop_memory_set_mem_object(amemory.get(), mem_object),
            "could not set the OpenCL buffer of a memory object");
}

inline memory_kind get_memory_kind(const memory &amemory) {
    dnnl_ocl_interop_memory_kind_t k;
    error::wrap_c_api(
            dnnl_ocl_interop_memory_get_memory_kind(amemory.get(), &k),
            "could not get the memory kind of a memory object");
    return static_cast<memory_kind>(k);
}

// Memory of the given kind; no handles: the library allocates.
inline memory make_memory(const memory::desc &memory_desc,
        const engine &aengine, memory_kind kind,
        std::vector<void *> handles = {}) {
    if (handles.empty())
        handles.assign(
                (size_t)memory_desc.get_num_handles(), DNNL_MEMORY_ALLOCATE);
    dnnl_memory_t m = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_memory_create_v2(&m, memory_desc.get(),
                    aengine.get(), convert_to_c(kind), (int)handles.size(),
                    handles.data()),
            "could not create a memory object");
    return memory(m);
}

// Buffer memory over existing OpenCL buffers (one per handle).
inline memory make_memory(const memory::desc &memory_desc,
        const engine &aengine, std::vector<cl_mem> mem_objects) {
    const int n = memory_desc.get_num_handles();
    memory m(memory_desc, aengine,
            std::vector<void *>((size_t)n, DNNL_MEMORY_NONE));
    for (int i = 0; i < n; ++i)
        m.set_data_handle(mem_objects[i], i);
    return m;
}

inline memory make_memory(const memory::desc &memory_desc,
        const engine &aengine, memory_kind kind, void *handle) {
    return make_memory(memory_desc, aengine, kind, std::vector<void *> {handle});
}

inline memory make_memory(const memory::desc &memory_desc,
        const engine &aengine, cl_mem mem_object) {
    return make_memory(memory_desc, aengine, std::vector<cl_mem> {mem_object});
}

// Executes a primitive after the deps events; returns its completion event.
inline cl_event execute(const dnnl::primitive &aprimitive,
        const stream &astream, const std::unordered_map<int, memory> &args,
        const std::vector<cl_event> &deps = {}) {
    std::vector<dnnl_exec_arg_t> c_args;
    c_args.reserve(args.size());
    for (const auto &kv : args)
        c_args.push_back({kv.first, kv.second.get()});
    cl_event done = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_primitive_execute(aprimitive.get(),
                              astream.get(), (int)c_args.size(), c_args.data(),
                              deps.empty() ? nullptr : deps.data(),
                              (int)deps.size(), &done),
            "could not execute a primitive");
    return done;
}

} // namespace ocl_interop
} // namespace dnnl

#endif
