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
    release_entries();
    if (queue_) clReleaseCommandQueue(queue_);
}

void ocl_stream_t::release_entries()
{
    for (auto &e : entries_) {
        clReleaseEvent(e.first);
        clReleaseEvent(e.second);
    }
    entries_.clear();
}

void *ocl_stream_t::exec_begin()
{
    if (!profiling()) return nullptr;
    cl_event begin = nullptr;
    // Without a marker the execution is not profiled, not failed.
    if (clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &begin) != CL_SUCCESS)
        return nullptr;
    return begin;
}

void ocl_stream_t::exec_end(void *token, bool ok)
{
    cl_event begin = static_cast<cl_event>(token);
    if (!begin) return;
    cl_event end = nullptr;
    if (!ok
            || clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &end)
                    != CL_SUCCESS) {
        clReleaseEvent(begin);
        return;
    }
    std::lock_guard<std::mutex> lock(prof_mutex_);
    entries_.emplace_back(begin, end);
}

status_t ocl_stream_t::reset_profiling()
{
    if (!profiling()) return dnnl_invalid_arguments;
    std::lock_guard<std::mutex> lock(prof_mutex_);
    release_entries();
    return dnnl_success;
}

status_t ocl_stream_t::query_profiling(int *num, uint64_t *data)
{
    if (!profiling()) return dnnl_invalid_arguments;
    std::lock_guard<std::mutex> lock(prof_mutex_);
    if (!data) {
        *num = (int)entries_.size();
        return dnnl_success;
    }
    const int n = *num < (int)entries_.size() ? *num : (int)entries_.size();
    for (int i = 0; i < n; ++i) {
        // The markers complete with the work around them; the user is
        // to wait for the stream first, waiting here only makes sure.
        const cl_event ev[2] = {entries_[i].first, entries_[i].second};
        OCL_CHECK(clWaitForEvents(2, ev));
        cl_ulong t0 = 0, t1 = 0;
        OCL_CHECK(clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_END,
                sizeof(t0), &t0, nullptr));
        OCL_CHECK(clGetEventProfilingInfo(ev[1], CL_PROFILING_COMMAND_END,
                sizeof(t1), &t1, nullptr));
        data[i] = t1 > t0 ? (uint64_t)(t1 - t0) : 0;
    }
    *num = n;
    return dnnl_success;
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
