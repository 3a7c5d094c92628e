// int8 LSTM and GRU inference on the f32 path: u8 (or s8, LSTM) data and
// s8 weights are dequantized on the way in (data (q - shift) / scale,
// weights w / scale per gate and channel or common), the GEMMs and cells
// run in f32, and every state an integer implementation would hold in
// int8 (h after each cell, GRU's r * h and LSTM's pre-projection output,
// which feed GEMMs) is put back on the quantization grid. Results are
// those of integer GEMMs up to f32 rounding; the speed is the f32 path's.
#pragma once

#include "common/primitive_attr.hpp"
#include "cpu/rnn/rnn_exec.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

// The attribute's quantization parameters against the problem: weights
// scales common (mask 0, one scale) or per gate and channel (mask
// (1 << 3) | (1 << 4), G * DHC scales); projection scales common or per
// output channel (mask 1 << 3, DIC scales); a finite non-zero data scale.
status_t check_int8_qparams(const primitive_attr_t &attr, const rnn_dims_t &d);

// The states' grid for data of type `dt` (u8 or s8).
state_quant_t state_quant(const primitive_attr_t &attr, data_type_t dt);

// Marks the user's int8 data tensors of `e` as quantized, writes f32
// copies of the s8 weights into the plan's buffer and points `e`'s weight
// tensors at them.
void prepare_int8(rnn_exec_t &e, const primitive_attr_t &attr);

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
