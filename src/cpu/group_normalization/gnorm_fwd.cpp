// Group normalization forward: statistics per (n, group) (computed with
// the blocked float / double sums of norm_kernels, or given), then
// dst = a[c] * (src - mean) + b[c] per row, src scale, post-ops, dst scale.
// ncsp rows: one work unit per (n, group), the group's rows stay in cache
// across the three passes. nxc rows: per-channel partial sums over chunks
// of spatial points, reduced per group, then one pass over the rows.
#include <cmath>
#include <vector>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "cpu/threading/threading.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/group_normalization/gnorm.hpp"
#include "cpu/pooling/dense_io.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gnorm {

namespace {

// Everything an execution needs besides the rows.
struct fwd_args_t {
    const group_normalization_pd_t *pd;
    const plan_t *p;
    const norm::kernels_t *k;
    const cvt_t *cvt;
    const postops::postops_t *po;
    postops::postops_args_t pa;
    const void *src;
    void *dst;
    float *mean, *var;
    const float *scale, *shift;
    float ss = 1.f, rds = 1.f; // src scale, 1 / dst scale
};

// Post-ops on ncsp row (n, c): rows of W points, H of them per call.
void po_ncsp(const fwd_args_t &a, float *y, dim_t n, dim_t c) {
    const memory_desc_t &md = *a.pd->dst_md();
    const int nd = md.ndims;
    dims_t pos = {n, c};
    if (nd == 2) {
        postops::apply(*a.po, a.pa, y, 1, 1, 1, pos, -1, -1, nullptr, 0, 0);
        return;
    }
    if (nd == 3) {
        pos[2] = 0;
        postops::apply(
                *a.po, a.pa, y, 1, 1, md.dims[2], pos, -1, 2, nullptr, 0, 0);
        return;
    }
    const dim_t H = md.dims[nd - 2], W = md.dims[nd - 1],
                outer = a.p->SP / (H * W);
    for (dim_t o = 0; o < outer; ++o) {
        dim_t r = o;
        for (int d = nd - 3; d >= 2; --d) {
            pos[d] = r % md.dims[d];
            r /= md.dims[d];
        }
        pos[nd - 2] = pos[nd - 1] = 0;
        postops::apply(*a.po, a.pa, y + o * H * W, W, H, W, pos, nd - 2, nd - 1,
                nullptr, 0, 0);
    }
}

// Post-ops on nxc row (n, spatial point sp): the C channels.
void po_nxc(const fwd_args_t &a, float *y, dim_t n, dim_t sp) {
    const memory_desc_t &md = *a.pd->dst_md();
    dims_t pos = {n, 0};
    for (int d = md.ndims - 1; d >= 2; --d) {
        pos[d] = sp % md.dims[d];
        sp /= md.dims[d];
    }
    postops::apply(
            *a.po, a.pa, y, a.p->C, 1, a.p->C, pos, -1, 1, nullptr, 0, 0);
}

// Post-ops and dst scale on a computed row (no-op when neither exists).
template <typename PO>
void finish_row(const fwd_args_t &a, float *y, dim_t len, PO po) {
    if (a.po->empty()) return;
    po();
    if (a.rds != 1.f) a.k->affine(y, y, len, 0.f, a.rds, 0.f);
}

void fwd_ncsp(const fwd_args_t &a) {
    const plan_t &p = *a.p;
    const auto &k = *a.k;
    const bool gs = a.pd->global_stats(), so = a.pd->stats_out();
    const float eps = a.pd->desc()->epsilon;
    const double cnt = (double)(p.cpg * p.SP);
    // Without post-ops the dst scale folds into a and b.
    const float fold = a.po->empty() ? a.ss * a.rds : a.ss;
    parallel_chunks(nthr_for(p.N * p.C * p.SP), p.N * p.G,
            [&](int, dim_t u0, dim_t u1) {
                std::vector<float> gbuf(
                        p.v[0].dt == dnnl_f32 ? 0 : (size_t)(p.cpg * p.SP));
                std::vector<float> obuf(
                        p.v[1].dt == dnnl_f32 ? 0 : (size_t)p.SP);
                std::vector<const float *> rows((size_t)p.cpg);
                for (dim_t u = u0; u < u1; ++u) {
                    const dim_t n = u / p.G, g = u % p.G, c0 = g * p.cpg;
                    // An f32 source is read in place: no buffer, and no
                    // offset applied to its null data() (undefined).
                    for (dim_t j = 0; j < p.cpg; ++j)
                        rows[j] = read_row(*a.cvt, p.v[0], a.src, n, c0 + j, 0,
                                p.SP,
                                gbuf.empty() ? nullptr
                                             : gbuf.data() + j * p.SP);
                    float m, v;
                    if (gs) {
                        m = a.mean[u];
                        v = a.var[u];
                    } else {
                        double s = 0;
                        for (dim_t j = 0; j < p.cpg; ++j)
                            s += k.sum(rows[j], p.SP);
                        m = (float)(s / cnt);
                        double q = 0;
                        for (dim_t j = 0; j < p.cpg; ++j)
                            q += k.sum_sq_dev(rows[j], p.SP, m);
                        v = (float)(q / cnt);
                        if (so) {
                            a.mean[u] = m;
                            a.var[u] = v;
                        }
                    }
                    const float inv = 1.f / std::sqrt(v + eps);
                    for (dim_t j = 0; j < p.cpg; ++j) {
                        const dim_t c = c0 + j;
                        const float sa =
                                (a.scale ? a.scale[c] : 1.f) * inv * fold;
                        const float sb = (a.shift ? a.shift[c] : 0.f) * fold;
                        float *y = out_row(p.v[1], a.dst, n, c, 0, obuf.data());
                        k.affine(rows[j], y, p.SP, m, sa, sb);
                        finish_row(a, y, p.SP, [&] { po_ncsp(a, y, n, c); });
                        write_row(*a.cvt, p.v[1], a.dst, n, c, 0, p.SP, y);
                    }
                }
            });
}

// Per-(n, c) sums over the spatial points of nxc rows into out[n * C + c]:
// units of (n, chunk of points) with float accumulators flushed to double.
// `acc(accf, x, n)` adds row x of image n.
template <typename Acc>
void channel_sums(const fwd_args_t &a, std::vector<double> &out, Acc acc) {
    const plan_t &p = *a.p;
    const int nthr = nthr_for(p.N * p.C * p.SP);
    dim_t nch = (4 * nthr + p.N - 1) / p.N;
    if (nch > p.SP) nch = p.SP;
    if (nch < 1) nch = 1;
    std::vector<double> part((size_t)(p.N * nch * p.C), 0.0);
    parallel_chunks(nthr, p.N * nch, [&](int, dim_t u0, dim_t u1) {
        std::vector<float> xbuf(p.v[0].dt == dnnl_f32 ? 0 : (size_t)p.C);
        std::vector<float> accf((size_t)p.C, 0.f);
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t n = u / nch;
            dim_t s0, s1;
            balance(p.SP, (int)nch, (int)(u % nch), s0, s1);
            double *d = part.data() + u * p.C;
            int r = 0;
            for (dim_t sp = s0; sp < s1; ++sp) {
                acc(accf.data(),
                        read_row(*a.cvt, p.v[0], a.src, n, 0, sp, p.C,
                                xbuf.data()),
                        n);
                if (++r == norm::flush_rows) {
                    a.k->flush(d, accf.data(), p.C);
                    r = 0;
                }
            }
            a.k->flush(d, accf.data(), p.C);
        }
    });
    out.assign((size_t)(p.N * p.C), 0.0);
    for (dim_t n = 0; n < p.N; ++n)
        for (dim_t ch = 0; ch < nch; ++ch)
            for (dim_t c = 0; c < p.C; ++c)
                out[n * p.C + c] += part[(n * nch + ch) * p.C + c];
}

