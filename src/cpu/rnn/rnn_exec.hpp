// What one RNN execution works on, shared by the forward and backward
// passes: the user tensors, the state arena and scratchpad of the plan, the
// GEMM shapes of the weights, and the copies in and out of the f32 state.
#pragma once

#include <vector>

#include "common/exec_ctx.hpp"
#include "cpu/rnn/gemm_rnn.hpp"
#include "cpu/rnn/rnn_io.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

// A GEMM operand read in place: element (r, c) at p[r * rs + c * cs].
struct mat_t {
    const void *p = nullptr;
    data_type_t dt = dnnl_f32;
    dim_t rs = 0, cs = 1;
    bool packed = false; // in the GEMM core's pre-packed B panels
    // packed in K segments (gemm_f32_args_t::b_packed_kseg): rows per
    // segment (0: one) and the segments' distance in floats.
    dim_t kseg = 0, seg_stride = 0;
    // int8 weights on the integer path: per column, what the s32 sum of
    // (q - shift) * w is divided by (data scale x weight scale), the
    // column's sum of weights (the shift's compensation; null until
    // prepare_s8()), and K rounded up to the packed panels' quads.
    const float *qden = nullptr;
    const int32_t *colsum = nullptr;
    dim_t packed_k = 0;
};

// C(M x N, row stride ldc) = A(M x K) B(K x N) + beta C (+ bias per
// column).
void mm(dim_t M, dim_t N, dim_t K, const mat_t &a, const mat_t &b, float *c,
        dim_t ldc, float beta, const float *bias = nullptr);

inline mat_t dense(const float *p, dim_t ld) { return {p, dnnl_f32, ld, 1}; }
inline mat_t dense_t(const float *p, dim_t ld) { return {p, dnnl_f32, 1, ld}; }

// The user tensors are the members of rnn_tensors_t (src_layer, ...).
struct rnn_exec_t : public rnn_tensors_t<tensor_t> {
    rnn_exec_t(const gemm_rnn_t::pd_t *pd, const exec_ctx_t &ctx, char *ws,
            char *scratch);

    const gemm_rnn_t::pd_t *pd;
    const rnn_plan_t &p;
    const rnn_dims_t &dm;
    char *ws; // state buffers (workspace or scratchpad)
    char *scratch;
    state_quant_t quant; // int8: the states' grid (rnn_int8.hpp)
    // The primitive's BRGEMM kernels for f32 weights packed in panels
    // (null or disabled: the GEMM core runs every GEMM).
    const rnn_brgemm_t *brgemm = nullptr;
    // int8 on integers: denominators of the layer / iteration weights'
    // columns (G * DHC) and of the projection's (DIC).
    std::vector<float> wden, pden;

    // C = A B + beta C (+ bias per column): f32 weights in packed panels
    // on the BRGEMM kernels, other f32 / bf16 / f16 operands through the
    // GEMM core (mm()); for s8 weights (int8 on integers) A,
    // which holds states on the quantization grid, is quantized exactly
    // and the integer GEMM's sums are dequantized into C.
    void gemm(dim_t M, dim_t N, dim_t K, const mat_t &a, const mat_t &b, float *c,
            dim_t ldc, float beta, const float *bias = nullptr) const;

    bool r2l(dim_t d) const;
    // Slot of the initial state and of the previous state of time t.
    dim_t init_slot(dim_t d) const { return r2l(d) ? dm.T + 1 : 0; }
    dim_t prev_slot(dim_t d, dim_t t) const { return r2l(d) ? t + 2 : t; }
    // First slot of the T previous states in time order.
    dim_t prev_first(dim_t d) const { return r2l(d) ? 2 : 0; }

    float *x0() const { return (float *)(scratch + p.x0_off); }
    float *bias_f32(dim_t l, dim_t d) const {
        return (float *)(scratch + p.bias_off) + (l * dm.D + d) * dm.nbias();
    }
    float *peephole_f32(dim_t l, dim_t d) const {
        return (float *)(scratch + p.peephole_off) + (l * dm.D + d) * 3 * dm.DHC;
    }
    float *att_f32() const { return (float *)(scratch + p.att_off); }
    float *tmp() const { return (float *)(scratch + p.tmp_off); }

    // The layer's input rows (T * N) and their row stride.
    const float *layer_input(dim_t l, dim_t d, dim_t &ld) const;

    // Weights of (l, d) as a GEMM B: layer / iter [K = input channels,
    // N = gates from column col0], transposed for the backward data GEMM
    // ([K = gates, N = input channels]; weights in the backward packed
    // layout give one gate's W^T, from the gate col0 starts); projection
    // [DHC, DIC] and its transpose.
    mat_t wmat(const tensor_t &w, dim_t l, dim_t d, dim_t col0, bool trans) const;
    mat_t proj(dim_t l, dim_t d, bool trans) const;

    // Packs the K x N operand `m` into the next free part of the packed
    // weights buffer when the plan packs (returning the packed operand),
    // else returns `m` itself. `reset` starts the buffer over (one layer's
    // operands at a time). s8 operands go to prepare_s8().
    mat_t pack(const mat_t &m, dim_t K, dim_t N, bool reset);
    size_t pack_used = 0;
    // int8 on integers: the K x N s8 operand `m` with its column sums
    // (and packed into the integer kernel's panels when it has them), in
    // the next free part of the int8 weights buffer; `reset` as for pack().
    mat_t prepare_s8(const mat_t &m, dim_t K, dim_t N, bool reset);
    size_t s8_used = 0, colsum_used = 0;

    // Copies: src_layer to x0, biases and peepholes to f32, attention.
    void load_inputs();
    // Initial h (and c) of (l, d) from src_iter or zeros.
    void load_init_state(dim_t l, dim_t d);
    void store_dst_iter(dim_t l, dim_t d);
    void store_dst_layer(dim_t d);
};

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
