// Gpu RNN forward: per direction and layer, the input projections of all
// iterations in one GEMM (bias added there), then per iteration the
// recurrent GEMM(s) and the cell kernel; LSTM projection is one more GEMM
// per iteration. The same grid and buffers as the CPU implementation.
#include "gpu/ocl/rnn/rnn_exec.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

status_t fwd_step(const rnn_exec_t &e, dim_t l, dim_t d, dim_t t,
        const rnn_loc_t &gates_t) {
    const rnn_dims_t &dm = e.dm;
    const dim_t N = dm.N, H = dm.DHC, ldg = dm.ldg(), ldh = dm.ldh();
    const rnn_loc_t hp = e.h_slot(l, d, e.prev_slot(d, t));
    const rnn_loc_t h = e.h_slot(l, d, t + 1);
    const rnn_mat_t g = dense(gates_t, ldg);
    const rnn_desc_t &desc = *e.pd->desc();
    const rnn_loc_t att = e.scr(e.p.att_off).at(t * N);
    const cl_mem att_m = dm.augru ? att.m : nullptr;
    auto ncells = [&](kernel_args_t &a) { a.i32((int32_t)N).i32((int32_t)H); };

    if (dm.cell == dnnl_vanilla_rnn || dm.lstm) {
        DNNL_CHECK(e.gemm(rg_iter, N, ldg, dm.SIC, dense(hp, ldh),
                e.wmat(e.w_iter, l, d, 0, false), g));
        kernel_args_t a;
        if (dm.cell == dnnl_vanilla_rnn) {
            a.mem(g.m).i64(g.off).i64(ldg).mem(h.m).i64(h.off).i64(ldh);
            a.i32(act_code(desc.activation_kind)).f32(desc.alpha);
            ncells(a);
            return e.cell(ocl_rnn_t::k_vanilla_fwd, a);
        }
        const rnn_loc_t cp = e.c_slot(l, d, e.prev_slot(d, t));
        const rnn_loc_t c = e.c_slot(l, d, t + 1);
        const rnn_loc_t ht =
                dm.projection ? e.state(e.p.ht, l, d).at(t * N * H) : h;
        const rnn_loc_t wp = e.peephole_f32(l, d);
        a.mem(g.m).i64(g.off).i64(ldg);
        a.mem(cp.m).i64(cp.off).mem(c.m).i64(c.off);
        a.mem(ht.m).i64(ht.off).i64(dm.projection ? H : ldh);
        a.mem(dm.peephole ? wp.m : nullptr).i64(wp.off).value(e.qgrid);
        ncells(a);
        DNNL_CHECK(e.cell(ocl_rnn_t::k_lstm_fwd, a));
        if (!dm.projection) return dnnl_success;
        DNNL_CHECK(e.gemm(rg_proj, N, dm.DIC, H, dense(ht, H),
                e.proj(l, d, false), dense(h, ldh)));
        // int8: the projection's output is a state like any other h.
        return dm.int8 ? e.qgrid_rows(h, N, dm.DIC, ldh) : dnnl_success;
    }
    const rnn_loc_t rec = e.scr(e.p.tmp_off);
    if (dm.gru) {
        DNNL_CHECK(e.gemm(rg_iter, N, 2 * H, dm.SIC, dense(hp, ldh),
                e.wmat(e.w_iter, l, d, 0, false), g));
        kernel_args_t a1;
        a1.mem(g.m).i64(g.off).i64(ldg).mem(hp.m).i64(hp.off).i64(ldh);
        a1.mem(rec.m).i64(rec.off).value(e.qgrid);
        ncells(a1);
        DNNL_CHECK(e.cell(ocl_rnn_t::k_gru_fwd1, a1));
        DNNL_CHECK(e.gemm(rg_iter, N, H, H, dense(rec, H),
                e.wmat(e.w_iter, l, d, 2 * H, false), g.at_col(2 * H)));
        kernel_args_t a2;
        a2.mem(g.m).i64(g.off).i64(ldg).mem(hp.m).i64(hp.off).i64(ldh);
        a2.mem(h.m).i64(h.off).i64(ldh).mem(att_m).i64(att.off);
        a2.value(e.qgrid);
        ncells(a2);
        return e.cell(ocl_rnn_t::k_gru_fwd2, a2);
    }
    // Linear-before-reset: U h' of all three gates, then the cell.
    DNNL_CHECK(e.gemm(rg_iter, N, 3 * H, dm.SIC, dense(hp, ldh),
            e.wmat(e.w_iter, l, d, 0, false), dense(rec, 3 * H)));
    const rnn_loc_t bx = e.bias_f32(l, d).at(3 * H);
    const rnn_loc_t grid = e.state(e.p.grid, l, d).at(t * N * H);
    kernel_args_t a;
    a.mem(g.m).i64(g.off).i64(ldg).mem(rec.m).i64(rec.off);
    a.mem(hp.m).i64(hp.off).i64(ldh).mem(bx.m).i64(bx.off);
    a.mem(grid.m).i64(grid.off).mem(h.m).i64(h.off).i64(ldh);
    a.mem(att_m).i64(att.off);
    ncells(a);
    return e.cell(ocl_rnn_t::k_lbr_fwd, a);
}

} // namespace

status_t ocl_rnn_t::execute_fwd(const exec_ctx_t &ctx) const {
    rnn_exec_t e(this, ctx);
    const rnn_dims_t &dm = e.dm;
    const dim_t T = dm.T, N = dm.N, ldg = dm.ldg();
    if (dm.int8) DNNL_CHECK(e.prepare_int8());
    DNNL_CHECK(e.load_inputs());
    for (dim_t d = 0; d < dm.D; ++d) {
        for (dim_t l = 0; l < dm.L; ++l) {
            DNNL_CHECK(e.load_init_state(l, d));
            // All iterations' input projections and biases in one GEMM.
            dim_t ldx = 0;
            const rnn_loc_t x = e.layer_input(l, d, ldx);
            const dim_t K = l == 0 ? dm.SLC : dm.DIC;
            const rnn_loc_t gates = e.state(e.p.gates, l, d);
            const rnn_loc_t bias = e.bias_f32(l, d);
            DNNL_CHECK(e.gemm(rg_layer, T * N, ldg, K, dense(x, ldx),
                    e.wmat(e.w_layer, l, d, 0, false), dense(gates, ldg),
                    &bias));
            for (dim_t s = 0; s < T; ++s) {
                const dim_t t = e.r2l(d) ? T - 1 - s : s;
                DNNL_CHECK(fwd_step(e, l, d, t, gates.at(t * N * ldg)));
            }
            DNNL_CHECK(e.store_dst_iter(l, d));
        }
        DNNL_CHECK(e.store_dst_layer(d));
    }
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
