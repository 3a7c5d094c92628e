// What an int8 RNN quantizing reorder does, decided once from its
// attribute and descriptors for every engine (the CPU's rnn_quant:* and
// the gpu's ocl:rnn_quant:* implementations): which requests it takes,
// which it refuses, and the quantization it applies.
//   data:    f32 layer or iteration tensors (3-D tnc-like, 4-D ldnc-like)
//            to u8 or s8, q = saturate(round(f * scale + shift)), with
//            set_rnn_data_qparams;
//   weights: f32 or bf16 layer/iteration weights (5-D, ldigo-like) or
//            projection weights (4-D, ldio-like) to s8,
//            q = saturate(round(w * scale)), one scale (mask 0) or one per
//            gate and output channel (mask (1 << 3) | (1 << 4);
//            projection: mask 1 << 3), from set_rnn_weights_qparams or
//            set_rnn_weights_projection_qparams.
// Plain layouts of fixed shape on both sides. A 4-D s8 destination is
// projection weights when projection scales are set, iteration data
// otherwise. Rounding is to nearest even, NaN quantizes to 0.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"

namespace dnnl {
namespace impl {

struct rnn_quant_conf_t {
    bool weights = false;
    float data_scale = 1.f, data_shift = 0.f;
    // Weights: one scale, or one per (gate, channel) of the last one or
    // two dims; empty means a scale of 1.
    std::vector<float> scales;
    bool per_channel() const { return weights && scales.size() > 1; }
};

// Fills `conf` for a reorder from `src` to `dst` with `attr`. Requests
// without RNN quantization parameters, and ones these reorders do not
// serve (other attributes, blocked or runtime layouts, types other than
// the above), are dnnl_unimplemented (with a create:check verbose line
// for the latter); weights scales whose count does not fit the weights
// are dnnl_invalid_arguments.
status_t init_rnn_quant_conf(const primitive_attr_t &attr,
        const memory_desc_t &src, const memory_desc_t &dst,
        rnn_quant_conf_t &conf);

} // namespace impl
} // namespace dnnl
