// The OpenCL stream: an in-order cl_command_queue (its own, or a user's),
// retained for the stream's lifetime; waiting is clFinish.
#pragma once

#include <CL/cl.h>

#include "common/stream.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

class ocl_stream_t : public stream_t {
public:
    // Takes over one reference of `queue` (released by the destructor).
    ocl_stream_t(engine_t *engine, unsigned flags, cl_command_queue queue)
        : stream_t(engine, flags), queue_(queue)
    {}
    ~ocl_stream_t() override;

    cl_command_queue queue() const { return queue_; }
    status_t wait() override;

private:
    cl_command_queue queue_;
};

// The stream behind a dnnl_stream_t of the OpenCL runtime, else null.
ocl_stream_t *as_ocl_stream(stream_t *stream);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
