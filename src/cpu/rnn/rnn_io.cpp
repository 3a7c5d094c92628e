// Block copies between user RNN tensors and dense f32 buffers (a unit
// column stride in f32 is a row copy).
#include "cpu/rnn/rnn_io.hpp"

#include <cstring>

#include "cpu/rnn/rnn_parallel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

void load_block(const tensor_t &t, dim_t o0, dim_t rs, dim_t cs, dim_t rows,
        dim_t cols, float *dst, dim_t ld) {
    parallel_range(rows, rows * cols, [&](dim_t b, dim_t e) {
        for (dim_t r = b; r < e; ++r) {
            float *d = dst + r * ld;
            const dim_t o = o0 + r * rs;
            if (t.dt == dnnl_f32 && cs == 1)
                std::memcpy(d, t.f32_at(o), cols * sizeof(float));
            else if (cs == 1 && !t.quantized)
                cvt_to_f32(t.dt, (const char *)t.base + o * data_type_size(t.dt), d, cols);
            else
                for (dim_t c = 0; c < cols; ++c)
                    d[c] = t.get(o + c * cs);
        }
    });
}

void store_block(const tensor_t &t, dim_t o0, dim_t rs, dim_t cs, dim_t rows,
        dim_t cols, const float *src, dim_t ld, bool add) {
    parallel_range(rows, rows * cols, [&](dim_t b, dim_t e) {
        for (dim_t r = b; r < e; ++r) {
            const float *s = src + r * ld;
            const dim_t o = o0 + r * rs;
            if (!add && t.dt == dnnl_f32 && cs == 1)
                std::memcpy(t.f32_at_mut(o), s, cols * sizeof(float));
            else if (add)
                for (dim_t c = 0; c < cols; ++c)
                    t.set(o + c * cs, t.get(o + c * cs) + s[c]);
            else
                for (dim_t c = 0; c < cols; ++c)
                    t.set(o + c * cs, s[c]);
        }
    });
}

void state_quant_t::apply(float *p, dim_t rows, dim_t cols, dim_t ld) const {
    parallel_range(rows, rows * cols, [&](dim_t b, dim_t e) {
        for (dim_t r = b; r < e; ++r) {
            float *x = p + r * ld;
            for (dim_t c = 0; c < cols; ++c) {
                float q = round_half_even(x[c] * scale + shift);
                q = q < lo ? lo : (q > hi ? hi : q);
                x[c] = (q - shift) / scale; // as tensor_t::get reads q
            }
        }
    });
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
