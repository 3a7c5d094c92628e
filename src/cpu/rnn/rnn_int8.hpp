// int8 LSTM and GRU inference: u8 (or s8, LSTM) data and s8 weights.
// The f32 buffers of the implementation hold dequantized values (data
// (q - shift) / scale), and every state an integer implementation keeps
// in int8 (h after each cell, GRU's r * h and LSTM's pre-projection
// output, which feed GEMMs) is put back on the quantization grid, so the
// cells run in f32 as for f32 problems.
//
// With an integral data shift the GEMMs run on integers: A (states on the
// grid) is quantized exactly, the user's s8 weights are B as they are,
// the shift is A's zero point, and the s32 sums are divided per column by
// data scale x weight scale (rnn_exec_t::gemm). Any other shift runs the
// GEMMs in f32 on dequantized weight copies (w / scale), which gives the
// same results up to f32 rounding.
#pragma once

#include "common/primitive_attr.hpp"
#include "common/rnn_qparams.hpp"
#include "cpu/rnn/rnn_exec.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

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
