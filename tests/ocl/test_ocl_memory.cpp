// OpenCL buffer memory: allocation, map/write/unmap/map/read round trips,
// user cl_mem objects (wrapped and retained), set_mem_object, empty and
// zero-size memory, and the inputs that must be refused.

// Built only when the library has the OpenCL runtime (else the binary
// holds no tests).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace ocl_test {
std::vector<cl_device_id> expected_device_order();
cl_uint mem_refcount(cl_mem m);
cl_context engine_context(dnnl_engine_t engine);
cl_device_id engine_device(dnnl_engine_t engine);
} // namespace ocl_test

using namespace ocl_test;

namespace {

constexpr int n_elems = 2 * 3 * 4 * 5;

// An f32 2x3x4x5 plain memory descriptor.
dnnl_memory_desc_t make_md()
{
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t dims = {2, 3, 4, 5};
    dnnl_memory_desc_create_with_tag(&md, 4, dims, dnnl_f32, dnnl_abcd);
    return md;
}

cl_mem mem_object(dnnl_memory_t mem)
{
    cl_mem m = nullptr;
    dnnl_ocl_interop_memory_get_mem_object(mem, &m);
    return m;
}

// Maps `mem`, fills it with base, base + 1, ... and unmaps it.
void write_pattern(dnnl_memory_t mem, float base)
{
    void *p = nullptr;
    ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
    ASSERT_NE(p, nullptr);
    float *f = static_cast<float *>(p);
    for (int i = 0; i < n_elems; ++i) f[i] = base + (float)i;
    ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
}

// Maps `mem` and checks the pattern write_pattern(base) left.
void expect_pattern(dnnl_memory_t mem, float base)
{
    void *p = nullptr;
    ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
    ASSERT_NE(p, nullptr);
    const float *f = static_cast<const float *>(p);
    int bad = 0;
    for (int i = 0; i < n_elems; ++i)
        if (f[i] != base + (float)i) ++bad;
    EXPECT_EQ(bad, 0);
    ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
}

class ocl_memory_test : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device: engine kind gpu has no "
                            "engines on this machine";
        ASSERT_EQ(dnnl_engine_create(&engine_, dnnl_gpu, 0), dnnl_success);
        ctx_ = engine_context(engine_);
        dev_ = engine_device(engine_);
        md_ = make_md();
        ASSERT_NE(md_, nullptr);
        cl_int err = CL_SUCCESS;
        queue_ = clCreateCommandQueue(ctx_, dev_, 0, &err);
        ASSERT_EQ(err, CL_SUCCESS);
    }
    void TearDown() override
    {
        if (queue_) clReleaseCommandQueue(queue_);
        if (md_) dnnl_memory_desc_destroy(md_);
        if (engine_) dnnl_engine_destroy(engine_);
    }
    cl_mem make_buffer(size_t bytes, cl_context ctx = nullptr)
    {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(
                ctx ? ctx : ctx_, CL_MEM_READ_WRITE, bytes, nullptr, &err);
        return err == CL_SUCCESS ? m : nullptr;
    }

    dnnl_engine_t engine_ = nullptr;
    cl_context ctx_ = nullptr;
    cl_device_id dev_ = nullptr;
    cl_command_queue queue_ = nullptr;
    dnnl_memory_desc_t md_ = nullptr;
};

} // namespace

