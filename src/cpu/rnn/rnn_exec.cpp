// RNN execution state: argument views, weight operands, state copies.
#include "cpu/rnn/rnn_exec.hpp"

#include <cstring>

#include "cpu/gemm/gemm.hpp"
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_pack_c4.hpp"
#include "cpu/rnn/rnn_brgemm.hpp"
#include "cpu/rnn/rnn_parallel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

void mm(dim_t M, dim_t N, dim_t K, const mat_t &a, const mat_t &b, float *c,
        dim_t ldc, float beta, const float *bias) {
    if (M <= 0 || N <= 0) return;
    gemm::gemm_f32_args_t g;
    g.M = M, g.N = N, g.K = K;
    g.a = a.p, g.a_dt = a.dt, g.a_rs = a.rs, g.a_cs = a.cs;
    g.b = b.p, g.b_dt = b.dt, g.b_rs = b.rs, g.b_cs = b.cs;
    g.b_packed = b.packed;
    g.b_packed_kseg = b.kseg, g.b_packed_seg_stride = b.seg_stride;
    g.c = c, g.ldc = ldc, g.beta = beta;
    if (bias) g.bias = bias, g.bias_kind = gemm::bias_kind_t::per_col;
    gemm::gemm_f32(g);
}

void rnn_exec_t::gemm(dim_t M, dim_t N, dim_t K, const mat_t &a, const mat_t &b, float *c,
        dim_t ldc, float beta, const float *bias) const {
    if (b.dt != dnnl_s8) {
        float *abuf = (float *)(scratch + pd->brgemm_a_offset());
        if (brgemm && brgemm->run(M, N, K, a, b, c, ldc, beta, bias, abuf, pd->brgemm_a_elems()))
            return;
        return mm(M, N, K, a, b, c, ldc, beta, bias);
    }
    if (M <= 0 || N <= 0) return;
    // A on the grid: q = round(v * scale + shift) is exact.
    const data_type_t adt = quant.lo < 0 ? dnnl_s8 : dnnl_u8;
    char *aq = scratch + p.i8a_off;
    const float *af = (const float *)a.p;
    parallel_range(M, M * K, [&](dim_t r0, dim_t r1) {
        for (dim_t r = r0; r < r1; ++r)
            for (dim_t k = 0; k < K; ++k)
                store_f32(adt, af[r * a.rs + k * a.cs] * quant.scale + quant.shift, aq,
                        r * K + k);
    });
    // sum (q - shift) w = sum q w - shift * colsum: the shift is
    // compensated here with the operand's column sums (computed once per
    // layer), so the GEMM runs without a zero point and does not sum B's
    // columns on every call.
    gemm::gemm_s32_args_t g;
    g.M = M, g.N = N, g.K = K;
    g.a = aq, g.a_dt = adt, g.a_rs = K, g.a_cs = 1;
    g.b = b.p, g.b_dt = dnnl_s8, g.b_rs = b.rs, g.b_cs = b.cs;
    g.b_packed = b.packed, g.b_packed_k = b.packed_k;
    g.c = (int32_t *)(scratch + p.i8c_off), g.ldc = N;
    const float *den = b.qden;
    const int32_t *colsum = b.colsum;
    const float shift = quant.shift;
    g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, int32_t *cs, dim_t ldcs) {
        for (dim_t i = 0; i < m; ++i) {
            float *o = c + (m0 + i) * ldc + n0;
            const int32_t *s = cs + i * ldcs;
            for (dim_t j = 0; j < n; ++j) {
                const float comp = shift * (float)colsum[n0 + j];
                float v = ((float)s[j] - comp) / den[n0 + j];
                if (bias) v += bias[n0 + j];
                o[j] = beta == 0.f ? v : o[j] * beta + v;
            }
        }
    };
    gemm::gemm_s32(g);
}

rnn_exec_t::rnn_exec_t(const gemm_rnn_t::pd_t *pd_, const exec_ctx_t &ctx,
        char *ws_, char *scratch_)
    : pd(pd_), p(pd_->plan()), dm(pd_->plan().dims), ws(ws_), scratch(scratch_) {
    for_each([&](tensor_t &x, int arg) {
        if (pd->arg_usage(arg) == arg_usage_t::unused) return;
        x = tensor_t(*pd->arg_md(arg), ctx.host_ptr(arg));
    });
}

bool rnn_exec_t::r2l(dim_t d) const {
    const auto dir = pd->direction();
    return dir == dnnl_unidirectional_right2left || (dm.D == 2 && d == 1);
}

