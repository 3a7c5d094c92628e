// CPU sum: dst = sum_i scale_i * src_i, computed per row chunk in an f32
// accumulator (so any source may alias the destination).
//  - sum_t<true>  (walk "nest"): layouts linear in dst's loop nest;
//  - sum_t<false> (walk "walk"): any layouts (per-dim offset tables).
#pragma once

#include <string>

#include "common/sum_pd.hpp"
#include "cpu/tensor_walk/nest.hpp"
#include "cpu/tensor_walk/walk.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace sum {

template <bool nested>
struct sum_t : public primitive_t {
    struct pd_t : public cpu_pd_t<sum_pd_t, sum_t> {
        using cpu_pd_t<sum_pd_t, sum_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        // <types>_<family>_<walk>__<isa> (rows::impl_name)
        std::string name_;
        nest::nest_t nest;
        walk::walk_t walk;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace sum
} // namespace cpu
} // namespace impl
} // namespace dnnl
