// Device facts: one query per device, then a lookup.
#include "gpu/ocl/ocl_device_info.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "gpu/ocl/ocl_utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

static std::string info_string(cl_device_id d, cl_device_info what) {
    size_t n = 0;
    if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        return "";
    std::vector<char> buf(n);
    if (clGetDeviceInfo(d, what, n, buf.data(), nullptr) != CL_SUCCESS)
        return "";
    return std::string(buf.data());
}

static bool has_word(const std::string &list, const char *word) {
    const std::string w(word);
    size_t pos = 0;
    while ((pos = list.find(w, pos)) != std::string::npos) {
        size_t end = pos + w.size();
        bool starts = pos == 0 || list[pos - 1] == ' ';
        bool ends = end == list.size() || list[end] == ' ';
        if (starts && ends) return true;
        pos = end;
    }
    return false;
}

static status_t query(cl_device_id d, device_info_t &di) {
    OCL_CHECK(get_info(clGetDeviceInfo, d, CL_DEVICE_TYPE, di.type));
    di.name = info_string(d, CL_DEVICE_NAME);
    di.vendor_name = info_string(d, CL_DEVICE_VENDOR);
    di.driver_version = info_string(d, CL_DRIVER_VERSION);
    cl_platform_id platform = nullptr;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_PLATFORM, platform)
            == CL_SUCCESS) {
        size_t n = 0;
        if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &n)
                        == CL_SUCCESS
                && n > 0) {
            std::vector<char> buf(n);
            if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, n, buf.data(),
                        nullptr)
                    == CL_SUCCESS)
                di.platform_name = buf.data();
        }
    }
    const std::string lower_vendor = di.vendor_name + " " + di.platform_name;
    if (lower_vendor.find("NVIDIA") != std::string::npos)
        di.vendor = device_vendor_t::nvidia;
    else if (lower_vendor.find("Intel") != std::string::npos)
        di.vendor = device_vendor_t::intel;
    else if (lower_vendor.find("Advanced Micro") != std::string::npos
            || lower_vendor.find("AMD") != std::string::npos)
        di.vendor = device_vendor_t::amd;
    if (di.platform_name.find("Portable Computing Language")
            != std::string::npos)
        di.vendor = device_vendor_t::pocl;

    // "OpenCL C 1.2 ..." (devices of OpenCL 3.0 may report 1.2 here).
    const std::string cver = info_string(d, CL_DEVICE_OPENCL_C_VERSION);
    int major = 1, minor = 2;
    if (sscanf(cver.c_str(), "OpenCL C %d.%d", &major, &minor) == 2) {
        di.ocl_major = major;
        di.ocl_minor = minor;
    }
    cl_uint u = 0;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_MAX_COMPUTE_UNITS, u)
            == CL_SUCCESS)
        di.compute_units = (int)u;
    get_info(clGetDeviceInfo, d, CL_DEVICE_MAX_WORK_GROUP_SIZE, di.max_wg_size);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(di.max_wi_sizes),
            di.max_wi_sizes, nullptr);
    cl_ulong ul = 0;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_LOCAL_MEM_SIZE, ul)
            == CL_SUCCESS)
        di.local_mem_size = (size_t)ul;
    cl_device_local_mem_type lt = CL_LOCAL;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_LOCAL_MEM_TYPE, lt)
            == CL_SUCCESS)
        di.local_mem_is_global = lt == CL_GLOBAL;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, ul)
            == CL_SUCCESS)
        di.max_alloc_size = (size_t)ul;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_GLOBAL_MEM_SIZE, ul)
            == CL_SUCCESS)
        di.global_mem_size = (size_t)ul;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, u)
            == CL_SUCCESS)
        di.pref_vec_float = (int)u;
    if (get_info(clGetDeviceInfo, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, u)
            == CL_SUCCESS)
        di.pref_vec_half = (int)u;
    di.extensions = info_string(d, CL_DEVICE_EXTENSIONS);
    di.has_fp16 = has_word(di.extensions, "cl_khr_fp16");
    di.has_fp64 = has_word(di.extensions, "cl_khr_fp64");
    di.has_subgroups = has_word(di.extensions, "cl_khr_subgroups");
    di.has_intel_subgroups = has_word(di.extensions, "cl_intel_subgroups");
    return dnnl_success;
}

std::string device_info_t::summary() const {
    return platform_name + ":" + name + ":" + driver_version;
}

status_t get_device_info(cl_device_id device, const device_info_t *&info) {
    // Never destroyed: engines may outlive static destruction.
    static std::mutex *mutex = new std::mutex;
    static auto *known
            = new std::map<cl_device_id, std::unique_ptr<device_info_t>>;
    std::lock_guard<std::mutex> lock(*mutex);
    auto it = known->find(device);
    if (it == known->end()) {
        std::unique_ptr<device_info_t> di(new device_info_t);
        status_t st = query(device, *di);
        if (st != dnnl_success) return st;
        it = known->emplace(device, std::move(di)).first;
    }
    info = it->second.get();
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
