// C API: primitive cache blobs (dnnl_primitive_get_cache_blob,
// dnnl_primitive_create_from_cache_blob). Engines whose primitives have no
// blobs (CPU) answer dnnl_unimplemented, as oneDNN does; the blob id
// queries are in common/primitive_iface.cpp.
#include <cstring>
#include <vector>

#include "oneapi/dnnl/dnnl_ext.h"

#include "common/cache/code_record.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_primitive_get_cache_blob(
        const_dnnl_primitive_t primitive, size_t *size, uint8_t *cache_blob) {
    if (!primitive || !size) return dnnl_invalid_arguments;
    if (primitive->engine()->cache_blob_device_id().empty())
        return dnnl_unimplemented;
    std::vector<uint8_t> blob;
    DNNL_CHECK(blob::write_primitive_blob(
            *primitive->impl(), primitive->engine(), blob));
    if (!cache_blob) {
        *size = blob.size();
        return dnnl_success;
    }
    if (*size < blob.size()) {
        verbose_error("cache_blob",
                "primitive blob: %zu bytes given where %zu are needed", *size,
                blob.size());
        return dnnl_invalid_arguments;
    }
    std::memcpy(cache_blob, blob.data(), blob.size());
    *size = blob.size();
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_create_from_cache_blob(dnnl_primitive_t *primitive,
        const_dnnl_primitive_desc_t primitive_desc, size_t size,
        const uint8_t *cache_blob) {
    if (!primitive || !primitive_desc || !cache_blob || size == 0)
        return dnnl_invalid_arguments;
    if (primitive_desc->engine()->cache_blob_device_id().empty())
        return dnnl_unimplemented;
    // The next creation on this thread (this one) restores from the blob;
    // a primitive-cache hit serves the request without reading it.
    restore_request_t request(cache_blob, size);
    return primitive_desc->create_primitive(primitive);
}

// Without the OpenCL backend nothing is ever compiled or loaded; the
// backend's strong definition (gpu/ocl/ocl_engine_blob.cpp) wins otherwise.
extern "C" __attribute__((weak)) dnnl_status_t dnnl_ext_ocl_get_program_counts(
        int64_t *compiled, int64_t *loaded) {
    if (compiled) *compiled = 0;
    if (loaded) *loaded = 0;
    return dnnl_success;
}
