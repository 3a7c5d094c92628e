// Group normalization backward. With xh = (src - mean) * inv and
// dxh = diff_dst * scale[c], per (n, group) of cnt elements:
//   diff_src = inv * (dxh - sum(dxh) / cnt - xh * sum(dxh * xh) / cnt)
// (the two sums vanish with use_global_stats), diff_shift[c] = sum diff_dst,
// diff_scale[c] = sum diff_dst * xh. Pass 1 sums diff_dst and
// diff_dst * (src - mean) per (n, c); pass 2 (small) forms the per-group
// factors; pass 3 writes diff_src = a * dd + b * (src - mean) + c per row.
#include <cmath>
#include <vector>

#include "common/exec_ctx.hpp"
#include "cpu/threading/threading.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/group_normalization/gnorm.hpp"
#include "cpu/pooling/dense_io.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gnorm {

namespace {

struct bwd_args_t {
    const group_normalization_pd_t *pd;
    const plan_t *p;
    const norm::kernels_t *k;
    const cvt_t *cvt;
    const void *src, *ddst;
    void *dsrc;
    const float *mean, *var, *scale;
};

// Pass 1, ncsp rows: S1[n * C + c] = sum dd, S2 = sum dd * (x - mean).
void sums_ncsp(
        const bwd_args_t &a, std::vector<double> &S1, std::vector<double> &S2) {
    const plan_t &p = *a.p;
    parallel_chunks(nthr_for(p.N * p.C * p.SP), p.N * p.C,
            [&](int, dim_t r0, dim_t r1) {
                std::vector<float> xb(p.v[0].dt == dnnl_f32 ? 0 : (size_t)p.SP);
                std::vector<float> gb(p.v[1].dt == dnnl_f32 ? 0 : (size_t)p.SP);
                for (dim_t r = r0; r < r1; ++r) {
                    const dim_t n = r / p.C, c = r % p.C;
                    const float m = a.mean[n * p.G + c / p.cpg];
                    const float *x = read_row(
                            *a.cvt, p.v[0], a.src, n, c, 0, p.SP, xb.data());
                    const float *g = read_row(
                            *a.cvt, p.v[1], a.ddst, n, c, 0, p.SP, gb.data());
                    a.k->dot_dev(g, nullptr, x, p.SP, m, &S1[r], &S2[r]);
                }
            });
}

// Pass 1, nxc rows: per-channel accumulators over chunks of points.
void sums_nxc(const bwd_args_t &a, const std::vector<float> &M,
        std::vector<double> &S1, std::vector<double> &S2) {
    const plan_t &p = *a.p;
    const int nthr = nthr_for(p.N * p.C * p.SP);
    dim_t nch = (4 * nthr + p.N - 1) / p.N;
    if (nch > p.SP) nch = p.SP;
    if (nch < 1) nch = 1;
    const size_t psz = (size_t)(p.N * nch * p.C);
    std::vector<double> P1(psz, 0.0), P2(psz, 0.0);
    parallel_chunks(nthr, p.N * nch, [&](int, dim_t u0, dim_t u1) {
        std::vector<float> xb(p.v[0].dt == dnnl_f32 ? 0 : (size_t)p.C);
        std::vector<float> gb(p.v[1].dt == dnnl_f32 ? 0 : (size_t)p.C);
        std::vector<float> f1((size_t)p.C, 0.f), f2((size_t)p.C, 0.f);
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t n = u / nch;
            dim_t s0, s1;
            balance(p.SP, (int)nch, (int)(u % nch), s0, s1);
            double *d1 = P1.data() + u * p.C, *d2 = P2.data() + u * p.C;
            int r = 0;
            for (dim_t sp = s0; sp < s1; ++sp) {
                const float *x = read_row(
                        *a.cvt, p.v[0], a.src, n, 0, sp, p.C, xb.data());
                const float *g = read_row(
                        *a.cvt, p.v[1], a.ddst, n, 0, sp, p.C, gb.data());
                a.k->acc_dot_dev(
                        f1.data(), f2.data(), g, x, M.data() + n * p.C, p.C);
                if (++r == norm::flush_rows) {
                    a.k->flush(d1, f1.data(), p.C);
                    a.k->flush(d2, f2.data(), p.C);
                    r = 0;
                }
            }
            a.k->flush(d1, f1.data(), p.C);
            a.k->flush(d2, f2.data(), p.C);
        }
    });
    for (dim_t n = 0; n < p.N; ++n)
        for (dim_t ch = 0; ch < nch; ++ch)
            for (dim_t c = 0; c < p.C; ++c) {
                S1[n * p.C + c] += P1[(n * nch + ch) * p.C + c];
                S2[n * p.C + c] += P2[(n * nch + ch) * p.C + c];
            }
}

} // namespace

