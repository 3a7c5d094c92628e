// CPU PReLU, forward and backward, computed per row chunk in f32.
//  - prelu_t<fwd, true>  (walk "nest"): layouts linear in the loop nest of
//    dst (forward) or src (backward), weights of any broadcast;
//  - prelu_t<fwd, false> (walk "walk"): any layouts (per-dim offset tables).
// Backward reduces diff_weights over its broadcast dims in per-thread f32
// accumulators (indexed like diff_weights' layout), summed at the end.
#pragma once

#include <string>

#include "common/prelu_pd.hpp"
#include "cpu/tensor_walk/nest.hpp"
#include "cpu/tensor_walk/walk.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace prelu {

template <bool fwd, bool nested>
struct prelu_t : public primitive_t {
    struct pd_t : public cpu_pd_t<prelu_pd_t, prelu_t> {
        using cpu_pd_t<prelu_pd_t, prelu_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        // <types>_<family>_<walk>__<isa> (rows::impl_name)
        std::string name_;

        nest::nest_t nest;
        walk::walk_t walk;
        bool dw_direct = false; // diff_weights has src's dims
        bool block_ok = false;  // forward f32 rows in blocks (see binary)
        dim_t dw_span = 0;      // elements spanned by diff_weights' layout
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace prelu
} // namespace cpu
} // namespace impl
} // namespace dnnl
