// GEMM-based RNN backward: per direction, layers from the top, iterations
// in reverse processing order; per step the cell's element-wise diff and
// the recurrent diff GEMM, per layer one GEMM each for the weight diffs
// and the diff of the layer input over all iterations.
#include <cstring>
#include <utility>

#include "cpu/rnn/gemm_rnn.hpp"
#include "cpu/rnn/rnn_cells.hpp"
#include "cpu/rnn/rnn_exec.hpp"
#include "cpu/rnn/rnn_parallel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

namespace {

struct bwd_bufs_t {
    float *dg, *dgrid, *dh, *hr, *dsrc, *dht;
    float *dh_rec, *dh_next, *dc_rec, *dc_next, *drec;
};

bwd_bufs_t bufs(const rnn_exec_t &e) {
    const auto &p = e.p;
    const dim_t N = e.dm.N, H = e.dm.DHC, ldh = e.dm.ldh();
    auto f = [&](size_t off) { return (float *)(e.scratch + off); };
    bwd_bufs_t b;
    b.dg = f(p.dg_off);
    b.dgrid = f(p.dgrid_off);
    b.dh = f(p.dh_off);
    b.hr = f(p.hr_off);
    b.dsrc = f(p.dsrc_off);
    b.dht = f(p.dht_off);
    float *s = f(p.dstep_off);
    b.dh_rec = s;
    b.dh_next = s + N * ldh;
    b.dc_rec = s + 2 * N * ldh;
    b.dc_next = b.dc_rec + N * H;
    b.drec = b.dc_next + N * H;
    return b;
}

// Diff weights (l, d) as a GEMM output: rows of input channels and
// columns of gates from col0 (unit stride along channels), or the
// transpose. `in_dim` / `out_dim` are the dims of the input channels and
// of the output channels (whose stride also steps the gates).
struct dw_t {
    float *c;
    dim_t ldc;
    bool trans; // C holds the transpose: rows are gates
};

dw_t diff_w(const tensor_t &w, dim_t l, dim_t d, dim_t col0, int in_dim, int out_dim) {
    const dim_t o = w.off(l, d, 0, 0);
    dw_t r;
    if (w.st[out_dim] == 1) {
        r.c = w.f32_at_mut(o + col0);
        r.ldc = w.st[in_dim];
        r.trans = false;
    } else {
        r.c = w.f32_at_mut(o + col0 * w.st[out_dim]);
        r.ldc = w.st[out_dim];
        r.trans = true;
    }
    return r;
}

// dW (K_in x Ncols) += X^T dY over `rows` rows: X [rows][K_in] (ld ldx),
// dY [rows][Ncols] (ld ldy).
void acc_dw(const dw_t &w, dim_t K_in, dim_t Ncols, dim_t rows, const float *x,
        dim_t ldx, const float *dy, dim_t ldy, float beta) {
    if (!w.trans)
        mm(K_in, Ncols, rows, dense_t(x, ldx), dense(dy, ldy), w.c, w.ldc, beta);
    else
        mm(Ncols, K_in, rows, dense_t(dy, ldy), dense(x, ldx), w.c, w.ldc, beta);
}

// Transposed weights of (l, d) over the gates [g0, g0 + ng), the B of
// dY W^T (K = ng * DHC rows): weights in the backward packed layout are
// read in place (one packed segment per gate); plain ones are packed into
// the scratchpad when `repack` and the plan packs (`reset` as for pack()).
mat_t weights_t(rnn_exec_t &e, const tensor_t &w, dim_t l, dim_t d, dim_t g0, dim_t ng,
        bool repack, bool reset) {
    const mat_t m = e.wmat(w, l, d, g0 * e.dm.DHC, true);
    if (!repack) return m;
    const dim_t n_in = &w == &e.w_layer ? e.dm.SLC : e.dm.SIC;
    return e.pack(m, ng * e.dm.DHC, n_in, reset); // as is when packed
}

// Column sums of rows x cols (ld) into out (accumulating), in double:
// rows are read in order, a block of columns at a time.
void col_sums(const float *a, dim_t rows, dim_t cols, dim_t ld, float *out) {
    constexpr dim_t cb = 256;
    parallel_range((cols + cb - 1) / cb, rows * cols, [&](dim_t b0, dim_t b1) {
        double s[cb];
        for (dim_t j0 = b0 * cb; j0 < b1 * cb && j0 < cols; j0 += cb) {
            const dim_t n = cols - j0 < cb ? cols - j0 : cb;
            for (dim_t j = 0; j < n; ++j)
                s[j] = 0;
            for (dim_t r = 0; r < rows; ++r) {
                const float *__restrict x = a + r * ld + j0;
                for (dim_t j = 0; j < n; ++j)
                    s[j] += x[j];
            }
            for (dim_t j = 0; j < n; ++j)
                out[j0 + j] += (float)s[j];
        }
    });
}

} // namespace

