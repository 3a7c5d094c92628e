// Gpu RNN backward, the CPU implementation's walk: per direction, layers
// from the top, iterations in reverse processing order; per step the
// cell's backward kernel and the recurrent diff GEMM (GRU: two), per layer
// one GEMM each for the weight diffs over all iterations and for the diff
// of the layer input, and kernels for the bias and peephole sums.
#include <utility>

#include "gpu/ocl/rnn/rnn_exec.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

struct bwd_bufs_t {
    rnn_loc_t dg, dgrid, dh, hr, dsrc, dht;
    rnn_loc_t dh_rec, dh_next, dc_rec, dc_next, drec;
};

bwd_bufs_t bufs(const rnn_exec_t &e) {
    const rnn_plan_t &p = e.p;
    const dim_t N = e.dm.N, H = e.dm.DHC, ldh = e.dm.ldh();
    bwd_bufs_t b;
    b.dg = e.scr(p.dg_off);
    b.dgrid = e.scr(p.dgrid_off);
    b.dh = e.scr(p.dh_off);
    b.hr = e.scr(p.hr_off);
    b.dsrc = e.scr(p.dsrc_off);
    b.dht = e.scr(p.dht_off);
    const rnn_loc_t s = e.scr(p.dstep_off);
    b.dh_rec = s;
    b.dh_next = s.at(N * ldh);
    b.dc_rec = s.at(2 * N * ldh);
    b.dc_next = b.dc_rec.at(N * H);
    b.drec = b.dc_next.at(N * H);
    return b;
}

// Diff weights of (l, d) from gate column col0 as a GEMM output [input
// channels, gates]: strides of the input and output dims.
rnn_mat_t diff_w(const rnn_tensor_t &w, dim_t l, dim_t d, dim_t col0,
        int in_dim, int out_dim) {
    const dim_t *s = w.st();
    return {w.m, w.off(l, d) + col0 * s[out_dim], s[in_dim], s[out_dim]};
}

// The AUGRU attention diff of time t: row sums into drec, then stored.
status_t att_bwd(const rnn_exec_t &e, const bwd_bufs_t &b, dim_t t,
        const rnn_loc_t &g, const rnn_loc_t &dh, const rnn_loc_t &hp) {
    const rnn_dims_t &dm = e.dm;
    kernel_args_t a;
    a.mem(g.m).i64(g.off).i64(dm.ldg()).mem(dh.m).i64(dh.off).i64(dm.DIC);
    a.mem(hp.m).i64(hp.off).i64(dm.ldh()).mem(b.drec.m).i64(b.drec.off);
    a.i32((int32_t)dm.N).i32((int32_t)dm.DHC);
    DNNL_CHECK(e.prim->kernel(ocl_rnn_t::k_augru_att_bwd)
                       .enqueue(e.ctx, nd_range_t({(size_t)dm.N}), a));
    const dim_t *s = e.d_att.st();
    return e.store(e.d_att, e.d_att.off(t), s[1], s[2], dm.N, 1, b.drec, 1);
}

