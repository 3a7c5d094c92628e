// CPU engine, stream and memory storage.
#include "cpu/cpu_engine.hpp"

#include <cstdlib>
#include <new>

#include "common/op_desc.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

int cpu_engine_t::max_threads() const { return cpu::max_threads(); }

cpu_memory_storage_t::~cpu_memory_storage_t() { release(); }

void cpu_memory_storage_t::release() {
    if (owned_) std::free(ptr_);
    ptr_ = nullptr;
    owned_ = false;
    size_ = 0;
}

status_t cpu_memory_storage_t::allocate(size_t size) {
    release();
    if (size == 0) return dnnl_success;
    void *p = std::aligned_alloc(64, (size + 63) / 64 * 64);
    if (!p) return dnnl_out_of_memory;
    ptr_ = p;
    size_ = size;
    owned_ = true;
    return dnnl_success;
}

status_t cpu_memory_storage_t::set_data_handle(void *handle) {
    release();
    ptr_ = handle;
    return dnnl_success;
}

status_t cpu_engine_t::create_stream(stream_t **stream, unsigned flags) {
    *stream = new (std::nothrow) cpu_stream_t(this, flags);
    return *stream ? dnnl_success : dnnl_out_of_memory;
}

status_t cpu_engine_t::create_memory_storage(
        std::unique_ptr<memory_storage_t> &storage, void *handle, size_t size) {
    std::unique_ptr<cpu_memory_storage_t> s(new (std::nothrow) cpu_memory_storage_t(this));
    if (!s) return dnnl_out_of_memory;
    if (handle == DNNL_MEMORY_ALLOCATE) {
        DNNL_CHECK(s->allocate(size));
    } else {
        DNNL_CHECK(s->set_data_handle(handle));
    }
    storage = std::move(s);
    return dnnl_success;
}

const impl_list_item_t *cpu_engine_t::get_implementation_list(
        const op_desc_t &desc) const {
    return impl_list_for(desc.primitive_kind);
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
