// C++ wrappers of the extensions in dnnl_ext.h (not part of oneDNN): cache
// statistics, and the kernel cache capacity (in namespace dnnl, beside the
// primitive cache capacity functions of dnnl.hpp).
#ifndef ONEAPI_DNNL_DNNL_EXT_HPP
#define ONEAPI_DNNL_DNNL_EXT_HPP

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

namespace dnnl {

/// Returns the kernel cache capacity (entries); throws dnnl::error on
/// failure.
inline int get_kernel_cache_capacity() {
    int result = 0;
    error::wrap_c_api(dnnl_get_kernel_cache_capacity(&result),
            "could not get kernel cache capacity");
    return result;
}

/// Sets the kernel cache capacity (0 empties and disables it); throws
/// dnnl::error for a negative capacity.
inline void set_kernel_cache_capacity(int capacity) {
    error::wrap_c_api(dnnl_set_kernel_cache_capacity(capacity),
            "could not set kernel cache capacity");
}

namespace ext {

/// Counters of the global primitive cache.
using primitive_cache_stats = dnnl_ext_primitive_cache_stats_t;

/// Reads the cache counters; throws dnnl::error on failure.
inline primitive_cache_stats get_primitive_cache_stats() {
    primitive_cache_stats s;
    error::wrap_c_api(dnnl_ext_primitive_cache_get_stats(&s),
            "could not read primitive cache statistics");
    return s;
}

/// Resets hits, misses and evictions.
inline void reset_primitive_cache_stats() {
    error::wrap_c_api(dnnl_ext_primitive_cache_reset_stats(),
            "could not reset primitive cache statistics");
}

/// Counters of the global kernel cache.
using kernel_cache_stats = dnnl_ext_kernel_cache_stats_t;

/// Reads the kernel cache counters; throws dnnl::error on failure.
inline kernel_cache_stats get_kernel_cache_stats() {
    kernel_cache_stats s;
    error::wrap_c_api(dnnl_ext_kernel_cache_get_stats(&s),
            "could not read kernel cache statistics");
    return s;
}

/// Resets the kernel cache's hits, misses and evictions.
inline void reset_kernel_cache_stats() {
    error::wrap_c_api(dnnl_ext_kernel_cache_reset_stats(),
            "could not reset kernel cache statistics");
}

} // namespace ext
} // namespace dnnl

#endif
