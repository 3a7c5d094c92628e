// Cache blobs of OpenCL engines (dnnl_ocl_interop_engine_get_cache_blob_id,
// _get_cache_blob, _create_from_cache_blob) and the device part of every
// blob id. Beyond oneDNN, whose engine blob holds device facts only, ours
// carries the compiled programs the kernel cache holds for the device: an
// engine restored from it starts with them in its kernel cache, so the
// first primitive creations compile nothing.
#include "oneapi/dnnl/dnnl_ext.h"
#include "oneapi/dnnl/dnnl_ocl.h"

#include <cstdio>
#include <cstring>

#include "common/cache/blob_id.hpp"
#include "common/cache/engine_blob.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_kernel.hpp"
#include "gpu/ocl/ocl_kernel_sources.hpp"
#include "gpu/ocl/ocl_utils.hpp"

using namespace dnnl::impl;
using namespace dnnl::impl::gpu::ocl;

namespace {
// What compiled code depends on beyond the library build: the platform,
// the device and its driver (as oneDNN's id), and the kernel sources.
std::string device_part(const device_info_t &info) {
    char digest[24];
    std::snprintf(digest, sizeof(digest), "%016llx",
            (unsigned long long)kernel_sources_digest());
    return info.platform_name + '\n' + info.name + '\n' + info.driver_version
            + '\n' + digest;
}

status_t engine_id_of(cl_device_id device, std::string &id) {
    cl_device_type type = 0;
    if (!device
            || get_info(clGetDeviceInfo, device, CL_DEVICE_TYPE, type)
                    != CL_SUCCESS) {
        verbose_error("ocl", "cache blob id: not a valid cl_device_id");
        return dnnl_invalid_arguments;
    }
    const device_info_t *info = nullptr;
    DNNL_CHECK(get_device_info(device, info));
    id = blob::engine_blob_id(device_part(*info));
    return dnnl_success;
}

// Copies `bytes` out in the size-query-then-copy style of the C API: a
// null `out` asks for the size, a smaller `size` is refused.
status_t copy_out(const std::vector<uint8_t> &bytes, size_t *size,
        uint8_t *out, const char *what) {
    if (!out) {
        *size = bytes.size();
        return dnnl_success;
    }
    if (*size < bytes.size()) {
        verbose_error("cache_blob", "%s: %zu bytes given where %zu are needed",
                what, *size, bytes.size());
        return dnnl_invalid_arguments;
    }
    if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
    *size = bytes.size();
    return dnnl_success;
}
} // namespace

std::string ocl_engine_t::cache_blob_device_id() const {
    return device_part(info());
}

dnnl_status_t dnnl_ocl_interop_engine_get_cache_blob_id(
        cl_device_id device, size_t *size, uint8_t *cache_blob_id) {
    if (!size) return dnnl_invalid_arguments;
    std::string id;
    DNNL_CHECK(engine_id_of(device, id));
    return copy_out(std::vector<uint8_t>(id.begin(), id.end()), size,
            cache_blob_id, "engine blob id");
}

dnnl_status_t dnnl_ocl_interop_engine_get_cache_blob(
        dnnl_engine_t engine, size_t *size, uint8_t *cache_blob) {
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e || !size) return dnnl_invalid_arguments;
    blob::named_binaries_t programs;
    DNNL_CHECK(saved_programs(e, programs));
    const std::string id = blob::engine_blob_id(e->cache_blob_device_id());
    return copy_out(blob::write_engine_blob(id, programs), size, cache_blob,
            "engine blob");
}

dnnl_status_t dnnl_ocl_interop_engine_create_from_cache_blob(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        size_t size, const uint8_t *cache_blob) {
    if (!engine || !device || !context || !cache_blob || size == 0)
        return dnnl_invalid_arguments;
    std::string want, id;
    DNNL_CHECK(engine_id_of(device, want));
    std::vector<blob::program_view_t> programs;
    DNNL_CHECK(blob::read_engine_blob(cache_blob, size, id, programs));
    if (id != want) {
        verbose_error("cache_blob", "engine blob: made for %s",
                blob::id_difference(id, want));
        return dnnl_invalid_arguments;
    }
    dnnl_engine_t e = nullptr;
    DNNL_CHECK(dnnl_ocl_interop_engine_create(&e, device, context));
    for (const auto &p : programs) {
        const std::string pid(reinterpret_cast<const char *>(p.id), p.id_size);
        status_t st = restore_program(e, pid, p.binary, p.binary_size);
        if (st != dnnl_success) {
            e->release();
            return st;
        }
    }
    *engine = e;
    return dnnl_success;
}

dnnl_status_t dnnl_ext_ocl_get_program_counts(
        int64_t *compiled, int64_t *loaded) {
    if (compiled) *compiled = program_builds();
    if (loaded) *loaded = program_loads();
    return dnnl_success;
}
