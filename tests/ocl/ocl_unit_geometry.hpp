// For the tests of the unit kernels (softmax, normalizations, reduction):
// while an object of gpu_geometry_t lives, every OpenCL device plans and
// compiles those kernels as GPUs do (run-time lane counts, several units
// per work-group, shape-dependent groups), so a CPU device (PoCL) runs
// the GPU code paths too. The primitive cache is off meanwhile, so no
// primitive made under one geometry is served under the other.
#pragma once

#include <cstdlib>

#include "oneapi/dnnl/dnnl.hpp"

struct gpu_geometry_t {
    gpu_geometry_t() : capacity_(dnnl::get_primitive_cache_capacity()) {
        setenv("ONEDNN_OCL_UNIT_GEOMETRY", "gpu", 1);
        dnnl::set_primitive_cache_capacity(0);
    }
    ~gpu_geometry_t() {
        unsetenv("ONEDNN_OCL_UNIT_GEOMETRY");
        dnnl::set_primitive_cache_capacity(capacity_);
    }
    gpu_geometry_t(const gpu_geometry_t &) = delete;
    gpu_geometry_t &operator=(const gpu_geometry_t &) = delete;

private:
    int capacity_;
};

// While an object lives, the normalizations hold long units on chip with
// local memory (ONEDNN_OCL_NORM_HELD=1; they do by default) or, with
// `on` false, not (=0); create it inside a gpu_geometry_t, whose
// primitive cache is off.
struct norm_held_t {
    explicit norm_held_t(bool on = true) {
        setenv("ONEDNN_OCL_NORM_HELD", on ? "1" : "0", 1);
    }
    ~norm_held_t() { unsetenv("ONEDNN_OCL_NORM_HELD"); }
    norm_held_t(const norm_held_t &) = delete;
    norm_held_t &operator=(const norm_held_t &) = delete;
};
