// Element-wise parts of the RNN cells, forward and backward, on a block of
// batch rows [n0, n1) and hidden channels [j0, j1). The GEMMs around them
// (gates from the layer input and the previous state) are the caller's.
//
// Gate order in a row of G * DHC values: LSTM i, f, c~, o; GRU-like u, r, o.
// Forward reads the pre-activation gates (biases already added) and leaves
// the activated values in place, which is what backward reads.
#pragma once

#include "common/c_types.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

struct cell_fwd_t {
    dim_t DHC = 0;
    float *gates = nullptr; // [N][G * DHC]
    dim_t ldg = 0;
    const float *hp = nullptr; // previous h, [N][ldh]
    dim_t ldh = 0;
    float *h = nullptr; // output h ([N][ldh]; LSTM with projection: [N][DHC])
    dim_t ldo = 0;
    const float *cp = nullptr; // LSTM previous / new cell state, [N][DHC]
    float *c = nullptr;
    const float *peephole = nullptr; // [3][DHC] or null
    // GRU: r * h written here ([N][DHC]); LBR: U h of the 3 gates read
    // from here ([N][3 DHC]).
    float *rec = nullptr;
    const float *bias_extra = nullptr; // LBR: the 4th bias gate, [DHC]
    float *grid = nullptr; // LBR: U_o h + b' kept for backward, [N][DHC]
    const float *att = nullptr; // AUGRU: attention per row, [N]
    alg_kind_t act = dnnl_alg_kind_undef; // vanilla RNN activation
    float alpha = 0;
};

struct cell_bwd_t {
    dim_t DHC = 0;
    const float *gates = nullptr; // activated gates of the forward pass
    dim_t ldg = 0;
    float *dg = nullptr; // out: diff of the pre-activation gates
    const float *hp = nullptr; // previous h
    dim_t ldh = 0;
    const float *dh = nullptr; // diff of the cell's output h (DHC wide
    dim_t lddh = 0; //            for LSTM: before projection)
    float *dhp = nullptr; // out: the element-wise part of d h'
    const float *cp = nullptr, *c = nullptr; // LSTM
    const float *dc = nullptr; // LSTM: diff of c from the next step
    float *dcp = nullptr; // LSTM out: diff of c'
    const float *peephole = nullptr;
    float *dpeephole = nullptr; // [3][DHC] accumulated; single-threaded
    const float *drec = nullptr; // GRU part 2: d(r * h') = dg_o U_o^T
    float *dgrid = nullptr; // LBR out: diff of U h (3 gates)
    const float *grid = nullptr; // LBR: U_o h' + b'
    const float *att = nullptr; // AUGRU
    float *datt = nullptr; // AUGRU out, per row
    alg_kind_t act = dnnl_alg_kind_undef;
    float alpha = 0;
};

using cell_fwd_f = void (*)(const cell_fwd_t &, dim_t n0, dim_t n1, dim_t j0, dim_t j1);
using cell_bwd_f = void (*)(const cell_bwd_t &, dim_t n0, dim_t n1, dim_t j0, dim_t j1);

// One ISA's cell kernels (rnn_cells.cpp is compiled per ISA).
struct cell_kernels_t {
    const char *isa;
    // Vanilla RNN: h = act(gates).
    cell_fwd_f vanilla_fwd;
    // LSTM: i, f, o logistic (peephole terms added), c~ tanh,
    // c = f c' + i c~, h = o tanh(c).
    cell_fwd_f lstm_fwd;
    // GRU, first part: u, r logistic; rec = r * h'.
    cell_fwd_f gru_fwd_part1;
    // GRU (and AUGRU) second part: o tanh; h = u' h' + (1 - u') o with
    // u' = (1 - att) u for AUGRU, u otherwise.
    cell_fwd_f gru_fwd_part2;
    // Linear-before-reset GRU (and AUGRU): u, r logistic of gates + U h,
    // o = tanh(gates_o + r (U_o h + b')), h as for GRU.
    cell_fwd_f lbr_fwd;
    cell_bwd_f vanilla_bwd;
    // Peephole diffs are not touched here (the caller sums them).
    cell_bwd_f lstm_bwd;
    // GRU, first part: dg_u, dg_o, dhp = dh u'; AUGRU datt needs whole
    // rows and is accumulated by augru_att_bwd.
    cell_bwd_f gru_bwd_part1;
    // GRU, second part (after drec): dg_r, dhp += drec r.
    cell_bwd_f gru_bwd_part2;
    cell_bwd_f lbr_bwd;
    // AUGRU: datt[n] = -sum_j dh (h' - o) u over the rows [n0, n1).
    void (*augru_att_bwd)(const cell_bwd_t &, dim_t n0, dim_t n1);
};

const cell_kernels_t &cell_kernels_avx512_core();
const cell_kernels_t &cell_kernels_avx2();
const cell_kernels_t &cell_kernels_base();
const isa_table_t<cell_kernels_t> &cell_kernel_table();
// The best entry within the ISA limit, picked once per process.
const cell_kernels_t &cells();

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
