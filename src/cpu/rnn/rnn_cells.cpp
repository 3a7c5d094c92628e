// RNN cell element-wise kernels: plain loops over a row's channels that
// the compiler vectorises (the math module's tanh and logistic are
// branch-free and inline).
#include "cpu/rnn/rnn_cells.hpp"

#include "common/math/eltwise_math.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

namespace {

DNNL_ALWAYS_INLINE float sigm(float x) { return math::logistic_f(x); }
DNNL_ALWAYS_INLINE float th(float x) { return math::tanh_f(x); }

DNNL_ALWAYS_INLINE float act_fwd(alg_kind_t k, float x, float alpha) {
    switch (k) {
        case dnnl_eltwise_relu: return x > 0 ? x : alpha * x;
        case dnnl_eltwise_tanh: return th(x);
        default: return sigm(x);
    }
}

// Derivative from the activated value y.
DNNL_ALWAYS_INLINE float act_bwd(alg_kind_t k, float y, float alpha) {
    switch (k) {
        case dnnl_eltwise_relu: return y > 0 ? 1.f : alpha;
        case dnnl_eltwise_tanh: return 1.f - y * y;
        default: return y * (1.f - y);
    }
}

} // namespace

void vanilla_fwd(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        float *h = a.h + n * a.ldo;
        switch (a.act) {
            case dnnl_eltwise_relu:
                for (dim_t j = j0; j < j1; ++j) {
                    const float x = g[j];
                    h[j] = g[j] = x > 0 ? x : a.alpha * x;
                }
                break;
            case dnnl_eltwise_tanh:
                for (dim_t j = j0; j < j1; ++j)
                    h[j] = g[j] = th(g[j]);
                break;
            default:
                for (dim_t j = j0; j < j1; ++j)
                    h[j] = g[j] = sigm(g[j]);
                break;
        }
    }
}

void lstm_fwd(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    const float *wp = a.peephole;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        const float *cp = a.cp + n * H;
        float *c = a.c + n * H;
        float *h = a.h + n * a.ldo;
        if (wp) {
            for (dim_t j = j0; j < j1; ++j) {
                const float i = sigm(g[j] + wp[j] * cp[j]);
                const float f = sigm(g[H + j] + wp[H + j] * cp[j]);
                const float cc = th(g[2 * H + j]);
                const float cn = f * cp[j] + i * cc;
                const float o = sigm(g[3 * H + j] + wp[2 * H + j] * cn);
                g[j] = i, g[H + j] = f, g[2 * H + j] = cc, g[3 * H + j] = o;
                c[j] = cn;
                h[j] = o * th(cn);
            }
        } else {
            for (dim_t j = j0; j < j1; ++j) {
                const float i = sigm(g[j]);
                const float f = sigm(g[H + j]);
                const float cc = th(g[2 * H + j]);
                const float o = sigm(g[3 * H + j]);
                const float cn = f * cp[j] + i * cc;
                g[j] = i, g[H + j] = f, g[2 * H + j] = cc, g[3 * H + j] = o;
                c[j] = cn;
                h[j] = o * th(cn);
            }
        }
    }
}

void gru_fwd_part1(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        const float *hp = a.hp + n * a.ldh;
        float *rh = a.rec + n * H;
        for (dim_t j = j0; j < j1; ++j) {
            g[j] = sigm(g[j]);
            const float r = sigm(g[H + j]);
            g[H + j] = r;
            rh[j] = r * hp[j];
        }
    }
}

void gru_fwd_part2(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        const float *hp = a.hp + n * a.ldh;
        float *h = a.h + n * a.ldo;
        const float keep = a.att ? 1.f - a.att[n] : 1.f;
        for (dim_t j = j0; j < j1; ++j) {
            const float o = th(g[2 * H + j]);
            const float u = keep * g[j];
            g[2 * H + j] = o;
            h[j] = u * hp[j] + (1.f - u) * o;
        }
    }
}

void lbr_fwd(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        const float *rec = a.rec + n * 3 * H;
        const float *hp = a.hp + n * a.ldh;
        float *h = a.h + n * a.ldo;
        float *gr = a.grid + n * H;
        const float keep = a.att ? 1.f - a.att[n] : 1.f;
        for (dim_t j = j0; j < j1; ++j) {
            const float u = sigm(g[j] + rec[j]);
            const float r = sigm(g[H + j] + rec[H + j]);
            const float grv = rec[2 * H + j] + a.bias_extra[j];
            const float o = th(g[2 * H + j] + r * grv);
            g[j] = u, g[H + j] = r, g[2 * H + j] = o;
            gr[j] = grv;
            const float uu = keep * u;
            h[j] = uu * hp[j] + (1.f - uu) * o;
        }
    }
}

