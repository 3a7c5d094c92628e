// Layout arithmetic shared by the CPU reorders: offsets contributed by one
// logical dim of a blocked descriptor, the factorisation of a dim into its
// outer part and inner blocks, and the checks every CPU reorder makes.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

// Offset (in elements, offset0 excluded) that index `i` of dim `d`
// contributes; offsets of a blocked layout are sums of these over dims.
dim_t dim_offset(const memory_desc_t &md, int d, dim_t i);

// Product of the inner blocks of dim `d`.
dim_t dim_block(const memory_desc_t &md, int d);

// One factor of a dim's index: `n` values `stride` elements apart; `lm` is
// how much one step of the factor moves the logical index.
struct factor_t {
    dim_t n, stride, lm;
};
// Factors of dim `d` restricted to the first `extent` indices (a multiple
// of the dim's block), outermost first.
std::vector<factor_t> dim_factors(const memory_desc_t &md, int d, dim_t extent);

// Conditions shared by the CPU reorders: blocked layouts, known sizes,
// supported data types, no compensation buffers.
// `allow_runtime`: runtime dims and strides pass (their positions must
// agree between src and dst; the actual descriptors come at execution).
// `with_f8`: f8_e5m2 / f8_e4m3 pass (the reference reorder converts them).
bool reorder_mds_ok(const memory_desc_t &src, const memory_desc_t &dst,
        bool allow_runtime = false, bool with_f8 = false);

bool has_zero_dim(const memory_desc_t &md);

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
