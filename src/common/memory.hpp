// memory_t (behind dnnl_memory_t): a memory descriptor, an engine and the
// storage holding the data: one buffer, or for sparse descriptors one per
// buffer the encoding has (values first, then the metadata).
#pragma once

#include <memory>
#include <vector>

#include "common/memory_desc.hpp"
#include "common/memory_storage.hpp"

struct dnnl_memory {
    using status_t = dnnl::impl::status_t;
    using storage_ptr_t = std::unique_ptr<dnnl::impl::memory_storage_t>;
    dnnl_memory(dnnl::impl::engine_t *engine,
            const dnnl::impl::memory_desc_t &md, storage_ptr_t storage)
        : engine_(engine), md_(md) {
        storages_.push_back(std::move(storage));
    }
    // Several buffers (sparse memory); `storages` is not empty.
    dnnl_memory(dnnl::impl::engine_t *engine,
            const dnnl::impl::memory_desc_t &md,
            std::vector<storage_ptr_t> storages)
        : engine_(engine), md_(md), storages_(std::move(storages)) {}

    dnnl::impl::engine_t *engine() const { return engine_.get(); }
    const dnnl::impl::memory_desc_t &md() const { return md_; }
    int nhandles() const { return (int)storages_.size(); }
    // The storage of buffer `index`; null for an index it does not have.
    dnnl::impl::memory_storage_t *storage(int index = 0) const {
        return index >= 0 && index < nhandles() ? storages_[index].get()
                                                : nullptr;
    }
    // Host pointer of buffer `index` for CPU memory (null when empty).
    void *host_ptr(int index = 0) const {
        auto *s = storage(index);
        return s ? s->data_handle() : nullptr;
    }

private:
    dnnl::impl::engine_ref_t engine_;
    dnnl::impl::memory_desc_t md_;
    std::vector<storage_ptr_t> storages_;
};
