// Cache capacities from environment variables (see capacity_env.hpp).
#include "common/cache/capacity_env.hpp"

#include <cstdlib>
#include <string>

#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

int capacity_from_env(const char *cache, std::initializer_list<const char *> names,
        int fallback) {
    for (const char *name : names) {
        std::string v = getenv_string(name);
        if (v.empty()) continue;
        char *end = nullptr;
        long c = std::strtol(v.c_str(), &end, 10);
        if (*end != '\0' || c < 0 || c > (1L << 30)) {
            verbose_warning("%s: ignoring malformed %s=%s", cache, name, v.c_str());
            continue;
        }
        return (int)c;
    }
    return fallback;
}

} // namespace impl
} // namespace dnnl
