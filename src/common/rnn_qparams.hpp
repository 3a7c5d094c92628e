// Quantization parameters of int8 recurrent primitives, shared by the
// engines: the checks of the attribute's data, weights and projection
// qparams against a problem, the per-column weight scale, and the grid
// int8 states live on.
#pragma once

#include "common/primitive_attr.hpp"
#include "common/rnn_plan.hpp"

namespace dnnl {
namespace impl {

// Weights scales common (mask 0, one scale) or per gate and channel (mask
// (1 << 3) | (1 << 4), G * DHC scales); projection scales common or per
// output channel (mask 1 << 3, DIC scales); a finite non-zero data scale
// and a finite shift. dnnl_invalid_arguments otherwise.
status_t check_rnn_int8_qparams(
        const primitive_attr_t &attr, const rnn_dims_t &d);

// The scale of weights column `channel` (1 without scales).
float rnn_weights_scale(const rnn_weights_qparams_t &q, dim_t channel);

// The grid of int8 states: f32 values rounded in place to what data type
// `dt` (u8 or s8) holds after quantization (q = x * scale + shift,
// saturated to [lo, hi]), kept dequantized, so that an f32 computation
// of an int8 RNN sees exactly the states an integer one would.
struct rnn_state_grid_t {
    float scale = 1.f, shift = 0.f;
    float lo = 0.f, hi = 255.f; // the data type's range
};
rnn_state_grid_t rnn_state_grid(const primitive_attr_t &attr, data_type_t dt);

} // namespace impl
} // namespace dnnl
