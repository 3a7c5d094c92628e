// CPU shuffle (forward and backward): a permutation of the positions along
// the axis, copying elements bit-exactly (input and output share a data
// type).
//  - shuffle_t<true>  (walk "lanes"): input and output share a layout in
//    which a contiguous run of other dims lies inside the axis (nchw with
//    axis 1, blocked layouts with axis H or W): one memcpy per
//    (outer position, axis position);
//  - shuffle_t<false> (walk "walk"): any layouts, rows along the axis through
//    per-dim offset tables.
#pragma once

#include <string>
#include <vector>

#include "common/shuffle_pd.hpp"
#include "cpu/tensor_walk/axis_plan.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace shuffle {

template <bool lanes>
struct shuffle_t : public primitive_t {
    struct pd_t : public cpu_pd_t<shuffle_pd_t, shuffle_t> {
        using cpu_pd_t<shuffle_pd_t, shuffle_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }

        std::vector<dim_t> perm; // source position of every output position
        // Rows of 4-byte elements written contiguously: the input offsets
        // of a row as 32-bit indices (empty otherwise).
        std::vector<int32_t> gather_idx;
        axis::rows_plan_t rplan;
        axis::lanes_plan_t lplan;
        std::string name_; // x<element bits>_shuffle_<walk>__<isa>
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace shuffle
} // namespace cpu
} // namespace impl
} // namespace dnnl
