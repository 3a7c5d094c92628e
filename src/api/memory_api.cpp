// C API: memory objects (one buffer, or several for sparse memory).
#include <new>

#include "api/c_enum.hpp"
#include "common/host_scalar.hpp"
#include "common/memory.hpp"
#include "common/sparse_md.hpp"
#include "common/stream.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

size_t dnnl_data_type_size(dnnl_data_type_t data_type_arg) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    return data_type_size(data_type);
}

// Checks shared by every memory creation: a layout fixed and known.
static status_t check_memory_md(const memory_desc_t &desc) {
    if (desc.format_kind == dnnl_format_kind_any) {
        verbose_error("memory", "format_kind any cannot back a memory object");
        return dnnl_invalid_arguments;
    }
    if (is_host_scalar(desc)) {
        verbose_error("memory",
                "a host scalar is made by dnnl_memory_create_host_scalar");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(desc)) {
        verbose_error("memory", "runtime dimensions or strides in a memory object");
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

static status_t create_memory(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t md, dnnl_engine_t engine, void *handle) {
    if (!memory || !engine) return dnnl_invalid_arguments;
    memory_desc_t desc = md ? *md : zero_md();
    DNNL_CHECK(check_memory_md(desc));
    if (desc.format_kind != dnnl_blocked && !is_zero_md(desc))
        return dnnl_unimplemented;
    const size_t size = md_size(desc);
    std::unique_ptr<memory_storage_t> storage;
    if (size == 0 && handle == DNNL_MEMORY_ALLOCATE) handle = DNNL_MEMORY_NONE;
    DNNL_CHECK(engine->create_memory_storage(storage, handle, size));
    *memory = new (std::nothrow) dnnl_memory(engine, desc, std::move(storage));
    return *memory ? dnnl_success : dnnl_out_of_memory;
}

// Memory with several handles (`dnnl_memory_create_v2`): one storage per
// handle given, each allocated by the library or the user's, of the size of
// the descriptor's buffer with that index (values first, then a sparse
// encoding's metadata; a dense descriptor has one buffer, further handles
// get empty storages). As in oneDNN any number of handles from one on is
// taken: a sparse memory given fewer handles than its encoding has buffers
// lacks the others (an execution that needs them is refused).
static status_t create_memory_v2(dnnl_memory_t *memory,
        const memory_desc_t &desc, dnnl_engine_t engine, int nhandles,
        void **handles) {
    DNNL_CHECK(check_memory_md(desc));
    if (md_is_sparse(desc)) {
        if (md_sparse_encoding(desc) == dnnl_packed) {
            // Its layout exists only once an implementation resolved it.
            verbose_error("memory",
                    "a packed sparse descriptor cannot back a memory object");
            return dnnl_invalid_arguments;
        }
        if (engine->kind() != dnnl_cpu) {
            verbose_error("memory", "sparse memory is supported on cpu only");
            return dnnl_unimplemented;
        }
    } else if (desc.format_kind != dnnl_blocked && !is_zero_md(desc)) {
        return dnnl_unimplemented;
    }
    std::vector<std::unique_ptr<memory_storage_t>> storages(nhandles);
    for (int i = 0; i < nhandles; ++i) {
        const size_t size = md_buffer_size(desc, i);
        void *handle = handles[i];
        if (size == 0 && handle == DNNL_MEMORY_ALLOCATE)
            handle = DNNL_MEMORY_NONE;
        DNNL_CHECK(engine->create_memory_storage(storages[i], handle, size));
    }
    *memory = new (std::nothrow) dnnl_memory(engine, desc, std::move(storages));
    return *memory ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine, void *handle) {
    return create_memory(memory, memory_desc, engine, handle);
}

dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        int nhandles, void **handles) {
    if (!memory || !engine || nhandles <= 0 || !handles)
        return dnnl_invalid_arguments;
    if (nhandles == 1 && !(memory_desc && md_is_sparse(*memory_desc)))
        return create_memory(memory, memory_desc, engine, handles[0]);
    return create_memory_v2(memory, memory_desc ? *memory_desc : zero_md(),
            engine, nhandles, handles);
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
    if (!memory || !mapped_ptr || index < 0 || index >= memory->nhandles())
        return dnnl_invalid_arguments;
    memory_storage_t *storage = memory->storage(index);
    if (!storage || !storage->data_handle()) {
        *mapped_ptr = nullptr;
        return dnnl_success;
    }
    return storage->map_data(
            mapped_ptr, nullptr, md_buffer_size(memory->md(), index));
}

dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory, void **mapped_ptr) {
    return dnnl_memory_map_data_v2(memory, mapped_ptr, 0);
}

dnnl_status_t dnnl_memory_unmap_data_v2(
        const_dnnl_memory_t memory, void *mapped_ptr, int index) {
    if (!memory || index < 0 || index >= memory->nhandles())
        return dnnl_invalid_arguments;
    if (!mapped_ptr || !memory->storage(index)) return dnnl_success;
    return memory->storage(index)->unmap_data(mapped_ptr, nullptr);
}

dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory, void *mapped_ptr) {
    return dnnl_memory_unmap_data_v2(memory, mapped_ptr, 0);
}

dnnl_status_t dnnl_memory_get_data_handle_v2(
        const_dnnl_memory_t memory, void **handle, int index) {
    if (!memory || !handle || index < 0 || index >= memory->nhandles())
        return dnnl_invalid_arguments;
    if (is_host_scalar(memory->md())) {
        verbose_error("memory", "a host scalar has no data handle");
        return dnnl_invalid_arguments;
    }
    *handle = memory->host_ptr(index);
    return dnnl_success;
}

dnnl_status_t dnnl_memory_get_data_handle(const_dnnl_memory_t memory, void **handle) {
    return dnnl_memory_get_data_handle_v2(memory, handle, 0);
}

dnnl_status_t dnnl_memory_set_data_handle_v2(
        dnnl_memory_t memory, void *handle, int index) {
    if (!memory || !memory->storage(index)) return dnnl_invalid_arguments;
    if (handle == DNNL_MEMORY_ALLOCATE) return dnnl_invalid_arguments;
    if (is_host_scalar(memory->md())) {
        verbose_error("memory", "a host scalar has no data handle");
        return dnnl_invalid_arguments;
    }
    return memory->storage(index)->set_data_handle(handle);
}

dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory, void *handle) {
    return dnnl_memory_set_data_handle_v2(memory, handle, 0);
}

dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory) {
    delete memory;
    return dnnl_success;
}
