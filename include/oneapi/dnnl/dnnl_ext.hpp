// C++ wrappers of the extensions in dnnl_ext.h (not part of oneDNN).
#ifndef ONEAPI_DNNL_DNNL_EXT_HPP
#define ONEAPI_DNNL_DNNL_EXT_HPP

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

namespace dnnl {
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

} // namespace ext
} // namespace dnnl

#endif
