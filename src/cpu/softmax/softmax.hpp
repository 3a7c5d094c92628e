// CPU softmax, forward and backward. Computation is in f32 through the
// per-ISA kernels (softmax_kernels.hpp).
//  - softmax_t<fwd, true>  ("simd:f32_softmax_lanes__<isa>"): the tensors share a layout
//    in which the axis is an unblocked dim with another dim contiguous
//    inside it (nchw with axis 1, blocked layouts with axis H or W): tiles
//    of axis x lanes, many softmaxes per vector;
//  - softmax_t<fwd, false> ("simd:f32_softmax_rows__<isa>"): any layouts; one softmax
//    per row along the axis, read in place when contiguous f32, gathered
//    through per-dim offset tables otherwise.
// Forward applies src scale, post-ops (eltwise, binary) and dst scale.
#pragma once

#include <string>
#include <vector>

#include "common/softmax_pd.hpp"
#include "cpu/tensor_walk/axis_plan.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/softmax/softmax_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {

template <bool fwd, bool lanes>
struct softmax_t : public primitive_t {
    struct pd_t : public cpu_pd_t<softmax_pd_t, softmax_t> {
        using cpu_pd_t<softmax_pd_t, softmax_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }

        const kernels_t *k = nullptr;
        rows::po_chain_t po;
        axis::rows_plan_t rplan;
        axis::lanes_plan_t lplan;

    private:
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace softmax
} // namespace cpu
} // namespace impl
} // namespace dnnl
