// C API: version, threading, verbose, default fpmath mode, primitive cache
// controls, oneDNN's C++-linkage test hooks, and our extensions
// (dnnl_ext.h): cache statistics and the kernel cache capacity.
#include <omp.h>

#include "oneapi/dnnl/dnnl_ext.h"
#include "oneapi/dnnl/dnnl_version_hash.h"
#include "api/c_enum.hpp"
#include "common/kernel_cache.hpp"
#include "common/primitive_attr.hpp"
#include "common/primitive_cache.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"
#include "common/jit_profiling.hpp"

using namespace dnnl::impl;

const dnnl_version_t *dnnl_version(void) {
    static const dnnl_version_t version = {DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR,
            DNNL_VERSION_PATCH, DNNL_VERSION_HASH, DNNL_CPU_RUNTIME,
            DNNL_GPU_RUNTIME};
    return &version;
}

dnnl_status_t dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode) {
    if (!mode) return dnnl_invalid_arguments;
    *mode = default_fpmath_mode();
    return dnnl_success;
}

dnnl_status_t dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode) {
    if (!known(mode)) return dnnl_invalid_arguments;
    set_default_fpmath_mode((dnnl_fpmath_mode_t)raw_value(mode));
    return dnnl_success;
}

dnnl_status_t dnnl_set_verbose(int level) { return set_verbose_level(level); }

dnnl_status_t dnnl_verbose_profiling_enabled(int *enabled) {
    if (!enabled) return dnnl_invalid_arguments;
    *enabled = verbose_on(vflag_exec_profile) ? 1 : 0;
    return dnnl_success;
}

dnnl_status_t dnnl_get_primitive_cache_capacity(int *capacity) {
    if (!capacity) return dnnl_invalid_arguments;
    *capacity = primitive_cache_t::instance().capacity();
    return dnnl_success;
}

dnnl_status_t dnnl_set_primitive_cache_capacity(int capacity) {
    return primitive_cache_t::instance().set_capacity(capacity);
}

// JIT dumps and profiler integration (common/jit_profiling.*): the CPU
// code generator and the OpenCL program builds dump through it; only the
// perf map of the profiling flags has an effect, the others are accepted.
dnnl_status_t dnnl_set_jit_dump(int enable) {
    return dnnl::impl::set_jit_dump(enable);
}
dnnl_status_t dnnl_set_jit_profiling_flags(unsigned flags) {
    return dnnl::impl::set_jit_profiling_flags(flags);
}
dnnl_status_t dnnl_set_jit_profiling_jitdumpdir(const char *dir) {
    return dnnl::impl::set_jit_profiling_jitdumpdir(dir);
}

// ---- oneDNN's test hooks: C++ linkage, as oneDNN declares them ----

DNNL_API dnnl_status_t dnnl_test_get_primitive_cache_size(int *size);
// Ours: next_impl over every kind (reorder, sum and concat too), so that
// tests reach each implementation of those lists.
DNNL_API dnnl_status_t dnnl_test_primitive_desc_next_impl(
        dnnl_primitive_desc_t pd);

dnnl_status_t dnnl_test_primitive_desc_next_impl(dnnl_primitive_desc_t pd) {
    if (!pd) return dnnl_invalid_arguments;
    return pd->next_impl(/* every_kind = */ true);
}

DNNL_API int dnnl_test_is_primitive_in_cache(const_dnnl_primitive_t p);
DNNL_API int dnnl_test_is_pd_in_cache(const_dnnl_primitive_desc_t pd);
DNNL_API size_t dnnl_test_set_primitive_cache_capacity_without_clearing(
        size_t capacity);

dnnl_status_t dnnl_test_get_primitive_cache_size(int *size) {
    if (!size) return dnnl_invalid_arguments;
    *size = primitive_cache_t::instance().size();
    return dnnl_success;
}

int dnnl_test_is_primitive_in_cache(const_dnnl_primitive_t p) {
    if (!p) return 0;
    return primitive_cache_t::instance().contains_primitive(p->impl()) ? 1 : 0;
}

int dnnl_test_is_pd_in_cache(const_dnnl_primitive_desc_t pd) {
    if (!pd) return 0;
    return primitive_cache_t::instance().contains_pd(pd->impl().get()) ? 1 : 0;
}

size_t dnnl_test_set_primitive_cache_capacity_without_clearing(size_t capacity) {
    return primitive_cache_t::instance().set_capacity_without_clearing(capacity);
}

// ---- extension: cache statistics, kernel cache capacity ----

// Both public statistics structs have the fields of cache_stats_t.
template <typename public_stats_t>
static void copy_stats(const cache_stats_t &s, public_stats_t *stats) {
    stats->entries = s.entries;
    stats->capacity = s.capacity;
    stats->hits = s.hits;
    stats->misses = s.misses;
    stats->evictions = s.evictions;
    stats->bytes = s.bytes;
}

dnnl_status_t dnnl_ext_primitive_cache_get_stats(
        dnnl_ext_primitive_cache_stats_t *stats) {
    if (!stats) return dnnl_invalid_arguments;
    copy_stats(primitive_cache_t::instance().stats(), stats);
    return dnnl_success;
}

dnnl_status_t dnnl_ext_primitive_cache_reset_stats(void) {
    primitive_cache_t::instance().reset_stats();
    return dnnl_success;
}

dnnl_status_t dnnl_get_kernel_cache_capacity(int *capacity) {
    if (!capacity) return dnnl_invalid_arguments;
    *capacity = kernel_cache::get_capacity();
    return dnnl_success;
}

dnnl_status_t dnnl_set_kernel_cache_capacity(int capacity) {
    if (capacity < 0) return dnnl_invalid_arguments;
    return kernel_cache::set_capacity(capacity);
}

dnnl_status_t dnnl_ext_kernel_cache_get_stats(
        dnnl_ext_kernel_cache_stats_t *stats) {
    if (!stats) return dnnl_invalid_arguments;
    copy_stats(kernel_cache::get_stats(), stats);
    return dnnl_success;
}

dnnl_status_t dnnl_ext_kernel_cache_reset_stats(void) {
    kernel_cache::reset_stats();
    return dnnl_success;
}
