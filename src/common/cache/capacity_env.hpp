// Reading a cache capacity from the environment, shared by the caches that
// take theirs from variables (primitive cache, kernel cache).
#pragma once

#include <initializer_list>

namespace dnnl {
namespace impl {

// The capacity given by the first of `names` that is set to a valid
// value (a decimal integer in [0, 2^30]), else `fallback`. A malformed
// value is ignored with a verbose warning naming `cache`, and the next
// variable is read.
int capacity_from_env(const char *cache, std::initializer_list<const char *> names,
        int fallback);

} // namespace impl
} // namespace dnnl
