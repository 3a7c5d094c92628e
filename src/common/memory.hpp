// memory_t (behind dnnl_memory_t): a memory descriptor, an engine and the
// storage holding the data.
#pragma once

#include <memory>

#include "common/memory_desc.hpp"
#include "common/memory_storage.hpp"

struct dnnl_memory {
    using status_t = dnnl::impl::status_t;
    dnnl_memory(dnnl::impl::engine_t *engine, const dnnl::impl::memory_desc_t &md,
            std::unique_ptr<dnnl::impl::memory_storage_t> storage)
        : engine_(engine), md_(md), storage_(std::move(storage)) {}

    dnnl::impl::engine_t *engine() const { return engine_.get(); }
    const dnnl::impl::memory_desc_t &md() const { return md_; }
    dnnl::impl::memory_storage_t *storage() const { return storage_.get(); }
    // Host pointer of the data for CPU memory (null for an empty buffer).
    void *host_ptr() const { return storage_ ? storage_->data_handle() : nullptr; }

private:
    dnnl::impl::engine_ref_t engine_;
    dnnl::impl::memory_desc_t md_;
    std::unique_ptr<dnnl::impl::memory_storage_t> storage_;
};

namespace dnnl {
namespace impl {
}
} // namespace dnnl