void fwd_nxc(const fwd_args_t &a) {
    const plan_t &p = *a.p;
    const auto &k = *a.k;
    const bool gs = a.pd->global_stats(), so = a.pd->stats_out();
    const float eps = a.pd->desc()->epsilon;
    const double cnt = (double)(p.cpg * p.SP);
    const dim_t NC = p.N * p.C;
    std::vector<float> mean((size_t)(p.N * p.G)), var((size_t)(p.N * p.G));
    // Group statistic broadcast to its channels, and the affine factors.
    std::vector<float> M((size_t)NC), A((size_t)NC), B((size_t)NC);
    auto bcast = [&](const std::vector<float> &st) {
        for (dim_t i = 0; i < NC; ++i)
            M[i] = st[(i / p.C) * p.G + (i % p.C) / p.cpg];
    };
    auto per_group = [&](const std::vector<double> &s, std::vector<float> &st) {
        for (dim_t n = 0; n < p.N; ++n)
            for (dim_t g = 0; g < p.G; ++g) {
                double t = 0;
                for (dim_t c = g * p.cpg; c < (g + 1) * p.cpg; ++c)
                    t += s[n * p.C + c];
                st[n * p.G + g] = (float)(t / cnt);
            }
    };
    if (gs) {
        mean.assign(a.mean, a.mean + p.N * p.G);
        var.assign(a.var, a.var + p.N * p.G);
    } else {
        std::vector<double> s;
        channel_sums(a, s, [&](float *acc, const float *x, dim_t) {
            k.acc_add(acc, x, p.C);
        });
        per_group(s, mean);
        bcast(mean);
        channel_sums(a, s, [&](float *acc, const float *x, dim_t n) {
            k.acc_sq_dev(acc, x, M.data() + n * p.C, p.C);
        });
        per_group(s, var);
        if (so)
            for (dim_t i = 0; i < p.N * p.G; ++i) {
                a.mean[i] = mean[i];
                a.var[i] = var[i];
            }
    }
    bcast(mean);
    const float fold = a.po->empty() ? a.ss * a.rds : a.ss;
    for (dim_t i = 0; i < NC; ++i) {
        const dim_t c = i % p.C, st = (i / p.C) * p.G + c / p.cpg;
        const float inv = 1.f / std::sqrt(var[st] + eps);
        A[i] = (a.scale ? a.scale[c] : 1.f) * inv * fold;
        B[i] = (a.shift ? a.shift[c] : 0.f) * fold;
    }
    parallel_chunks(
            nthr_for(NC * p.SP), p.N * p.SP, [&](int, dim_t r0, dim_t r1) {
                std::vector<float> xbuf(
                        p.v[0].dt == dnnl_f32 ? 0 : (size_t)p.C);
                std::vector<float> obuf(
                        p.v[1].dt == dnnl_f32 ? 0 : (size_t)p.C);
                for (dim_t r = r0; r < r1; ++r) {
                    const dim_t n = r / p.SP, sp = r % p.SP, o = n * p.C;
                    const float *x = read_row(
                            *a.cvt, p.v[0], a.src, n, 0, sp, p.C, xbuf.data());
                    float *y = out_row(p.v[1], a.dst, n, 0, sp, obuf.data());
                    k.affine_v(x, y, p.C, M.data() + o, A.data() + o,
                            B.data() + o);
                    finish_row(a, y, p.C, [&] { po_nxc(a, y, n, sp); });
                    write_row(*a.cvt, p.v[1], a.dst, n, 0, sp, p.C, y);
                }
            });
}

