// Concurrency stress of the LRU cache template and of the kernel cache:
// many threads get_or_create overlapping keys (some creations fail) while
// another thread keeps changing the capacity and a third reads the
// statistics. Meant for the ThreadSanitizer build (CMakePresets "tsan")
// as much as for the plain one: the checks are that every thread gets the
// value of the key it asked for, and that the counters add up afterwards.
#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/cache/lru_cache.hpp"
#include "common/kernel_cache.hpp"

using namespace dnnl::impl;

namespace {

const int n_workers = 6;
const int n_requests = 10000; // per worker
const int n_keys = 48;

// Keys whose creation fails: handed to the waiters, never kept.
bool fails(int key) {
    return key % 11 == 5;
}

// Requests the workers make under each capacity before the next change.
const int requests_per_step = 100;

// Runs `request(thread, i)` on the workers while `resize(step)` and
// `observe()` run on two more threads until the workers are done.
// Each capacity stays until the workers have made requests_per_step more
// requests (or are done), so that however the two cores are shared the
// first capacity (the one the caller set, the first of `capacities`) is
// the one of at least that many requests: eviction by insertion always
// happens, instead of only when the resizer happens not to be parked on a
// capacity of 0 or of more than n_keys while the workers run.
template <typename Request, typename Resize, typename Observe>
void run_stress(Request request, Resize resize, Observe observe) {
    std::atomic<bool> done {false};
    std::atomic<int> ready {0};
    std::atomic<int64_t> made {0};
    std::thread resizer([&] {
        for (int step = 0; !done.load(); ++step) {
            resize(step);
            const int64_t at = made.load();
            while (!done.load() && made.load() < at + requests_per_step)
                std::this_thread::yield();
        }
    });
    std::thread observer([&] {
        while (!done.load()) {
            observe();
            std::this_thread::yield();
        }
    });
    std::vector<std::thread> workers;
    for (int t = 0; t < n_workers; ++t)
        workers.emplace_back([&, t] {
            ++ready;
            while (ready.load() < n_workers) std::this_thread::yield();
            for (int i = 0; i < n_requests; ++i) {
                request(t, i);
                made.fetch_add(1, std::memory_order_relaxed);
            }
        });
    for (auto &w : workers) w.join();
    done = true;
    resizer.join();
    observer.join();
}

const int capacities[] = {16, 3, 0, 48, 1, 8, 64, 0, 5};

struct value_t {
    explicit value_t(int k) : key(k) {}
    size_t footprint() const { return 10; }
    int key;
};
struct result_t {
    std::shared_ptr<value_t> value;
    status_t status = dnnl_success;
};
struct int_hash_t {
    size_t operator()(int k) const { return (size_t)k * 0x9e3779b97f4a7c15ull; }
};

} // namespace

TEST(CacheStress, TemplateUnderResizing) {
    lru_cache_t<int, int_hash_t, result_t> cache(16);
    std::atomic<int64_t> wrong {0}, requests {0};
    run_stress(
            [&](int t, int i) {
                std::minstd_rand rng((unsigned)(t * 7919 + i));
                const int key = (int)(rng() % n_keys);
                bool hit = false;
                result_t r = cache.get_or_create(key,
                        [&] {
                            if (fails(key))
                                return result_t {nullptr, dnnl_out_of_memory};
                            return result_t {std::make_shared<value_t>(key),
                                    dnnl_success};
                        },
                        hit);
                ++requests;
                const bool ok = fails(key)
                        ? r.status == dnnl_out_of_memory && !r.value
                        : r.status == dnnl_success && r.value
                                && r.value->key == key;
                if (!ok) ++wrong;
                if (i % 5 == 0)
                    cache.peek(key, [&](const result_t &p) {
                        if (!p.value || p.value->key != key) ++wrong;
                    });
            },
            [&](int step) {
                cache.set_capacity(capacities[step % 9]);
                if (step % 7 == 0) cache.set_capacity_without_clearing(2);
            },
            [&] {
                const cache_stats_t s = cache.stats();
                if (s.entries < 0 || s.bytes < 0) ++wrong;
                cache.any_ready([](const result_t &r) { return !r.value; });
            });
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_GT(cache.stats().evictions, 0); // capacity 16 < n_keys did bite
    ASSERT_EQ(cache.set_capacity(8), dnnl_success);
    const cache_stats_t s = cache.stats();
    EXPECT_LE(s.entries, 8);
    EXPECT_EQ(s.bytes, 10 * s.entries);
    EXPECT_EQ(s.hits + s.misses, requests.load());
}

namespace {

namespace kc = kernel_cache;

struct id_key_t : public kc::key_impl_t {
    explicit id_key_t(int i) : id(i) {}
    bool equal(const kc::key_impl_t &o) const override {
        return id == static_cast<const id_key_t &>(o).id;
    }
    size_t hash() const override { return (size_t)id * 31 + 7; }
    int id;
};

struct program_t : public kc::value_impl_t {
    explicit program_t(int i) : id(i) {}
    size_t footprint() const override { return 64; }
    int id;
};

kc::result_t build(void *ctx) {
    const int id = *static_cast<int *>(ctx);
    kc::result_t r;
    if (fails(id))
        r.status = dnnl_runtime_error;
    else
        r.value = std::make_shared<program_t>(id);
    return r;
}

} // namespace

TEST(CacheStress, KernelCacheUnderResizing) {
    const int saved = kc::get_capacity();
    kc::set_capacity(16);
    kc::reset_stats();
    std::atomic<int64_t> wrong {0};
    run_stress(
            [&](int t, int i) {
                std::minstd_rand rng((unsigned)(t * 104729 + i));
                int id = (int)(rng() % n_keys);
                kc::key_t key(std::make_shared<id_key_t>(id));
                bool hit = false;
                kc::result_t r = kc::get_or_create(key, build, &id, hit);
                const bool ok = fails(id)
                        ? r.status == dnnl_runtime_error && !r.value
                        : r.status == dnnl_success && r.value
                                && static_cast<program_t *>(r.value.get())->id
                                        == id;
                if (!ok) ++wrong;
            },
            [&](int step) { kc::set_capacity(capacities[step % 9]); },
            [&] {
                const kc::stats_t s = kc::get_stats();
                if (s.capacity < 0 || s.entries < 0) ++wrong;
            });
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_GT(kc::get_stats().evictions, 0);
    kc::set_capacity(4);
    const kc::stats_t s = kc::get_stats();
    EXPECT_LE(s.entries, 4);
    EXPECT_EQ(s.bytes, 64 * s.entries);
    EXPECT_EQ(s.hits + s.misses, (int64_t)n_workers * n_requests);
    kc::set_capacity(saved);
}
