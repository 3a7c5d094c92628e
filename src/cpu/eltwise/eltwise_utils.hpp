// Helpers of the CPU eltwise implementations: per-dimension offset tables
// for arbitrary blocked layouts (and the threading layer they split work
// with).
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

// Element offsets of a blocked layout are a sum of one term per
// dimension: off(pos) = base + sum_d table[d][pos[d]]. The tables cover
// `extent[d]` positions per dimension; with `broadcast`, dimensions of
// size 1 contribute 0 for every position (binary post-op sources).
struct offset_table_t {
    void init(const memory_desc_t &md, const dim_t *extent,
            bool broadcast = false) {
        ndims = md.ndims;
        dim_t zero[max_ndims] = {0};
        base = md_off_v(md, zero);
        dim_t total = 0;
        for (int d = 0; d < ndims; ++d) {
            start[d] = total;
            total += extent[d];
        }
        values.assign((size_t)total, 0);
        for (int d = 0; d < ndims; ++d) {
            dim_t pos[max_ndims] = {0};
            const bool bcast = broadcast && md.dims[d] == 1;
            for (dim_t i = 0; i < extent[d]; ++i) {
                pos[d] = bcast ? 0 : i;
                values[(size_t)(start[d] + i)] = md_off_v(md, pos) - base;
            }
        }
    }
    const dim_t *dim(int d) const { return values.data() + start[d]; }

    int ndims = 0;
    dim_t base = 0;
    dim_t start[max_ndims] = {0};
    std::vector<dim_t> values;
};

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
