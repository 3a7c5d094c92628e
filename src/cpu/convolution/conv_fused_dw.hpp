// Convolution followed by a depthwise-convolution post-op
// (dnnl_post_ops_append_dw), computed as two nested primitives: the base
// convolution writes the intermediate tensor into the scratchpad, the
// depthwise one reads it and writes the user's destination. Both nested
// primitives come from the global primitive cache (rfcs/01 "Nested
// Primitives"), so sharing them with plain convolutions costs nothing.
// The gpu engine lists it too (its nested primitives are then gpu ones).
#pragma once

#include "common/convolution_pd.hpp"
#include "common/primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

struct conv_fused_dw_pd_t : public convolution_pd_t {
    conv_fused_dw_pd_t(const convolution_desc_t &d,
            const primitive_attr_t &attr, const primitive_desc_t *hint)
        : convolution_pd_t(d, attr, hint) {}

    const char *name() const override { return "fused:dw"; }
    // Each part applies its share of the chain itself.
    bool handles_select_post_op() const override { return true; }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;

    // The destination is the depthwise output; its weights and bias are
    // DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS / DNNL_ARG_BIAS.
    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;

    std::shared_ptr<primitive_desc_t> base_pd, dw_pd;
    int dw_index = -1; // position of the depthwise entry in the post-ops
    // Scratchpad layout: intermediate tensor, then each nested scratchpad.
    size_t inter_offset = 0, base_scratch_offset = 0, dw_scratch_offset = 0;
    // A device engine (gpu): no scratchpad is booked, buffers are made at
    // execution instead.
    bool device_memory = false;
};

struct conv_fused_dw_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t create_resource(
            engine_t *engine, resource_mapper_t &mapper) const override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const conv_fused_dw_pd_t *pd_() const {
        return static_cast<const conv_fused_dw_pd_t *>(pd());
    }
    std::shared_ptr<primitive_t> base_, dw_;
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
