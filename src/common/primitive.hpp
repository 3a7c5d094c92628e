// primitive_t: an immutable, shareable implementation object created from a
// primitive descriptor; the execution context carries everything that varies
// per call. resource_t / resource_mapper_t hold what a primitive needs per
// user handle (per engine) that cannot live in the cached object.
#pragma once

#include <memory>
#include <unordered_map>

#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct exec_ctx_t;
struct code_record_t; // common/cache/code_record.hpp

struct resource_t {
    virtual ~resource_t() = default;
};

class resource_mapper_t {
public:
    bool has(const primitive_t *p) const { return map_.count(p) != 0; }
    void add(const primitive_t *p, std::unique_ptr<resource_t> r) {
        map_.emplace(p, std::move(r));
    }
    template <typename T>
    T *get(const primitive_t *p) const {
        auto it = map_.find(p);
        return it == map_.end() ? nullptr : static_cast<T *>(it->second.get());
    }

private:
    std::unordered_map<const primitive_t *, std::unique_ptr<resource_t>> map_;
};

struct primitive_t {
    explicit primitive_t(std::shared_ptr<const primitive_desc_t> pd)
        : pd_(std::move(pd)) {}
    virtual ~primitive_t() = default;

    const primitive_desc_t *pd() const { return pd_.get(); }
    const std::shared_ptr<const primitive_desc_t> &shared_pd() const {
        return pd_;
    }

    // One-time set-up (code generation, constant tables); after it the
    // object never changes.
    virtual status_t init(engine_t *engine) { return dnnl_success; }
    // Per user handle resources (for nested primitives too).
    virtual status_t create_resource(engine_t *, resource_mapper_t &) const {
        return dnnl_success;
    }
    virtual status_t execute(const exec_ctx_t &ctx) const = 0;
    // Heap bytes this object owns (itself, its descriptor with the
    // operation, attributes and hints; implementations holding generated
    // code or constants add theirs), reported to the cache statistics.
    virtual size_t footprint() const;
    // Bytes of the most derived object, set by whoever creates it.
    void set_object_size(size_t bytes) { object_size_ = bytes; }

    // The compiled code init() obtained (programs, nested primitives), in
    // the order it asked for it: what a cache blob of this primitive holds.
    // Set once by the creator, right after init().
    const std::shared_ptr<const code_record_t> &code_record() const {
        return code_record_;
    }
    void set_code_record(std::shared_ptr<const code_record_t> r) {
        code_record_ = std::move(r);
    }

private:
    std::shared_ptr<const code_record_t> code_record_;
    std::shared_ptr<const primitive_desc_t> pd_;
    size_t object_size_ = sizeof(primitive_t);
};

} // namespace impl
} // namespace dnnl