const float *rnn_exec_t::layer_input(dim_t l, dim_t d, dim_t &ld) const {
    if (l == 0) {
        ld = dm.SLC;
        return x0();
    }
    ld = dm.ldh();
    return p.h_slot(ws, l - 1, d, 1);
}

mat_t rnn_exec_t::wmat(const tensor_t &w, dim_t l, dim_t d, dim_t col0, bool trans) const {
    mat_t m;
    const bool packed
            = (&w == &w_layer && pd->wl_packed()) || (&w == &w_iter && pd->wi_packed());
    if (packed && trans) {
        // Backward layout (ldgIo<NR>i): W^T from the gate col0 starts, one
        // packed segment of [inputs / NR][DHC][NR] panels per gate.
        m.p = (const float *)w.base + w.off0 + l * w.st[0] + d * w.st[1]
                + (col0 / dm.DHC) * w.st[3];
        m.packed = true;
        m.kseg = dm.DHC;
        m.seg_stride = w.st[3];
        return m;
    }
    if (packed) {
        // [G * DHC / NR][K][NR] panels per (l, d); col0 starts a panel.
        const dim_t K = &w == &w_layer ? dm.SLC : dm.SIC;
        m.p = (const float *)w.base + w.off0 + l * w.st[0] + d * w.st[1] + col0 * K;
        m.packed = true;
        return m;
    }
    m.dt = w.dt;
    if (w.dt == dnnl_s8) m.qden = wden.data() + col0;
    m.p = (const char *)w.base + (w.off(l, d, 0, 0, 0) + col0 * w.st[4]) * data_type_size(w.dt);
    m.rs = trans ? w.st[4] : w.st[2];
    m.cs = trans ? w.st[2] : w.st[4];
    return m;
}

mat_t rnn_exec_t::proj(dim_t l, dim_t d, bool trans) const {
    mat_t m;
    m.dt = w_proj.dt;
    if (w_proj.dt == dnnl_s8) m.qden = pden.data();
    m.p = (const char *)w_proj.base + w_proj.off(l, d, 0, 0) * data_type_size(w_proj.dt);
    m.rs = trans ? w_proj.st[3] : w_proj.st[2];
    m.cs = trans ? w_proj.st[2] : w_proj.st[3];
    return m;
}

mat_t rnn_exec_t::prepare_s8(const mat_t &m, dim_t K, dim_t N, bool reset) {
    if (reset) s8_used = colsum_used = 0;
    mat_t r = m;
    int32_t *cs = (int32_t *)(scratch + p.colsum_off) + colsum_used;
    colsum_used += (size_t)N;
    const int8_t *w = (const int8_t *)m.p;
    // Walk the weights in memory order: along a row's columns when they
    // are contiguous (ldigo: summing column by column read 8-32 MB with a
    // row's stride and took 80% of an int8 decoder step), else down each
    // column.
    parallel_range(N, K * N, [&](dim_t j0, dim_t j1) {
        if (m.cs == 1) {
            for (dim_t j = j0; j < j1; ++j)
                cs[j] = 0;
            for (dim_t k = 0; k < K; ++k) {
                const int8_t *row = w + k * m.rs;
                for (dim_t j = j0; j < j1; ++j)
                    cs[j] += row[j];
            }
            return;
        }
        for (dim_t j = j0; j < j1; ++j) {
            int32_t s = 0;
            for (dim_t k = 0; k < K; ++k)
                s += w[k * m.rs + j * m.cs];
            cs[j] = s;
        }
    });
    r.colsum = cs;
    const int nr = p.nr_s8;
    if (!nr) return r;
    const dim_t kq4 = (K + 3) / 4 * 4, panels = (N + nr - 1) / nr;
    uint8_t *out = (uint8_t *)(scratch + p.i8pack_off) + s8_used;
    s8_used += (size_t)(kq4 * panels * nr);
    parallel_range(panels, K * N, [&](dim_t p0, dim_t p1) {
        const dim_t j0 = p0 * nr, n = (p1 * nr < N ? p1 * nr : N) - j0;
        gemm::pack_b_c4((const uint8_t *)(w + j0 * m.cs), m.rs, m.cs, false, K, n, nr,
                out + j0 * kq4);
    });
    r.p = out;
    r.packed = true;
    r.packed_k = kq4;
    return r;
}

