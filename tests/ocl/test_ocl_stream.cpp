// OpenCL streams: the engine's own in-order queue, a user's queue (retained
// by the stream), waiting, and the queues that must be refused.

// Built only when the library has the OpenCL runtime (else the binary
// holds no tests).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace ocl_test {
std::vector<cl_device_id> expected_device_order();
cl_uint queue_refcount(cl_command_queue q);
cl_context engine_context(dnnl_engine_t engine);
cl_device_id engine_device(dnnl_engine_t engine);
} // namespace ocl_test

using namespace ocl_test;

namespace {

// The queue's reference count once it settles at `want` (or after a
// second): an OpenCL runtime may hold a queue briefly while it retires
// commands that already completed (seen with PoCL under load), but a
// reference the library kept would never go away.
cl_uint settled_refcount(cl_command_queue q, cl_uint want) {
    cl_uint n = queue_refcount(q);
    for (int i = 0; i < 100 && n != want; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        n = queue_refcount(q);
    }
    return n;
}

class ocl_stream_test : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device: engine kind gpu has no "
                            "engines on this machine";
        ASSERT_EQ(dnnl_engine_create(&engine_, dnnl_gpu, 0), dnnl_success);
        ctx_ = engine_context(engine_);
        dev_ = engine_device(engine_);
    }
    void TearDown() override
    {
        if (engine_) dnnl_engine_destroy(engine_);
    }
    cl_command_queue make_queue(cl_command_queue_properties props)
    {
        cl_int err = CL_SUCCESS;
        cl_command_queue q = clCreateCommandQueue(ctx_, dev_, props, &err);
        return err == CL_SUCCESS ? q : nullptr;
    }

    dnnl_engine_t engine_ = nullptr;
    cl_context ctx_ = nullptr;
    cl_device_id dev_ = nullptr;
};

} // namespace

TEST_F(ocl_stream_test, default_stream_has_in_order_queue)
{
    dnnl_stream_t stream = nullptr;
    ASSERT_EQ(dnnl_stream_create(&stream, engine_, dnnl_stream_default_flags),
            dnnl_success);
    cl_command_queue q = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_get_command_queue(stream, &q),
            dnnl_success);
    ASSERT_NE(q, nullptr);
    cl_command_queue_properties props = 0;
    cl_context qctx = nullptr;
    cl_device_id qdev = nullptr;
    clGetCommandQueueInfo(
            q, CL_QUEUE_PROPERTIES, sizeof(props), &props, nullptr);
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(qctx), &qctx, nullptr);
    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(qdev), &qdev, nullptr);
    EXPECT_EQ(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0u);
    EXPECT_EQ(qctx, ctx_);
    EXPECT_EQ(qdev, dev_);
    dnnl_engine_t got = nullptr;
    EXPECT_EQ(dnnl_stream_get_engine(stream, &got), dnnl_success);
    EXPECT_EQ(got, engine_);
    EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
    EXPECT_EQ(dnnl_stream_destroy(stream), dnnl_success);
}

TEST_F(ocl_stream_test, stream_on_user_queue)
{
    cl_command_queue q = make_queue(0);
    ASSERT_NE(q, nullptr);
    const cl_uint refs0 = queue_refcount(q);
    dnnl_stream_t stream = nullptr;
    ASSERT_EQ(
            dnnl_ocl_interop_stream_create(&stream, engine_, q), dnnl_success);
    EXPECT_EQ(queue_refcount(q), refs0 + 1);
    cl_command_queue got = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_get_command_queue(stream, &got),
            dnnl_success);
    EXPECT_EQ(got, q);

    // Work the user enqueued is waited for by dnnl_stream_wait.
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, 1024, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    std::vector<char> data(1024, 7);
    cl_event ev = nullptr;
    ASSERT_EQ(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, data.size(),
                      data.data(), 0, nullptr, &ev),
            CL_SUCCESS);
    EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
    cl_int ev_status = CL_QUEUED;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(ev_status),
            &ev_status, nullptr);
    EXPECT_EQ(ev_status, CL_COMPLETE);
    clReleaseEvent(ev);
    clReleaseMemObject(buf);

    EXPECT_EQ(dnnl_stream_destroy(stream), dnnl_success);
    EXPECT_EQ(settled_refcount(q, refs0), refs0);
    clReleaseCommandQueue(q);
}

