// The CPU engine: host memory (64-byte aligned), in-order streams that run
// primitives synchronously (threaded by cpu/threading), and the CPU
// implementation lists.
#pragma once

#include "common/engine.hpp"
#include "common/memory_storage.hpp"
#include "common/stream.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

class cpu_memory_storage_t : public memory_storage_t {
public:
    cpu_memory_storage_t(engine_t *engine) : memory_storage_t(engine) {}
    ~cpu_memory_storage_t() override;
    status_t allocate(size_t size);
    void *data_handle() const override { return ptr_; }
    status_t set_data_handle(void *handle) override;
    status_t map_data(void **ptr, stream_t *, size_t) const override {
        *ptr = ptr_;
        return dnnl_success;
    }
    status_t unmap_data(void *, stream_t *) const override { return dnnl_success; }
    bool is_host_accessible() const override { return true; }
    size_t owned_size() const override { return owned_ ? size_ : 0; }

private:
    void release();
    void *ptr_ = nullptr;
    size_t size_ = 0;
    bool owned_ = false;
};

class cpu_stream_t : public stream_t {
public:
    cpu_stream_t(engine_t *engine, unsigned flags) : stream_t(engine, flags) {}
    status_t wait() override { return dnnl_success; }
};

class cpu_engine_t : public engine_t {
public:
    cpu_engine_t() : engine_t(dnnl_cpu, runtime_kind_t::omp, 0) {}
    status_t create_stream(stream_t **stream, unsigned flags) override;
    status_t create_memory_storage(std::unique_ptr<memory_storage_t> &storage,
            void *handle, size_t size) override;
    const impl_list_item_t *get_implementation_list(
            const op_desc_t &desc) const override;
    int max_threads() const override;
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
