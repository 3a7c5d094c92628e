// Stream profiling (dnnl_stream_profiling): one entry per primitive
// execution on an OpenCL stream created with the flag (or on a user's
// queue with CL_QUEUE_PROFILING_ENABLE), its time in nanoseconds, reset;
// the statuses of streams without profiling and of the CPU engine.

// Built only when the library has the OpenCL runtime (else the binary
// holds no tests).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace {

class ocl_profiling_test : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
        ASSERT_EQ(dnnl_engine_create(&engine_, dnnl_gpu, 0), dnnl_success);
        const dnnl_dims_t dims = {64, 1024};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(
                          &md_, 2, dims, dnnl_f32, dnnl_ab),
                dnnl_success);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, engine_,
                          dnnl_forward_inference, dnnl_eltwise_relu, md_, md_,
                          0.f, 0.f, nullptr),
                dnnl_success);
        ASSERT_EQ(dnnl_primitive_create(&relu_, pd), dnnl_success);
        dnnl_primitive_desc_destroy(pd);
        ASSERT_EQ(dnnl_memory_create(&mem_, md_, engine_, DNNL_MEMORY_ALLOCATE),
                dnnl_success);
    }
    void TearDown() override {
        if (mem_) dnnl_memory_destroy(mem_);
        if (relu_) dnnl_primitive_destroy(relu_);
        if (md_) dnnl_memory_desc_destroy(md_);
        if (engine_) dnnl_engine_destroy(engine_);
    }
    dnnl_status_t run(dnnl_stream_t s) {
        const dnnl_exec_arg_t args[] = {
                {DNNL_ARG_SRC, mem_}, {DNNL_ARG_DST, mem_}};
        return dnnl_primitive_execute(relu_, s, 2, args);
    }
    int count(dnnl_stream_t s) {
        int n = -1;
        EXPECT_EQ(dnnl_query_profiling_data(
                          s, dnnl_profiling_data_kind_time, &n, nullptr),
                dnnl_success);
        return n;
    }

    dnnl_engine_t engine_ = nullptr;
    dnnl_memory_desc_t md_ = nullptr;
    dnnl_primitive_t relu_ = nullptr;
    dnnl_memory_t mem_ = nullptr;
};

} // namespace

TEST_F(ocl_profiling_test, one_entry_per_execution) {
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, engine_,
                      dnnl_stream_in_order | dnnl_stream_profiling),
            dnnl_success);
    EXPECT_EQ(count(s), 0);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(run(s), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(s), dnnl_success);
    ASSERT_EQ(count(s), 3);
    std::vector<uint64_t> ns(3, UINT64_MAX);
    int n = 3;
    ASSERT_EQ(dnnl_query_profiling_data(
                      s, dnnl_profiling_data_kind_time, &n, ns.data()),
            dnnl_success);
    EXPECT_EQ(n, 3);
    // Times, not timestamps: below a minute each.
    for (uint64_t t : ns) EXPECT_LT(t, 60ull * 1000 * 1000 * 1000);
    // Data needs the time kind; the count may be asked with any.
    EXPECT_EQ(dnnl_query_profiling_data(
                      s, dnnl_profiling_data_kind_undef, &n, ns.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_query_profiling_data(
                      s, dnnl_profiling_data_kind_undef, &n, nullptr),
            dnnl_success);
    EXPECT_EQ(n, 3);
    EXPECT_EQ(dnnl_query_profiling_data(
                      s, dnnl_profiling_data_kind_time, nullptr, nullptr),
            dnnl_invalid_arguments);

    ASSERT_EQ(dnnl_reset_profiling(s), dnnl_success);
    EXPECT_EQ(count(s), 0);
    ASSERT_EQ(run(s), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(s), dnnl_success);
    EXPECT_EQ(count(s), 1);
    dnnl_stream_destroy(s);
}

TEST_F(ocl_profiling_test, user_queue_with_profiling) {
    cl_context ctx = nullptr;
    cl_device_id dev = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_get_context(engine_, &ctx), dnnl_success);
    ASSERT_EQ(dnnl_ocl_interop_get_device(engine_, &dev), dnnl_success);
    cl_int err = CL_SUCCESS;
    cl_command_queue q =
            clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_stream_create(&s, engine_, q), dnnl_success);
    // Executions through the interop entry point count too.
    const dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, mem_}, {DNNL_ARG_DST, mem_}};
    cl_event done = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_primitive_execute(
                      relu_, s, 2, args, nullptr, 0, &done),
            dnnl_success);
    ASSERT_EQ(run(s), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(s), dnnl_success);
    EXPECT_EQ(count(s), 2);
    if (done) clReleaseEvent(done);
    dnnl_stream_destroy(s);
    clReleaseCommandQueue(q);
}

TEST_F(ocl_profiling_test, stream_without_profiling) {
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, engine_, dnnl_stream_default_flags),
            dnnl_success);
    ASSERT_EQ(run(s), dnnl_success);
    int n = 0;
    EXPECT_EQ(dnnl_reset_profiling(s), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_query_profiling_data(
                      s, dnnl_profiling_data_kind_time, &n, nullptr),
            dnnl_invalid_arguments);
    dnnl_stream_destroy(s);
}

TEST(ocl_profiling_cpu, cpu_engine_has_no_profiling) {
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_stream_create(&s, cpu, dnnl_stream_profiling),
            dnnl_unimplemented);
    ASSERT_EQ(dnnl_stream_create(&s, cpu, dnnl_stream_default_flags),
            dnnl_success);
    int n = 0;
    EXPECT_EQ(dnnl_reset_profiling(s), dnnl_unimplemented);
    EXPECT_EQ(dnnl_query_profiling_data(
                      s, dnnl_profiling_data_kind_time, &n, nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_reset_profiling(nullptr), dnnl_invalid_arguments);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(cpu);
}

#endif