float read_scale(const group_normalization_pd_t &pd, const exec_ctx_t &ctx,
        int arg, bool &ok) {
    if (!pd.with_scale(arg)) return 1.f;
    const void *p = ctx.host_ptr(DNNL_ARG_ATTR_SCALES | arg);
    if (!p) {
        ok = false;
        return 1.f;
    }
    return load_f32(pd.attr()->scales.get(arg)->data_type, p, 0);
}

} // namespace

template <>
status_t gnorm_t<true>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const plan_t &p = pd->plan;
    fwd_args_t a;
    a.pd = pd;
    a.p = &p;
    a.k = pd->k;
    a.cvt = &pd->cvt;
    a.po = &pd->po;
    const bool stats = pd->stats_in() || pd->stats_out();
    a.mean =
            stats ? static_cast<float *>(ctx.host_ptr(DNNL_ARG_MEAN)) : nullptr;
    a.var = stats ? static_cast<float *>(ctx.host_ptr(DNNL_ARG_VARIANCE))
                  : nullptr;
    a.scale = pd->use_scale() ? ctx.input<float>(DNNL_ARG_SCALE) : nullptr;
    a.shift = pd->use_shift() ? ctx.input<float>(DNNL_ARG_SHIFT) : nullptr;
    const void *src_h = ctx.host_ptr(DNNL_ARG_SRC);
    void *dst_h = ctx.host_ptr(DNNL_ARG_DST);
    bool ok = true;
    a.ss = read_scale(*pd, ctx, DNNL_ARG_SRC, ok);
    const float ds = read_scale(*pd, ctx, DNNL_ARG_DST, ok);
    a.rds = 1.f / ds;
    if (!ok || (stats && (!a.mean || !a.var)) || (pd->use_scale() && !a.scale)
            || (pd->use_shift() && !a.shift))
        return dnnl_invalid_arguments;
    if (p.N == 0) return dnnl_success;
    if (p.SP == 0) {
        // Empty groups (src and dst have no buffers): statistics are
        // reported as zeros.
        if (pd->stats_out())
            for (dim_t i = 0; i < p.N * p.G; ++i) a.mean[i] = a.var[i] = 0.f;
        return dnnl_success;
    }
    if (!src_h || !dst_h) return dnnl_invalid_arguments;
    DNNL_CHECK(a.pa.init(pd->po, ctx));
    // Tensors that the plan cannot walk go through dense f32 copies.
    std::vector<float> sbuf, dbuf;
    a.src = p.v[0].direct ? src_h : io::in_view(*pd->src_md(), src_h, sbuf);
    a.dst = p.v[1].direct ? dst_h : io::out_view(*pd->dst_md(), dst_h, dbuf);
    if (p.nxc)
        fwd_nxc(a);
    else
        fwd_ncsp(a);
    if (!p.v[1].direct)
        io::commit(*pd->dst_md(), dst_h, dbuf, static_cast<float *>(a.dst));
    return dnnl_success;
}

} // namespace gnorm
} // namespace cpu
} // namespace impl
} // namespace dnnl
