// CPU binary implementations. Both compute rows of up to rows::chunk
// elements in f32 (direct for contiguous f32 operands and destination):
// load with scales, one vectorised operation loop, post-ops, store.
//  - binary_t<true>  (walk "nest"): tensors whose layouts are linear in the
//    destination's loop nest (dense, channels-last, blocked alike, any
//    broadcast of either source); contiguous rows, broadcast scalars;
//  - binary_t<false> (walk "walk"): any layouts through per-dim offset
//    tables, the last entry of the list.
#pragma once

#include <string>

#include "common/binary_pd.hpp"
#include "cpu/tensor_walk/nest.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/tensor_walk/walk.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace binary {

template <bool nested>
struct binary_t : public primitive_t {
    struct pd_t : public cpu_pd_t<binary_pd_t, binary_t> {
        using cpu_pd_t<binary_pd_t, binary_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        // <types>_<family>_<walk>__<isa> (rows::impl_name)
        std::string name_;

        rows::po_chain_t po;
        nest::nest_t nest; // nested
        // Several short rows per kernel call (f32, no scales or post-ops,
        // dst and sources contiguous blocks of rows or one repeated row).
        bool block_ok = false;
        walk::walk_t walk; // generic
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace binary
} // namespace cpu
} // namespace impl
} // namespace dnnl