mat_t rnn_exec_t::pack(const mat_t &m, dim_t K, dim_t N, bool reset) {
    if (m.dt == dnnl_s8) return prepare_s8(m, K, N, reset);
    // The buffer starts over whether or not `m` itself needs packing
    // (weights given packed are read in place, but the operands packed
    // after them in the layer still take the buffer from its start).
    if (reset) pack_used = 0;
    const int nr = p.nr;
    if (!nr || m.dt != dnnl_f32 || m.packed) return m;
    float *out = (float *)(scratch + p.wpack_off) + pack_used;
    const dim_t panels = (N + nr - 1) / nr;
    pack_used += (size_t)(K * panels * nr);
    // Panels are independent: split them over the threads.
    parallel_range(panels, K * N, [&](dim_t p0, dim_t p1) {
        const float *b = (const float *)m.p + p0 * nr * m.cs;
        const dim_t n = (p1 * nr < N ? p1 * nr : N) - p0 * nr;
        gemm::pack_b_f32<float>(b, m.rs, m.cs, K, n, nr, out + p0 * nr * K);
    });
    mat_t r;
    r.p = out;
    r.packed = true;
    return r;
}

void rnn_exec_t::load_inputs() {
    const dim_t T = dm.T, N = dm.N, DHC = dm.DHC;
    // src_layer [T, N, SLC] as T * N rows.
    for (dim_t t = 0; t < T; ++t)
        load_block(src_layer, src_layer.off(t, 0, 0), src_layer.st[1], src_layer.st[2],
                N, dm.SLC, x0() + t * N * dm.SLC, dm.SLC);
    const dim_t nb = dm.nbias();
    for (dim_t l = 0; l < dm.L; ++l)
        for (dim_t d = 0; d < dm.D; ++d) {
            float *b = bias_f32(l, d);
            if (bias) {
                // [gates (+1), DHC] rows.
                load_block(bias, bias.off(l, d, 0, 0), bias.st[2], bias.st[3],
                        nb / DHC, DHC, b, DHC);
            } else {
                std::memset(b, 0, nb * sizeof(float));
            }
            if (dm.peephole)
                load_block(w_peephole, w_peephole.off(l, d, 0, 0), w_peephole.st[2],
                        w_peephole.st[3], 3, DHC, peephole_f32(l, d), DHC);
        }
    if (dm.augru)
        for (dim_t t = 0; t < T; ++t)
            load_block(att, att.off(t, 0, 0), att.st[1], att.st[2], N, 1,
                    att_f32() + t * N, 1);
}

void rnn_exec_t::load_init_state(dim_t l, dim_t d) {
    const dim_t N = dm.N, slot = init_slot(d);
    float *h = p.h_slot(ws, l, d, slot);
    if (src_iter)
        load_block(src_iter, src_iter.off(l, d, 0, 0), src_iter.st[2], src_iter.st[3],
                N, dm.SIC, h, dm.ldh());
    else
        for (dim_t n = 0; n < N; ++n)
            std::memset(h + n * dm.ldh(), 0, dm.SIC * sizeof(float));
    // int8: the initial state as the integer implementation holds it (an
    // f32 src_iter is quantized on the way in).
    if (dm.int8) quant.apply(h, N, dm.SIC, dm.ldh());
    if (!dm.lstm) return;
    float *c = p.c_slot(ws, l, d, slot);
    if (src_iter_c)
        load_block(src_iter_c, src_iter_c.off(l, d, 0, 0), src_iter_c.st[2],
                src_iter_c.st[3], N, dm.DHC, c, dm.DHC);
    else
        std::memset(c, 0, N * dm.DHC * sizeof(float));
}

void rnn_exec_t::store_dst_iter(dim_t l, dim_t d) {
    // The last state: time T - 1 (l2r) or 0 (r2l).
    const dim_t slot = r2l(d) ? 1 : dm.T;
    if (dst_iter)
        store_block(dst_iter, dst_iter.off(l, d, 0, 0), dst_iter.st[2], dst_iter.st[3],
                dm.N, dm.DIC, p.h_slot(ws, l, d, slot), dm.ldh());
    if (dst_iter_c)
        store_block(dst_iter_c, dst_iter_c.off(l, d, 0, 0), dst_iter_c.st[2],
                dst_iter_c.st[3], dm.N, dm.DHC, p.c_slot(ws, l, d, slot), dm.DHC);
}

void rnn_exec_t::store_dst_layer(dim_t d) {
    const bool sum = pd->direction() == dnnl_bidirectional_sum;
    const dim_t col0 = pd->direction() == dnnl_bidirectional_concat ? d * dm.DIC : 0;
    for (dim_t t = 0; t < dm.T; ++t)
        store_block(dst_layer, dst_layer.off(t, 0, col0), dst_layer.st[1],
                dst_layer.st[2], dm.N, dm.DIC, p.h_slot(ws, dm.L - 1, d, t + 1),
                dm.ldh(), sum && d == 1);
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
