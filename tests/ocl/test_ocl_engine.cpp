// Engine kind `gpu` on OpenCL: enumeration (count and order against a
// direct OpenCL query), engines on a user's device and context, the
// interop getters, reference counting, bad inputs, and a run without any
// OpenCL driver.

// Built only when the library has the OpenCL runtime (else the binary
// holds no tests).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace ocl_test {
std::vector<cl_device_id> expected_device_order();
cl_uint context_refcount(cl_context ctx);
cl_context engine_context(dnnl_engine_t engine);
cl_device_id engine_device(dnnl_engine_t engine);
} // namespace ocl_test

using namespace ocl_test;

#define SKIP_WITHOUT_OPENCL_DEVICE()                                           \
    do {                                                                       \
        if (dnnl_engine_get_count(dnnl_gpu) == 0)                              \
            GTEST_SKIP() << "no OpenCL device: engine kind gpu has no "        \
                            "engines on this machine";                         \
    } while (0)

// A context of our own on `device`.
static cl_context make_context(cl_device_id device)
{
    cl_int err = CL_SUCCESS;
    cl_context ctx =
            clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    return err == CL_SUCCESS ? ctx : nullptr;
}

TEST(ocl_engine, count_matches_direct_query)
{
    // No skip: with no device both sides must say 0.
    EXPECT_EQ(dnnl_engine_get_count(dnnl_gpu), expected_device_order().size());
}

TEST(ocl_engine, enumeration_order_matches_direct_query)
{
    SKIP_WITHOUT_OPENCL_DEVICE();
    const auto expected = expected_device_order();
    ASSERT_EQ(dnnl_engine_get_count(dnnl_gpu), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        dnnl_engine_t engine = nullptr;
        ASSERT_EQ(dnnl_engine_create(&engine, dnnl_gpu, i), dnnl_success);
        dnnl_engine_kind_t kind = dnnl_any_engine;
        EXPECT_EQ(dnnl_engine_get_kind(engine, &kind), dnnl_success);
        EXPECT_EQ(kind, dnnl_gpu);
        EXPECT_EQ(engine_device(engine), expected[i]) << "engine " << i;
        cl_context ctx = engine_context(engine);
        ASSERT_NE(ctx, nullptr);
        // The engine's context holds its device.
        cl_device_id ctx_dev = nullptr;
        EXPECT_EQ(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(ctx_dev),
                          &ctx_dev, nullptr),
                CL_SUCCESS);
        EXPECT_EQ(ctx_dev, expected[i]);
        EXPECT_EQ(dnnl_engine_destroy(engine), dnnl_success);
    }
}

TEST(ocl_engine, gpu_type_devices_come_first)
{
    SKIP_WITHOUT_OPENCL_DEVICE();
    bool seen_other = false;
    for (size_t i = 0; i < dnnl_engine_get_count(dnnl_gpu); ++i) {
        dnnl_engine_t engine = nullptr;
        ASSERT_EQ(dnnl_engine_create(&engine, dnnl_gpu, i), dnnl_success);
        cl_device_type type = 0;
        clGetDeviceInfo(engine_device(engine), CL_DEVICE_TYPE, sizeof(type),
                &type, nullptr);
        const bool is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
        EXPECT_FALSE(is_gpu && seen_other)
                << "GPU device at index " << i << " after a non-GPU device";
        seen_other = seen_other || !is_gpu;
        dnnl_engine_destroy(engine);
    }
}

TEST(ocl_engine, enumerated_engine_releases_its_context)
{
    SKIP_WITHOUT_OPENCL_DEVICE();
    dnnl_engine_t engine = nullptr;
    ASSERT_EQ(dnnl_engine_create(&engine, dnnl_gpu, 0), dnnl_success);
    cl_context ctx = engine_context(engine);
    // Keep the context alive past the engine to read its count after.
    ASSERT_EQ(clRetainContext(ctx), CL_SUCCESS);
    const cl_uint with_engine = context_refcount(ctx);
    EXPECT_GE(with_engine, 2u);
    dnnl_engine_destroy(engine);
    // The engine gave its references back. Engines made by index share
    // one default context per device, which other engines and cached
    // programs of this process may still hold, so only a drop is certain
    // (OpenCL counts a queue's hold on its context too).
    EXPECT_LT(context_refcount(ctx), with_engine);
    clReleaseContext(ctx);
}

TEST(ocl_engine, bad_index_and_null_output)
{
    const size_t n = dnnl_engine_get_count(dnnl_gpu);
    dnnl_engine_t engine = nullptr;
    EXPECT_EQ(dnnl_engine_create(&engine, dnnl_gpu, n), dnnl_invalid_arguments);
    EXPECT_EQ(engine, nullptr);
    EXPECT_EQ(dnnl_engine_create(&engine, dnnl_gpu, n + 100),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_create(&engine, dnnl_gpu, SIZE_MAX),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_create(nullptr, dnnl_gpu, 0), dnnl_invalid_arguments);
}

