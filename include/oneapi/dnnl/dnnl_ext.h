/* Extensions beyond the oneDNN API. Nothing here exists in oneDNN; programs
 * that use it work only with this library. */
#ifndef ONEAPI_DNNL_DNNL_EXT_H
#define ONEAPI_DNNL_DNNL_EXT_H

#include <stdint.h>

#include "oneapi/dnnl/dnnl_common_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Counters of the global primitive cache. `bytes` sums the heap footprint
 * each cached entry measured for itself (descriptor, generated code,
 * constant buffers). Hits and misses count creations since the last reset;
 * a thread that waited for another thread's creation counts as a hit. */
typedef struct {
    int64_t entries;
    int64_t capacity;
    int64_t hits;
    int64_t misses;
    int64_t evictions;
    int64_t bytes;
} dnnl_ext_primitive_cache_stats_t;

/** Reads the cache counters. */
dnnl_status_t DNNL_API dnnl_ext_primitive_cache_get_stats(
        dnnl_ext_primitive_cache_stats_t *stats);

/** Resets hits, misses and evictions to zero. */
dnnl_status_t DNNL_API dnnl_ext_primitive_cache_reset_stats(void);

#ifdef __cplusplus
}
#endif

#endif
