// The OpenCL engine (engine kind `gpu`, runtime OCL): one cl_device_id and
// one cl_context, both retained for the engine's lifetime, plus a service
// queue for work that has no user stream (mapping memory without a stream).
#pragma once

#include <CL/cl.h>

#include <memory>

#include "common/engine.hpp"
#include "gpu/ocl/ocl_device_info.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

class ocl_engine_t : public engine_t {
public:
    // Makes an engine on `device` in `context` (the context must contain
    // the device). The engine takes references of its own on both.
    // `is_default_context`: the context came from default_context() and
    // the engine gives its registration back when destroyed.
    static status_t create(engine_t **engine, cl_device_id device,
            cl_context context, size_t index, bool is_default_context = false);

    cl_device_id device() const { return device_; }
    cl_context context() const { return context_; }
    cl_command_queue service_queue() const { return service_queue_; }
    // Facts of the device, queried once per device.
    const device_info_t &info() const { return *info_; }

    engine_id_t engine_id() const override
    {
        return {kind(), runtime_kind(), index(),
                reinterpret_cast<uintptr_t>(device_),
                reinterpret_cast<uintptr_t>(context_)};
    }

    status_t create_stream(stream_t **stream, unsigned flags) override;
    // A stream on a user queue (in-order, of this engine's device and
    // context); the stream retains the queue.
    status_t create_stream(stream_t **stream, cl_command_queue queue);
    status_t create_memory_storage(std::unique_ptr<memory_storage_t> &storage,
            void *handle, size_t size) override;
    const impl_list_item_t *get_implementation_list(
            const op_desc_t &desc) const override;
    // Platform, device, driver and kernel sources (ocl_engine_blob.cpp).
    std::string cache_blob_device_id() const override;

protected:
    ~ocl_engine_t() override;

private:
    ocl_engine_t(cl_device_id device, cl_context context, size_t index);

    cl_device_id device_;
    cl_context context_;
    cl_command_queue service_queue_ = nullptr;
    const device_info_t *info_ = nullptr;
    bool uses_default_context_ = false;
};

// The shared default context of `device` (created on first use), with one
// reference for the caller, and its release by an engine that used it.
status_t default_context(cl_device_id device, cl_context &context);
void release_default_context(cl_device_id device, cl_context context);
// Drops `context` as its device's default (if it is): a kernel fault left
// it unusable (NVIDIA reports CL_INVALID_COMMAND_QUEUE from then on), so
// engines made by index afterwards get a fresh one instead of inheriting
// the failure.
void retire_default_context(cl_device_id device, cl_context context);

// The engine behind a dnnl_engine_t of the OpenCL runtime, else null.
ocl_engine_t *as_ocl_engine(engine_t *engine);

} // namespace ocl

// Entry points for engine kind `gpu`, called by src/api/engine_api.cpp:
// the number of enumerated devices, and an engine on one of them. Engines
// made by index share one default context per device, created on first use
// and released with the last engine holding it, so a second engine costs no
// context creation and primitives cached for one serve the other.
size_t ocl_engine_count();
status_t ocl_engine_create(engine_t **engine, size_t index);

} // namespace gpu
} // namespace impl
} // namespace dnnl
