// A gpu RNN execution's buffers, copies, cell launches and GEMM calls.
#include "gpu/ocl/rnn/rnn_exec.hpp"

#include "common/verbose.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// The DT_* code of ocl_types.clh for the copy kernel's run-time types.
int dt_code(data_type_t dt) {
    switch (dt) {
    case dnnl_f16:
        return 2;
    case dnnl_bf16:
        return 3;
    case dnnl_s8:
        return 4;
    case dnnl_u8:
        return 5;
    default:
        return 1;
    }
}

cl_long4 long4_of(const dim_t *v) {
    cl_long4 r;
    for (int i = 0; i < 4; ++i) r.s[i] = (cl_long)v[i];
    return r;
}

} // namespace

dim_t rnn_tensor_t::off(dim_t a, dim_t b, dim_t c, dim_t d) const {
    const dim_t idx[4] = {a, b, c, d};
    dim_t o = md->offset0;
    for (int i = 0; i < md->ndims && i < 4; ++i) o += idx[i] * st()[i];
    return o;
}

rnn_exec_t::rnn_exec_t(const ocl_rnn_t *prim_, const exec_ctx_t &ctx_)
    : prim(prim_), pd(prim_->pd_()), ctx(ctx_), p(pd->plan()),
      dm(pd->plan().dims) {
    scratch = scratchpad_of(ctx);
    ws = dm.training ? mem_of(ctx, DNNL_ARG_WORKSPACE) : scratch;
    for_each([&](rnn_tensor_t &x, int arg) {
        if (pd->arg_usage(arg) == arg_usage_t::unused) return;
        x.md = pd->arg_md(arg);
        if (is_zero_md(*x.md)) return;
        x.m = mem_of(ctx, arg);
    });
    quant = rnn_copy_quant(*pd->attr());
    qgrid = rnn_state_qgrid(*pd->attr(), dm.int8, src_layer.md->data_type);
}

bool rnn_exec_t::r2l(dim_t d) const {
    const auto dir = pd->direction();
    return dir == dnnl_unidirectional_right2left || (dm.D == 2 && d == 1);
}

rnn_loc_t rnn_exec_t::state(const rnn_buf_t &b, dim_t l, dim_t d) const {
    return {ws, (dim_t)(p.byte_offset(b, l, d) / sizeof(float))};
}

rnn_loc_t rnn_exec_t::h_slot(dim_t l, dim_t d, dim_t slot) const {
    return state(p.h, l, d).at(slot * dm.N * dm.ldh());
}

rnn_loc_t rnn_exec_t::c_slot(dim_t l, dim_t d, dim_t slot) const {
    return state(p.c, l, d).at(slot * dm.N * dm.DHC);
}

rnn_loc_t rnn_exec_t::bias_f32(dim_t l, dim_t d) const {
    return scr(p.bias_off).at((l * dm.D + d) * dm.nbias());
}

rnn_loc_t rnn_exec_t::peephole_f32(dim_t l, dim_t d) const {
    return scr(p.peephole_off).at((l * dm.D + d) * 3 * dm.DHC);
}

rnn_loc_t rnn_exec_t::layer_input(dim_t l, dim_t d, dim_t &ld) const {
    if (l == 0) {
        ld = dm.SLC;
        return scr(p.x0_off);
    }
    ld = dm.ldh();
    return h_slot(l - 1, d, 1);
}

rnn_mat_t rnn_exec_t::wmat(
        const rnn_tensor_t &w, dim_t l, dim_t d, dim_t col0, bool trans) const {
    const dim_t *s = w.st();
    rnn_mat_t m;
    m.m = w.m;
    m.off = w.off(l, d) + col0 * s[4];
    m.rs = trans ? s[4] : s[2];
    m.cs = trans ? s[2] : s[4];
    return m;
}

rnn_mat_t rnn_exec_t::proj(dim_t l, dim_t d, bool trans) const {
    const dim_t *s = w_proj.st();
    return {w_proj.m, w_proj.off(l, d), trans ? s[3] : s[2],
            trans ? s[2] : s[3]};
}