// One step of (l, d) at time t: the cell's diff into dg (and dgrid) and
// dh_next, the diff of the previous h.
status_t bwd_step(
        const rnn_exec_t &e, bwd_bufs_t &b, dim_t l, dim_t d, dim_t t) {
    const rnn_dims_t &dm = e.dm;
    const dim_t N = dm.N, H = dm.DHC, ldg = dm.ldg(), ldh = dm.ldh(),
                DIC = dm.DIC;
    const rnn_desc_t &desc = *e.pd->desc();
    const rnn_loc_t g = e.state(e.p.gates, l, d).at(t * N * ldg);
    const rnn_loc_t dg = b.dg.at(t * N * ldg);
    const rnn_loc_t hp = e.h_slot(l, d, e.prev_slot(d, t));
    rnn_loc_t dh = b.dh.at(t * N * DIC);
    dim_t lddh = DIC;
    // The output's diff: from above plus from the next step.
    const dim_t n4[4] = {1, 1, N, DIC};
    DNNL_CHECK(e.copy({b.dh_rec.m, dnnl_f32, b.dh_rec.off, {0, 0, ldh, 1}},
            {dh.m, dnnl_f32, dh.off, {0, 0, DIC, 1}}, n4, true));
    const rnn_loc_t att = e.scr(e.p.att_off).at(t * N);
    const cl_mem att_m = dm.augru ? att.m : nullptr;
    const rnn_mat_t wi_t = e.wmat(e.w_iter, l, d, 0, true);
    auto head = [&](kernel_args_t &a) {
        a.mem(g.m).i64(g.off).i64(ldg).mem(dg.m).i64(dg.off);
    };
    auto tail = [&](kernel_args_t &a) { a.i32((int32_t)N).i32((int32_t)H); };
    if (dm.cell == dnnl_vanilla_rnn) {
        kernel_args_t a;
        head(a);
        a.mem(dh.m).i64(dh.off).i64(lddh);
        a.i32(act_code(desc.activation_kind)).f32(desc.alpha);
        tail(a);
        DNNL_CHECK(e.cell(ocl_rnn_t::k_vanilla_bwd, a));
        return e.gemm(rg_iter_t, N, dm.SIC, ldg, dense(dg, ldg), wi_t,
                dense(b.dh_next, ldh));
    }
    if (dm.lstm) {
        if (dm.projection) {
            const rnn_loc_t dht = b.dht.at(t * N * H);
            DNNL_CHECK(e.gemm(rg_proj_t, N, H, DIC, dense(dh, DIC),
                    e.proj(l, d, true), dense(dht, H)));
            dh = dht;
            lddh = H;
        }
        const rnn_loc_t cp = e.c_slot(l, d, e.prev_slot(d, t));
        const rnn_loc_t c = e.c_slot(l, d, t + 1);
        const rnn_loc_t wp = e.peephole_f32(l, d);
        kernel_args_t a;
        head(a);
        a.mem(dh.m).i64(dh.off).i64(lddh);
        a.mem(cp.m).i64(cp.off).mem(c.m).i64(c.off);
        a.mem(b.dc_rec.m).i64(b.dc_rec.off).mem(b.dc_next.m).i64(b.dc_next.off);
        a.mem(dm.peephole ? wp.m : nullptr).i64(wp.off);
        tail(a);
        DNNL_CHECK(e.cell(ocl_rnn_t::k_lstm_bwd, a));
        std::swap(b.dc_rec, b.dc_next);
        return e.gemm(rg_iter_t, N, dm.SIC, ldg, dense(dg, ldg), wi_t,
                dense(b.dh_next, ldh));
    }
    if (dm.augru) DNNL_CHECK(att_bwd(e, b, t, g, dh, hp));
    if (dm.gru) {
        kernel_args_t a1;
        head(a1);
        a1.mem(dh.m).i64(dh.off).i64(lddh).mem(hp.m).i64(hp.off).i64(ldh);
        a1.mem(b.dh_next.m).i64(b.dh_next.off).mem(att_m).i64(att.off);
        tail(a1);
        DNNL_CHECK(e.cell(ocl_rnn_t::k_gru_bwd1, a1));
        // d(r * h') = dg_o U_o^T (the role sums: start from zeros).
        DNNL_CHECK(e.zero(b.drec, N, H, H));
        DNNL_CHECK(e.gemm(rg_iter_t, N, dm.SIC, H, dense(dg.at(2 * H), ldg),
                e.wmat(e.w_iter, l, d, 2 * H, true), dense(b.drec, H)));
        kernel_args_t a2;
        head(a2);
        a2.mem(hp.m).i64(hp.off).i64(ldh).mem(b.drec.m).i64(b.drec.off);
        a2.mem(b.dh_next.m).i64(b.dh_next.off);
        tail(a2);
        DNNL_CHECK(e.cell(ocl_rnn_t::k_gru_bwd2, a2));
        return e.gemm(rg_iter_t, N, dm.SIC, 2 * H, dense(dg, ldg), wi_t,
                dense(b.dh_next, ldh));
    }
    const rnn_loc_t grid = e.state(e.p.grid, l, d).at(t * N * H);
    const rnn_loc_t dgrid = b.dgrid.at(t * N * 3 * H);
    kernel_args_t a;
    head(a);
    a.mem(dgrid.m).i64(dgrid.off).mem(dh.m).i64(dh.off).i64(lddh);
    a.mem(hp.m).i64(hp.off).i64(ldh).mem(grid.m).i64(grid.off);
    a.mem(b.dh_next.m).i64(b.dh_next.off).mem(att_m).i64(att.off);
    tail(a);
    DNNL_CHECK(e.cell(ocl_rnn_t::k_lbr_bwd, a));
    return e.gemm(rg_iter_t, N, dm.SIC, 3 * H, dense(dgrid, 3 * H), wi_t,
            dense(b.dh_next, ldh));
}

