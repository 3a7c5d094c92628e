// CPU deconvolution: runs the convolution driver with the roles of the
// tensors swapped. A deconvolution is the transpose of a convolution whose
// source is the deconvolution's destination, so
//   deconvolution forward          = convolution backward data
//   deconvolution backward data    = convolution forward
//   deconvolution backward weights = convolution backward weights with
//                                    source and diff_dst exchanged
// and the weights are seen with their two channel axes swapped.
#pragma once

#include "common/deconvolution_pd.hpp"
#include "common/primitive.hpp"
#include "cpu/convolution/conv_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

struct cpu_deconvolution_pd_t : public deconvolution_pd_t {
    using deconvolution_pd_t::deconvolution_pd_t;

    const char *name() const override { return "conv:gemm"; }
    // Binary select post-ops go through the shared post-op code.
    bool handles_select_post_op() const override { return true; }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;

    const conv::conv_plan_t &plan() const { return plan_; }

private:
    conv::conv_plan_t plan_;
};

struct cpu_deconvolution_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