status_t rnn_exec_t::gemm(rnn_gemm_role_t role, dim_t M, dim_t N, dim_t K,
        const rnn_mat_t &a, const rnn_mat_t &b, const rnn_mat_t &c,
        const rnn_loc_t *bias) const {
    const gemm_conf_t &conf = pd->gemm(role).conf;
    gemm_exec_t e;
    e.M = M, e.N = N, e.K = K;
    e.a = a.m, e.a_off = a.off, e.a_sm = a.rs, e.a_sk = a.cs;
    e.b = b.m, e.b_off = b.off, e.b_sk = b.rs, e.b_sn = b.cs;
    e.c = c.m, e.c_off = c.off, e.c_sm = c.rs, e.c_sn = c.cs;
    if (!gemm_fit_access(conf.a, M, K, e.a_sm, e.a_sk)
            || !gemm_fit_access(conf.b, K, N, e.b_sk, e.b_sn)
            || (conf.c_ncontig && e.c_sn != 1 && N != 1)) {
        verbose_error("rnn", "gpu: a GEMM operand unlike its configuration");
        return dnnl_runtime_error;
    }
    if (conf.c_ncontig) e.c_sn = 1;
    if (bias) {
        e.bias = bias->m;
        e.bias_off = bias->off;
        e.bias_sn = 1;
    }
    return prim->gemm(role).execute(ctx, e);
}

status_t rnn_exec_t::copy(const side_t &src, const side_t &dst,
        const dim_t n[4], bool accumulate) const {
    const dim_t outer = n[0] * n[1];
    if (outer == 0 || n[2] == 0 || n[3] == 0) return dnnl_success;
    kernel_args_t args;
    args.mem(src.m)
            .i32(dt_code(src.dt))
            .i64(src.off)
            .value(long4_of(src.st))
            .mem(dst.m)
            .i32(dt_code(dst.dt))
            .i64(dst.off)
            .value(long4_of(dst.st))
            .value(long4_of(n))
            .i32(accumulate ? 1 : 0)
            .value(quant);
    return prim->kernel(ocl_rnn_t::k_copy)
            .enqueue(ctx,
                    nd_range_t({(size_t)n[3], (size_t)n[2], (size_t)outer}),
                    args);
}

status_t rnn_exec_t::load(const rnn_tensor_t &t, dim_t off, dim_t rs, dim_t cs,
        dim_t rows, dim_t cols, const rnn_loc_t &to, dim_t ld, dim_t outer,
        dim_t os, dim_t ol) const {
    const dim_t n[4] = {1, outer, rows, cols};
    const side_t s = {t.m, t.md->data_type, off, {0, os, rs, cs}};
    const side_t d = {to.m, dnnl_f32, to.off, {0, ol, ld, 1}};
    return copy(s, d, n);
}

status_t rnn_exec_t::store(const rnn_tensor_t &t, dim_t off, dim_t rs, dim_t cs,
        dim_t rows, dim_t cols, const rnn_loc_t &from, dim_t ld,
        bool accumulate, dim_t outer, dim_t os, dim_t ol) const {
    const dim_t n[4] = {1, outer, rows, cols};
    const side_t s = {from.m, dnnl_f32, from.off, {0, ol, ld, 1}};
    const side_t d = {t.m, t.md->data_type, off, {0, os, rs, cs}};
    return copy(s, d, n, accumulate);
}

status_t rnn_exec_t::zero(
        const rnn_loc_t &to, dim_t rows, dim_t cols, dim_t ld) const {
    const dim_t n[4] = {1, 1, rows, cols};
    const side_t s = {nullptr, dnnl_f32, 0, {0, 0, 0, 0}};
    const side_t d = {to.m, dnnl_f32, to.off, {0, 0, ld, 1}};
    return copy(s, d, n);
}

status_t rnn_exec_t::cell(
        ocl_rnn_t::kernel_t k, const kernel_args_t &args) const {
    return prim->kernel(k).enqueue(
            ctx, nd_range_t({(size_t)dm.DHC, (size_t)dm.N}), args);
}

