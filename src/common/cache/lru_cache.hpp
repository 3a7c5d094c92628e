// The one LRU cache of the library, a template over the key, the key's hash
// and the result of a creation. The primitive cache (key: what makes two
// primitives interchangeable; result: a primitive) and the kernel cache
// (key: a backend's kernel configuration; result: compiled code) are both
// thin users of it.
//
// A result carries a status and a value. Traits (lru_traits_t by default)
// say whether a result is worth keeping (failed creations are handed to
// every thread that waited for them, then dropped), how many bytes its
// value holds, and what copy of a key the cache stores (a key may point to
// objects it does not own until it is inserted).
//
// Concurrency: lookups take one of several reader lock stripes, shared (a
// thread always uses the same stripe; writers take every stripe), so
// readers on different cores touch different cache lines; each stripe
// counts its own hits. A hit records its recency with atomics (lru_order_t)
// and the next holder of the exclusive lock replays it onto the recency
// list: hits never serialise, eviction takes the list's tail in O(1), and
// the order stays exact LRU. Creation happens outside every lock: the first
// requester of a key publishes a shared_future that the other requesters
// wait on, so N threads asking for one key create it once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <utility>

#include "common/c_types.hpp"
#include "common/cache/cache_stats.hpp"
#include "common/cache/lru_order.hpp"

namespace dnnl {
namespace impl {

// What the cache asks of a result and a key. The default fits a result
// with `status` and a pointer-like `value` whose pointee has footprint().
template <typename Key, typename Result>
struct lru_traits_t {
    static bool keep(const Result &r) {
        return r.status == dnnl_success && r.value != nullptr;
    }
    static size_t bytes(const Result &r) { return r.value->footprint(); }
    // The copy of `key` an inserted entry holds.
    static Key stored_key(const Key &key) { return key; }
};

// Index of the calling thread's reader stripe: threads take stripes
// round-robin, once.
inline unsigned lru_thread_stripe(unsigned n_stripes) {
    static std::atomic<unsigned> next {0};
    thread_local const unsigned mine
            = next.fetch_add(1, std::memory_order_relaxed);
    return mine % n_stripes;
}

template <typename Key, typename Hash, typename Result,
        typename Traits = lru_traits_t<Key, Result>>
class lru_cache_t {
public:
    using key_type = Key;
    using result_type = Result;

    explicit lru_cache_t(int capacity)
        : stripes_(new stripe_t[n_stripes]), capacity_(capacity) {}
    ~lru_cache_t() {
        write_lock_t lock(*this);
        order_.forget_touches();
        for (auto &kv : map_)
            delete kv.second;
    }
    lru_cache_t(const lru_cache_t &) = delete;
    lru_cache_t &operator=(const lru_cache_t &) = delete;

    int capacity() const { return capacity_.load(std::memory_order_relaxed); }

    // Evicts the least recently used entries down to `capacity`; 0 empties
    // the cache and turns caching off.
    status_t set_capacity(int capacity) {
        if (capacity < 0) return dnnl_invalid_arguments;
        write_lock_t lock(*this);
        capacity_ = capacity;
        order_.replay();
        evict_to((size_t)capacity);
        return dnnl_success;
    }

    // Changes the capacity and evicts nothing; returns the old one.
    int set_capacity_without_clearing(int capacity) {
        write_lock_t lock(*this);
        return capacity_.exchange(capacity);
    }

    int size() const {
        read_lock_t lock(my_stripe());
        return (int)map_.size();
    }

    // Returns the result kept for `key`, or the one `create()` returns,
    // calling it at most once for all threads that ask for `key` at the
    // same time (they wait for the first one's result). `hit` tells whether
    // this thread's result came from the cache or another thread's work.
    template <typename Create>
    Result get_or_create(const Key &key, Create &&create, bool &hit) {
        hit = false;
        if (capacity_.load(std::memory_order_relaxed) == 0) {
            misses_.fetch_add(1, std::memory_order_relaxed);
            return create();
        }
        stripe_t &stripe = my_stripe();
        std::shared_future<Result> pending;
        {
            read_lock_t lock(stripe);
            auto it = map_.find(&key);
            if (it != map_.end()) {
                entry_t *e = it->second;
                order_.touch(e);
                stripe.hits.fetch_add(1, std::memory_order_relaxed);
                hit = true;
                // A ready entry is copied while the lock keeps it alive,
                // without going through the future's shared state.
                if (e->ready) return e->result;
                pending = e->future;
            }
        }
        if (hit) return pending.get();

        std::promise<Result> promise;
        entry_t *mine = nullptr;
        uint64_t my_serial = 0;
        {
            write_lock_t lock(*this);
            order_.replay();
            auto it = map_.find(&key);
            if (it != map_.end()) {
                // Inserted by another thread since the shared lookup.
                entry_t *e = it->second;
                order_.touch(e);
                stripe.hits.fetch_add(1, std::memory_order_relaxed);
                hit = true;
                if (e->ready) return e->result;
                pending = e->future;
            } else if (capacity_.load(std::memory_order_relaxed) > 0) {
                mine = new entry_t(Traits::stored_key(key));
                mine->future = promise.get_future().share();
                mine->serial = my_serial = ++serial_;
                map_.emplace(&mine->key, mine);
                order_.push_front(mine);
                evict_to((size_t)capacity_.load(std::memory_order_relaxed));
            }
        }
        if (hit) return pending.get();

        misses_.fetch_add(1, std::memory_order_relaxed);
        if (!mine) return create(); // caching was turned off meanwhile
        Result r;
        try {
            r = create();
        } catch (...) {
            // The waiters see the same exception; the key is free again.
            promise.set_exception(std::current_exception());
            settle(key, my_serial, nullptr);
            throw;
        }
        promise.set_value(r);
        settle(key, my_serial, &r);
        return r;
    }

