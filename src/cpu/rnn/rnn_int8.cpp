// int8 RNN inference: quantization parameter checks, the state grid and
// the dequantized weight copies (see rnn_int8.hpp).
#include "cpu/rnn/rnn_int8.hpp"

#include "cpu/rnn/rnn_parallel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

namespace {

// f32 copy of s8 weights [L][D][K][C] (C = gates x channels, or DIC) as
// a dense tensor at `out`, each column divided by its scale.
tensor_t dequantize(const tensor_t &w, const rnn_weights_qparams_t &q, dim_t L, dim_t D,
        dim_t K, dim_t G, dim_t C, float *out) {
    const dim_t cols = G * C, rows = L * D * K;
    parallel_range(rows, rows * cols, [&](dim_t b, dim_t e) {
        for (dim_t r = b; r < e; ++r) {
            const dim_t l = r / (D * K), d = r / K % D, k = r % K;
            float *o = out + r * cols;
            for (dim_t g = 0; g < G; ++g)
                for (dim_t c = 0; c < C; ++c) {
                    // Layer and iteration weights ldigo-like; projection ldio.
                    const dim_t off = G > 1 ? w.off(l, d, k, g, c) : w.off(l, d, k, c);
                    o[g * C + c] = w.get(off) / rnn_weights_scale(q, g * C + c);
                }
        }
    });
    tensor_t t;
    t.base = out;
    t.dt = dnnl_f32;
    if (G > 1) {
        const dim_t st[5] = {D * K * cols, K * cols, cols, C, 1};
        for (int i = 0; i < 5; ++i) t.st[i] = st[i];
    } else {
        const dim_t st[4] = {D * K * cols, K * cols, cols, 1};
        for (int i = 0; i < 4; ++i) t.st[i] = st[i];
    }
    return t;
}

} // namespace

state_quant_t state_quant(const primitive_attr_t &attr, data_type_t dt) {
    state_quant_t q;
    static_cast<rnn_state_grid_t &>(q) = rnn_state_grid(attr, dt);
    return q;
}

void prepare_int8(rnn_exec_t &e, const primitive_attr_t &attr) {
    const auto &dm = e.dm;
    const float s = attr.rnn_data_qparams.scale, sh = attr.rnn_data_qparams.shift;
    e.quant = state_quant(attr, e.src_layer.dt);
    for (tensor_t *t : {&e.src_layer, &e.src_iter, &e.dst_layer, &e.dst_iter})
        if (*t && (t->dt == dnnl_u8 || t->dt == dnnl_s8)) t->quantize_with(s, sh);
    const auto &wq = attr.rnn_weights_qparams;
    if (dm.int8_gemm) {
        // The user's s8 weights go to the integer GEMM as they are; its
        // sums are divided per column by data scale x weight scale.
        e.wden.resize((size_t)dm.ldg());
        for (dim_t j = 0; j < dm.ldg(); ++j) e.wden[(size_t)j] = s * rnn_weights_scale(wq, j);
        if (dm.projection) {
            e.pden.resize((size_t)dm.DIC);
            for (dim_t j = 0; j < dm.DIC; ++j)
                e.pden[(size_t)j] = s * rnn_weights_scale(attr.rnn_weights_projection_qparams, j);
        }
        return;
    }
    float *out = (float *)(e.scratch + e.p.wdeq_off);
    e.w_layer = dequantize(e.w_layer, wq, dm.L, dm.D, dm.SLC, dm.G, dm.DHC, out);
    out += dm.L * dm.D * dm.SLC * dm.ldg();
    e.w_iter = dequantize(e.w_iter, wq, dm.L, dm.D, dm.SIC, dm.G, dm.DHC, out);
    out += dm.L * dm.D * dm.SIC * dm.ldg();
    if (dm.projection)
        e.w_proj = dequantize(e.w_proj, attr.rnn_weights_projection_qparams, dm.L, dm.D,
                dm.DHC, 1, dm.DIC, out);
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