void vanilla_bwd(const cell_bwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    for (dim_t n = n0; n < n1; ++n) {
        const float *g = a.gates + n * a.ldg;
        const float *dh = a.dh + n * a.lddh;
        float *dg = a.dg + n * a.ldg;
        for (dim_t j = j0; j < j1; ++j)
            dg[j] = dh[j] * act_bwd(a.act, g[j], a.alpha);
    }
}

void lstm_bwd(const cell_bwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    const float *wp = a.peephole;
    for (dim_t n = n0; n < n1; ++n) {
        const float *g = a.gates + n * a.ldg;
        float *dg = a.dg + n * a.ldg;
        const float *dh = a.dh + n * a.lddh;
        const float *cp = a.cp + n * H, *c = a.c + n * H, *dc = a.dc + n * H;
        float *dcp = a.dcp + n * H;
        for (dim_t j = j0; j < j1; ++j) {
            const float i = g[j], f = g[H + j], cc = g[2 * H + j], o = g[3 * H + j];
            const float tc = th(c[j]);
            const float dgo = dh[j] * tc * o * (1.f - o);
            float dcc = dc[j] + dh[j] * o * (1.f - tc * tc);
            if (wp) dcc += dgo * wp[2 * H + j];
            const float dgi = dcc * cc * i * (1.f - i);
            const float dgf = dcc * cp[j] * f * (1.f - f);
            const float dgc = dcc * i * (1.f - cc * cc);
            float d = dcc * f;
            if (wp) d += dgi * wp[j] + dgf * wp[H + j];
            dcp[j] = d;
            dg[j] = dgi, dg[H + j] = dgf, dg[2 * H + j] = dgc, dg[3 * H + j] = dgo;
        }
    }
}

void gru_bwd_part1(const cell_bwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        const float *g = a.gates + n * a.ldg;
        float *dg = a.dg + n * a.ldg;
        const float *dh = a.dh + n * a.lddh;
        const float *hp = a.hp + n * a.ldh;
        float *dhp = a.dhp + n * a.ldh;
        const float keep = a.att ? 1.f - a.att[n] : 1.f;
        for (dim_t j = j0; j < j1; ++j) {
            const float u = g[j], o = g[2 * H + j];
            const float uu = keep * u;
            const float du = dh[j] * (hp[j] - o) * keep;
            dg[j] = du * u * (1.f - u);
            dg[2 * H + j] = dh[j] * (1.f - uu) * (1.f - o * o);
            dhp[j] = dh[j] * uu;
        }
    }
}

void gru_bwd_part2(const cell_bwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        const float *g = a.gates + n * a.ldg;
        float *dg = a.dg + n * a.ldg;
        const float *hp = a.hp + n * a.ldh;
        const float *drec = a.drec + n * H;
        float *dhp = a.dhp + n * a.ldh;
        for (dim_t j = j0; j < j1; ++j) {
            const float r = g[H + j];
            dg[H + j] = drec[j] * hp[j] * r * (1.f - r);
            dhp[j] += drec[j] * r;
        }
    }
}

void lbr_bwd(const cell_bwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        const float *g = a.gates + n * a.ldg;
        float *dg = a.dg + n * a.ldg;
        float *dgrid = a.dgrid + n * 3 * H;
        const float *dh = a.dh + n * a.lddh;
        const float *hp = a.hp + n * a.ldh;
        const float *gr = a.grid + n * H;
        float *dhp = a.dhp + n * a.ldh;
        const float keep = a.att ? 1.f - a.att[n] : 1.f;
        for (dim_t j = j0; j < j1; ++j) {
            const float u = g[j], r = g[H + j], o = g[2 * H + j];
            const float uu = keep * u;
            const float dgo = dh[j] * (1.f - uu) * (1.f - o * o);
            const float dgu = dh[j] * (hp[j] - o) * keep * u * (1.f - u);
            const float dgr = dgo * gr[j] * r * (1.f - r);
            dg[j] = dgu, dg[H + j] = dgr, dg[2 * H + j] = dgo;
            dgrid[j] = dgu, dgrid[H + j] = dgr, dgrid[2 * H + j] = dgo * r;
            dhp[j] = dh[j] * uu;
        }
    }
}

void augru_att_bwd(const cell_bwd_t &a, dim_t n0, dim_t n1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        const float *g = a.gates + n * a.ldg;
        const float *dh = a.dh + n * a.lddh;
        const float *hp = a.hp + n * a.ldh;
        float s = 0;
        for (dim_t j = 0; j < H; ++j)
            s += dh[j] * (hp[j] - g[2 * H + j]) * g[j];
        a.datt[n] = -s;
    }
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
