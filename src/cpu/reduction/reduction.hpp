// CPU reduction. Values are read as f32 (in place for contiguous f32),
// transformed (|x|^p for the norms), combined (sum, max, min, product),
// finalised (mean, eps, root) and written to dst, or to an f32 buffer in
// dst's layout when post-ops or another dst data type need a final
// elementwise pass.
//  - reduction_t<true>  (walk "nest"): src and dst linear in src's loop
//    nest. Innermost reduced run: vector reductions of contiguous runs;
//    innermost kept run: lanes of accumulators. When there are fewer
//    output groups than threads, the reduced range is split among threads
//    and partial results combined.
//  - reduction_t<false> (walk "walk"): any layouts through per-dim offset
//    tables, one dst element at a time.
#pragma once

#include <string>

#include "common/reduction_pd.hpp"
#include "cpu/tensor_walk/nest.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/tensor_walk/walk.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reduction {

// The nest of src split into kept and reduced parts.
struct plan_t {
    bool inner_reduced = false;
    int nk = 0, nr = 0;
    dim_t kext[nest::max_parts] = {}, ks_src[nest::max_parts] = {},
          ks_dst[nest::max_parts] = {};
    dim_t rext[nest::max_parts] = {}, rs[nest::max_parts] = {};
    dim_t run = 1, run_st = 0; // innermost reduced run (inner_reduced)
    dim_t lanes = 1, lane_src = 0, lane_dst = 0; // innermost kept run
    dim_t base_src = 0, base_dst = 0;
    bool init(const memory_desc_t &src, const memory_desc_t &dst);
};

template <bool nested>
struct reduction_t : public primitive_t {
    struct pd_t : public cpu_pd_t<reduction_pd_t, reduction_t> {
        using cpu_pd_t<reduction_pd_t, reduction_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        // <types>_<family>_<walk>__<isa> (rows::impl_name)
        std::string name_;

        plan_t plan;                     // nested
        walk::walk_t src_walk, dst_walk; // generic
        rows::po_chain_t po;
        bool direct = false;   // results go straight to an f32 dst
        dim_t reduce_size = 1; // elements per output
        dim_t dst_span = 0;
        memory_desc_t acc_md; // dst's layout in f32 from offset 0
        bool final_nested = false;
        nest::nest_t final_nest; // final pass: dst, acc, post-op tensors
        walk::walk_t final_walk;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace reduction
} // namespace cpu
} // namespace impl
} // namespace dnnl
