// The OpenCL engine's implementation lists, per primitive kind.
#pragma once

#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Ordered, null-terminated list of OpenCL implementations for `kind`.
// Every list is empty until the OpenCL primitives land, so primitive
// descriptor creation on a gpu engine answers dnnl_unimplemented.
const impl_list_item_t *impl_list_for(primitive_kind_t kind);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
