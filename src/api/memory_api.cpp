// C API: memory objects.
#include <new>

#include "api/c_enum.hpp"
#include "common/memory.hpp"
#include "common/stream.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

size_t dnnl_data_type_size(dnnl_data_type_t data_type_arg) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    return data_type_size(data_type);
}

static status_t create_memory(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t md, dnnl_engine_t engine, void *handle) {
    if (!memory || !engine) return dnnl_invalid_arguments;
    memory_desc_t desc = md ? *md : zero_md();
    if (desc.format_kind == dnnl_format_kind_any) {
        verbose_error("memory", "format_kind any cannot back a memory object");
        return dnnl_invalid_arguments;
    }
    if (desc.format_kind != dnnl_blocked && !is_zero_md(desc))
        return dnnl_unimplemented;
    if (md_has_runtime_dims_or_strides(desc)) {
        verbose_error("memory", "runtime dimensions or strides in a memory object");
        return dnnl_invalid_arguments;
    }
    const size_t size = md_size(desc);
    std::unique_ptr<memory_storage_t> storage;
    if (size == 0 && handle == DNNL_MEMORY_ALLOCATE) handle = DNNL_MEMORY_NONE;
    DNNL_CHECK(engine->create_memory_storage(storage, handle, size));
    *memory = new (std::nothrow) dnnl_memory(engine, desc, std::move(storage));
    return *memory ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine, void *handle) {
    return create_memory(memory, memory_desc, engine, handle);
}

dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        int nhandles, void **handles) {
    if (nhandles != 1 || !handles) {
        // Several buffers are only meaningful for sparse memory.
        return nhandles > 1 ? dnnl_unimplemented : dnnl_invalid_arguments;
    }
    return create_memory(memory, memory_desc, engine, handles[0]);
}

dnnl_status_t dnnl_memory_get_memory_desc(
        const_dnnl_memory_t memory, const_dnnl_memory_desc_t *memory_desc) {
    if (!memory || !memory_desc) return dnnl_invalid_arguments;
    *memory_desc = &memory->md();
    return dnnl_success;
}

dnnl_status_t dnnl_memory_get_engine(const_dnnl_memory_t memory, dnnl_engine_t *engine) {
    if (!memory || !engine) return dnnl_invalid_arguments;
    *engine = memory->engine();
    return dnnl_success;
}

dnnl_status_t dnnl_memory_map_data_v2(
        const_dnnl_memory_t memory, void **mapped_ptr, int index) {
    if (!memory || !mapped_ptr || index != 0) return dnnl_invalid_arguments;
    if (!memory->storage() || !memory->storage()->data_handle()) {
        *mapped_ptr = nullptr;
        return dnnl_success;
    }
    return memory->storage()->map_data(mapped_ptr, nullptr, md_size(memory->md()));
}

dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory, void **mapped_ptr) {
    return dnnl_memory_map_data_v2(memory, mapped_ptr, 0);
}

dnnl_status_t dnnl_memory_unmap_data_v2(
        const_dnnl_memory_t memory, void *mapped_ptr, int index) {
    if (!memory || index != 0) return dnnl_invalid_arguments;
    if (!mapped_ptr || !memory->storage()) return dnnl_success;
    return memory->storage()->unmap_data(mapped_ptr, nullptr);
}

dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory, void *mapped_ptr) {
    return dnnl_memory_unmap_data_v2(memory, mapped_ptr, 0);
}

dnnl_status_t dnnl_memory_get_data_handle_v2(
        const_dnnl_memory_t memory, void **handle, int index) {
    if (!memory || !handle || index != 0) return dnnl_invalid_arguments;
    *handle = memory->storage() ? memory->storage()->data_handle() : nullptr;
    return dnnl_success;
}

dnnl_status_t dnnl_memory_get_data_handle(const_dnnl_memory_t memory, void **handle) {
    return dnnl_memory_get_data_handle_v2(memory, handle, 0);
}

dnnl_status_t dnnl_memory_set_data_handle_v2(
        dnnl_memory_t memory, void *handle, int index) {
    if (!memory || index != 0 || !memory->storage()) return dnnl_invalid_arguments;
    if (handle == DNNL_MEMORY_ALLOCATE) return dnnl_invalid_arguments;
    return memory->storage()->set_data_handle(handle);
}

dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory, void *handle) {
    return dnnl_memory_set_data_handle_v2(memory, handle, 0);
}

dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory) {
    delete memory;
    return dnnl_success;
}
