// Unit tests of primitive_cache_t itself, on private instances with fake
// primitives: exact LRU order, shrinking, creation outside the lock,
// de-duplication, failure propagation and nested creation.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/primitive_cache.hpp"

using namespace dnnl::impl;

namespace {

struct fake_pd_t : public primitive_desc_t {
    fake_pd_t(const op_desc_t &op) : primitive_desc_t(op, primitive_attr_t()) {}
    const char *name() const override { return "fake"; }
    status_t make_primitive(std::shared_ptr<primitive_t> &) const override {
        return dnnl_unimplemented;
    }
};

struct fake_primitive_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &) const override { return dnnl_success; }
    size_t footprint() const override { return 100; }
};

// A key per integer id, owning its descriptor.
struct keyed_t {
    std::shared_ptr<fake_pd_t> pd;
    cache_key_t key;
};

keyed_t make_key(int id) {
    reorder_desc_t op;
    dims_t dims = {id + 1};
    md_init_by_tag(op.src_md, 1, dims, dnnl_f32, dnnl_a);
    op.dst_md = op.src_md;
    keyed_t k;
    k.pd = std::make_shared<fake_pd_t>(op);
    k.key.kind = dnnl_reorder;
    k.key.op = k.pd->op_desc();
    k.key.attr = k.pd->attr();
    k.key.hint_mds = &k.pd->hint_mds();
    k.key.engine_id = engine_id_t {dnnl_cpu, runtime_kind_t::omp, 0, 0, 0};
    k.key.owner = k.pd;
    k.key.compute_hash(k.pd->key_content_hash());
    return k;
}

struct ctx_t {
    std::shared_ptr<const primitive_desc_t> pd;
    std::atomic<int> *calls = nullptr;
    std::function<void()> during;
    status_t status = dnnl_success;
};

primitive_cache_t::result_t create_fake(void *p) {
    auto *c = static_cast<ctx_t *>(p);
    if (c->calls) ++*c->calls;
    if (c->during) c->during();
    primitive_cache_t::result_t r;
    r.status = c->status;
    if (r.status == dnnl_success) r.primitive = std::make_shared<fake_primitive_t>(c->pd);
    return r;
}

// Looks up or creates key `k`; returns whether it was a hit.
bool request(primitive_cache_t &cache, const keyed_t &k) {
    ctx_t ctx;
    ctx.pd = k.pd;
    bool hit = false;
    auto r = cache.get_or_create(k.key, create_fake, &ctx, hit);
    EXPECT_EQ(r.status, dnnl_success);
    return hit;
}

bool cached(primitive_cache_t &cache, const keyed_t &k) {
    return cache.peek(k.key) != nullptr;
}

} // namespace

TEST(PrimitiveCacheUnit, LruOrderWithCapacityTwo) {
    primitive_cache_t cache(2);
    auto a = make_key(1), b = make_key(2), c = make_key(3);
    EXPECT_FALSE(request(cache, a));
    EXPECT_FALSE(request(cache, b));
    EXPECT_TRUE(request(cache, a));
    EXPECT_FALSE(request(cache, c)); // evicts b, the least recently used
    EXPECT_TRUE(request(cache, a));
    EXPECT_FALSE(request(cache, b));
    EXPECT_EQ(cache.stats().evictions, 2);
}

TEST(PrimitiveCacheUnit, ShrinkKeepsMostRecentlyUsed) {
    const int c = 16;
    primitive_cache_t cache(2 * c);
    std::vector<keyed_t> keys;
    for (int i = 0; i < 2 * c; ++i) {
        keys.push_back(make_key(i));
        request(cache, keys.back());
    }
    // Touch every odd key, in reverse: they become the most recent ones.
    for (int i = 2 * c - 1; i >= 0; --i)
        if (i % 2) EXPECT_TRUE(request(cache, keys[i]));
    ASSERT_EQ(cache.set_capacity(c), dnnl_success);
    EXPECT_EQ(cache.size(), c);
    for (int i = 0; i < 2 * c; ++i)
        EXPECT_EQ(cached(cache, keys[i]), i % 2 == 1) << "key " << i;
}

TEST(PrimitiveCacheUnit, ExactOrderAfterTouchLogOverflow) {
    // More distinct hits than the touch log holds between two inserts.
    const int n = 5000;
    primitive_cache_t cache(n);
    std::vector<keyed_t> keys;
    for (int i = 0; i < n; ++i) {
        keys.push_back(make_key(i));
        request(cache, keys.back());
    }
    for (int i = 1; i < n; ++i)
        request(cache, keys[i]); // key 0 is now the least recently used
    request(cache, keys[0]); // ...until now: key 1 is
    auto extra = make_key(n);
    request(cache, extra);
    EXPECT_TRUE(cached(cache, keys[0]));
    EXPECT_FALSE(cached(cache, keys[1]));
    EXPECT_TRUE(cached(cache, keys[2]));
}

TEST(PrimitiveCacheUnit, ZeroCapacityDisablesCaching) {
    primitive_cache_t cache(4);
    auto a = make_key(1);
    request(cache, a);
    ASSERT_EQ(cache.set_capacity(0), dnnl_success);
    EXPECT_EQ(cache.size(), 0);
    EXPECT_FALSE(request(cache, a));
    EXPECT_FALSE(request(cache, a));
    EXPECT_EQ(cache.size(), 0);
    EXPECT_EQ(cache.set_capacity(-1), dnnl_invalid_arguments);
}

