// Fixture of the tests of primitives on the gpu engine: skips without an
// OpenCL device, holds an engine and a stream, and empties the primitive
// and kernel caches after the suite, so the OpenCL objects its primitives
// hold (programs, buffers, with their references on the shared default
// context) do not outlive it into tests that count those references.
// forced_gemm_t: the GEMM kernels' choice forced for a scope;
// device_has_fp64 for the f64 tests.
#pragma once

#include <CL/cl.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

// Whether the engine's OpenCL device has cl_khr_fp64 (f64 data).
inline bool device_has_fp64(const dnnl::engine &eng) {
    const cl_device_id dev = dnnl::ocl_interop::get_device(eng);
    size_t n = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, nullptr, &n) != CL_SUCCESS)
        return false;
    std::string ext(n, '\0');
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, n, &ext[0], nullptr);
    return ext.find("cl_khr_fp64") != std::string::npos;
}

class gpu_primitive_test : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl::engine::get_count(dnnl::engine::kind::gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
        eng = dnnl::engine(dnnl::engine::kind::gpu, 0);
        strm = dnnl::stream(eng);
    }
    static void TearDownTestSuite() {
        const int p = dnnl::get_primitive_cache_capacity();
        const int k = dnnl::get_kernel_cache_capacity();
        dnnl::set_primitive_cache_capacity(0);
        dnnl::set_kernel_cache_capacity(0);
        dnnl::set_primitive_cache_capacity(p);
        dnnl::set_kernel_cache_capacity(k);
    }
    // Programs built so far (kernel cache misses).
    static int64_t programs_built() {
        return dnnl::ext::get_kernel_cache_stats().misses;
    }

    dnnl::engine eng;
    dnnl::stream strm;
};

// Runs the scope with the GEMM choice forced through the environment
// (ONEDNN_OCL_GEMM_KERNEL, ONEDNN_OCL_GEMM_SPLITK: gemm_kernel.hpp) and
// the primitive cache off, so no primitive of another choice is reused.
struct forced_gemm_t {
    forced_gemm_t(const char *kernel, const char *splitk) {
        dnnl::set_primitive_cache_capacity(0);
        if (kernel) setenv("ONEDNN_OCL_GEMM_KERNEL", kernel, 1);
        if (splitk) setenv("ONEDNN_OCL_GEMM_SPLITK", splitk, 1);
    }
    ~forced_gemm_t() {
        unsetenv("ONEDNN_OCL_GEMM_KERNEL");
        unsetenv("ONEDNN_OCL_GEMM_SPLITK");
        dnnl::set_primitive_cache_capacity(1024);
    }
};
