// Matmul with weight decompression (oneDNN's weight-only quantization):
// f32 / bf16 / f16 activations, s8 / u8 / s4 / u4 weights with scales and
// zero points on the weights (per tensor, per dimension, or grouped along
// K and N), enabled by fpmath_mode(..., apply_to_int = true). Each
// execution decompresses the weights into f32 in the scratchpad,
//   w(b..., k, n) = (q(b..., k, n) - zp[group]) * scale[group],
// and runs the ordinary matmul on them as a nested primitive (rfcs/01),
// which keeps every other attribute (source and destination scales,
// post-ops). The descriptor half is engine-neutral: the gpu engine
// derives its implementation from it (gpu/ocl/matmul/decompress_matmul),
// decompressing with a kernel instead of the loop here.
#pragma once

#include <memory>

#include "common/matmul_pd.hpp"
#include "common/primitive.hpp"
#include "cpu/matmul/nested_matmul.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

// Where one quantization parameter of the weights lives: a dense tensor
// over the dims its mask selects, each divided by its group.
struct wei_quant_t {
    bool on = false;
    data_type_t dt = dnnl_f32;
    int ndims = 0;
    dims_t group = {}; // per weights dim; 0 where the mask leaves it out
    dims_t stride = {}; // element stride per weights dim (0: broadcast)
    dim_t count = 0; // elements of the tensor (dense)
    // Scale or zero point of weights position `pos`.
    float value(const void *data, const dim_t *pos) const;
};

// The weights' scale (or zero point) tensor that `attr` describes for
// weights `wei` (q.on false without one); false when its data type (f32 /
// bf16 / f16 scales, s32 / s8 / u8 / s4 / u4 zero points), host placement
// or groups are not usable.
bool init_wei_quant(wei_quant_t &q, const primitive_attr_t &attr,
        const memory_desc_t &wei, bool zero_point);

struct decompress_matmul_pd_t : public matmul_pd_t {
    decompress_matmul_pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *)
        : matmul_pd_t(d, attr) {}
    const char *name() const override { return name_.c_str(); }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;
    // The engine-neutral part of init: the checks, the quantization
    // tensors and the nested f32-weights matmul. `device`: the f32 weights
    // live in a device buffer, which cannot be offset, so the nested
    // matmul keeps its scratchpad to itself (library mode) and only the
    // weights are booked.
    status_t init_nested(engine_t *engine, bool device);

    std::shared_ptr<primitive_desc_t> nested_pd; // the f32-weights matmul
    memory_desc_t f32_weights_md {};
    wei_quant_t scale, zp;
    size_t nested_scratch_offset = 0;
    std::string name_;
};

struct decompress_matmul_t : public nested_matmul_t<decompress_matmul_pd_t> {
    using nested_matmul_t::nested_matmul_t;
    status_t execute(const exec_ctx_t &ctx) const override;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
