// Cache capacities from environment variables (see capacity_env.hpp).
#include "common/cache/capacity_env.hpp"

#include <cstdlib>
#include <string>

#include "common/env_parse.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

int capacity_from_env(const char *cache, std::initializer_list<const char *> names,
        int fallback) {
    for (const char *name : names) {
        std::string v = getenv_string(name);
        if (v.empty()) continue;
        int c = 0;
        if (!parse_capacity(v, c)) {
            verbose_warning("%s: ignoring malformed %s=%s", cache, name, v.c_str());
            continue;
        }
        return c;
    }
    return fallback;
}

} // namespace impl
} // namespace dnnl
