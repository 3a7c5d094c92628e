// Sizes and offsets of the RNN workspace and scratchpad buffers.
#include "common/rnn_plan.hpp"

#include "common/utils.hpp"

namespace dnnl {
namespace impl {

namespace {

// Appends a buffer of `units` x `per_unit` floats to an arena.
void place(rnn_buf_t &b, size_t &arena, dim_t units, dim_t per_unit, int mode) {
    b.offset = arena;
    b.per_unit = (size_t)per_unit;
    b.mode = mode;
    arena += align64((size_t)units * (size_t)per_unit * sizeof(float));
}

size_t take(size_t &arena, dim_t floats) {
    const size_t off = arena;
    arena += align64((size_t)floats * sizeof(float));
    return off;
}

} // namespace

rnn_dims_t rnn_dims_of(const rnn_pd_t &pd) {
    rnn_dims_t d;
    d.L = pd.L(), d.D = pd.D(), d.T = pd.T(), d.N = pd.N();
    d.SLC = pd.SLC(), d.SIC = pd.SIC(), d.DHC = pd.DHC(), d.DIC = pd.DIC();
    d.G = pd.G();
    d.cell = pd.cell_kind();
    d.lstm = pd.is_lstm();
    d.lbr = pd.is_lbr();
    d.gru = pd.is_gru_like() && !pd.is_lbr();
    d.augru = pd.is_augru();
    d.peephole = pd.with_peephole();
    d.projection = pd.with_projection();
    d.training = pd.is_training();
    return d;
}

bool rnn_plain(const memory_desc_t &md) {
    return is_zero_md(md)
            || (md.format_kind == dnnl_blocked && md.format_desc.blocking.inner_nblks == 0);
}

bool rnn_plain_but_weights(const rnn_pd_t &pd) {
    for (int arg : {DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER, DNNL_ARG_SRC_ITER_C,
                 DNNL_ARG_AUGRU_ATTENTION, DNNL_ARG_WEIGHTS_PEEPHOLE,
                 DNNL_ARG_WEIGHTS_PROJECTION, DNNL_ARG_BIAS, DNNL_ARG_DST_LAYER,
                 DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C, DNNL_ARG_DIFF_SRC_LAYER,
                 DNNL_ARG_DIFF_SRC_ITER, DNNL_ARG_DIFF_SRC_ITER_C,
                 DNNL_ARG_DIFF_AUGRU_ATTENTION, DNNL_ARG_DIFF_WEIGHTS_LAYER,
                 DNNL_ARG_DIFF_WEIGHTS_ITER, DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
                 DNNL_ARG_DIFF_WEIGHTS_PROJECTION, DNNL_ARG_DIFF_BIAS,
                 DNNL_ARG_DIFF_DST_LAYER, DNNL_ARG_DIFF_DST_ITER,
                 DNNL_ARG_DIFF_DST_ITER_C}) {
        const memory_desc_t *md = pd.arg_md(arg);
        if (md && !rnn_plain(*md)) return false;
    }
    return true;
}

bool rnn_gates_merge(const memory_desc_t &md) {
    if (is_zero_md(md)) return true;
    const dim_t *s = md.format_desc.blocking.strides;
    return s[3] == md.dims[4] * s[4] || md.dims[3] == 1;
}

void rnn_plan_t::init(const rnn_dims_t &d, bool backward, int nr_, int nr_s8_) {
    dims = d;
    nr = nr_;
    nr_s8 = d.int8_gemm ? nr_s8_ : 0;
    const dim_t L = d.L, D = d.D, T = d.T, N = d.N, DHC = d.DHC;
    const bool tr = d.training;
    // Training keeps every (l, d) for backward; inference needs the
    // previous layer's outputs only (two layers of states per direction)
    // and one unit of the per-step buffers.
    size_t ws = 0;
    place(h, ws, tr ? L * D : (L > 1 ? 2 : 1) * D, (T + 2) * N * d.ldh(), tr ? 0 : 1);
    place(c, ws, d.lstm ? (tr ? L * D : D) : 0, (T + 2) * N * DHC, tr ? 0 : 2);
    place(gates, ws, tr ? L * D : 1, T * N * d.ldg(), tr ? 0 : 3);
    place(ht, ws, d.projection ? (tr ? L * D : 1) : 0, T * N * DHC, tr ? 0 : 3);
    place(grid, ws, d.lbr ? (tr ? L * D : 1) : 0, T * N * DHC, tr ? 0 : 3);
    state_bytes = ws;

    size_t s = tr ? 0 : ws; // inference: the states live in the scratchpad
    scratch_state_bytes = s;
    x0_off = take(s, T * N * d.SLC);
    bias_off = take(s, L * D * d.nbias());
    peephole_off = take(s, d.peephole ? L * D * 3 * DHC : 0);
    att_off = take(s, d.augru ? T * N : 0);
    // Per-step temporary: GRU r * h, LBR U h (3 gates); backward: bias
    // and peephole sums.
    const dim_t tmp_fwd = N * (d.lbr ? 3 * DHC : DHC), tmp_bwd = (d.G + 1) * DHC;
    tmp_off = take(s, tmp_fwd > tmp_bwd ? tmp_fwd : tmp_bwd);
    if (d.int8 && !d.int8_gemm)
        wdeq_off = take(s, L * D * ((d.SLC + d.SIC) * d.ldg() + (d.projection ? DHC * d.DIC : 0)));
    if (d.int8_gemm) {
        auto mx = [](dim_t a, dim_t b) { return a > b ? a : b; };
        // One byte an element; take() counts floats.
        i8a_off = take(s, (mx(T * N * mx(d.SLC, d.DIC), N * mx(d.SIC, DHC)) + 3) / 4);
        i8c_off = take(s, mx(T * N * d.ldg(), N * d.DIC));
        // Bytes of the packed operands of one layer (the layer GEMM's, or
        // the per-step ones); column sums of both.
        const dim_t q = nr_s8 ? nr_s8 : 0;
        auto bytes = [&](dim_t K, dim_t cols) { return (K + 3) / 4 * 4 * (cols + q); };
        const dim_t H = DHC;
        const dim_t layer = bytes(mx(d.SLC, d.DIC), d.ldg());
        const dim_t step = bytes(d.SIC, d.ldg()) + (d.gru ? bytes(H, H) : 0)
                + (d.projection ? bytes(H, d.DIC) : 0);
        i8pack_off = take(s, nr_s8 ? (mx(layer, step) + 3) / 4 : 0);
        colsum_off = take(s, 2 * d.ldg() + H + d.DIC);
    }
    if (nr) {
        // Panels of K rows x ceil(N / nr) * nr columns for every per-step
        // operand (bounded: each column range rounded up once).
        auto panels = [&](dim_t K, dim_t cols) { return K * (cols + nr); };
        const dim_t H = DHC, G = d.G;
        dim_t f = 0;
        if (!backward) {
            f = panels(d.SIC, G * H) + (d.gru ? panels(H, H) : 0)
                    + (d.projection ? panels(H, d.DIC) : 0);
        } else {
            f = panels(G * H, d.SIC) + (d.gru ? panels(H, d.SIC) : 0)
                    + (d.projection ? panels(d.DIC, H) : 0);
        }
        wpack_off = take(s, f);
    }
    if (backward) {
        const dim_t TN = T * N;
        dg_off = take(s, TN * d.ldg());
        dgrid_off = take(s, d.lbr ? TN * 3 * DHC : 0);
        dh_off = take(s, TN * d.DIC); // diff of the layer's output h
        hr_off = take(s, d.gru ? TN * DHC : 0);
        dsrc_off = take(s, TN * d.SLC);
        dht_off = take(s, d.projection ? TN * DHC : 0);
        // Per-step recurrent diffs: dh and its next (ldh wide), dc and its
        // next, d(r * h).
        dstep_off = take(s, N * (2 * d.ldh() + 3 * DHC));
    }
    scratch_bytes = s;
}

} // namespace impl
} // namespace dnnl