TEST(ocl_engine, interop_engine_on_user_device_and_context)
{
    SKIP_WITHOUT_OPENCL_DEVICE();
    const auto devices = expected_device_order();
    for (cl_device_id dev : devices) {
        cl_context ctx = make_context(dev);
        ASSERT_NE(ctx, nullptr);
        const cl_uint refs0 = context_refcount(ctx);
        ASSERT_EQ(refs0, 1u);

        dnnl_engine_t engine = nullptr;
        ASSERT_EQ(dnnl_ocl_interop_engine_create(&engine, dev, ctx),
                dnnl_success);
        // The engine holds references of its own (the context itself, and
        // on some implementations its service queue's hold on it).
        const cl_uint refs1 = context_refcount(ctx);
        EXPECT_GT(refs1, refs0);
        dnnl_engine_kind_t kind = dnnl_any_engine;
        dnnl_engine_get_kind(engine, &kind);
        EXPECT_EQ(kind, dnnl_gpu);

        cl_context got_ctx = nullptr;
        cl_device_id got_dev = nullptr;
        EXPECT_EQ(dnnl_ocl_interop_engine_get_context(engine, &got_ctx),
                dnnl_success);
        EXPECT_EQ(dnnl_ocl_interop_get_device(engine, &got_dev), dnnl_success);
        EXPECT_EQ(got_ctx, ctx);
        EXPECT_EQ(got_dev, dev);
        // Getters hand out the objects without another reference.
        EXPECT_EQ(context_refcount(ctx), refs1);

        EXPECT_EQ(dnnl_engine_destroy(engine), dnnl_success);
        EXPECT_EQ(context_refcount(ctx), refs0);
        clReleaseContext(ctx);
    }
}

TEST(ocl_engine, interop_engine_outlives_user_release)
{
    SKIP_WITHOUT_OPENCL_DEVICE();
    cl_device_id dev = expected_device_order()[0];
    cl_context ctx = make_context(dev);
    ASSERT_NE(ctx, nullptr);
    dnnl_engine_t engine = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&engine, dev, ctx), dnnl_success);
    clReleaseContext(ctx); // the user lets go; the engine still holds it
    EXPECT_GE(context_refcount(engine_context(engine)), 1u);

    // The context is still usable through the engine.
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t dims = {16};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a),
            dnnl_success);
    dnnl_memory_t mem = nullptr;
    EXPECT_EQ(dnnl_memory_create(&mem, md, engine, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    dnnl_memory_destroy(mem);
    dnnl_memory_desc_destroy(md);
    dnnl_engine_destroy(engine);
}

TEST(ocl_engine, interop_engine_bad_inputs)
{
    SKIP_WITHOUT_OPENCL_DEVICE();
    const auto devices = expected_device_order();
    cl_device_id dev = devices[0];
    cl_context ctx = make_context(dev);
    ASSERT_NE(ctx, nullptr);
    dnnl_engine_t engine = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_create(nullptr, dev, ctx),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_engine_create(&engine, nullptr, ctx),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_engine_create(&engine, dev, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(engine, nullptr);
    // A device that the context does not hold.
    if (devices.size() > 1) {
        EXPECT_EQ(dnnl_ocl_interop_engine_create(&engine, devices[1], ctx),
                dnnl_invalid_arguments);
    }
    EXPECT_EQ(context_refcount(ctx), 1u); // failures leak no reference
    clReleaseContext(ctx);
}

TEST(ocl_engine, interop_getters_reject_other_engines)
{
    cl_context ctx = nullptr;
    cl_device_id dev = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_get_context(nullptr, &ctx),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            dnnl_ocl_interop_get_device(nullptr, &dev), dnnl_invalid_arguments);
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_engine_get_context(cpu, &ctx),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_get_device(cpu, &dev), dnnl_invalid_arguments);
    dnnl_engine_destroy(cpu);

    if (dnnl_engine_get_count(dnnl_gpu) == 0) return;
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_engine_get_context(gpu, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            dnnl_ocl_interop_get_device(gpu, nullptr), dnnl_invalid_arguments);
    dnnl_engine_destroy(gpu);
}

// Runs in a child process whose ICD loader finds no driver at all (see
// no_icd_means_no_engines); disabled so that ordinary runs skip it.
TEST(ocl_engine_no_icd, DISABLED_child)
{
    EXPECT_EQ(dnnl_engine_get_count(dnnl_gpu), 0u);
    dnnl_engine_t engine = nullptr;
    EXPECT_EQ(dnnl_engine_create(&engine, dnnl_gpu, 0), dnnl_invalid_arguments);
    // The CPU engine is unaffected.
    EXPECT_EQ(dnnl_engine_get_count(dnnl_cpu), 1u);
}

TEST(ocl_engine_no_icd, no_icd_means_no_engines)
{
    char self[PATH_MAX] = {};
    const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) GTEST_SKIP() << "cannot find this test binary to re-run it";
    // ocl-icd reads drivers from OCL_ICD_VENDORS (a directory) and
    // OCL_ICD_FILENAMES; point both at nothing.
    const std::string cmd = std::string("OCL_ICD_VENDORS=/nonexistent-icd-dir ")
                            + "OCL_ICD_FILENAMES= '" + self + "'"
                            + " --gtest_also_run_disabled_tests"
                            + " --gtest_filter=ocl_engine_no_icd.DISABLED_child"
                            + " > /dev/null 2>&1";
    const int rc = std::system(cmd.c_str());
    ASSERT_NE(rc, -1);
    EXPECT_TRUE(WIFEXITED(rc));
    EXPECT_EQ(WEXITSTATUS(rc), 0) << "child run failed: " << cmd;
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
