// Fixture of the tests of primitives on the gpu engine: skips without an
// OpenCL device, holds an engine and a stream, and empties the primitive
// and kernel caches after the suite, so the OpenCL objects its primitives
// hold (programs, buffers, with their references on the shared default
// context) do not outlive it into tests that count those references.
// forced_gemm_t: the GEMM kernels' choice forced for a scope.
#pragma once

#include <cstdlib>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.hpp"

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
