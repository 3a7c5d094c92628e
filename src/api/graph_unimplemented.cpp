// See graph_unimplemented.hpp.
#include "api/graph_unimplemented.hpp"

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

dnnl_status_t graph_api_unimplemented(const char *function) {
    verbose_error("graph", "%s: the graph API is not implemented by this "
                           "library (primitive API only)",
            function);
    return dnnl_unimplemented;
}

} // namespace impl
} // namespace dnnl
