// The counters every cache of the library reports (the primitive cache and
// the kernel cache, through the statistics extension of dnnl_ext.h).
#pragma once

#include <cstdint>

namespace dnnl {
namespace impl {

// Hits and misses count creation requests since the last reset (a thread
// that waited for another's creation counts as a hit); entries and bytes
// describe the contents (bytes sums what the kept values reported for
// themselves).
struct cache_stats_t {
    int64_t entries, capacity, hits, misses, evictions, bytes;
};

} // namespace impl
} // namespace dnnl