TEST(PrimitiveCacheUnit, HitsProceedWhileACreationIsSlow) {
    primitive_cache_t cache(8);
    auto fast = make_key(1), slow = make_key(2);
    request(cache, fast);

    std::mutex m;
    std::condition_variable cv;
    bool release = false, started = false;
    ctx_t ctx;
    ctx.pd = slow.pd;
    ctx.during = [&] {
        std::unique_lock<std::mutex> lock(m);
        started = true;
        cv.notify_all();
        cv.wait(lock, [&] { return release; });
    };
    std::thread creator([&] {
        bool hit = false;
        cache.get_or_create(slow.key, create_fake, &ctx, hit);
    });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return started; });
    }
    // The slow creation is in progress: hits on other keys and inserts of
    // new keys must not wait for it.
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) EXPECT_TRUE(request(cache, fast));
    auto other = make_key(3);
    EXPECT_FALSE(request(cache, other));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    {
        std::lock_guard<std::mutex> lock(m);
        release = true;
    }
    cv.notify_all();
    creator.join();
    EXPECT_TRUE(cached(cache, slow));
}

TEST(PrimitiveCacheUnit, ConcurrentRequestsCreateOnce) {
    primitive_cache_t cache(8);
    auto k = make_key(7);
    std::atomic<int> calls {0}, hits {0};
    const int nthr = 32;
    std::vector<std::thread> threads;
    std::atomic<int> ready {0};
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&] {
            ctx_t ctx;
            ctx.pd = k.pd;
            ctx.calls = &calls;
            ctx.during = [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); };
            ++ready;
            while (ready < nthr) std::this_thread::yield();
            bool hit = false;
            auto r = cache.get_or_create(k.key, create_fake, &ctx, hit);
            EXPECT_EQ(r.status, dnnl_success);
            EXPECT_TRUE(r.primitive != nullptr);
            if (hit) ++hits;
        });
    for (auto &t : threads) t.join();
    EXPECT_EQ(calls.load(), 1);
    EXPECT_EQ(hits.load(), nthr - 1);
    EXPECT_EQ(cache.stats().misses, 1);
    EXPECT_EQ(cache.stats().hits, nthr - 1);
}

TEST(PrimitiveCacheUnit, FailedCreationReachesEveryWaiterAndLeavesNoEntry) {
    primitive_cache_t cache(8);
    auto k = make_key(9);
    std::atomic<int> calls {0}, failures {0};
    const int nthr = 16;
    std::vector<std::thread> threads;
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&] {
            ctx_t ctx;
            ctx.pd = k.pd;
            ctx.calls = &calls;
            ctx.status = dnnl_out_of_memory;
            ctx.during = [] { std::this_thread::sleep_for(std::chrono::milliseconds(30)); };
            bool hit = false;
            auto r = cache.get_or_create(k.key, create_fake, &ctx, hit);
            if (r.status == dnnl_out_of_memory && !r.primitive) ++failures;
        });
    for (auto &t : threads) t.join();
    EXPECT_EQ(failures.load(), nthr);
    EXPECT_EQ(cache.size(), 0);
    EXPECT_GE(calls.load(), 1);
}

TEST(PrimitiveCacheUnit, NestedCreationDoesNotDeadlock) {
    primitive_cache_t cache(8);
    auto outer = make_key(1), inner = make_key(2);
    ctx_t ctx;
    ctx.pd = outer.pd;
    ctx.during = [&] { EXPECT_FALSE(request(cache, inner)); };
    bool hit = true;
    auto r = cache.get_or_create(outer.key, create_fake, &ctx, hit);
    EXPECT_EQ(r.status, dnnl_success);
    EXPECT_FALSE(hit);
    EXPECT_TRUE(cached(cache, inner));
    EXPECT_TRUE(cached(cache, outer));
}

TEST(PrimitiveCacheUnit, BytesSumEntryFootprints) {
    primitive_cache_t cache(3);
    for (int i = 0; i < 5; ++i) request(cache, make_key(i));
    auto s = cache.stats();
    EXPECT_EQ(s.entries, 3);
    EXPECT_EQ(s.bytes, 300);
    EXPECT_EQ(s.evictions, 2);
}

TEST(PrimitiveCacheUnit, CreatorEvictedMidwayDoesNotClaimANewerEntry) {
    // While K is being created, the cache is emptied and K is requested
    // again (a fast creation, whose entry may reuse the evicted entry's
    // memory). The first creator must leave that newer entry alone: one
    // entry, counted once.
    primitive_cache_t cache(4);
    auto k = make_key(5);
    ctx_t slow;
    slow.pd = k.pd;
    slow.during = [&] {
        cache.set_capacity(0);
        cache.set_capacity(4);
        EXPECT_FALSE(request(cache, k));
    };
    bool hit = true;
    auto r = cache.get_or_create(k.key, create_fake, &slow, hit);
    EXPECT_EQ(r.status, dnnl_success);
    EXPECT_FALSE(hit);
    const auto s = cache.stats();
    EXPECT_EQ(s.entries, 1);
    EXPECT_EQ(s.bytes, 100);
    EXPECT_TRUE(cached(cache, k));
}
