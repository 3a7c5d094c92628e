// Where the GEMM-based RNN keeps its f32 state: one description of every
// buffer of the workspace (forward training, read back by backward) and
// of the scratchpad, so that sizes and offsets come from one place. Engine
// independent: the CPU implementation (src/cpu/rnn) places the buffers in
// host memory, the OpenCL one (src/gpu/ocl/rnn) at the same offsets of its
// device buffers (the packing and integer-GEMM parts are the CPU's only;
// both engines use the dequantized int8 weight copies).
//
// Hidden states of layer l, direction d live in time slots: slot t + 1
// holds h at time t, slot 0 the left-to-right initial state and slot T + 1
// the right-to-left one, so the previous state of time t is slot t (l2r)
// or slot t + 2 (r2l), and a layer's outputs for all times (slots 1..T)
// are one [T * N, DIC] matrix, the next layer's input. Cell states (LSTM)
// use the same slots. Gates hold their activated values after the cell.
#pragma once

#include <cstddef>

#include "common/c_types.hpp"
#include "common/rnn_pd.hpp"

namespace dnnl {
namespace impl {

struct rnn_dims_t {
    dim_t L = 0, D = 0, T = 0, N = 0, SLC = 0, SIC = 0, DHC = 0, DIC = 0, G = 0;
    alg_kind_t cell = dnnl_alg_kind_undef;
    bool lstm = false, gru = false, lbr = false, augru = false;
    bool peephole = false, projection = false;
    bool training = false;
    // int8 inference: u8/s8 data, s8 weights (rnn_int8.hpp); int8_gemm:
    // the GEMMs run on integers (an integral data shift), else in f32 on
    // dequantized values.
    bool int8 = false, int8_gemm = false;
    // Columns of a hidden-state row: the initial state has SIC channels,
    // outputs DIC (they differ only when T == 1).
    dim_t ldh() const { return SIC > DIC ? SIC : DIC; }
    dim_t ldg() const { return G * DHC; }
    dim_t nbias() const { return (G + (lbr ? 1 : 0)) * DHC; }
};

// The dims and cell facts of a descriptor (the int8 fields left false).
rnn_dims_t rnn_dims_of(const rnn_pd_t &pd);

// The tensors of one execution by execution argument, the same list on
// every engine (T: the engine's view of a tensor). for_each(f) calls
// f(tensor, arg) for each of them.
template <typename T>
struct rnn_tensors_t {
    T src_layer, src_iter, src_iter_c, att, w_layer, w_iter, w_peephole,
            w_proj, bias, dst_layer, dst_iter, dst_iter_c;
    T d_src_layer, d_src_iter, d_src_iter_c, d_att, d_w_layer, d_w_iter,
            d_w_peephole, d_w_proj, d_bias, d_dst_layer, d_dst_iter,
            d_dst_iter_c;

