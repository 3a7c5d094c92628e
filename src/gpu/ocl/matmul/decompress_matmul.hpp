// Matmul with weight decompression on the gpu engine: f32 / bf16 / f16
// activations with s8 / u8 / s4 / u4 weights, their scales and zero
// points per tensor, per dim or grouped along K and N, when the
// attributes ask for it (fpmath_mode apply_to_int). The descriptor is the
// CPU side's engine-neutral one (cpu/matmul/decompress_matmul.hpp); each
// execution runs a kernel that writes
//   w(b..., k, n) = (q(b..., k, n) - zp[group]) * scale[group]
// as dense f32 into the scratchpad, then the nested gpu matmul on them
// (every other attribute kept there, dropout included).
#pragma once

#include <vector>

#include "cpu/matmul/decompress_matmul.hpp"
#include "cpu/matmul/nested_matmul.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_decompress_matmul_pd_t : public cpu::matmul::decompress_matmul_pd_t {
    using decompress_matmul_pd_t::decompress_matmul_pd_t;
    status_t init(engine_t *engine);
    // The nested gpu matmul applies dropout in its epilogue (the CPU side
    // wraps the decompressing matmul in its dropout implementation).
    bool handles_dropout() const override { return true; }
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;

    std::vector<int64_t> conf; // decompress_conf_t of decompress_weights.cl
    dim_t rows = 0, cols = 0;  // of the f32 weights: all dims but N, and N
};

struct ocl_decompress_matmul_t
    : public cpu::matmul::nested_matmul_t<ocl_decompress_matmul_pd_t> {
    using nested_matmul_t::nested_matmul_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    ocl_kernel_t kernel_;
    device_table_t conf_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