TEST_F(ocl_stream_test, stream_keeps_user_queue_alive)
{
    cl_command_queue q = make_queue(0);
    ASSERT_NE(q, nullptr);
    dnnl_stream_t stream = nullptr;
    ASSERT_EQ(
            dnnl_ocl_interop_stream_create(&stream, engine_, q), dnnl_success);
    clReleaseCommandQueue(q); // the stream's reference keeps it valid
    EXPECT_EQ(queue_refcount(q), 1u);
    EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
    dnnl_stream_destroy(stream);
}

TEST_F(ocl_stream_test, out_of_order_queue_is_refused)
{
    cl_command_queue_properties supported = 0;
    clGetDeviceInfo(dev_, CL_DEVICE_QUEUE_PROPERTIES, sizeof(supported),
            &supported, nullptr);
    if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        GTEST_SKIP() << "the device has no out-of-order queues";
    cl_command_queue q = make_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    ASSERT_NE(q, nullptr);
    const cl_uint refs0 = queue_refcount(q);
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_create(&stream, engine_, q),
            dnnl_invalid_arguments);
    EXPECT_EQ(stream, nullptr);
    EXPECT_EQ(queue_refcount(q), refs0);
    clReleaseCommandQueue(q);
}

TEST_F(ocl_stream_test, profiling_user_queue_is_accepted)
{
    cl_command_queue q = make_queue(CL_QUEUE_PROFILING_ENABLE);
    ASSERT_NE(q, nullptr);
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(
            dnnl_ocl_interop_stream_create(&stream, engine_, q), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
    dnnl_stream_destroy(stream);
    clReleaseCommandQueue(q);
}

TEST_F(ocl_stream_test, queue_of_another_context_is_refused)
{
    cl_int err = CL_SUCCESS;
    cl_context other =
            clCreateContext(nullptr, 1, &dev_, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(other, dev_, 0, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_create(&stream, engine_, q),
            dnnl_invalid_arguments);
    clReleaseCommandQueue(q);
    clReleaseContext(other);
}

TEST_F(ocl_stream_test, bad_inputs)
{
    cl_command_queue q = make_queue(0);
    ASSERT_NE(q, nullptr);
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_create(nullptr, engine_, q),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_stream_create(&stream, nullptr, q),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_stream_create(&stream, engine_, nullptr),
            dnnl_invalid_arguments);

    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_stream_create(&stream, cpu, q),
            dnnl_invalid_arguments);
    dnnl_stream_t cpu_stream = nullptr;
    ASSERT_EQ(dnnl_stream_create(&cpu_stream, cpu, dnnl_stream_default_flags),
            dnnl_success);
    cl_command_queue got = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_stream_get_command_queue(cpu_stream, &got),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_stream_get_command_queue(nullptr, &got),
            dnnl_invalid_arguments);
    dnnl_stream_destroy(cpu_stream);
    dnnl_engine_destroy(cpu);

    dnnl_stream_t gpu_stream = nullptr;
    ASSERT_EQ(
            dnnl_stream_create(&gpu_stream, engine_, dnnl_stream_default_flags),
            dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_stream_get_command_queue(gpu_stream, nullptr),
            dnnl_invalid_arguments);
    dnnl_stream_destroy(gpu_stream);
    // Out-of-order streams of the library's own are not available either.
    EXPECT_NE(dnnl_stream_create(&stream, engine_, dnnl_stream_out_of_order),
            dnnl_success);
    clReleaseCommandQueue(q);
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
