// Ordered implementation lists of the CPU engine, one per primitive kind.
// Each list is null-terminated; the first entry that accepts a problem wins
// (fastest first, the generic reference last).
#pragma once

#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

const impl_list_item_t *eltwise_impl_list();
const impl_list_item_t *reorder_impl_list();

} // namespace cpu
} // namespace impl
} // namespace dnnl