    template <typename F>
    void for_each(F f) {
        f(src_layer, DNNL_ARG_SRC_LAYER);
        f(src_iter, DNNL_ARG_SRC_ITER);
        f(src_iter_c, DNNL_ARG_SRC_ITER_C);
        f(att, DNNL_ARG_AUGRU_ATTENTION);
        f(w_layer, DNNL_ARG_WEIGHTS_LAYER);
        f(w_iter, DNNL_ARG_WEIGHTS_ITER);
        f(w_peephole, DNNL_ARG_WEIGHTS_PEEPHOLE);
        f(w_proj, DNNL_ARG_WEIGHTS_PROJECTION);
        f(bias, DNNL_ARG_BIAS);
        f(dst_layer, DNNL_ARG_DST_LAYER);
        f(dst_iter, DNNL_ARG_DST_ITER);
        f(dst_iter_c, DNNL_ARG_DST_ITER_C);
        f(d_src_layer, DNNL_ARG_DIFF_SRC_LAYER);
        f(d_src_iter, DNNL_ARG_DIFF_SRC_ITER);
        f(d_src_iter_c, DNNL_ARG_DIFF_SRC_ITER_C);
        f(d_att, DNNL_ARG_DIFF_AUGRU_ATTENTION);
        f(d_w_layer, DNNL_ARG_DIFF_WEIGHTS_LAYER);
        f(d_w_iter, DNNL_ARG_DIFF_WEIGHTS_ITER);
        f(d_w_peephole, DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE);
        f(d_w_proj, DNNL_ARG_DIFF_WEIGHTS_PROJECTION);
        f(d_bias, DNNL_ARG_DIFF_BIAS);
        f(d_dst_layer, DNNL_ARG_DIFF_DST_LAYER);
        f(d_dst_iter, DNNL_ARG_DIFF_DST_ITER);
        f(d_dst_iter_c, DNNL_ARG_DIFF_DST_ITER_C);
    }
};

// Layouts the GEMM-based implementations read in place. Plain: no inner
// blocks (zero descriptors pass).
bool rnn_plain(const memory_desc_t &md);
// Every tensor of the problem plain except the layer and iteration
// weights (which an implementation may take in a packed layout).
bool rnn_plain_but_weights(const rnn_pd_t &pd);
// Layer / iteration weights (and diffs): gates and channels merge into one
// GEMM dimension (ldigo and ldgoi do; zero descriptors pass).
bool rnn_gates_merge(const memory_desc_t &md);

// A buffer of `count` floats per (layer, direction) unit; inference keeps
// fewer units of some buffers (`units`), the unit of (l, d) being
// `unit(l, d)`.
struct rnn_buf_t {
    size_t offset = 0; // bytes from the start of its arena
    size_t per_unit = 0; // floats
    // 0: one unit per (l, d); 1: per (l % 2, d); 2: one per d; 3: one.
    int mode = 0;
};

struct rnn_plan_t {
    rnn_dims_t dims;
    // Workspace (training) or scratchpad (inference) buffers.
    rnn_buf_t h, c, gates, ht, grid;
    size_t state_bytes = 0; // of those five
    // Scratchpad-only buffers.
    size_t x0_off = 0, bias_off = 0, peephole_off = 0, att_off = 0, tmp_off = 0;
    // The per-step GEMMs' weights of one (l, d), packed once per layer in
    // the GEMM core's B panels of `nr` columns (0: not packed).
    int nr = 0;
    size_t wpack_off = 0;
    // int8 on f32: f32 copies of the layer, iteration and projection
    // weights, dense ldigo / ldio. int8 on integers: a GEMM's quantized A
    // and its s32 C.
    size_t wdeq_off = 0, i8a_off = 0, i8c_off = 0;
    // int8 on integers: one layer's s8 operands packed in the integer
    // kernel's panels of `nr_s8` columns (0: read in place), and their
    // column sums.
    int nr_s8 = 0;
    size_t i8pack_off = 0, colsum_off = 0;
    size_t scratch_state_bytes = 0; // the state buffers when not in ws
    size_t scratch_bytes = 0;
    // Backward scratchpad buffers (offsets after the forward ones).
    size_t dg_off = 0, dgrid_off = 0, dh_off = 0, hr_off = 0,
           dsrc_off = 0, dht_off = 0, dstep_off = 0;

    // `nr`: panel width of the GEMM core's pre-packed B layout for these
    // weights, 0 when the per-step GEMMs read the weights in place.
    void init(const rnn_dims_t &d, bool backward, int nr, int nr_s8 = 0);

    // Bytes from the start of its arena to the unit of (l, d) of `b`.
    size_t byte_offset(const rnn_buf_t &b, dim_t l, dim_t d) const {
        dim_t u = 0;
        switch (b.mode) {
            case 0: u = l * dims.D + d; break;
            case 1: u = (l % 2) * dims.D + d; break;
            case 2: u = d; break;
            default: u = 0; break;
        }
        return b.offset + (size_t)u * b.per_unit * sizeof(float);
    }
    float *at(char *arena, const rnn_buf_t &b, dim_t l, dim_t d) const {
        return reinterpret_cast<float *>(arena + byte_offset(b, l, d));
    }
    // Hidden state row block of time slot `slot`.
    float *h_slot(char *arena, dim_t l, dim_t d, dim_t slot) const {
        return at(arena, h, l, d) + slot * dims.N * dims.ldh();
    }
    float *c_slot(char *arena, dim_t l, dim_t d, dim_t slot) const {
        return at(arena, c, l, d) + slot * dims.N * dims.DHC;
    }
};

} // namespace impl
} // namespace dnnl
