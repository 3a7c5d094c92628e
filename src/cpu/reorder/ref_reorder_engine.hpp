// The generic reorder loop: any two blocked descriptors of the same dims
// (any tags, strides, padding), every supported data type pair, scales and
// zero points with any masks, and the sum post-op. Offsets come from small
// per-dim tables; positions in the destination's padding are zero-filled.
// It also serves the fast reorders for the parts of a tensor they leave.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "cpu/reorder/reorder_quant.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

struct ref_tables_t {
    void init(const memory_desc_t &src, const memory_desc_t &dst,
            const quant_conf_t &conf);

    // Converts every position of the box [lo, hi) (logical indices, hi at
    // most the destination's padded dims).
    status_t run(const void *src, void *dst, const quant_values_t &qv,
            const dim_t *lo, const dim_t *hi) const;
    // The whole destination.
    status_t run_all(
            const void *src, void *dst, const quant_values_t &qv) const;

    int ndims = 0;
    dims_t dims{}, dpad{};
    dim_t s0 = 0, d0 = 0;
    // Offsets a dim's index contributes: a stride for dims without inner
    // blocks, a table (src over [0, dims), dst over [0, dpad)) otherwise.
    struct dim_map_t {
        dim_t stride = 0;
        std::vector<dim_t> tab;
        dim_t operator()(dim_t i) const {
            return tab.empty() ? i * stride : tab[i];
        }
    };
    dim_map_t smap[max_ndims], dmap[max_ndims];
    dim_t qstr[q_count][max_ndims]{};
    dim_t dstep[max_ndims]{}; // |destination step| of each dim
    bool serial = false;      // destination positions may alias
    data_type_t sdt = dnnl_f32, ddt = dnnl_f32;
    bool quant = false;
};

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
