// engine_t (behind dnnl_engine_t): a device of some kind and runtime. The
// core knows engines only through this interface; backends derive from it.
#pragma once

#include <memory>
#include <string>

#include "common/c_types.hpp"
#include "common/utils.hpp"

namespace dnnl {
namespace impl {

struct memory_storage_t;
struct impl_list_item_t;
struct op_desc_t;

// What identifies an engine's device for caching: primitives created for
// equal ids are interchangeable (the cache key carries this, never the
// engine object itself).
struct engine_id_t {
    engine_kind_t kind = dnnl_any_engine;
    runtime_kind_t runtime = runtime_kind_t::none;
    size_t index = 0;
    // Handles compared by identity: cl_device_id and cl_context for OpenCL.
    uintptr_t device = 0;
    uintptr_t context = 0;

    // One field list; equality and hash derive from it.
    template <typename V>
    void visit(V &v) const {
        v("kind", kind);
        v("runtime", runtime);
        v("index", index);
        v("device", device);
        v("context", context);
    }
    bool operator==(const engine_id_t &o) const { return equal_fields(*this, o); }
    size_t hash() const { return hash_fields(*this); }
};

} // namespace impl
} // namespace dnnl

struct dnnl_engine : public dnnl::impl::refcounted_t {
    using status_t = dnnl::impl::status_t;

    dnnl_engine(dnnl::impl::engine_kind_t kind,
            dnnl::impl::runtime_kind_t runtime, size_t index)
        : kind_(kind), runtime_(runtime), index_(index) {}

    dnnl::impl::engine_kind_t kind() const { return kind_; }
    dnnl::impl::runtime_kind_t runtime_kind() const { return runtime_; }
    size_t index() const { return index_; }
    virtual dnnl::impl::engine_id_t engine_id() const {
        return {kind_, runtime_, index_, 0, 0};
    }

    virtual status_t create_stream(dnnl::impl::stream_t **stream, unsigned flags)
            = 0;
    // handle: DNNL_MEMORY_ALLOCATE to allocate `size` bytes, a user buffer
    // (pointer or cl_mem) to wrap, or DNNL_MEMORY_NONE for no buffer.
    virtual status_t create_memory_storage(
            std::unique_ptr<dnnl::impl::memory_storage_t> &storage, void *handle,
            size_t size)
            = 0;
    // Ordered implementation list for an operation (null-terminated).
    virtual const dnnl::impl::impl_list_item_t *get_implementation_list(
            const dnnl::impl::op_desc_t &desc) const
            = 0;
    // Bytes naming what compiled device code of this engine depends on
    // (platform, device, driver), for cache blob ids; empty when the
    // engine's primitives have no cache blobs (CPU, as in oneDNN).
    virtual std::string cache_blob_device_id() const { return {}; }
    // Threads a primitive of this engine may run on now: part of the
    // primitive cache key, since implementations plan (split work, size
    // scratchpads) for it. The CPU engine asks its threading layer.
    virtual int max_threads() const { return 1; }

protected:
    ~dnnl_engine() override = default;

private:
    dnnl::impl::engine_kind_t kind_;
    dnnl::impl::runtime_kind_t runtime_;
    size_t index_;
};

namespace dnnl {
namespace impl {

// Engines known per kind, implemented by the backends.
size_t engine_count(engine_kind_t kind);
status_t engine_create(engine_t **engine, engine_kind_t kind, size_t index);

// Keeps an engine alive for the holder's lifetime.
struct engine_ref_t {
    engine_ref_t() = default;
    explicit engine_ref_t(engine_t *e) : e_(e) {
        if (e_) e_->retain();
    }
    engine_ref_t(const engine_ref_t &o) : engine_ref_t(o.e_) {}
    engine_ref_t &operator=(const engine_ref_t &o) {
        engine_ref_t tmp(o);
        std::swap(e_, tmp.e_);
        return *this;
    }
    ~engine_ref_t() {
        if (e_) e_->release();
    }
    engine_t *get() const { return e_; }
    engine_t *operator->() const { return e_; }

private:
    engine_t *e_ = nullptr;
};

} // namespace impl
} // namespace dnnl