status_t gemm_rnn_t::execute_bwd(const exec_ctx_t &ctx, char *ws, char *scratch) const {
    rnn_exec_t e(pd(), ctx, ws, scratch);
    e.brgemm = &brgemm_;
    const auto &dm = e.dm;
    const dim_t T = dm.T, N = dm.N, H = dm.DHC, ldg = dm.ldg(),
                ldh = dm.ldh(), DIC = dm.DIC, TN = T * N;
    const float beta_w = pd()->diff_weights_overwrite() ? 0.f : 1.f;
    bwd_bufs_t b = bufs(e);
    e.load_inputs();
    const auto dir = pd()->direction();
    const bool vanilla = dm.cell == dnnl_vanilla_rnn;
    const cell_kernels_t &k = cells();

    for (dim_t d = 0; d < dm.D; ++d) {
        // diff of the last layer's outputs.
        const dim_t col0 = dir == dnnl_bidirectional_concat ? d * DIC : 0;
        for (dim_t t = 0; t < T; ++t)
            load_block(e.d_dst_layer, e.d_dst_layer.off(t, 0, col0), e.d_dst_layer.st[1],
                    e.d_dst_layer.st[2], N, DIC, b.dh + t * N * DIC, DIC);
        for (dim_t l = dm.L - 1; l >= 0; --l) {
            const bool r2l = e.r2l(d);
            float *gates = e.p.at(ws, e.p.gates, l, d);
            // Recurrent diffs entering the last processed step.
            if (e.d_dst_iter)
                load_block(e.d_dst_iter, e.d_dst_iter.off(l, d, 0, 0), e.d_dst_iter.st[2],
                        e.d_dst_iter.st[3], N, DIC, b.dh_rec, ldh);
            else
                std::memset(b.dh_rec, 0, N * ldh * sizeof(float));
            if (dm.lstm) {
                if (e.d_dst_iter_c)
                    load_block(e.d_dst_iter_c, e.d_dst_iter_c.off(l, d, 0, 0),
                            e.d_dst_iter_c.st[2], e.d_dst_iter_c.st[3], N, H, b.dc_rec, H);
                else
                    std::memset(b.dc_rec, 0, N * H * sizeof(float));
            }
            // The per-step transposed weights, packed once for the layer.
            const mat_t wi_t = weights_t(e, e.w_iter, l, d, 0, dm.gru ? 2 : dm.G, true, true);
            const mat_t wio_t
                    = dm.gru ? weights_t(e, e.w_iter, l, d, 2, 1, true, false) : mat_t();
            const mat_t proj_t = dm.projection ? e.pack(e.proj(l, d, true), DIC, H, false)
                                               : mat_t();
            for (dim_t s = T - 1; s >= 0; --s) {
                const dim_t t = r2l ? T - 1 - s : s;
                const dim_t prev = e.prev_slot(d, t);
                float *dh_t = b.dh + t * N * DIC;
                // The output's diff: from above plus from the next step.
                parallel_range(N, N * DIC, [&](dim_t n0, dim_t n1) {
                    for (dim_t n = n0; n < n1; ++n)
                        for (dim_t j = 0; j < DIC; ++j)
                            dh_t[n * DIC + j] += b.dh_rec[n * ldh + j];
                });
                cell_bwd_t c;
                c.DHC = H;
                c.gates = gates + t * N * ldg;
                c.ldg = ldg;
                c.dg = b.dg + t * N * ldg;
                c.hp = e.p.h_slot(ws, l, d, prev);
                c.ldh = ldh;
                c.dh = dh_t;
                c.lddh = DIC;
                c.dhp = b.dh_next;
                c.act = pd()->desc()->activation_kind;
                c.alpha = pd()->desc()->alpha;
                if (dm.augru) {
                    c.att = e.att_f32() + t * N;
                    c.datt = b.drec; // per-row sums, N floats
                }
                auto run = [&](cell_bwd_f f) {
                    parallel_rows_cols(N, H, [&](dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
                        f(c, n0, n1, j0, j1);
                    });
                };
                if (vanilla) {
                    run(k.vanilla_bwd);
                    e.gemm(N, dm.SIC, ldg, dense(c.dg, ldg), wi_t, b.dh_next, ldh, 0.f);
                } else if (dm.lstm) {
                    if (dm.projection) {
                        float *dht = b.dht + t * N * H;
                        e.gemm(N, H, DIC, dense(dh_t, DIC), proj_t, dht, H, 0.f);
                        c.dh = dht;
                        c.lddh = H;
                    }
                    c.cp = e.p.c_slot(ws, l, d, prev);
                    c.c = e.p.c_slot(ws, l, d, t + 1);
                    c.dc = b.dc_rec;
                    c.dcp = b.dc_next;
                    if (dm.peephole) c.peephole = e.peephole_f32(l, d);
                    run(k.lstm_bwd);
                    e.gemm(N, dm.SIC, ldg, dense(c.dg, ldg), wi_t, b.dh_next, ldh, 0.f);
                    std::swap(b.dc_rec, b.dc_next);
                } else if (dm.gru) {
                    if (dm.augru)
                        parallel_range(N, N * H, [&](dim_t n0, dim_t n1) { k.augru_att_bwd(c, n0, n1); });
                    if (dm.augru)
                        for (dim_t n = 0; n < N; ++n)
                            e.d_att.set(e.d_att.off(t, n, 0), b.drec[n]);
                    run(k.gru_bwd_part1);
                    // d(r * h') = dg_o U_o^T
                    e.gemm(N, dm.SIC, H, dense(c.dg + 2 * H, ldg), wio_t, b.drec, H, 0.f);
                    c.drec = b.drec;
                    run(k.gru_bwd_part2);
                    e.gemm(N, dm.SIC, 2 * H, dense(c.dg, ldg), wi_t, b.dh_next, ldh, 1.f);
                } else {
                    if (dm.augru) {
                        parallel_range(N, N * H, [&](dim_t n0, dim_t n1) { k.augru_att_bwd(c, n0, n1); });
                        for (dim_t n = 0; n < N; ++n)
                            e.d_att.set(e.d_att.off(t, n, 0), b.drec[n]);
                    }
                    c.grid = e.p.at(ws, e.p.grid, l, d) + t * N * H;
                    c.dgrid = b.dgrid + t * N * 3 * H;
                    run(k.lbr_bwd);
                    e.gemm(N, dm.SIC, 3 * H, dense(c.dgrid, 3 * H), wi_t, b.dh_next, ldh, 1.f);
                }
                std::swap(b.dh_rec, b.dh_next);
            }
            // Diffs of the initial states.
            if (e.d_src_iter)
                store_block(e.d_src_iter, e.d_src_iter.off(l, d, 0, 0), e.d_src_iter.st[2],
                        e.d_src_iter.st[3], N, dm.SIC, b.dh_rec, ldh);
            if (e.d_src_iter_c)
                store_block(e.d_src_iter_c, e.d_src_iter_c.off(l, d, 0, 0),
                        e.d_src_iter_c.st[2], e.d_src_iter_c.st[3], N, H, b.dc_rec, H);

            // Weight diffs over all iterations.
            dim_t ldx = 0;
            const float *x = e.layer_input(l, d, ldx);
            const dim_t K = l == 0 ? dm.SLC : DIC;
            acc_dw(diff_w(e.d_w_layer, l, d, 0, 2, 4), K, ldg, TN, x, ldx, b.dg, ldg, beta_w);
            const float *hprev = e.p.h_slot(ws, l, d, e.prev_first(d));
            if (dm.gru) {
                // The o gate's recurrent input was r * h'.
                parallel_range(TN, TN * H, [&](dim_t r0, dim_t r1) {
                    for (dim_t r = r0; r < r1; ++r)
                        for (dim_t j = 0; j < H; ++j)
                            b.hr[r * H + j] = gates[r * ldg + H + j] * hprev[r * ldh + j];
                });
                acc_dw(diff_w(e.d_w_iter, l, d, 0, 2, 4), dm.SIC, 2 * H, TN, hprev, ldh, b.dg,
                        ldg, beta_w);
                acc_dw(diff_w(e.d_w_iter, l, d, 2 * H, 2, 4), dm.SIC, H, TN, b.hr, H,
                        b.dg + 2 * H, ldg, beta_w);
            } else if (dm.lbr) {
                acc_dw(diff_w(e.d_w_iter, l, d, 0, 2, 4), dm.SIC, 3 * H, TN, hprev, ldh, b.dgrid,
                        3 * H, beta_w);
            } else {
                acc_dw(diff_w(e.d_w_iter, l, d, 0, 2, 4), dm.SIC, ldg, TN, hprev, ldh, b.dg, ldg,
                        beta_w);
            }
            if (dm.projection)
                acc_dw(diff_w(e.d_w_proj, l, d, 0, 2, 3), H, DIC, TN,
                        e.p.at(ws, e.p.ht, l, d), H, b.dh, DIC, beta_w);
            if (e.d_bias) {
                const dim_t nb = dm.nbias();
                float *acc = e.tmp(); // at least (G + 1) * DHC floats
                std::memset(acc, 0, nb * sizeof(float));
                col_sums(b.dg, TN, ldg, ldg, acc);
                if (dm.lbr) col_sums(b.dgrid + 2 * H, TN, H, 3 * H, acc + 3 * H);
                store_block(e.d_bias, e.d_bias.off(l, d, 0, 0), e.d_bias.st[2], e.d_bias.st[3],
                        nb / H, H, acc, H, beta_w != 0.f);
            }
            if (dm.peephole) {
                float *acc = e.tmp();
                std::memset(acc, 0, 3 * H * sizeof(float));
                parallel_range(H, TN * H, [&](dim_t j0, dim_t j1) {
                    for (dim_t t = 0; t < T; ++t) {
                        const float *cp = e.p.c_slot(ws, l, d, e.prev_slot(d, t));
                        const float *cn = e.p.c_slot(ws, l, d, t + 1);
                        const float *dg = b.dg + t * N * ldg;
                        for (dim_t n = 0; n < N; ++n)
                            for (dim_t j = j0; j < j1; ++j) {
                                acc[j] += dg[n * ldg + j] * cp[n * H + j];
                                acc[H + j] += dg[n * ldg + H + j] * cp[n * H + j];
                                acc[2 * H + j] += dg[n * ldg + 3 * H + j] * cn[n * H + j];
                            }
                    }
                });
                store_block(e.d_w_peephole, e.d_w_peephole.off(l, d, 0, 0),
                        e.d_w_peephole.st[2], e.d_w_peephole.st[3], 3, H, acc, H,
                        beta_w != 0.f);
            }
            // Diff of the layer input: the next layer down's output diff,
            // or (layer 0) this direction's share of diff_src_layer.
            const mat_t wl_t = weights_t(e, e.w_layer, l, d, 0, dm.G, false, false);
            if (l > 0)
                e.gemm(TN, DIC, ldg, dense(b.dg, ldg), wl_t, b.dh, DIC, 0.f);
            else
                e.gemm(TN, dm.SLC, ldg, dense(b.dg, ldg), wl_t, b.dsrc, dm.SLC, d > 0 ? 1.f : 0.f);
        }
    }
    for (dim_t t = 0; t < T; ++t)
        store_block(e.d_src_layer, e.d_src_layer.off(t, 0, 0), e.d_src_layer.st[1],
                e.d_src_layer.st[2], N, dm.SLC, b.dsrc + t * N * dm.SLC, dm.SLC);
    return dnnl_success;
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
