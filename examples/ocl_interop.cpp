// OpenCL interoperability (dnnl::ocl_interop): the application owns the
// OpenCL objects and the library works inside them.
//  * an engine on the application's own cl_context (device taken from the
//    library's gpu engine 0, so the same device the rest uses);
//  * a stream over the application's in-order cl_command_queue;
//  * memory over the application's cl_mem buffer, filled and read with
//    plain OpenCL calls on that queue;
//  * execution after an OpenCL event, returning the primitive's event;
//  * the buffer of a memory the library allocated, read with OpenCL.
// Checks: every handle round-trips, and ReLU then x2 (eltwise_linear) on
// the buffer gives max(x, 0) * 2.
//
// Usage: ocl_interop gpu

#include <algorithm>

#include <CL/cl.h>

#include "oneapi/dnnl/dnnl_ocl.hpp"

#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

void check_cl(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        throw example::check_failed(std::string("OpenCL call failed: ")
                + what + " (" + std::to_string(err) + ")");
}

// Owns the OpenCL objects this example creates.
struct cl_objects {
    cl_context ctx = nullptr;
    cl_command_queue queue = nullptr;
    cl_mem buf = nullptr;
    cl_event user_event = nullptr;
    ~cl_objects()
    {
        if (user_event) clReleaseEvent(user_event);
        if (buf) clReleaseMemObject(buf);
        if (queue) clReleaseCommandQueue(queue);
        if (ctx) clReleaseContext(ctx);
    }
};

void interop(engine::kind kind)
{
    if (kind != engine::kind::gpu)
        throw example::not_supported("OpenCL interop needs the gpu engine");

    const cl_device_id dev = ocl_interop::get_device(engine(kind, 0));
    cl_platform_id platform;
    check_cl(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof(platform),
                     &platform, nullptr),
            "clGetDeviceInfo");
    cl_objects cl;
    cl_int err;
    const cl_context_properties props[]
            = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl.ctx = clCreateContext(props, 1, &dev, nullptr, nullptr, &err);
    check_cl(err, "clCreateContext");
    cl.queue = clCreateCommandQueue(cl.ctx, dev, 0, &err);
    check_cl(err, "clCreateCommandQueue");

    // Engine and stream over the application's context and queue.
    engine eng = ocl_interop::make_engine(dev, cl.ctx);
    stream strm = ocl_interop::make_stream(eng, cl.queue);
    example::expect(ocl_interop::get_context(eng) == cl.ctx, "engine context");
    example::expect(ocl_interop::get_device(eng) == dev, "engine device");
    example::expect(ocl_interop::get_command_queue(strm) == cl.queue,
            "stream queue");

    // The application's buffer, filled by the application.
    const memory::dims dims = {2, 8, 5, 5};
    const size_t n = example::product(dims);
    const auto x = example::fill(n, -1, 1, 71);
    cl.buf = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE, n * sizeof(float),
            nullptr, &err);
    check_cl(err, "clCreateBuffer");
    // Non-blocking write; the primitive waits for its event.
    check_cl(clEnqueueWriteBuffer(cl.queue, cl.buf, CL_FALSE, 0,
                     n * sizeof(float), x.data(), 0, nullptr, &cl.user_event),
            "clEnqueueWriteBuffer");

    const memory::desc md(dims, dt::f32, tag::nchw);
    memory mem = ocl_interop::make_memory(md, eng, cl.buf);
    example::expect(ocl_interop::get_mem_object(mem) == cl.buf,
            "memory wraps the application's buffer");
    example::expect(ocl_interop::get_memory_kind(mem)
                    == ocl_interop::memory_kind::buffer,
            "buffer memory kind");

    // ReLU in place, after the write's event; its own event comes back.
    eltwise_forward relu({eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f});
    cl_event relu_done = ocl_interop::execute(relu, strm,
            {{DNNL_ARG_SRC, mem}, {DNNL_ARG_DST, mem}}, {cl.user_event});
    example::expect(relu_done != nullptr, "execution returns an event");

    // x2 into memory the library allocates; read its buffer with OpenCL.
    memory out = ocl_interop::make_memory(md, eng,
            ocl_interop::memory_kind::buffer);
    eltwise_forward twice({eng, prop_kind::forward_inference,
            algorithm::eltwise_linear, md, md, 2.f, 0.f});
    cl_event twice_done = ocl_interop::execute(twice, strm,
            {{DNNL_ARG_SRC, mem}, {DNNL_ARG_DST, out}}, {relu_done});
    std::vector<float> got(n);
    const cl_mem out_buf = ocl_interop::get_mem_object(out);
    check_cl(clEnqueueReadBuffer(cl.queue, out_buf, CL_TRUE, 0,
                     n * sizeof(float), got.data(), 1, &twice_done, nullptr),
            "clEnqueueReadBuffer");
    clReleaseEvent(relu_done);
    clReleaseEvent(twice_done);

    std::vector<float> want(n);
    for (size_t i = 0; i < n; ++i)
        want[i] = 2.f * std::max(x[i], 0.f);
    example::expect_close(got, want, 0.f, "relu then x2 on the buffer");
    std::printf("ReLU and x2 ran on the application's queue over its buffer "
                "(%zu values)\n",
            n);
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, interop);
}