    // Calls use(result) under the lock if `key` has a ready result, and
    // marks it used. A creation in progress is not waited for, and the
    // statistics do not count this (a look, not a creation request).
    template <typename Use>
    bool peek(const Key &key, Use &&use) {
        if (capacity_.load(std::memory_order_relaxed) == 0) return false;
        read_lock_t lock(my_stripe());
        auto it = map_.find(&key);
        if (it == map_.end() || !it->second->ready) return false;
        order_.touch(it->second);
        use(it->second->result);
        return true;
    }

    // Whether some ready result satisfies `pred` (a linear scan, for tests).
    template <typename Pred>
    bool any_ready(Pred &&pred) const {
        read_lock_t lock(my_stripe());
        for (const auto &kv : map_)
            if (kv.second->ready && pred(kv.second->result)) return true;
        return false;
    }

    int64_t hits() const {
        int64_t n = 0;
        for (int i = 0; i < n_stripes; ++i)
            n += stripes_[i].hits.load(std::memory_order_relaxed);
        return n;
    }

    cache_stats_t stats() const {
        read_lock_t lock(my_stripe());
        return {(int64_t)map_.size(), (int64_t)capacity(), hits(),
                misses_.load(), evictions_.load(), bytes_.load()};
    }

    // Zeroes hits, misses and evictions (entries and bytes describe the
    // contents, not events).
    void reset_stats() {
        for (int i = 0; i < n_stripes; ++i) stripes_[i].hits = 0;
        misses_ = 0;
        evictions_ = 0;
    }

private:
    struct entry_t : public lru_node_t {
        explicit entry_t(Key &&k) : key(std::move(k)) {}
        Key key;
        std::shared_future<Result> future;
        // Set under the exclusive lock once creation succeeded, so that
        // hits copy `result` without touching the future's shared state.
        bool ready = false;
        Result result;
    };

    // The map points at the key inside each entry: one copy per entry.
    struct key_ptr_hash_t {
        size_t operator()(const Key *k) const { return Hash()(*k); }
    };
    struct key_ptr_equal_t {
        bool operator()(const Key *a, const Key *b) const { return *a == *b; }
    };

    // One reader lock and hit counter per stripe, each on its own lines.
    struct alignas(128) stripe_t {
        mutable std::shared_mutex mutex;
        std::atomic<int64_t> hits {0};
    };
    static constexpr int n_stripes = 16;
    stripe_t &my_stripe() const {
        return stripes_[lru_thread_stripe(n_stripes)];
    }
    struct read_lock_t {
        explicit read_lock_t(const stripe_t &s) : stripe(s) {
            s.mutex.lock_shared();
        }
        ~read_lock_t() { stripe.mutex.unlock_shared(); }
        const stripe_t &stripe;
    };
    // Exclusive access: every stripe, in order.
    struct write_lock_t {
        explicit write_lock_t(const lru_cache_t &c) : cache(c) {
            for (int i = 0; i < n_stripes; ++i) cache.stripes_[i].mutex.lock();
        }
        ~write_lock_t() {
            for (int i = n_stripes - 1; i >= 0; --i)
                cache.stripes_[i].mutex.unlock();
        }
        const lru_cache_t &cache;
    };

    // Under the exclusive lock, right after a replay (the touch log must
    // not point to an erased entry).
    void erase(entry_t *e) {
        order_.remove(e);
        bytes_ -= (int64_t)e->bytes;
        map_.erase(&e->key);
        delete e;
    }
    void evict_to(size_t capacity) {
        while (map_.size() > capacity) {
            erase(static_cast<entry_t *>(order_.least_recent()));
            evictions_.fetch_add(1, std::memory_order_relaxed);
        }
    }

    // After the creation of the entry with `serial`: keeps `r` in it, or
    // drops the entry (failure, or r == nullptr for an exception). The
    // entry may have been evicted meanwhile and another inserted for the
    // same key, possibly at the same address: only the serial tells.
    void settle(const Key &key, uint64_t serial, const Result *r) {
        write_lock_t lock(*this);
        auto it = map_.find(&key);
        if (it == map_.end() || it->second->serial != serial) return;
        entry_t *e = it->second;
        if (r && Traits::keep(*r)) {
            e->result = *r;
            e->ready = true;
            e->bytes = Traits::bytes(*r);
            bytes_ += (int64_t)e->bytes;
        } else {
            order_.replay();
            erase(e);
        }
    }

    std::unique_ptr<stripe_t[]> stripes_;
    std::unordered_map<const Key *, entry_t *, key_ptr_hash_t, key_ptr_equal_t>
            map_;
    lru_order_t order_;
    std::atomic<int> capacity_;
    uint64_t serial_ = 0; // last entry serial, under the exclusive lock
    std::atomic<int64_t> misses_ {0}, evictions_ {0}, bytes_ {0};
};

} // namespace impl
} // namespace dnnl
