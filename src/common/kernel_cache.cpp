// The global kernel cache: key comparison, the capacity from the
// environment, and the functions of kernel_cache.hpp over one instance of
// the LRU cache template.
#include "common/kernel_cache.hpp"

#include <typeinfo>

#include "common/cache/capacity_env.hpp"
#include "common/cache/lru_cache.hpp"

#ifndef DNNL_ENABLE_KERNEL_CACHE
#define DNNL_ENABLE_KERNEL_CACHE 1
#endif

namespace dnnl {
namespace impl {
namespace kernel_cache {

key_t::key_t(std::shared_ptr<const key_impl_t> i)
    : impl(std::move(i)), hash(impl ? impl->hash() : 0) {}

bool key_t::operator==(const key_t &o) const {
    if (hash != o.hash) return false;
    if (impl == o.impl) return true;
    if (!impl || !o.impl) return false;
    const key_impl_t &a = *impl, &b = *o.impl;
    if (typeid(a) != typeid(b)) return false;
    return a.equal(b);
}

namespace {

struct key_hash_t {
    size_t operator()(const key_t &k) const { return k.hash; }
};

// Results keep their value when the status is success and a value is
// there; its footprint() is what the statistics count.
using cache_t = lru_cache_t<key_t, key_hash_t, result_t>;

// Its own variables first, then the primitive cache's, then 1024; 0 when
// the cache is compiled out.
int initial_capacity() {
#if DNNL_ENABLE_KERNEL_CACHE
    return capacity_from_env("kernel cache",
            {"ONEDNN_KERNEL_CACHE_CAPACITY", "DNNL_KERNEL_CACHE_CAPACITY",
                    "ONEDNN_PRIMITIVE_CACHE_CAPACITY",
                    "DNNL_PRIMITIVE_CACHE_CAPACITY"},
            1024);
#else
    return 0;
#endif
}

cache_t &cache() {
    // Never destroyed: values may be released from static destructors.
    static cache_t *c = new cache_t(initial_capacity());
    return *c;
}

} // namespace

result_t get_or_create(
        const key_t &key, creator_f create, void *ctx, bool &hit) {
    return cache().get_or_create(key, [&] { return create(ctx); }, hit);
}

int get_capacity() {
    return cache().capacity();
}

status_t set_capacity(int capacity) {
    if (capacity < 0) return dnnl_invalid_arguments;
#if DNNL_ENABLE_KERNEL_CACHE
    return cache().set_capacity(capacity);
#else
    return dnnl_success; // compiled out: the capacity stays 0
#endif
}

void for_each_value(void (*use)(const std::shared_ptr<value_impl_t> &, void *),
        void *ctx) {
    cache().any_ready([&](const result_t &r) {
        if (r.value) use(r.value, ctx);
        return false;
    });
}

stats_t get_stats() {
    return cache().stats();
}

void reset_stats() {
    cache().reset_stats();
}

} // namespace kernel_cache
} // namespace impl
} // namespace dnnl
