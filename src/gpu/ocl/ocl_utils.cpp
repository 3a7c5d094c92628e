// OpenCL error conversion, info strings and device enumeration.
#include "gpu/ocl/ocl_utils.hpp"

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

status_t convert_cl_error(cl_int err)
{
    switch (err) {
    case CL_SUCCESS:
        return dnnl_success;
    case CL_OUT_OF_RESOURCES:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_INVALID_BUFFER_SIZE:
        return dnnl_out_of_memory;
    default:
        return dnnl_runtime_error;
    }
}

status_t check_cl(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        verbose_error("ocl", "%s failed with OpenCL error %d", what, (int)err);
    return convert_cl_error(err);
}

// All devices of one platform; empty when the platform has none (which
// OpenCL reports as CL_DEVICE_NOT_FOUND).
static std::vector<cl_device_id> platform_devices(cl_platform_id platform)
{
    cl_uint n = 0;
    cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
    if (err != CL_SUCCESS || n == 0) return {};
    std::vector<cl_device_id> devices(n);
    err = clGetDeviceIDs(
            platform, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr);
    if (err != CL_SUCCESS) return {};
    return devices;
}

std::vector<cl_device_id> enumerate_devices()
{
    // Without any installed driver the ICD loader answers
    // CL_PLATFORM_NOT_FOUND_KHR (-1001): that simply means no device.
    cl_uint nplatforms = 0;
    if (clGetPlatformIDs(0, nullptr, &nplatforms) != CL_SUCCESS
            || nplatforms == 0)
        return {};
    std::vector<cl_platform_id> platforms(nplatforms);
    if (clGetPlatformIDs(nplatforms, platforms.data(), nullptr) != CL_SUCCESS)
        return {};

    std::vector<cl_device_id> gpus, others;
    for (cl_platform_id p : platforms) {
        for (cl_device_id d : platform_devices(p)) {
            cl_device_type type = 0;
            cl_bool available = CL_FALSE;
            if (get_info(clGetDeviceInfo, d, CL_DEVICE_TYPE, type) != CL_SUCCESS
                    || get_info(clGetDeviceInfo, d, CL_DEVICE_AVAILABLE,
                               available)
                               != CL_SUCCESS
                    || !available)
                continue;
            // A driver registered twice with the ICD loader shows its
            // devices twice: one engine index per device is enough.
            bool seen = false;
            for (const auto *list : {&gpus, &others})
                for (cl_device_id e : *list) seen = seen || e == d;
            if (!seen) (type & CL_DEVICE_TYPE_GPU ? gpus : others).push_back(d);
        }
    }
    gpus.insert(gpus.end(), others.begin(), others.end());
    return gpus;
}

int device_index(cl_device_id device)
{
    const auto devices = enumerate_devices();
    for (size_t i = 0; i < devices.size(); ++i)
        if (devices[i] == device) return (int)i;
    return -1;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
