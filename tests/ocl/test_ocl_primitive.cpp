// Primitives on the OpenCL engine through the C API: creation, and
// dnnl_ocl_interop_primitive_execute checking its inputs and engines
// before touching the queue.

// Built only when the library has the OpenCL runtime (else the binary
// holds no tests).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>
#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace {

class ocl_primitive_test : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device: engine kind gpu has no "
                            "engines on this machine";
        ASSERT_EQ(dnnl_engine_create(&engine_, dnnl_gpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_stream_create(
                          &stream_, engine_, dnnl_stream_default_flags),
                dnnl_success);
        const dnnl_dims_t dims = {2, 8};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(
                          &md_, 2, dims, dnnl_f32, dnnl_ab),
                dnnl_success);
    }
    void TearDown() override
    {
        if (md_) dnnl_memory_desc_destroy(md_);
        if (stream_) dnnl_stream_destroy(stream_);
        if (engine_) dnnl_engine_destroy(engine_);
    }

    dnnl_engine_t engine_ = nullptr;
    dnnl_stream_t stream_ = nullptr;
    dnnl_memory_desc_t md_ = nullptr;
};

} // namespace

TEST_F(ocl_primitive_test, eltwise_creation_succeeds)
{
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, engine_,
                      dnnl_forward_inference, dnnl_eltwise_relu, md_, md_, 0.f,
                      0.f, nullptr),
            dnnl_success);
    dnnl_primitive_t p = nullptr;
    EXPECT_EQ(dnnl_primitive_create(&p, pd), dnnl_success);
    dnnl_primitive_destroy(p);
    dnnl_primitive_desc_destroy(pd);
}

TEST_F(ocl_primitive_test, execute_rejects_bad_inputs)
{
    cl_event ev = reinterpret_cast<cl_event>(&ev); // must be overwritten
    EXPECT_EQ(dnnl_ocl_interop_primitive_execute(
                      nullptr, stream_, 0, nullptr, nullptr, 0, &ev),
            dnnl_invalid_arguments);
    EXPECT_EQ(ev, nullptr);
    EXPECT_EQ(dnnl_ocl_interop_primitive_execute(
                      nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr),
            dnnl_invalid_arguments);
}

TEST_F(ocl_primitive_test, execute_rejects_primitive_of_another_engine)
{
    // A CPU primitive (eltwise or reorder, whichever the CPU backend
    // already has).
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    dnnl_status_t st = dnnl_eltwise_forward_primitive_desc_create(&pd, cpu,
            dnnl_forward_inference, dnnl_eltwise_relu, md_, md_, 0.f, 0.f,
            nullptr);
    if (st != dnnl_success)
        st = dnnl_reorder_primitive_desc_create(
                &pd, md_, cpu, md_, cpu, nullptr);
    if (st != dnnl_success) {
        dnnl_engine_destroy(cpu);
        GTEST_SKIP() << "no CPU primitive to execute on the wrong engine yet";
    }
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    cl_event ev = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_primitive_execute(
                      prim, stream_, 0, nullptr, nullptr, 0, &ev),
            dnnl_invalid_arguments);
    EXPECT_EQ(ev, nullptr);
    // Dependencies must be given when counted.
    EXPECT_EQ(dnnl_ocl_interop_primitive_execute(
                      prim, stream_, 0, nullptr, nullptr, 1, &ev),
            dnnl_invalid_arguments);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_engine_destroy(cpu);
}

TEST_F(ocl_primitive_test, reorders_involving_gpu_run_on_the_gpu_engine)
{
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    const dnnl_engine_t pairs[3][2]
            = {{engine_, engine_}, {cpu, engine_}, {engine_, cpu}};
    for (const auto &pair : pairs) {
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_reorder_primitive_desc_create(
                          &pd, md_, pair[0], md_, pair[1], nullptr),
                dnnl_success);
        dnnl_engine_t e = nullptr;
        EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_engine, 0, &e),
                dnnl_success);
        EXPECT_EQ(e, engine_);
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_engine_destroy(cpu);
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