status_t rnn_exec_t::load_inputs() const {
    const dim_t T = dm.T, N = dm.N, H = dm.DHC, L = dm.L, D = dm.D;
    const dim_t *s = src_layer.st();
    // src_layer [T, N, SLC] as T * N rows.
    DNNL_CHECK(load(src_layer, src_layer.off(0), s[1], s[2], N, dm.SLC,
            scr(p.x0_off), dm.SLC, T, s[0], N * dm.SLC));
    const dim_t gb = dm.nbias() / H;
    if (bias) {
        // [L, D, gates (+1), DHC] into (l * D + d) * nbias + g * DHC + j.
        const dim_t *b = bias.st();
        const dim_t n[4] = {L, D, gb, H};
        const side_t src = {bias.m, bias.md->data_type, bias.off(0),
                {b[0], b[1], b[2], b[3]}};
        const side_t dst = {scratch, dnnl_f32, scr(p.bias_off).off,
                {D * gb * H, gb * H, H, 1}};
        DNNL_CHECK(copy(src, dst, n));
    } else {
        DNNL_CHECK(zero(scr(p.bias_off), L * D, dm.nbias(), dm.nbias()));
    }
    if (dm.peephole) {
        const dim_t *w = w_peephole.st();
        const dim_t n[4] = {L, D, 3, H};
        const side_t src = {w_peephole.m, w_peephole.md->data_type,
                w_peephole.off(0), {w[0], w[1], w[2], w[3]}};
        const side_t dst = {scratch, dnnl_f32, scr(p.peephole_off).off,
                {D * 3 * H, 3 * H, H, 1}};
        DNNL_CHECK(copy(src, dst, n));
    }
    if (dm.augru) {
        const dim_t *a = att.st();
        DNNL_CHECK(load(att, att.off(0), a[0], a[1], T, N, scr(p.att_off), N));
    }
    return dnnl_success;
}

status_t rnn_exec_t::load_init_state(dim_t l, dim_t d) const {
    const dim_t N = dm.N, slot = init_slot(d);
    const rnn_loc_t h = h_slot(l, d, slot);
    if (src_iter)
        DNNL_CHECK(load(src_iter, src_iter.off(l, d), src_iter.st()[2],
                src_iter.st()[3], N, dm.SIC, h, dm.ldh()));
    else
        DNNL_CHECK(zero(h, N, dm.SIC, dm.ldh()));
    // int8: the initial state as an integer implementation holds it (an
    // f32 or absent src_iter too), as on the CPU.
    if (dm.int8) DNNL_CHECK(qgrid_rows(h, N, dm.SIC, dm.ldh()));
    if (!dm.lstm) return dnnl_success;
    const rnn_loc_t c = c_slot(l, d, slot);
    if (src_iter_c)
        return load(src_iter_c, src_iter_c.off(l, d), src_iter_c.st()[2],
                src_iter_c.st()[3], N, dm.DHC, c, dm.DHC);
    return zero(c, N, dm.DHC, dm.DHC);
}

status_t rnn_exec_t::store_dst_iter(dim_t l, dim_t d) const {
    // The last state: time T - 1 (l2r) or 0 (r2l).
    const dim_t slot = r2l(d) ? 1 : dm.T;
    if (dst_iter)
        DNNL_CHECK(store(dst_iter, dst_iter.off(l, d), dst_iter.st()[2],
                dst_iter.st()[3], dm.N, dm.DIC, h_slot(l, d, slot), dm.ldh()));
    if (dst_iter_c)
        DNNL_CHECK(store(dst_iter_c, dst_iter_c.off(l, d), dst_iter_c.st()[2],
                dst_iter_c.st()[3], dm.N, dm.DHC, c_slot(l, d, slot), dm.DHC));
    return dnnl_success;
}

status_t rnn_exec_t::store_dst_layer(dim_t d) const {
    const auto dir = pd->direction();
    const bool sum = dir == dnnl_bidirectional_sum && d == 1;
    const dim_t col0 = dir == dnnl_bidirectional_concat ? d * dm.DIC : 0;
    const dim_t *s = dst_layer.st();
    // Slots 1..T of the last layer are T * N rows of ldh floats.
    return store(dst_layer, dst_layer.off(0, 0, col0), s[1], s[2], dm.N, dm.DIC,
            h_slot(dm.L - 1, d, 1), dm.ldh(), sum, dm.T, s[0], dm.N * dm.ldh());
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