TEST(ocl_memory, round_trip_on_every_device)
{
    const size_t n = dnnl_engine_get_count(dnnl_gpu);
    if (n == 0)
        GTEST_SKIP() << "no OpenCL device: engine kind gpu has no engines "
                        "on this machine";
    dnnl_memory_desc_t md = make_md();
    for (size_t i = 0; i < n; ++i) {
        dnnl_engine_t engine = nullptr;
        ASSERT_EQ(dnnl_engine_create(&engine, dnnl_gpu, i), dnnl_success);
        dnnl_memory_t mem = nullptr;
        ASSERT_EQ(dnnl_memory_create(&mem, md, engine, DNNL_MEMORY_ALLOCATE),
                dnnl_success);
        dnnl_ocl_interop_memory_kind_t kind = dnnl_ocl_interop_usm;
        EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(mem, &kind),
                dnnl_success);
        EXPECT_EQ(kind, dnnl_ocl_interop_buffer);

        cl_mem m = mem_object(mem);
        ASSERT_NE(m, nullptr);
        void *handle = nullptr;
        EXPECT_EQ(dnnl_memory_get_data_handle(mem, &handle), dnnl_success);
        EXPECT_EQ(handle, (void *)m);
        size_t bytes = 0;
        cl_context mctx = nullptr;
        clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr);
        clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof(mctx), &mctx, nullptr);
        EXPECT_GE(bytes, n_elems * sizeof(float));
        EXPECT_EQ(mctx, engine_context(engine));

        write_pattern(mem, 1.f);
        expect_pattern(mem, 1.f);
        write_pattern(mem, -50.f);
        expect_pattern(mem, -50.f);
        EXPECT_EQ(dnnl_memory_destroy(mem), dnnl_success);
        dnnl_engine_destroy(engine);
    }
    dnnl_memory_desc_destroy(md);
}

TEST_F(ocl_memory_test, memory_keeps_engine_alive)
{
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_memory_create(&mem, md_, engine_, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    dnnl_engine_destroy(engine_);
    engine_ = nullptr;
    write_pattern(mem, 3.f);
    expect_pattern(mem, 3.f);
    dnnl_memory_destroy(mem);
}

TEST_F(ocl_memory_test, interop_create_buffer_kind)
{
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_memory_create(&mem, md_, engine_,
                      dnnl_ocl_interop_buffer, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    EXPECT_NE(mem_object(mem), nullptr);
    write_pattern(mem, 10.f);
    expect_pattern(mem, 10.f);
    dnnl_memory_destroy(mem);

    void *handles[1] = {DNNL_MEMORY_ALLOCATE};
    ASSERT_EQ(dnnl_ocl_interop_memory_create_v2(
                      &mem, md_, engine_, dnnl_ocl_interop_buffer, 1, handles),
            dnnl_success);
    EXPECT_NE(mem_object(mem), nullptr);
    dnnl_memory_destroy(mem);
}

TEST_F(ocl_memory_test, usm_kind_is_unimplemented)
{
    dnnl_memory_t mem = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&mem, md_, engine_,
                      dnnl_ocl_interop_usm, DNNL_MEMORY_ALLOCATE),
            dnnl_unimplemented);
    void *handles[1] = {DNNL_MEMORY_ALLOCATE};
    EXPECT_EQ(dnnl_ocl_interop_memory_create_v2(
                      &mem, md_, engine_, dnnl_ocl_interop_usm, 1, handles),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&mem, md_, engine_,
                      (dnnl_ocl_interop_memory_kind_t)7, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
}

TEST_F(ocl_memory_test, wrap_user_buffer)
{
    const size_t bytes = n_elems * sizeof(float);
    cl_mem buf = make_buffer(bytes);
    ASSERT_NE(buf, nullptr);
    std::vector<float> host(n_elems);
    for (int i = 0; i < n_elems; ++i) host[i] = 100.f + (float)i;
    ASSERT_EQ(clEnqueueWriteBuffer(queue_, buf, CL_TRUE, 0, bytes, host.data(),
                      0, nullptr, nullptr),
            CL_SUCCESS);

    const cl_uint refs0 = mem_refcount(buf);
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_memory_create(
                      &mem, md_, engine_, dnnl_ocl_interop_buffer, buf),
            dnnl_success);
    EXPECT_EQ(mem_refcount(buf), refs0 + 1);
    EXPECT_EQ(mem_object(mem), buf);
    expect_pattern(mem, 100.f);

    // What the library writes lands in the user's buffer.
    write_pattern(mem, -7.f);
    std::vector<float> back(n_elems, 0.f);
    ASSERT_EQ(clEnqueueReadBuffer(queue_, buf, CL_TRUE, 0, bytes, back.data(),
                      0, nullptr, nullptr),
            CL_SUCCESS);
    for (int i = 0; i < n_elems; ++i)
        ASSERT_EQ(back[i], -7.f + (float)i) << "at " << i;

    dnnl_memory_destroy(mem);
    EXPECT_EQ(mem_refcount(buf), refs0);
    clReleaseMemObject(buf);
}

