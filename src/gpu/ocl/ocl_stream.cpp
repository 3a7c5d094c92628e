// The OpenCL stream.
#include "gpu/ocl/ocl_stream.hpp"

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
    OCL_CHECK(clFinish(queue_));
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
