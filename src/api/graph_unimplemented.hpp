// The graph API (dnnl_graph_*) is declared and exported so that programs
// built against oneDNN link and load, but this library implements none of
// it: every call answers dnnl_unimplemented with a verbose error line that
// names the function (src/api/unimplemented_graph_api.cpp, generated).
#pragma once

#include "oneapi/dnnl/dnnl_common_types.h"

namespace dnnl {
namespace impl {

dnnl_status_t graph_api_unimplemented(const char *function);

} // namespace impl
} // namespace dnnl