TEST_F(ocl_memory_test, plain_memory_create_wraps_cl_mem)
{
    cl_mem buf = make_buffer(n_elems * sizeof(float));
    ASSERT_NE(buf, nullptr);
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_memory_create(&mem, md_, engine_, buf), dnnl_success);
    EXPECT_EQ(mem_object(mem), buf);
    clReleaseMemObject(buf); // the memory object's reference keeps it alive
    write_pattern(mem, 5.f);
    expect_pattern(mem, 5.f);
    dnnl_memory_destroy(mem);
}

TEST_F(ocl_memory_test, set_mem_object)
{
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_memory_create(&mem, md_, engine_, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    write_pattern(mem, 1.f);

    cl_mem buf = make_buffer(n_elems * sizeof(float));
    ASSERT_NE(buf, nullptr);
    const cl_uint refs0 = mem_refcount(buf);
    ASSERT_EQ(dnnl_ocl_interop_memory_set_mem_object(mem, buf), dnnl_success);
    EXPECT_EQ(mem_object(mem), buf);
    EXPECT_EQ(mem_refcount(buf), refs0 + 1);
    write_pattern(mem, 2.f);
    expect_pattern(mem, 2.f);

    // Setting the same object again keeps one reference.
    ASSERT_EQ(dnnl_ocl_interop_memory_set_mem_object(mem, buf), dnnl_success);
    EXPECT_EQ(mem_refcount(buf), refs0 + 1);

    // dnnl_memory_set_data_handle takes a cl_mem too.
    cl_mem buf2 = make_buffer(n_elems * sizeof(float));
    ASSERT_NE(buf2, nullptr);
    ASSERT_EQ(dnnl_memory_set_data_handle(mem, buf2), dnnl_success);
    EXPECT_EQ(mem_object(mem), buf2);
    EXPECT_EQ(mem_refcount(buf), refs0); // the previous one was let go
    write_pattern(mem, 4.f);
    expect_pattern(mem, 4.f);

    // Back to no buffer at all.
    ASSERT_EQ(
            dnnl_ocl_interop_memory_set_mem_object(mem, nullptr), dnnl_success);
    EXPECT_EQ(mem_object(mem), nullptr);
    void *p = &p;
    EXPECT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
    EXPECT_EQ(p, nullptr);

    dnnl_memory_destroy(mem);
    clReleaseMemObject(buf);
    clReleaseMemObject(buf2);
}

TEST_F(ocl_memory_test, memory_none_then_set)
{
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_memory_create(&mem, md_, engine_,
                      dnnl_ocl_interop_buffer, DNNL_MEMORY_NONE),
            dnnl_success);
    EXPECT_EQ(mem_object(mem), nullptr);
    void *p = &p;
    EXPECT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
    EXPECT_EQ(p, nullptr);
    EXPECT_EQ(dnnl_memory_unmap_data(mem, nullptr), dnnl_success);

    cl_mem buf = make_buffer(n_elems * sizeof(float));
    ASSERT_NE(buf, nullptr);
    ASSERT_EQ(dnnl_ocl_interop_memory_set_mem_object(mem, buf), dnnl_success);
    write_pattern(mem, 8.f);
    expect_pattern(mem, 8.f);
    dnnl_memory_destroy(mem);
    clReleaseMemObject(buf);
}