template <>
status_t gnorm_t<false>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const plan_t &p = pd->plan;
    bwd_args_t a;
    a.pd = pd;
    a.p = &p;
    a.k = pd->k;
    a.cvt = &pd->cvt;
    a.mean = ctx.input<float>(DNNL_ARG_MEAN);
    a.var = ctx.input<float>(DNNL_ARG_VARIANCE);
    a.scale = pd->use_scale() ? ctx.input<float>(DNNL_ARG_SCALE) : nullptr;
    const bool full = pd->desc()->prop_kind == dnnl_backward;
    float *dscale = full && pd->use_scale()
                            ? ctx.output<float>(DNNL_ARG_DIFF_SCALE)
                            : nullptr;
    float *dshift = full && pd->use_shift()
                            ? ctx.output<float>(DNNL_ARG_DIFF_SHIFT)
                            : nullptr;
    const void *src_h = ctx.host_ptr(DNNL_ARG_SRC),
               *ddst_h = ctx.host_ptr(DNNL_ARG_DIFF_DST);
    void *dsrc_h = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
    if ((pd->use_scale() && !a.scale) || (full && pd->use_scale() && !dscale)
            || (full && pd->use_shift() && !dshift))
        return dnnl_invalid_arguments;
    if (p.N == 0 || p.SP == 0) {
        // No elements (and no tensor buffers): the parameter gradients are
        // empty sums.
        for (dim_t c = 0; c < p.C; ++c) {
            if (dscale) dscale[c] = 0.f;
            if (dshift) dshift[c] = 0.f;
        }
        return dnnl_success;
    }
    if (!src_h || !ddst_h || !dsrc_h || !a.mean || !a.var)
        return dnnl_invalid_arguments;
    std::vector<float> sb, gb, db;
    a.src = p.v[0].direct ? src_h : io::in_view(*pd->src_md(), src_h, sb);
    a.ddst = p.v[1].direct ? ddst_h
                           : io::in_view(*pd->diff_dst_md(), ddst_h, gb);
    a.dsrc = p.v[2].direct ? dsrc_h
                           : io::out_view(*pd->diff_src_md(), dsrc_h, db);

    const dim_t NC = p.N * p.C, NG = p.N * p.G;
    const float eps = pd->desc()->epsilon;
    const bool gs = pd->global_stats();
    const double cnt = (double)(p.cpg * p.SP);
    std::vector<float> inv((size_t)NG), M((size_t)NC);
    for (dim_t i = 0; i < NG; ++i) inv[i] = 1.f / std::sqrt(a.var[i] + eps);
    for (dim_t i = 0; i < NC; ++i)
        M[i] = a.mean[(i / p.C) * p.G + (i % p.C) / p.cpg];

    std::vector<double> S1((size_t)NC, 0.0), S2((size_t)NC, 0.0);
    if (p.nxc)
        sums_nxc(a, M, S1, S2);
    else
        sums_ncsp(a, S1, S2);

    // Pass 2: parameter gradients and the per-row factors.
    for (dim_t c = 0; c < p.C; ++c) {
        double ds = 0, dh = 0;
        for (dim_t n = 0; n < p.N; ++n) {
            dh += S1[n * p.C + c];
            ds += S2[n * p.C + c] * inv[n * p.G + c / p.cpg];
        }
        if (dscale) dscale[c] = (float)ds;
        if (dshift) dshift[c] = (float)dh;
    }
    std::vector<float> A((size_t)NC), B((size_t)NC), Cc((size_t)NC);
    for (dim_t n = 0; n < p.N; ++n)
        for (dim_t g = 0; g < p.G; ++g) {
            const dim_t st = n * p.G + g;
            const double iv = inv[st];
            double sdxh = 0, sdxhxh = 0;
            for (dim_t c = g * p.cpg; c < (g + 1) * p.cpg; ++c) {
                const double sc = a.scale ? a.scale[c] : 1.0;
                sdxh += sc * S1[n * p.C + c];
                sdxhxh += sc * S2[n * p.C + c] * iv;
            }
            const double k1 = gs ? 0.0 : sdxh / cnt,
                         k2 = gs ? 0.0 : sdxhxh / cnt;
            for (dim_t c = g * p.cpg; c < (g + 1) * p.cpg; ++c) {
                const dim_t i = n * p.C + c;
                A[i] = (float)(iv * (a.scale ? a.scale[c] : 1.f));
                B[i] = (float)(-iv * iv * k2);
                Cc[i] = (float)(-iv * k1);
            }
        }

    // Pass 3: diff_src rows (diff_src may be diff_dst: each row is read
    // before it is written).
    const auto &k = *a.k;
    if (p.nxc) {
        parallel_chunks(
                nthr_for(NC * p.SP), p.N * p.SP, [&](int, dim_t r0, dim_t r1) {
                    std::vector<float> xb(
                            p.v[0].dt == dnnl_f32 ? 0 : (size_t)p.C);
                    std::vector<float> gbf(
                            p.v[1].dt == dnnl_f32 ? 0 : (size_t)p.C);
                    std::vector<float> ob(
                            p.v[2].dt == dnnl_f32 ? 0 : (size_t)p.C);
                    for (dim_t r = r0; r < r1; ++r) {
                        const dim_t n = r / p.SP, sp = r % p.SP, o = n * p.C;
                        const float *x = read_row(*a.cvt, p.v[0], a.src, n, 0,
                                sp, p.C, xb.data());
                        const float *g = read_row(*a.cvt, p.v[1], a.ddst, n, 0,
                                sp, p.C, gbf.data());
                        float *y = out_row(p.v[2], a.dsrc, n, 0, sp, ob.data());
                        k.lin2_v(g, x, y, p.C, A.data() + o, M.data() + o,
                                B.data() + o, Cc.data() + o);
                        write_row(*a.cvt, p.v[2], a.dsrc, n, 0, sp, p.C, y);
                    }
                });
    } else {
        parallel_chunks(nthr_for(NC * p.SP), NC, [&](int, dim_t r0, dim_t r1) {
            std::vector<float> xb(p.v[0].dt == dnnl_f32 ? 0 : (size_t)p.SP);
            std::vector<float> gbf(p.v[1].dt == dnnl_f32 ? 0 : (size_t)p.SP);
            std::vector<float> ob(p.v[2].dt == dnnl_f32 ? 0 : (size_t)p.SP);
            for (dim_t r = r0; r < r1; ++r) {
                const dim_t n = r / p.C, c = r % p.C;
                const float *x = read_row(
                        *a.cvt, p.v[0], a.src, n, c, 0, p.SP, xb.data());
                const float *g = read_row(
                        *a.cvt, p.v[1], a.ddst, n, c, 0, p.SP, gbf.data());
                float *y = out_row(p.v[2], a.dsrc, n, c, 0, ob.data());
                k.lin2(g, x, y, p.SP, nullptr, A[r], M[r], B[r], Cc[r]);
                write_row(*a.cvt, p.v[2], a.dsrc, n, c, 0, p.SP, y);
            }
        });
    }
    if (!p.v[2].direct)
        io::commit(
                *pd->diff_src_md(), dsrc_h, db, static_cast<float *>(a.dsrc));
    return dnnl_success;
}

} // namespace gnorm
} // namespace cpu
} // namespace impl
} // namespace dnnl
