// OpenCL helpers of the gpu backend: error-code conversion with verbose
// reporting, typed info queries, and the ordered list of OpenCL devices
// that engine kind `gpu` enumerates.
#pragma once

#include <CL/cl.h>

#include <vector>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Maps an OpenCL error code to a library status: allocation failures to
// dnnl_out_of_memory, every other failure to dnnl_runtime_error.
status_t convert_cl_error(cl_int err);

// Converts `err` and, when it is a failure, reports `what` (the OpenCL call
// that failed) through verbose errors.
status_t check_cl(cl_int err, const char *what);

// Returns from the enclosing function when an OpenCL call fails.
#define OCL_CHECK(call)                                                        \
    do {                                                                       \
        cl_int ocl_err_ = (call);                                              \
        if (ocl_err_ != CL_SUCCESS)                                            \
            return ::dnnl::impl::gpu::ocl::check_cl(ocl_err_, #call);          \
    } while (0)

// Reads a fixed-size info value of an OpenCL object; a failure leaves
// `value` untouched and returns the OpenCL error.
template <typename F, typename Obj, typename Param, typename T>
cl_int get_info(F f, Obj obj, Param param, T &value)
{
    return f(obj, param, sizeof(T), &value, nullptr);
}

// The available OpenCL devices behind engine kind `gpu`, in engine-index
// order: the GPU-type devices of every platform (platforms in the loader's
// order), then the other devices of every platform (CPU devices such as
// PoCL's, accelerators), each device once. Empty when there is no
// OpenCL platform at all.
std::vector<cl_device_id> enumerate_devices();

// Index of `device` in enumerate_devices(), or -1 when it is not there
// (a sub-device, or a device of a platform that vanished).
int device_index(cl_device_id device);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
