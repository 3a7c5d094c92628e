// The reorders that quantize for int8 recurrent primitives, driven by the
// RNN quantization attributes (rnn_quant:*), as oneDNN's int8 RNN examples
// use them: the same attribute that makes the RNN primitive descriptor
// also makes the reorders of its data and weights.
//   data:    f32 layer or iteration tensors (3-D tnc-like, 4-D ldnc-like)
//            to u8 or s8, q = saturate(round(f * scale + shift)) with
//            set_rnn_data_qparams;
//   weights: f32 or bf16 layer/iteration weights (5-D, ldigo-like) or
//            projection weights (4-D, ldio-like) to s8,
//            q = saturate(round(w * scale)), one scale (mask 0) or one per
//            gate and output channel (mask (1 << 3) | (1 << 4); projection:
//            mask 1 << 3) from set_rnn_weights_qparams or
//            set_rnn_weights_projection_qparams.
// Any plain layout on either side (the int8 RNN picks plain weights for
// `any`, so its weights reorder lands here rather than on a packed
// format). A 4-D s8 destination is projection weights when projection
// scales are set, iteration data otherwise. Rounding is to nearest even,
// as in the RNN's own quantization of its states.
#pragma once

#include <vector>

#include "common/exec_ctx.hpp"
#include "common/reorder_pd.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

struct rnn_quant_reorder_t : public primitive_t {
    struct pd_t : public cpu_pd_t<reorder_pd_t, rnn_quant_reorder_t> {
        using cpu_pd_t::cpu_pd_t;
        const char *name() const override {
            return weights ? "rnn_quant:weights" : "rnn_quant:data";
        }
        status_t init(engine_t *engine);

        bool weights = false;
        float data_scale = 1.f, data_shift = 0.f;
        // Weights: one scale, or one per (gate, channel) of the last one
        // or two dims; empty means a scale of 1.
        std::vector<float> scales;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
