// How an inner product's source flattens into GEMM rows: dims 1.. (input
// channels and spatial dims) become one K index per minibatch row (for
// every engine's GEMM-based inner product).
#pragma once

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {

inline bool has_blocks(const memory_desc_t &md) {
    return md.format_desc.blocking.inner_nblks != 0;
}

// Offset (elements, offset0 excluded) of logical position `pos`.
inline dim_t elem_off(const memory_desc_t &md, const dim_t *pos) {
    return md_off_v(md, pos) - md.offset0;
}

// Dims 1.. of `md` are dense with unit innermost stride, so the flattened
// index k of an element is its offset within a row (blocked layouts:
// unpadded, their elements filling [0, K) of a row).
bool k_dense(const memory_desc_t &md);

} // namespace impl
} // namespace dnnl
