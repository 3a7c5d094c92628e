// Unit tests of the LRU cache template (src/common/cache/lru_cache.hpp) on
// plain integer keys: exact LRU order and eviction, capacity changes,
// de-duplication of concurrent creators, failed and throwing creations,
// the stored-key hook, peeking, and the statistics.
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/cache/lru_cache.hpp"

using namespace dnnl::impl;

namespace {

struct value_t {
    explicit value_t(int k, size_t b = 10) : key(k), bytes(b) {}
    size_t footprint() const { return bytes; }
    int key;
    size_t bytes;
};

struct result_t {
    std::shared_ptr<value_t> value;
    status_t status = dnnl_success;
};

struct int_hash_t {
    size_t operator()(int k) const { return std::hash<int>()(k); }
};

using cache_t = lru_cache_t<int, int_hash_t, result_t>;

result_t make(int key, size_t bytes = 10) {
    return {std::make_shared<value_t>(key, bytes), dnnl_success};
}

// Requests `key`; returns whether it was a hit.
bool request(cache_t &c, int key) {
    bool hit = false;
    result_t r = c.get_or_create(key, [&] { return make(key); }, hit);
    EXPECT_EQ(r.status, dnnl_success);
    EXPECT_TRUE(r.value && r.value->key == key);
    return hit;
}

// Whether `key` has a ready result; marks it used.
bool cached(cache_t &c, int key) {
    return c.peek(key, [](const result_t &) {});
}

// Whether `key` has a ready result, leaving the order alone.
bool present(const cache_t &c, int key) {
    return c.any_ready([&](const result_t &r) { return r.value->key == key; });
}

} // namespace

TEST(LruCache, HitsAndMissesFollowLruOrder) {
    cache_t c(2);
    EXPECT_FALSE(request(c, 1));
    EXPECT_FALSE(request(c, 2));
    EXPECT_TRUE(request(c, 1));
    EXPECT_FALSE(request(c, 3)); // evicts 2
    EXPECT_TRUE(request(c, 1));
    EXPECT_TRUE(request(c, 3));
    EXPECT_FALSE(request(c, 2)); // evicts 1
    EXPECT_FALSE(cached(c, 1));
    const cache_stats_t s = c.stats();
    EXPECT_EQ(s.entries, 2);
    EXPECT_EQ(s.capacity, 2);
    EXPECT_EQ(s.hits, 3);
    EXPECT_EQ(s.misses, 4);
    EXPECT_EQ(s.evictions, 2);
    EXPECT_EQ(s.bytes, 20);
}

TEST(LruCache, EvictionTakesTheLeastRecentlyUsedEachTime) {
    const int n = 64;
    cache_t c(n);
    for (int k = 0; k < n; ++k) request(c, k);
    // Use them in a scrambled order: that order is the eviction order.
    std::vector<int> order;
    for (int i = 0; i < n; ++i) order.push_back((i * 37) % n);
    for (int k : order) EXPECT_TRUE(request(c, k));
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(c.set_capacity(n - 1 - i), dnnl_success);
        EXPECT_FALSE(present(c, order[i])) << i;
        if (i + 1 < n) EXPECT_TRUE(present(c, order[i + 1])) << i;
    }
    EXPECT_EQ(c.stats().evictions, n);
}

TEST(LruCache, OrderStaysExactWhenTheTouchLogOverflows) {
    const int n = 6000; // more distinct uses than the log holds
    cache_t c(n);
    for (int k = 0; k < n; ++k) request(c, k);
    for (int k = 1; k < n; ++k) EXPECT_TRUE(request(c, k));
    EXPECT_TRUE(request(c, 0)); // now key 1 is the least recently used
    EXPECT_FALSE(request(c, n));
    EXPECT_TRUE(cached(c, 0));
    EXPECT_FALSE(cached(c, 1));
    EXPECT_TRUE(cached(c, 2));
}

TEST(LruCache, CapacityChanges) {
    cache_t c(8);
    for (int k = 0; k < 8; ++k) request(c, k);
    for (int k : {6, 1, 4}) request(c, k); // the three most recent
    EXPECT_EQ(c.set_capacity(16), dnnl_success); // growing evicts nothing
    EXPECT_EQ(c.size(), 8);
    EXPECT_EQ(c.set_capacity(3), dnnl_success);
    EXPECT_EQ(c.size(), 3);
    EXPECT_EQ(c.stats().evictions, 5);
    for (int k = 0; k < 8; ++k)
        EXPECT_EQ(cached(c, k), k == 6 || k == 1 || k == 4) << k;
    EXPECT_EQ(c.set_capacity(-1), dnnl_invalid_arguments);
    EXPECT_EQ(c.capacity(), 3);

    // Without clearing: the capacity changes, the contents stay until the
    // next insertion evicts down to it.
    EXPECT_EQ(c.set_capacity_without_clearing(1), 3);
    EXPECT_EQ(c.capacity(), 1);
    EXPECT_EQ(c.size(), 3);
    EXPECT_FALSE(request(c, 100));
    EXPECT_EQ(c.size(), 1);
    EXPECT_TRUE(cached(c, 100));
}

