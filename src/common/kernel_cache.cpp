// The global kernel cache (interim: one mutex, list-based LRU; to move onto
// the shared LRU template of src/common/cache).
#include "common/kernel_cache.hpp"

#include <cstdlib>
#include <future>
#include <list>
#include <mutex>
#include <string>
#include <typeinfo>
#include <unordered_map>

#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace kernel_cache {

key_t::key_t(std::shared_ptr<const key_impl_t> i)
    : impl(std::move(i)), hash(impl ? impl->hash() : 0) {}

bool key_t::operator==(const key_t &o) const {
    if (hash != o.hash) return false;
    if (impl == o.impl) return true;
    if (!impl || !o.impl) return false;
    if (typeid(*impl) != typeid(*o.impl)) return false;
    return impl->equal(*o.impl);
}

namespace {

struct key_hash_t {
    size_t operator()(const key_t &k) const { return k.hash; }
};

struct cache_t {
    struct entry_t {
        key_t key;
        std::shared_future<result_t> future;
        bool ready = false;
        result_t result;
        size_t bytes = 0;
        uint64_t serial = 0;
        std::list<entry_t *>::iterator pos;
    };
    std::mutex mutex;
    std::unordered_map<key_t, entry_t *, key_hash_t> map;
    std::list<entry_t *> lru; // front: most recent
    int capacity = 0;
    uint64_t serial = 0;
    int64_t hits = 0, misses = 0, evictions = 0, bytes = 0;

    void erase(entry_t *e) {
        lru.erase(e->pos);
        bytes -= (int64_t)e->bytes;
        map.erase(e->key);
        delete e;
    }
    void evict_to(size_t n) {
        while (map.size() > n && !lru.empty()) {
            erase(lru.back());
            ++evictions;
        }
    }
};

int capacity_from_env() {
    int capacity = 1024;
    for (const char *name : {"ONEDNN_PRIMITIVE_CACHE_CAPACITY",
                 "DNNL_PRIMITIVE_CACHE_CAPACITY",
                 "ONEDNN_KERNEL_CACHE_CAPACITY",
                 "DNNL_KERNEL_CACHE_CAPACITY"}) {
        std::string v = getenv_string(name);
        if (v.empty()) continue;
        char *end = nullptr;
        long c = std::strtol(v.c_str(), &end, 10);
        if (*end == '\0' && c >= 0 && c <= (1L << 30)) capacity = (int)c;
    }
    return capacity;
}

cache_t &cache() {
    // Never destroyed: values may be released from static destructors.
    static cache_t *c = [] {
        auto *c = new cache_t;
        c->capacity = capacity_from_env();
        return c;
    }();
    return *c;
}

} // namespace

result_t get_or_create(
        const key_t &key, creator_f create, void *ctx, bool &hit) {
    cache_t &c = cache();
    hit = false;
    std::promise<result_t> promise;
    cache_t::entry_t *mine = nullptr;
    uint64_t my_serial = 0;
    {
        std::unique_lock<std::mutex> lock(c.mutex);
        if (c.capacity == 0) {
            ++c.misses;
            lock.unlock();
            return create(ctx);
        }
        auto it = c.map.find(key);
        if (it != c.map.end()) {
            auto *e = it->second;
            c.lru.splice(c.lru.begin(), c.lru, e->pos);
            ++c.hits;
            hit = true;
            if (e->ready) return e->result;
            auto f = e->future;
            lock.unlock();
            return f.get();
        }
        mine = new cache_t::entry_t;
        mine->key = key;
        mine->future = promise.get_future().share();
        mine->serial = my_serial = ++c.serial;
        c.lru.push_front(mine);
        mine->pos = c.lru.begin();
        c.map.emplace(key, mine);
        ++c.misses;
        c.evict_to((size_t)c.capacity);
    }
    result_t r = create(ctx);
    promise.set_value(r);
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.map.find(key);
    if (it != c.map.end() && it->second->serial == my_serial) {
        if (r.status != dnnl_success || !r.value) {
            c.erase(it->second);
        } else {
            mine->result = r;
            mine->ready = true;
            mine->bytes = r.value->footprint();
            c.bytes += (int64_t)mine->bytes;
        }
    }
    return r;
}

int get_capacity() {
    std::lock_guard<std::mutex> lock(cache().mutex);
    return cache().capacity;
}

status_t set_capacity(int capacity) {
    if (capacity < 0) return dnnl_invalid_arguments;
    cache_t &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.capacity = capacity;
    c.evict_to((size_t)capacity);
    return dnnl_success;
}

stats_t get_stats() {
    cache_t &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    return {(int64_t)c.map.size(), c.capacity, c.hits, c.misses, c.evictions,
            c.bytes};
}

void reset_stats() {
    cache_t &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.hits = c.misses = c.evictions = 0;
}

} // namespace kernel_cache
} // namespace impl
} // namespace dnnl
