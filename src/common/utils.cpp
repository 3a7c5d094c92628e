// Environment access shared by the library.
#include "common/utils.hpp"

#include <cstdlib>

namespace dnnl {
namespace impl {

std::string getenv_string(const char *name) {
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

} // namespace impl
} // namespace dnnl
