// The global primitive cache (rfcs/01, rfcs/02): one LRU cache for every
// engine and runtime, keyed by what makes two primitives interchangeable.
//
// Concurrency: lookups take a shared lock only, and only on one of
// several lock stripes (a thread always uses the same stripe; writers take
// every stripe), so readers on different cores touch different cache
// lines. A hit records its recency with atomics (a stamp in the entry and
// a slot in a touch log), skipping the writes when the entry already is the
// most recent; the next operation that holds the exclusive lock anyway
// (insert, evict, resize) replays the log onto the recency list. So hits
// never serialise, eviction takes the list's tail in O(1), and order stays
// exact LRU. Creation happens outside any lock: the first requester
// publishes a shared_future that other requesters of the same key wait on.
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

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

struct cache_stats_t {
    int64_t entries, capacity, hits, misses, evictions, bytes;
};

class primitive_cache_t {
public:
    struct result_t {
        std::shared_ptr<primitive_t> primitive;
        status_t status = dnnl_success;
    };
    using creator_f = result_t (*)(void *ctx);

    static primitive_cache_t &instance();
    // A separate cache (unit tests); the library uses instance() only.
    explicit primitive_cache_t(int capacity);
    ~primitive_cache_t();

    int capacity() const;
    status_t set_capacity(int capacity);
    // Sets capacity without evicting (test hook, oneDNN's semantics).
    size_t set_capacity_without_clearing(size_t capacity);
    int size() const;

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

    cache_stats_t stats() const;
    int64_t hits() const;
    void reset_stats();

private:
    struct entry_t;
    void touch(entry_t *e); // under shared lock
    void replay_touches(); // under exclusive lock
    void link_front(entry_t *e);
    void unlink(entry_t *e);
    void evict_to(size_t capacity); // under exclusive lock
    void erase_entry(entry_t *e);

    // One reader lock and hit counter per stripe, each on its own lines.
    struct alignas(128) stripe_t {
        mutable std::shared_timed_mutex mutex;
        std::atomic<int64_t> hits {0};
    };
    static constexpr int n_stripes = 16;
    stripe_t &my_stripe() const;
    // Exclusive access: every stripe, in order.
    struct write_lock_t {
        explicit write_lock_t(const primitive_cache_t &c);
        ~write_lock_t();
        const primitive_cache_t &cache;
    };
    struct read_lock_t {
        explicit read_lock_t(const stripe_t &s) : stripe(s) { s.mutex.lock_shared(); }
        ~read_lock_t() { stripe.mutex.unlock_shared(); }
        const stripe_t &stripe;
    };
    // A ready entry's result copied under the read lock, or its pending
    // future; false when the key is absent.
    bool lookup(const cache_key_t &key, result_t &ready,
            std::shared_future<result_t> &pending);

    std::unique_ptr<stripe_t[]> stripes_;
    std::unordered_map<cache_key_t, entry_t *, cache_key_hash_t> map_;
    entry_t *head_ = nullptr, *tail_ = nullptr; // most / least recently used
    std::atomic<int> capacity_;
    std::atomic<uint64_t> clock_ {0};
    uint64_t serial_ = 0; // last entry serial, under the exclusive lock

    static constexpr size_t touch_log_size = 4096;
    std::unique_ptr<std::atomic<entry_t *>[]> touch_log_;
    std::atomic<size_t> touch_count_ {0};

    std::atomic<int64_t> misses_ {0}, evictions_ {0}, bytes_ {0};
};

} // namespace impl
} // namespace dnnl
