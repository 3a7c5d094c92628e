// The flattening checks of ip_layout.hpp.
#include "common/ip_layout.hpp"

#include <algorithm>

namespace dnnl {
namespace impl {

namespace {

// Dims 1.. of `md` in memory order, outermost first (ties: logical order).
int k_order(const memory_desc_t &md, int *order) {
    const int nd = md.ndims;
    const dim_t *st = md.format_desc.blocking.strides;
    for (int d = 1; d < nd; ++d)
        order[d - 1] = d;
    std::stable_sort(order, order + nd - 1, [&](int a, int b) { return st[a] > st[b]; });
    return nd - 1;
}

// Blocked layouts: dims 1.. unpadded and their elements filling exactly
// [0, K) of a row (the offset grows with every index, so the last
// position's offset + 1 is the row's span).
bool k_dense_blocked(const memory_desc_t &md) {
    dims_t last = {};
    dim_t K = 1;
    for (int d = 1; d < md.ndims; ++d) {
        if (md.padded_dims[d] != md.dims[d]) return false;
        if (md.dims[d] == 0) return true;
        last[d] = md.dims[d] - 1;
        K *= md.dims[d];
    }
    return elem_off(md, last) + 1 == K;
}

} // namespace

bool k_dense(const memory_desc_t &md) {
    if (has_blocks(md)) return k_dense_blocked(md);
    int order[DNNL_MAX_NDIMS];
    const int n = k_order(md, order);
    const dim_t *st = md.format_desc.blocking.strides;
    dim_t expected = 1;
    for (int i = n - 1; i >= 0; --i) {
        const int d = order[i];
        if (md.dims[d] == 1) continue;
        if (st[d] != expected) return false;
        expected *= md.dims[d];
    }
    return true;
}

} // namespace impl
} // namespace dnnl