TEST(LruCache, ZeroCapacityCreatesEveryTime) {
    cache_t c(4);
    request(c, 1);
    EXPECT_EQ(c.set_capacity(0), dnnl_success);
    EXPECT_EQ(c.size(), 0);
    EXPECT_EQ(c.stats().bytes, 0);
    int calls = 0;
    for (int i = 0; i < 3; ++i) {
        bool hit = true;
        c.get_or_create(1, [&] { ++calls; return make(1); }, hit);
        EXPECT_FALSE(hit);
    }
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(c.size(), 0);
    EXPECT_FALSE(cached(c, 1));
}

TEST(LruCache, ConcurrentRequestsForOneKeyCreateOnce) {
    cache_t c(8);
    const int nthr = 16;
    std::atomic<int> calls {0}, hits {0}, ready {0};
    std::vector<std::thread> threads;
    std::vector<const value_t *> seen(nthr, nullptr);
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&, t] {
            ++ready;
            while (ready.load() < nthr) std::this_thread::yield();
            bool hit = false;
            result_t r = c.get_or_create(7,
                    [&] {
                        ++calls;
                        std::this_thread::sleep_for(std::chrono::milliseconds(30));
                        return make(7);
                    },
                    hit);
            ASSERT_EQ(r.status, dnnl_success);
            seen[t] = r.value.get();
            if (hit) ++hits;
        });
    for (auto &t : threads) t.join();
    EXPECT_EQ(calls.load(), 1);
    EXPECT_EQ(hits.load(), nthr - 1);
    for (int t = 1; t < nthr; ++t) EXPECT_EQ(seen[t], seen[0]); // one object
    EXPECT_EQ(c.stats().misses, 1);
    EXPECT_EQ(c.stats().hits, nthr - 1);
}

TEST(LruCache, FailedCreationsReachTheWaitersAndAreNotKept) {
    cache_t c(8);
    const int nthr = 8;
    std::atomic<int> calls {0}, failures {0}, ready {0};
    std::vector<std::thread> threads;
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&] {
            ++ready;
            while (ready.load() < nthr) std::this_thread::yield();
            bool hit = false;
            result_t r = c.get_or_create(3,
                    [&] {
                        ++calls;
                        std::this_thread::sleep_for(std::chrono::milliseconds(30));
                        return result_t {nullptr, dnnl_out_of_memory};
                    },
                    hit);
            if (r.status == dnnl_out_of_memory && !r.value) ++failures;
        });
    for (auto &t : threads) t.join();
    EXPECT_EQ(failures.load(), nthr);
    EXPECT_GE(calls.load(), 1);
    EXPECT_EQ(c.size(), 0);
    EXPECT_EQ(c.stats().bytes, 0);
    // The key is free again: the next request creates.
    EXPECT_FALSE(request(c, 3));
    EXPECT_TRUE(request(c, 3));

    // A "successful" status without a value is not kept either.
    bool hit = true;
    c.get_or_create(4, [] { return result_t {nullptr, dnnl_success}; }, hit);
    EXPECT_FALSE(cached(c, 4));
    EXPECT_EQ(c.size(), 1);
}

TEST(LruCache, AThrowingCreationReachesTheWaitersAndFreesTheKey) {
    cache_t c(8);
    std::atomic<bool> started {false};
    std::atomic<int> waiter_threw {0};
    std::thread creator([&] {
        bool hit = false;
        EXPECT_THROW(c.get_or_create(5,
                             [&]() -> result_t {
                                 started = true;
                                 std::this_thread::sleep_for(
                                         std::chrono::milliseconds(50));
                                 throw std::runtime_error("creation failed");
                             },
                             hit),
                std::runtime_error);
    });
    while (!started.load()) std::this_thread::yield();
    std::thread waiter([&] {
        bool hit = false;
        try {
            c.get_or_create(5, [&] { return make(5); }, hit);
        } catch (const std::runtime_error &) { ++waiter_threw; }
    });
    creator.join();
    waiter.join();
    // The waiter either joined the failing creation (and saw its
    // exception) or came after it and created the key itself.
    EXPECT_EQ(c.size(), 1 - waiter_threw.load());
    bool hit = false;
    EXPECT_EQ(c.get_or_create(5, [&] { return make(5); }, hit).status,
            dnnl_success);
    EXPECT_TRUE(cached(c, 5));
}

