// dnnl-isa: base avx2 avx512_core
// RNN cell element-wise kernels, compiled once per ISA listed above
// (cmake/isa_sources.cmake; the table is rnn_cell_table.cpp): plain loops
// over a row's channels that the compiler vectorises at the ISA's width
// (the math module's tanh and logistic are branch-free and inline). Each
// gate of a row gets its own restrict pointer: the gates are DHC apart in
// one array, which the compiler would otherwise have to assume
// overlapping.
#include "common/math/eltwise_math.hpp"
#include "cpu/isa_unit.hpp"
#include "cpu/rnn/rnn_cells.hpp"

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

void vanilla_fwd(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    for (dim_t n = n0; n < n1; ++n) {
        float *__restrict g = a.gates + n * a.ldg;
        float *__restrict h = a.h + n * a.ldo;
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
    // One short loop per step of the cell: each vectorises (a single loop
    // with all five transcendental calls does not), and the row block
    // stays in cache between them.
    const dim_t H = a.DHC;
    const float *wp = a.peephole;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        float *__restrict gi = g + j0, *__restrict gf = g + H + j0,
                          *__restrict gc = g + 2 * H + j0, *__restrict go = g + 3 * H + j0;
        const float *__restrict cp = a.cp + n * H + j0;
        float *__restrict c = a.c + n * H + j0;
        float *__restrict h = a.h + n * a.ldo + j0;
        const dim_t m = j1 - j0;
        if (wp) {
            const float *__restrict wi = wp + j0, *__restrict wf = wp + H + j0;
            for (dim_t j = 0; j < m; ++j) gi[j] += wi[j] * cp[j];
            for (dim_t j = 0; j < m; ++j) gf[j] += wf[j] * cp[j];
        }
        for (dim_t j = 0; j < m; ++j) gi[j] = sigm(gi[j]);
        for (dim_t j = 0; j < m; ++j) gf[j] = sigm(gf[j]);
        for (dim_t j = 0; j < m; ++j) gc[j] = th(gc[j]);
        for (dim_t j = 0; j < m; ++j) c[j] = gf[j] * cp[j] + gi[j] * gc[j];
        if (wp) {
            const float *__restrict wo = wp + 2 * H + j0;
            for (dim_t j = 0; j < m; ++j) go[j] += wo[j] * c[j];
        }
        for (dim_t j = 0; j < m; ++j) go[j] = sigm(go[j]);
        for (dim_t j = 0; j < m; ++j) h[j] = th(c[j]);
        for (dim_t j = 0; j < m; ++j) h[j] *= go[j];
    }
}

void gru_fwd_part1(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        float *__restrict gu = g, *__restrict gr = g + H;
        const float *__restrict hp = a.hp + n * a.ldh;
        float *__restrict rh = a.rec + n * H;
        for (dim_t j = j0; j < j1; ++j) {
            gu[j] = sigm(gu[j]);
            const float r = sigm(gr[j]);
            gr[j] = r;
            rh[j] = r * hp[j];
        }
    }
}

void gru_fwd_part2(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        const float *__restrict gu = g;
        float *__restrict go = g + 2 * H;
        const float *__restrict hp = a.hp + n * a.ldh;
        float *__restrict h = a.h + n * a.ldo;
        const float keep = a.att ? 1.f - a.att[n] : 1.f;
        for (dim_t j = j0; j < j1; ++j) {
            const float o = th(go[j]);
            const float u = keep * gu[j];
            go[j] = o;
            h[j] = u * hp[j] + (1.f - u) * o;
        }
    }
}

