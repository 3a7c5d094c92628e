// The OpenCL engine's table from primitive kind to implementation list.
// No OpenCL primitive exists yet: every kind maps to the empty list, and a
// create:check verbose line says why creation is unimplemented.
#include "gpu/ocl/ocl_impl_lists.hpp"

#include "common/verbose.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

static const impl_list_item_t empty_list[] = {{nullptr}};

const impl_list_item_t *impl_list_for(primitive_kind_t kind)
{
    verbose_check(dnnl_prim_kind2str(kind),
            "gpu engine: no OpenCL implementation of this primitive kind "
            "yet (unimplemented)");
    return empty_list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
