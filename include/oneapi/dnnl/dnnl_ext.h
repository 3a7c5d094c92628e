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

/* The kernel cache keeps compiled device code (OpenCL programs) by its
 * configuration, so that primitives differing only in shape share it. Its
 * capacity is its own: ONEDNN_KERNEL_CACHE_CAPACITY (or
 * DNNL_KERNEL_CACHE_CAPACITY) at start-up, else the primitive cache's
 * variable, else 1024; 0 disables it. */

/** Reads the kernel cache capacity (entries) into `*capacity`.
 * dnnl_invalid_arguments when `capacity` is null. */
dnnl_status_t DNNL_API dnnl_get_kernel_cache_capacity(int *capacity);

/** Sets the kernel cache capacity, evicting the least recently used
 * entries beyond it; 0 empties the cache and disables it.
 * dnnl_invalid_arguments when `capacity` is negative. A build with the
 * kernel cache compiled out accepts any valid capacity and keeps 0. */
dnnl_status_t DNNL_API dnnl_set_kernel_cache_capacity(int capacity);

/** Counters of the kernel cache, with the meanings of the primitive
 * cache's; `bytes` sums what each kept kernel reported (for OpenCL, the
 * program binaries). */
typedef struct {
    int64_t entries;
    int64_t capacity;
    int64_t hits;
    int64_t misses;
    int64_t evictions;
    int64_t bytes;
} dnnl_ext_kernel_cache_stats_t;

/** Reads the kernel cache counters. */
dnnl_status_t DNNL_API dnnl_ext_kernel_cache_get_stats(
        dnnl_ext_kernel_cache_stats_t *stats);

/** Resets the kernel cache's hits, misses and evictions to zero. */
dnnl_status_t DNNL_API dnnl_ext_kernel_cache_reset_stats(void);

/** Programs the OpenCL backend made in this process: `compiled` from
 * source, `loaded` from the binaries of cache blobs (primitive and engine
 * blobs, the disk cache). Either pointer may be null; both read 0 in a
 * build without OpenCL. */
dnnl_status_t DNNL_API dnnl_ext_ocl_get_program_counts(
        int64_t *compiled, int64_t *loaded);

#ifdef __cplusplus
}
#endif

#endif