void lbr_fwd(const cell_fwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    for (dim_t n = n0; n < n1; ++n) {
        float *g = a.gates + n * a.ldg;
        float *__restrict gu = g, *__restrict gre = g + H, *__restrict go = g + 2 * H;
        const float *__restrict rec = a.rec + n * 3 * H;
        const float *__restrict hp = a.hp + n * a.ldh;
        const float *__restrict be = a.bias_extra;
        float *__restrict h = a.h + n * a.ldo;
        float *__restrict gr = a.grid + n * H;
        const float keep = a.att ? 1.f - a.att[n] : 1.f;
        const float *__restrict ru = rec, *__restrict rr = rec + H, *__restrict ro = rec + 2 * H;
        for (dim_t j = j0; j < j1; ++j) gu[j] = sigm(gu[j] + ru[j]);
        for (dim_t j = j0; j < j1; ++j) gre[j] = sigm(gre[j] + rr[j]);
        for (dim_t j = j0; j < j1; ++j) gr[j] = ro[j] + be[j];
        for (dim_t j = j0; j < j1; ++j) go[j] = th(go[j] + gre[j] * gr[j]);
        for (dim_t j = j0; j < j1; ++j) {
            const float uu = keep * gu[j];
            h[j] = uu * hp[j] + (1.f - uu) * go[j];
        }
    }
}

void vanilla_bwd(const cell_bwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    for (dim_t n = n0; n < n1; ++n) {
        const float *__restrict g = a.gates + n * a.ldg;
        const float *__restrict dh = a.dh + n * a.lddh;
        float *__restrict dg = a.dg + n * a.ldg;
        for (dim_t j = j0; j < j1; ++j)
            dg[j] = dh[j] * act_bwd(a.act, g[j], a.alpha);
    }
}

void lstm_bwd(const cell_bwd_t &a, dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
    const dim_t H = a.DHC;
    const float *__restrict wp = a.peephole;
    for (dim_t n = n0; n < n1; ++n) {
        const float *__restrict g = a.gates + n * a.ldg;
        float *__restrict dg = a.dg + n * a.ldg;
        const float *__restrict dh = a.dh + n * a.lddh;
        const float *__restrict cp = a.cp + n * H, *c = a.c + n * H, *dc = a.dc + n * H;
        float *__restrict dcp = a.dcp + n * H;
        // tanh(c) first (its own loop vectorises), kept in dcp meanwhile.
        for (dim_t j = j0; j < j1; ++j) dcp[j] = th(c[j]);
        for (dim_t j = j0; j < j1; ++j) {
            const float i = g[j], f = g[H + j], cc = g[2 * H + j], o = g[3 * H + j];
            const float tc = dcp[j];
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
        const float *__restrict g = a.gates + n * a.ldg;
        float *__restrict dg = a.dg + n * a.ldg;
        const float *__restrict dh = a.dh + n * a.lddh;
        const float *__restrict hp = a.hp + n * a.ldh;
        float *__restrict dhp = a.dhp + n * a.ldh;
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
        const float *__restrict g = a.gates + n * a.ldg;
        float *__restrict dg = a.dg + n * a.ldg;
        const float *__restrict hp = a.hp + n * a.ldh;
        const float *__restrict drec = a.drec + n * H;
        float *__restrict dhp = a.dhp + n * a.ldh;
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
        const float *__restrict g = a.gates + n * a.ldg;
        float *__restrict dg = a.dg + n * a.ldg;
        float *__restrict dgrid = a.dgrid + n * 3 * H;
        const float *__restrict dh = a.dh + n * a.lddh;
        const float *__restrict hp = a.hp + n * a.ldh;
        const float *__restrict gr = a.grid + n * H;
        float *__restrict dhp = a.dhp + n * a.ldh;
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
        const float *__restrict g = a.gates + n * a.ldg;
        const float *__restrict dh = a.dh + n * a.lddh;
        const float *__restrict hp = a.hp + n * a.ldh;
        float s = 0;
        for (dim_t j = 0; j < H; ++j)
            s += dh[j] * (hp[j] - g[2 * H + j]) * g[j];
        a.datt[n] = -s;
    }
}

} // namespace

const cell_kernels_t &DNNL_ISA_NAME(cell_kernels)() {
    static const cell_kernels_t k {isa_unit::this_isa_name, vanilla_fwd, lstm_fwd,
            gru_fwd_part1, gru_fwd_part2, lbr_fwd, vanilla_bwd, lstm_bwd, gru_bwd_part1,
            gru_bwd_part2, lbr_bwd, augru_att_bwd};
    return k;
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
