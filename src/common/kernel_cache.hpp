// The global kernel cache: compiled code that depends only on a kernel
// configuration (source identity, build options, device, context), not on
// the full problem, so primitives that differ only in shape share it.
// Backend-neutral: a backend describes its key and value by deriving from
// key_impl_t / value_impl_t (the OpenCL backend stores built programs).
//
// The second user of the library's LRU cache template
// (common/cache/lru_cache.hpp), so it behaves as the primitive cache does:
// exact LRU, concurrent requests for one key de-duplicated (one thread
// creates, the others wait for its result), no lock held while a value is
// created, failed creations not kept. Its capacity is its own:
// ONEDNN_KERNEL_CACHE_CAPACITY (or DNNL_KERNEL_CACHE_CAPACITY), else what
// ONEDNN_PRIMITIVE_CACHE_CAPACITY (or DNNL_...) says, else 1024; 0
// disables it. Building with ONEDNN_ENABLE_KERNEL_CACHE=OFF compiles it
// out (the capacity reads 0 and stays 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/c_types.hpp"
#include "common/cache/cache_stats.hpp"

namespace dnnl {
namespace impl {
namespace kernel_cache {

// What identifies a cached kernel. Implementations compare only with keys
// of their own dynamic type (equal() is called after the hashes matched
// and typeid checked by the caller).
struct key_impl_t {
    virtual ~key_impl_t() = default;
    virtual bool equal(const key_impl_t &other) const = 0;
    virtual size_t hash() const = 0;
};

// What is cached; destroyed when the last holder lets go (an evicted value
// stays alive in the primitives still using it).
struct value_impl_t {
    virtual ~value_impl_t() = default;
    // Bytes the value holds, for the statistics.
    virtual size_t footprint() const { return 0; }
    // Cache blobs: what names this value on any context of its device
    // (empty when it cannot be saved), and its compiled bytes.
    virtual std::string portable_id() const { return {}; }
    virtual status_t binary(std::string &out) const { return dnnl_unimplemented; }
};

// A key and its hash, computed once.
struct key_t {
    key_t() = default;
    explicit key_t(std::shared_ptr<const key_impl_t> impl);
    bool operator==(const key_t &other) const;
    std::shared_ptr<const key_impl_t> impl;
    size_t hash = 0;
};

struct result_t {
    std::shared_ptr<value_impl_t> value;
    status_t status = dnnl_success;
};

// Creates the value for a key; called outside every cache lock.
using creator_f = result_t (*)(void *ctx);

// Returns the cached value for `key`, or creates it with create(ctx)
// exactly once across all threads asking at once. `hit` tells whether the
// value came from the cache (a waiter counts as a hit). A failed creation
// is not cached.
result_t get_or_create(const key_t &key, creator_f create, void *ctx, bool &hit);

int get_capacity();
// Evicts down to `capacity`; 0 empties the cache and disables it. A
// negative capacity is refused (invalid_arguments).
status_t set_capacity(int capacity);

// Calls `use` on every ready value (engine cache blobs), under a shared
// lock: `use` must not call back into the cache.
void for_each_value(void (*use)(const std::shared_ptr<value_impl_t> &, void *),
        void *ctx);

using stats_t = cache_stats_t;
stats_t get_stats();
// Zeroes hits, misses and evictions.
void reset_stats();

} // namespace kernel_cache
} // namespace impl
} // namespace dnnl