// Weight, bias and peephole diffs of (l, d) over all iterations.
status_t weight_diffs(
        const rnn_exec_t &e, const bwd_bufs_t &b, dim_t l, dim_t d) {
    const rnn_dims_t &dm = e.dm;
    const dim_t T = dm.T, N = dm.N, H = dm.DHC, ldg = dm.ldg(), ldh = dm.ldh(),
                DIC = dm.DIC, TN = T * N;
    const bool acc = !e.pd->diff_weights_overwrite();
    dim_t ldx = 0;
    const rnn_loc_t x = e.layer_input(l, d, ldx);
    const dim_t K = l == 0 ? dm.SLC : DIC;
    DNNL_CHECK(e.gemm(rg_dw_layer, K, ldg, TN, dense_t(x, ldx),
            dense(b.dg, ldg), diff_w(e.d_w_layer, l, d, 0, 2, 4)));
    const rnn_loc_t hprev = e.h_slot(l, d, e.prev_first(d));
    if (dm.gru) {
        // The o gate's recurrent input was r * h'.
        const rnn_loc_t gates = e.state(e.p.gates, l, d);
        kernel_args_t a;
        a.mem(gates.m).i64(gates.off + H).i64(ldg);
        a.mem(hprev.m).i64(hprev.off).i64(ldh);
        a.mem(b.hr.m).i64(b.hr.off).i64(H);
        a.i32((int32_t)TN).i32((int32_t)H);
        DNNL_CHECK(e.prim->kernel(ocl_rnn_t::k_mul_rows)
                           .enqueue(e.ctx, nd_range_t({(size_t)H, (size_t)TN}),
                                   a));
        DNNL_CHECK(e.gemm(rg_dw_iter, dm.SIC, 2 * H, TN, dense_t(hprev, ldh),
                dense(b.dg, ldg), diff_w(e.d_w_iter, l, d, 0, 2, 4)));
        DNNL_CHECK(e.gemm(rg_dw_iter, dm.SIC, H, TN, dense_t(b.hr, H),
                dense(b.dg.at(2 * H), ldg),
                diff_w(e.d_w_iter, l, d, 2 * H, 2, 4)));
    } else if (dm.lbr) {
        DNNL_CHECK(e.gemm(rg_dw_iter, dm.SIC, 3 * H, TN, dense_t(hprev, ldh),
                dense(b.dgrid, 3 * H), diff_w(e.d_w_iter, l, d, 0, 2, 4)));
    } else {
        DNNL_CHECK(e.gemm(rg_dw_iter, dm.SIC, ldg, TN, dense_t(hprev, ldh),
                dense(b.dg, ldg), diff_w(e.d_w_iter, l, d, 0, 2, 4)));
    }
    if (dm.projection)
        DNNL_CHECK(e.gemm(rg_dw_proj, H, DIC, TN,
                dense_t(e.state(e.p.ht, l, d), H), dense(b.dh, DIC),
                diff_w(e.d_w_proj, l, d, 0, 2, 3)));
    const rnn_loc_t tmp = e.scr(e.p.tmp_off);
    auto col_sums = [&](const rnn_loc_t &a, dim_t ld, dim_t cols,
                            const rnn_loc_t &out) {
        kernel_args_t k;
        k.mem(a.m).i64(a.off).i64(ld).i64(TN).i32((int32_t)cols);
        k.mem(out.m).i64(out.off);
        return e.prim->kernel(ocl_rnn_t::k_col_sums)
                .enqueue(e.ctx, nd_range_t({(size_t)cols}), k);
    };
    if (e.d_bias) {
        DNNL_CHECK(col_sums(b.dg, ldg, ldg, tmp));
        if (dm.lbr)
            DNNL_CHECK(col_sums(b.dgrid.at(2 * H), 3 * H, H, tmp.at(3 * H)));
        const dim_t *s = e.d_bias.st();
        DNNL_CHECK(e.store(e.d_bias, e.d_bias.off(l, d), s[2], s[3],
                dm.nbias() / H, H, tmp, H, acc));
    }
    if (dm.peephole) {
        const rnn_loc_t c = e.state(e.p.c, l, d);
        kernel_args_t k;
        k.mem(b.dg.m).i64(b.dg.off).i64(ldg).mem(c.m).i64(c.off);
        k.i32(e.r2l(d) ? 2 : 0).i32((int32_t)T).i32((int32_t)N);
        k.i32((int32_t)H).mem(tmp.m).i64(tmp.off);
        DNNL_CHECK(e.prim->kernel(ocl_rnn_t::k_peephole_bwd)
                           .enqueue(e.ctx, nd_range_t({(size_t)H}), k));
        const dim_t *s = e.d_w_peephole.st();
        DNNL_CHECK(e.store(e.d_w_peephole, e.d_w_peephole.off(l, d), s[2], s[3],
                3, H, tmp, H, acc));
    }
    // Diff of the layer input: the next layer down's output diff, or
    // (layer 0) this direction's share of diff_src_layer. The role sums:
    // start from zeros where nothing is there yet.
    const rnn_mat_t wl_t = e.wmat(e.w_layer, l, d, 0, true);
    if (l > 0) {
        DNNL_CHECK(e.zero(b.dh, TN, DIC, DIC));
        return e.gemm(rg_layer_t, TN, DIC, ldg, dense(b.dg, ldg), wl_t,
                dense(b.dh, DIC));
    }
    if (d == 0) DNNL_CHECK(e.zero(b.dsrc, TN, dm.SLC, dm.SLC));
    return e.gemm(rg_layer_t, TN, dm.SLC, ldg, dense(b.dg, ldg), wl_t,
            dense(b.dsrc, dm.SLC));
}

} // namespace

