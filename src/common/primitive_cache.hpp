// The global primitive cache (rfcs/01, rfcs/02): one LRU cache for every
// engine and runtime, keyed by what makes two primitives interchangeable.
// A thin user of the library's LRU cache template (common/cache/lru_cache.hpp,
// which describes the locking, recency and de-duplication): this file
// supplies the key, its hash and equality, the result (a primitive and a
// status) and the primitive-specific queries.
#pragma once

#include <memory>
#include <vector>

#include "common/cache/lru_cache.hpp"
#include "common/engine.hpp"
#include "common/primitive.hpp"

namespace dnnl {
namespace impl {

struct cache_key_t {
    primitive_kind_t kind = dnnl_undefined_primitive;
    const op_desc_t *op = nullptr;
    const primitive_attr_t *attr = nullptr;
    int impl_id = 0;
    int nthr = 0;
    const std::vector<memory_desc_t> *hint_mds = nullptr;
    engine_id_t engine_id;
    // Keeps op/attr/hint_mds alive while the key is stored: `owner`, or
    // when null the descriptor `owner_pd` (taken only when inserting, so
    // that hits leave the descriptor's shared count alone).
    std::shared_ptr<const void> owner;
    const primitive_desc_t *owner_pd = nullptr;
    size_t hash = 0;

    // Completes `hash` from the hash of kind, op, attributes and hints.
    void compute_hash(size_t content_hash);
    bool operator==(const cache_key_t &o) const;
};

// Hash of the parts of a key that a primitive descriptor fixes.
size_t cache_key_content_hash(const op_desc_t &op, const primitive_attr_t &attr,
        const std::vector<memory_desc_t> &hint_mds);

struct cache_key_hash_t {
    size_t operator()(const cache_key_t &k) const { return k.hash; }
};

// Builds the key of a primitive descriptor created for `engine`.
cache_key_t make_cache_key(const primitive_desc_t &pd, engine_t *engine);
// Key for a lookup before any implementation was tried (rfcs/02).
cache_key_t make_cache_key(const op_desc_t &op, const primitive_attr_t &attr,
        int impl_id, const std::vector<memory_desc_t> &hint_mds,
        engine_t *engine);

class primitive_cache_t {
public:
    struct result_t {
        std::shared_ptr<primitive_t> primitive;
        status_t status = dnnl_success;
    };
    using creator_f = result_t (*)(void *ctx);

    static primitive_cache_t &instance();
    // A separate cache (unit tests); the library uses instance() only.
    explicit primitive_cache_t(int capacity) : lru_(capacity) {}

    int capacity() const { return lru_.capacity(); }
    status_t set_capacity(int capacity);
    // Sets capacity without evicting (test hook, oneDNN's semantics).
    size_t set_capacity_without_clearing(size_t capacity);
    int size() const { return lru_.size(); }

    // Returns the cached primitive for `key`, or creates it with
    // `create(ctx)` exactly once across all threads asking at once.
    // `hit` tells whether the result came from the cache (a waiter counts
    // as a hit).
    result_t get_or_create(
            const cache_key_t &key, creator_f create, void *ctx, bool &hit);
    // The descriptor of the ready primitive for `key` if cached, else
    // null. Marks the entry used but does not count in the statistics (a
    // descriptor lookup).
    std::shared_ptr<const primitive_desc_t> peek(const cache_key_t &key);

    bool contains_primitive(const primitive_t *p) const;
    bool contains_pd(const primitive_desc_t *pd) const;

    cache_stats_t stats() const { return lru_.stats(); }
    int64_t hits() const { return lru_.hits(); }
    void reset_stats() { lru_.reset_stats(); }

private:
    // A primitive is kept when its creation succeeded; a stored key owns
    // what it points to (the descriptor, taken only at insertion so that
    // hits leave the descriptor's shared count alone).
    struct traits_t {
        static bool keep(const result_t &r) {
            return r.status == dnnl_success && r.primitive;
        }
        static size_t bytes(const result_t &r) {
            return r.primitive->footprint();
        }
        static cache_key_t stored_key(const cache_key_t &key);
    };
    lru_cache_t<cache_key_t, cache_key_hash_t, result_t, traits_t> lru_;
};

} // namespace impl
} // namespace dnnl
