// The OpenCL stream.
#include "gpu/ocl/ocl_stream.hpp"

#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

ocl_stream_t::~ocl_stream_t()
{
    if (queue_) clReleaseCommandQueue(queue_);
}

status_t ocl_stream_t::wait()
{
    const cl_int err = clFinish(queue_);
    if (err == CL_INVALID_COMMAND_QUEUE || err == CL_OUT_OF_RESOURCES) {
        // Work on the queue faulted and took the context down with it.
        if (ocl_engine_t *e = as_ocl_engine(engine()))
            retire_default_context(e->device(), e->context());
    }
    OCL_CHECK(err);
    return dnnl_success;
}

ocl_stream_t *as_ocl_stream(stream_t *stream)
{
    if (!stream || !stream->engine()
            || stream->engine()->runtime_kind() != runtime_kind_t::ocl)
        return nullptr;
    return static_cast<ocl_stream_t *>(stream);
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