status_t ocl_rnn_t::execute_bwd(const exec_ctx_t &ctx) const {
    rnn_exec_t e(this, ctx);
    const rnn_dims_t &dm = e.dm;
    const dim_t T = dm.T, N = dm.N, H = dm.DHC, ldh = dm.ldh(), DIC = dm.DIC;
    bwd_bufs_t b = bufs(e);
    DNNL_CHECK(e.load_inputs());
    const auto dir = pd_()->direction();
    for (dim_t d = 0; d < dm.D; ++d) {
        // Diff of the last layer's outputs.
        const dim_t col0 = dir == dnnl_bidirectional_concat ? d * DIC : 0;
        const dim_t *s = e.d_dst_layer.st();
        DNNL_CHECK(e.load(e.d_dst_layer, e.d_dst_layer.off(0, 0, col0), s[1],
                s[2], N, DIC, b.dh, DIC, T, s[0], N * DIC));
        for (dim_t l = dm.L - 1; l >= 0; --l) {
            // Recurrent diffs entering the last processed step.
            if (e.d_dst_iter)
                DNNL_CHECK(e.load(e.d_dst_iter, e.d_dst_iter.off(l, d),
                        e.d_dst_iter.st()[2], e.d_dst_iter.st()[3], N, DIC,
                        b.dh_rec, ldh));
            else
                DNNL_CHECK(e.zero(b.dh_rec, N, ldh, ldh));
            if (dm.lstm) {
                if (e.d_dst_iter_c)
                    DNNL_CHECK(e.load(e.d_dst_iter_c, e.d_dst_iter_c.off(l, d),
                            e.d_dst_iter_c.st()[2], e.d_dst_iter_c.st()[3], N,
                            H, b.dc_rec, H));
                else
                    DNNL_CHECK(e.zero(b.dc_rec, N, H, H));
            }
            for (dim_t st = T - 1; st >= 0; --st) {
                const dim_t t = e.r2l(d) ? T - 1 - st : st;
                DNNL_CHECK(bwd_step(e, b, l, d, t));
                std::swap(b.dh_rec, b.dh_next);
            }
            // Diffs of the initial states.
            if (e.d_src_iter)
                DNNL_CHECK(e.store(e.d_src_iter, e.d_src_iter.off(l, d),
                        e.d_src_iter.st()[2], e.d_src_iter.st()[3], N, dm.SIC,
                        b.dh_rec, ldh));
            if (e.d_src_iter_c)
                DNNL_CHECK(e.store(e.d_src_iter_c, e.d_src_iter_c.off(l, d),
                        e.d_src_iter_c.st()[2], e.d_src_iter_c.st()[3], N, H,
                        b.dc_rec, H));
            DNNL_CHECK(weight_diffs(e, b, l, d));
        }
    }
    const dim_t *s = e.d_src_layer.st();
    return e.store(e.d_src_layer, e.d_src_layer.off(0), s[1], s[2], N, dm.SLC,
            b.dsrc, dm.SLC, false, T, s[0], N * dm.SLC);
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
