// Moves between the user's RNN tensors (any plain layout, any supported
// data type) and the implementation's dense f32 buffers.
#pragma once

#include "common/float_convert.hpp"
#include "common/memory_desc.hpp"
#include "common/rnn_qparams.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

// A user tensor of a plain layout: element (i0, i1, ...) at
// offset0 + sum i_k * strides[k].
struct tensor_t {
    tensor_t() = default;
    tensor_t(const memory_desc_t &md, const void *p)
        : base(const_cast<void *>(p)), dt(md.data_type) {
        if (!p || is_zero_md(md)) {
            base = nullptr;
            return;
        }
        for (int k = 0; k < md.ndims; ++k)
            st[k] = md.format_desc.blocking.strides[k];
        off0 = md.offset0;
    }
    explicit operator bool() const { return base != nullptr; }
    dim_t off(dim_t a, dim_t b, dim_t c, dim_t d = 0, dim_t e = 0) const {
        return off0 + a * st[0] + b * st[1] + c * st[2] + d * st[3] + e * st[4];
    }
    // int8 data of an int8 RNN: q = saturate(round(f * qscale + qshift)),
    // read back as (q - qshift) / qscale.
    void quantize_with(float scale, float shift) {
        quantized = true;
        qscale = scale;
        qshift = shift;
    }
    float get(dim_t o) const {
        const float v = load_f32(dt, base, o);
        return quantized ? (v - qshift) / qscale : v;
    }
    void set(dim_t o, float v) const {
        store_f32(dt, quantized ? v * qscale + qshift : v, base, o);
    }
    const float *f32_at(dim_t o) const { return static_cast<const float *>(base) + o; }
    float *f32_at_mut(dim_t o) const { return static_cast<float *>(base) + o; }

    void *base = nullptr;
    data_type_t dt = dnnl_f32;
    dim_t st[5] = {0, 0, 0, 0, 0};
    dim_t off0 = 0;
    bool quantized = false;
    float qscale = 1.f, qshift = 0.f;
};

// The grid int8 states live on (rnn_qparams.hpp), applied in place to a
// rows x cols f32 block of row stride ld.
struct state_quant_t : rnn_state_grid_t {
    void apply(float *p, dim_t rows, dim_t cols, dim_t ld) const;
};

// rows x cols block of a tensor whose (row, col) element is at
// o0 + row * rs + col * cs, into / from a dense f32 block of row stride ld
// (`add`: accumulate into the tensor instead of storing).
void load_block(const tensor_t &t, dim_t o0, dim_t rs, dim_t cs, dim_t rows,
        dim_t cols, float *dst, dim_t ld);
void store_block(const tensor_t &t, dim_t o0, dim_t rs, dim_t cs, dim_t rows,
        dim_t cols, const float *src, dim_t ld, bool add = false);

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
