// Facts about an OpenCL device that drive kernel choices (work-group and
// tile sizes, extension paths), queried once per device and kept for the
// process's lifetime (they hold no OpenCL object).
#pragma once

#include <CL/cl.h>

#include <string>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

enum class device_vendor_t { other, nvidia, intel, amd, pocl };

struct device_info_t {
    std::string name, vendor_name, driver_version, platform_name;
    device_vendor_t vendor = device_vendor_t::other;
    cl_device_type type = 0;
    int ocl_major = 1, ocl_minor = 2; // device OpenCL C version
    int compute_units = 1;
    size_t max_wg_size = 1;
    size_t max_wi_sizes[3] = {1, 1, 1};
    size_t local_mem_size = 0; // bytes, 0 when local memory is emulated
    bool local_mem_is_global = false;
    size_t max_alloc_size = 0;
    size_t global_mem_size = 0;
    int pref_vec_float = 1, pref_vec_half = 0;
    bool has_fp16 = false; // cl_khr_fp16
    bool has_fp64 = false; // cl_khr_fp64
    bool has_subgroups = false; // cl_khr_subgroups
    bool has_intel_subgroups = false; // cl_intel_subgroups
    std::string extensions;

    bool is_gpu() const { return (type & CL_DEVICE_TYPE_GPU) != 0; }
    // One line for verbose and the engine blob id.
    std::string summary() const;
};

// The facts of `device`, queried on first use (thread-safe).
status_t get_device_info(cl_device_id device, const device_info_t *&info);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