TEST_F(ocl_memory_test, zero_size_memory)
{
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t dims = {2, 0};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_get_size(md), 0u);
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_memory_create(&mem, md, engine_, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    EXPECT_EQ(mem_object(mem), nullptr);
    void *p = &p;
    EXPECT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
    EXPECT_EQ(p, nullptr);
    EXPECT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    dnnl_memory_destroy(mem);

    // A zero-size memory may still carry a user buffer.
    cl_mem buf = make_buffer(64);
    ASSERT_NE(buf, nullptr);
    ASSERT_EQ(dnnl_ocl_interop_memory_create(
                      &mem, md, engine_, dnnl_ocl_interop_buffer, buf),
            dnnl_success);
    EXPECT_EQ(mem_object(mem), buf);
    EXPECT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
    EXPECT_EQ(p, nullptr);
    dnnl_memory_destroy(mem);
    clReleaseMemObject(buf);

    // The empty descriptor as well.
    ASSERT_EQ(dnnl_memory_create(&mem, nullptr, engine_, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    EXPECT_EQ(mem_object(mem), nullptr);
    dnnl_memory_destroy(mem);
    dnnl_memory_desc_destroy(md);
}

TEST_F(ocl_memory_test, bad_inputs)
{
    dnnl_memory_t mem = nullptr;
    // Buffers of another context are refused, and not retained.
    cl_int err = CL_SUCCESS;
    cl_context other =
            clCreateContext(nullptr, 1, &dev_, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem foreign = make_buffer(n_elems * sizeof(float), other);
    ASSERT_NE(foreign, nullptr);
    const cl_uint refs0 = mem_refcount(foreign);
    EXPECT_EQ(dnnl_ocl_interop_memory_create(
                      &mem, md_, engine_, dnnl_ocl_interop_buffer, foreign),
            dnnl_invalid_arguments);
    EXPECT_EQ(mem_refcount(foreign), refs0);

    ASSERT_EQ(dnnl_memory_create(&mem, md_, engine_, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    cl_mem own = mem_object(mem);
    EXPECT_EQ(dnnl_ocl_interop_memory_set_mem_object(mem, foreign),
            dnnl_invalid_arguments);
    EXPECT_EQ(mem_object(mem), own); // unchanged after a refusal
    EXPECT_EQ(dnnl_memory_set_data_handle(mem, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_mem_object(mem, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(mem, nullptr),
            dnnl_invalid_arguments);
    dnnl_memory_destroy(mem);
    clReleaseMemObject(foreign);
    clReleaseContext(other);

    // A user buffer smaller than the descriptor cannot be mapped whole.
    cl_mem small = make_buffer(16);
    ASSERT_NE(small, nullptr);
    ASSERT_EQ(dnnl_memory_create(&mem, md_, engine_, small), dnnl_success);
    void *p = nullptr;
    EXPECT_EQ(dnnl_memory_map_data(mem, &p), dnnl_invalid_arguments);
    EXPECT_EQ(p, nullptr);
    dnnl_memory_destroy(mem);
    clReleaseMemObject(small);

    // Null outputs and handles, other engines, handle counts.
    void *handles[2] = {DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_ALLOCATE};
    EXPECT_EQ(dnnl_ocl_interop_memory_create(nullptr, md_, engine_,
                      dnnl_ocl_interop_buffer, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&mem, md_, nullptr,
                      dnnl_ocl_interop_buffer, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_create_v2(
                      &mem, md_, engine_, dnnl_ocl_interop_buffer, 0, handles),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_create_v2(
                      &mem, md_, engine_, dnnl_ocl_interop_buffer, 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_create_v2(
                      &mem, md_, engine_, dnnl_ocl_interop_buffer, 2, handles),
            dnnl_unimplemented);

    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(dnnl_ocl_interop_memory_create(&mem, md_, cpu,
                      dnnl_ocl_interop_buffer, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    dnnl_memory_t cpu_mem = nullptr;
    ASSERT_EQ(dnnl_memory_create(&cpu_mem, md_, cpu, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    cl_mem m = nullptr;
    dnnl_ocl_interop_memory_kind_t kind;
    EXPECT_EQ(dnnl_ocl_interop_memory_get_mem_object(cpu_mem, &m),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_memory_kind(cpu_mem, &kind),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_set_mem_object(cpu_mem, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_memory_get_mem_object(nullptr, &m),
            dnnl_invalid_arguments);
    dnnl_memory_destroy(cpu_mem);
    dnnl_engine_destroy(cpu);
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
