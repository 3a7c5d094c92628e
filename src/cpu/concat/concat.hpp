// CPU concat: every source is copied into its image in dst (dst's layout
// restricted to the source's range along the axis).
//  - concat_t<true>  (walk "nest"): each source and its image are linear
//    in the source's loop nest (plain layouts, channels-last, blocked alike
//    with block-aligned positions): row copies (memcpy for contiguous rows
//    of one data type), all sources in one parallel region;
//  - concat_t<false> (walk "walk"): any layouts via per-dim offset tables.
// Scales and data type conversion go through f32 rows.
#pragma once

#include <string>

#include <vector>

#include "common/concat_pd.hpp"
#include "cpu/tensor_walk/nest.hpp"
#include "cpu/tensor_walk/walk.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace concat {

template <bool nested>
struct concat_t : public primitive_t {
    struct pd_t : public cpu_pd_t<concat_pd_t, concat_t> {
        using cpu_pd_t<concat_pd_t, concat_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        // <types>_<family>_<walk>__<isa> (rows::impl_name)
        std::string name_;
        std::vector<memory_desc_t> images; // nested
        std::vector<nest::nest_t> nests;   // nested, per source
        std::vector<walk::walk_t> walks;   // generic, per source
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace concat
} // namespace cpu
} // namespace impl
} // namespace dnnl
