// C API: host-scalar memory objects (creation from a value, reading and
// writing the value). Their descriptors come from
// dnnl_memory_desc_create_host_scalar (memory_desc_api.cpp).
#include <new>

#include "common/host_scalar.hpp"
#include "common/memory.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {
size_t scalar_size(const memory_t *m) {
    return m && is_host_scalar(m->md()) ? data_type_size(m->md().data_type) : 0;
}
} // namespace

dnnl_status_t dnnl_memory_create_host_scalar(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, void *scalar_ptr) {
    if (!memory || !memory_desc || !scalar_ptr) return dnnl_invalid_arguments;
    if (!is_host_scalar(*memory_desc)) {
        verbose_error("memory", "not a host-scalar memory descriptor");
        return dnnl_invalid_arguments;
    }
    const size_t size = data_type_size(memory_desc->data_type);
    if (size == 0 || size > 8) return dnnl_invalid_arguments;
    std::unique_ptr<memory_storage_t> storage(
            new (std::nothrow) host_scalar_storage_t(scalar_ptr, size));
    if (!storage) return dnnl_out_of_memory;
    *memory = new (std::nothrow)
            dnnl_memory(nullptr, *memory_desc, std::move(storage));
    return *memory ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_memory_get_host_scalar_value(
        const_dnnl_memory_t memory, void *value) {
    const size_t size = scalar_size(memory);
    if (!value || size == 0) return dnnl_invalid_arguments;
    std::memcpy(value, memory->host_ptr(), size);
    return dnnl_success;
}

dnnl_status_t dnnl_memory_set_host_scalar_value(
        dnnl_memory_t memory, const void *value) {
    const size_t size = scalar_size(memory);
    if (!value || size == 0) return dnnl_invalid_arguments;
    std::memcpy(memory->host_ptr(), value, size);
    return dnnl_success;
}
