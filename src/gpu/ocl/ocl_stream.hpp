// The OpenCL stream: an in-order cl_command_queue (its own, or a user's),
// retained for the stream's lifetime; waiting is clFinish. With profiling,
// each execution is bracketed by two markers on the queue; its time is
// from the end of the first (everything before it done) to the end of the
// second (everything it enqueued done).
#pragma once

#include <CL/cl.h>

#include <mutex>
#include <utility>
#include <vector>

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

    void *exec_begin() override;
    void exec_end(void *token, bool ok) override;
    status_t reset_profiling() override;
    status_t query_profiling(int *num, uint64_t *data) override;

private:
    bool profiling() const { return (flags() & dnnl_stream_profiling) != 0; }
    void release_entries();

    cl_command_queue queue_;
    std::mutex prof_mutex_;
    std::vector<std::pair<cl_event, cl_event>> entries_; // begin, end markers
};

// The stream behind a dnnl_stream_t of the OpenCL runtime, else null.
ocl_stream_t *as_ocl_stream(stream_t *stream);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