TEST(LruCache, NestedCreationOfAnotherKeyDoesNotDeadlock) {
    cache_t c(8);
    bool hit = true;
    result_t r = c.get_or_create(1,
            [&] {
                EXPECT_FALSE(request(c, 2));
                return make(1);
            },
            hit);
    EXPECT_EQ(r.status, dnnl_success);
    EXPECT_FALSE(hit);
    EXPECT_TRUE(cached(c, 1));
    EXPECT_TRUE(cached(c, 2));
}

TEST(LruCache, CreatorEvictedMidwayLeavesTheNewerEntryAlone) {
    cache_t c(4);
    bool hit = true;
    result_t r = c.get_or_create(9,
            [&] {
                c.set_capacity(0);
                c.set_capacity(4);
                EXPECT_FALSE(request(c, 9)); // a newer entry, same key
                return make(9, 25);
            },
            hit);
    EXPECT_EQ(r.status, dnnl_success);
    const cache_stats_t s = c.stats();
    EXPECT_EQ(s.entries, 1);
    EXPECT_EQ(s.bytes, 10); // the newer entry's value, counted once
}

TEST(LruCache, PeekAndAnyReadyLeaveTheStatisticsAlone) {
    cache_t c(4);
    request(c, 1);
    request(c, 2);
    c.reset_stats();
    int seen = 0;
    EXPECT_TRUE(c.peek(1, [&](const result_t &r) { seen = r.value->key; }));
    EXPECT_EQ(seen, 1);
    EXPECT_FALSE(c.peek(3, [&](const result_t &) { seen = -1; }));
    EXPECT_EQ(seen, 1);
    EXPECT_TRUE(c.any_ready([](const result_t &r) { return r.value->key == 2; }));
    EXPECT_FALSE(c.any_ready([](const result_t &r) { return r.value->key == 3; }));
    const cache_stats_t s = c.stats();
    EXPECT_EQ(s.hits, 0);
    EXPECT_EQ(s.misses, 0);
    // peek marked 1 used: inserting two more evicts 2 first.
    request(c, 3);
    request(c, 4);
    c.set_capacity(3);
    EXPECT_TRUE(cached(c, 1));
    EXPECT_FALSE(cached(c, 2));
}

TEST(LruCache, StatisticsResetAndBytes) {
    cache_t c(3);
    for (int k = 0; k < 5; ++k) {
        bool hit = false;
        c.get_or_create(k, [&] { return make(k, 100 + k); }, hit);
    }
    cache_stats_t s = c.stats();
    EXPECT_EQ(s.entries, 3);
    EXPECT_EQ(s.misses, 5);
    EXPECT_EQ(s.evictions, 2);
    EXPECT_EQ(s.bytes, 102 + 103 + 104);
    c.reset_stats();
    s = c.stats();
    EXPECT_EQ(s.hits, 0);
    EXPECT_EQ(s.misses, 0);
    EXPECT_EQ(s.evictions, 0);
    EXPECT_EQ(s.entries, 3); // contents, not events
    EXPECT_EQ(s.bytes, 102 + 103 + 104);
    c.set_capacity(1);
    EXPECT_EQ(c.stats().bytes, 104);
}

namespace {
// A key whose stored copy is marked: the hook runs at insertion only.
struct marked_key_t {
    int id = 0;
    bool stored = false;
    bool operator==(const marked_key_t &o) const { return id == o.id; }
};
struct marked_hash_t {
    size_t operator()(const marked_key_t &k) const { return (size_t)k.id; }
};
std::atomic<int> g_stored_copies {0};
struct marking_traits_t : public lru_traits_t<marked_key_t, result_t> {
    static marked_key_t stored_key(const marked_key_t &k) {
        ++g_stored_copies;
        marked_key_t s = k;
        s.stored = true;
        return s;
    }
};
} // namespace

TEST(LruCache, StoredKeyHookRunsOnlyAtInsertion) {
    lru_cache_t<marked_key_t, marked_hash_t, result_t, marking_traits_t> c(4);
    g_stored_copies = 0;
    for (int i = 0; i < 10; ++i) {
        bool hit = false;
        c.get_or_create(marked_key_t {1}, [] { return make(1); }, hit);
        EXPECT_EQ(hit, i > 0);
    }
    EXPECT_EQ(g_stored_copies.load(), 1);
}
