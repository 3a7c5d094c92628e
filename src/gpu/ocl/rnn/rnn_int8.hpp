// int8 LSTM and GRU inference on the gpu engine: the CPU's "int8 on f32"
// path, with the engines' shared parameter checks and state grid
// (src/common/rnn_qparams.hpp). Per execution, the user's s8 weights are dequantized into
// f32 copies in the scratchpad (w / scale), which the f32 GEMM kernels
// read unchanged; the block copies dequantize u8 / s8 data into the f32
// states ((q - shift) / scale) and quantize it on the way out; the cell
// kernels put every state an integer implementation keeps in int8 (h
// after each step, GRU's r * h, LSTM's pre-projection output) back on
// the quantization grid, as the CPU does (rnn_qgrid in rnn.cl).
#pragma once

#include <memory>
#include <type_traits>

#include "common/primitive_attr.hpp"
#include "common/rnn_plan.hpp"
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// The dequantized weights' descriptors (layer, iteration, projection):
// dense f32 ldigo / ldio copies at the plan's wdeq_off, offset0 counting
// floats from the start of the scratchpad.
status_t rnn_int8_weights_mds(const rnn_plan_t &p, memory_desc_t mds[3]);

// The attribute's weights scales (layer and iteration weights, then the
// projection's) in a read-only device buffer made once by the primitive.
class rnn_int8_scales_t {
public:
    status_t create(engine_t *engine, const primitive_attr_t &attr,
            const rnn_dims_t &d);
    cl_mem mem() const { return mem_ ? mem_.get() : nullptr; }
    // Where the projection's scales start (floats); whether each set has
    // one scale per column (else one for all).
    dim_t proj_off = 0;
    bool w_per_col = false, p_per_col = false;

private:
    std::shared_ptr<std::remove_pointer<cl_mem>::type> mem_;
};

// (scale, shift) of the copies' u8 / s8 sides: any value for f32
// problems, which have none.
cl_float2 rnn_copy_quant(const primitive_attr_t &attr);
// The states' grid (scale, shift, lo, hi) of rnn_qgrid, all zero (no
// grid) unless the problem is int8 with data of type `dt`.
cl_float4 rnn_state_qgrid(
        const primitive_attr_t &attr, bool int8, data_type_t dt);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
