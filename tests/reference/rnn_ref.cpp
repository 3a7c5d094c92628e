// Naive RNN reference: forward and back-propagation through time in
// double precision, element by element.
#include "rnn_ref.hpp"

#include <cmath>

namespace rnn_ref {

namespace {

using vec = std::vector<double>;

double sigm(double x) { return 1 / (1 + std::exp(-x)); }

struct step_t {
    vec x, hp, cp, g, c, ht, h, gr, rh; // per row n, flattened
};

struct layer_t {
    std::vector<step_t> steps; // by time t
};

struct ctx_t {
    const problem_t &p;
    const tensors_t &t;
    int64_t D, G, GB;
    // index helpers
    double wl(int64_t l, int64_t d, int64_t i, int64_t g, int64_t j) const {
        return t.weights_layer[(((l * D + d) * p.SLC + i) * G + g) * p.DHC + j];
    }
    double wi(int64_t l, int64_t d, int64_t i, int64_t g, int64_t j) const {
        return t.weights_iter[(((l * D + d) * p.SIC + i) * G + g) * p.DHC + j];
    }
    double b(int64_t l, int64_t d, int64_t g, int64_t j) const {
        return t.bias.empty() ? 0 : t.bias[((l * D + d) * GB + g) * p.DHC + j];
    }
    double wp(int64_t l, int64_t d, int64_t k, int64_t j) const {
        return p.peephole ? t.peephole[((l * D + d) * 3 + k) * p.DHC + j] : 0;
    }
    double wproj(int64_t l, int64_t d, int64_t i, int64_t o) const {
        return t.projection[((l * D + d) * p.DHC + i) * p.DIC + o];
    }
    bool r2l(int64_t d) const { return p.dir == dir_t::r2l || d == 1; }
};

double act(const problem_t &p, double x) {
    switch (p.act) {
        case act_t::relu: return x > 0 ? x : p.alpha * x;
        case act_t::tanh: return std::tanh(x);
        default: return sigm(x);
    }
}

// Derivative from the pre-activation value.
double dact(const problem_t &p, double x) {
    switch (p.act) {
        case act_t::relu: return x > 0 ? 1 : p.alpha;
        case act_t::tanh: return 1 - std::tanh(x) * std::tanh(x);
        default: return sigm(x) * (1 - sigm(x));
    }
}

// Runs layer l of direction d over its input x[t] (N x K each).
layer_t run_layer(const ctx_t &c, int64_t l, int64_t d, const std::vector<vec> &xs) {
    const problem_t &p = c.p;
    const int64_t N = p.N, H = p.DHC, G = c.G, K = l == 0 ? p.SLC : p.DIC;
    layer_t out;
    out.steps.resize(p.T);
    vec h(N * p.SIC, 0), cs(N * H, 0);
    if (!c.t.src_iter.empty())
        for (int64_t n = 0; n < N; ++n)
            for (int64_t i = 0; i < p.SIC; ++i)
                h[n * p.SIC + i] = c.t.src_iter[((l * c.D + d) * N + n) * p.SIC + i];
    if (!c.t.src_iter_c.empty())
        for (int64_t n = 0; n < N; ++n)
            for (int64_t j = 0; j < H; ++j)
                cs[n * H + j] = c.t.src_iter_c[((l * c.D + d) * N + n) * H + j];
    for (int64_t s = 0; s < p.T; ++s) {
        const int64_t t = c.r2l(d) ? p.T - 1 - s : s;
        step_t &st = out.steps[t];
        st.x = xs[t];
        st.hp = h;
        st.cp = cs;
        st.g.assign(N * G * H, 0);
        st.c.assign(N * H, 0);
        st.ht.assign(N * H, 0);
        st.gr.assign(N * H, 0);
        st.rh.assign(N * H, 0);
        vec hn(N * p.DIC, 0);
        for (int64_t n = 0; n < N; ++n) {
            // Pre-activations: input part + bias, and the recurrent part.
            vec in(G * H), rec(G * H);
            for (int64_t g = 0; g < G; ++g)
                for (int64_t j = 0; j < H; ++j) {
                    double a = c.b(l, d, g, j), r = 0;
                    for (int64_t k = 0; k < K; ++k)
                        a += st.x[n * K + k] * c.wl(l, d, k, g, j);
                    for (int64_t i = 0; i < p.SIC; ++i)
                        r += st.hp[n * p.SIC + i] * c.wi(l, d, i, g, j);
                    in[g * H + j] = a;
                    rec[g * H + j] = r;
                }
            const double att = p.augru() ? c.t.attention[t * N + n] : 0;
            double *g = &st.g[n * G * H];
            switch (p.cell) {
                case cell_t::vanilla:
                    for (int64_t j = 0; j < H; ++j) {
                        g[j] = in[j] + rec[j]; // kept pre-activation
                        hn[n * p.DIC + j] = act(p, g[j]);
                    }
                    break;
                case cell_t::lstm:
                    for (int64_t j = 0; j < H; ++j) {
                        const double cp = st.cp[n * H + j];
                        const double i = sigm(in[j] + rec[j] + c.wp(l, d, 0, j) * cp);
                        const double f = sigm(in[H + j] + rec[H + j] + c.wp(l, d, 1, j) * cp);
                        const double cc = std::tanh(in[2 * H + j] + rec[2 * H + j]);
                        const double cn = f * cp + i * cc;
                        const double o = sigm(
                                in[3 * H + j] + rec[3 * H + j] + c.wp(l, d, 2, j) * cn);
                        g[j] = i, g[H + j] = f, g[2 * H + j] = cc, g[3 * H + j] = o;
                        st.c[n * H + j] = cn;
                        st.ht[n * H + j] = o * std::tanh(cn);
                    }
                    if (p.projection) {
                        for (int64_t o = 0; o < p.DIC; ++o) {
                            double a = 0;
                            for (int64_t j = 0; j < H; ++j)
                                a += st.ht[n * H + j] * c.wproj(l, d, j, o);
                            hn[n * p.DIC + o] = a;
                        }
                    } else {
                        for (int64_t j = 0; j < H; ++j)
                            hn[n * p.DIC + j] = st.ht[n * H + j];
                    }
                    break;
                case cell_t::gru:
                case cell_t::augru:
                    for (int64_t j = 0; j < H; ++j) {
                        g[j] = sigm(in[j] + rec[j]);
                        g[H + j] = sigm(in[H + j] + rec[H + j]);
                        st.rh[n * H + j] = g[H + j] * st.hp[n * p.SIC + j];
                    }
                    for (int64_t j = 0; j < H; ++j) {
                        double r = 0;
                        for (int64_t i = 0; i < H; ++i)
                            r += st.rh[n * H + i] * c.wi(l, d, i, 2, j);
                        const double o = std::tanh(in[2 * H + j] + r);
                        g[2 * H + j] = o;
                        const double u = (1 - att) * g[j];
                        hn[n * p.DIC + j] = u * st.hp[n * p.SIC + j] + (1 - u) * o;
                    }
                    break;
                case cell_t::lbr_gru:
                case cell_t::lbr_augru:
                    for (int64_t j = 0; j < H; ++j) {
                        const double u = sigm(in[j] + rec[j]);
                        const double r = sigm(in[H + j] + rec[H + j]);
                        const double gr = rec[2 * H + j] + c.b(l, d, 3, j);
                        const double o = std::tanh(in[2 * H + j] + r * gr);
                        g[j] = u, g[H + j] = r, g[2 * H + j] = o;
                        st.gr[n * H + j] = gr;
                        const double uu = (1 - att) * u;
                        hn[n * p.DIC + j] = uu * st.hp[n * p.SIC + j] + (1 - uu) * o;
                    }
                    break;
            }
        }
        st.h = hn;
        h = hn;
        cs = st.c;
        if (p.cell != cell_t::lstm) cs.assign(N * H, 0);
    }
    return out;
}

// All layers of all directions.
std::vector<std::vector<layer_t>> run_all(const problem_t &p, const tensors_t &t) {
    ctx_t c {p, t, p.D(), p.G(), p.G() + (p.lbr() ? 1 : 0)};
    std::vector<std::vector<layer_t>> all(c.D);
    for (int64_t d = 0; d < c.D; ++d) {
        std::vector<vec> xs(p.T);
        for (int64_t tt = 0; tt < p.T; ++tt)
            xs[tt] = vec(t.src_layer.begin() + tt * p.N * p.SLC,
                    t.src_layer.begin() + (tt + 1) * p.N * p.SLC);
        for (int64_t l = 0; l < p.L; ++l) {
            all[d].push_back(run_layer(c, l, d, xs));
            for (int64_t tt = 0; tt < p.T; ++tt)
                xs[tt] = all[d][l].steps[tt].h;
        }
    }
    return all;
}

} // namespace

void forward(const problem_t &p, tensors_t &t) {
    const auto all = run_all(p, t);
    const int64_t D = p.D(), N = p.N;
    t.dst_layer.assign(p.T * N * p.DLC(), 0);
    t.dst_iter.assign(p.L * D * N * p.DIC, 0);
    t.dst_iter_c.assign(p.L * D * N * p.DHC, 0);
    for (int64_t d = 0; d < D; ++d) {
        const bool r2l = p.dir == dir_t::r2l || d == 1;
        for (int64_t tt = 0; tt < p.T; ++tt)
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < p.DIC; ++k) {
                    const double v = all[d][p.L - 1].steps[tt].h[n * p.DIC + k];
                    const int64_t col = p.dir == dir_t::concat ? d * p.DIC + k : k;
                    t.dst_layer[(tt * N + n) * p.DLC() + col] += v;
                }
        for (int64_t l = 0; l < p.L; ++l) {
            const step_t &last = all[d][l].steps[r2l ? 0 : p.T - 1];
            for (int64_t n = 0; n < N; ++n) {
                for (int64_t k = 0; k < p.DIC; ++k)
                    t.dst_iter[((l * D + d) * N + n) * p.DIC + k] = last.h[n * p.DIC + k];
                if (p.cell == cell_t::lstm)
                    for (int64_t j = 0; j < p.DHC; ++j)
                        t.dst_iter_c[((l * D + d) * N + n) * p.DHC + j]
                                = last.c[n * p.DHC + j];
            }
        }
    }
}

void backward(const problem_t &p, const tensors_t &t, diffs_t &df) {
    const auto all = run_all(p, t);
    ctx_t c {p, t, p.D(), p.G(), p.G() + (p.lbr() ? 1 : 0)};
    const int64_t D = c.D, G = c.G, N = p.N, H = p.DHC, T = p.T;
    df.src_layer.assign(T * N * p.SLC, 0);
    df.src_iter.assign(p.L * D * N * p.SIC, 0);
    df.src_iter_c.assign(p.L * D * N * H, 0);
    df.attention.assign(T * N, 0);
    df.weights_layer.assign(t.weights_layer.size(), 0);
    df.weights_iter.assign(t.weights_iter.size(), 0);
    df.peephole.assign(p.L * D * 3 * H, 0);
    df.projection.assign(p.L * D * H * p.DIC, 0);
    df.bias.assign(p.L * D * c.GB * H, 0);
    auto dwl = [&](int64_t l, int64_t d, int64_t i, int64_t g, int64_t j) -> double & {
        return df.weights_layer[(((l * D + d) * p.SLC + i) * G + g) * H + j];
    };
    auto dwi = [&](int64_t l, int64_t d, int64_t i, int64_t g, int64_t j) -> double & {
        return df.weights_iter[(((l * D + d) * p.SIC + i) * G + g) * H + j];
    };
    for (int64_t d = 0; d < D; ++d) {
        // diff of each layer's output per time: [T][N * DIC]
        std::vector<vec> dh_out(T, vec(N * p.DIC, 0));
        for (int64_t tt = 0; tt < T; ++tt)
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < p.DIC; ++k) {
                    const int64_t col = p.dir == dir_t::concat ? d * p.DIC + k : k;
                    if (!df.dst_layer.empty())
                        dh_out[tt][n * p.DIC + k] = df.dst_layer[(tt * N + n) * p.DLC() + col];
                }
        for (int64_t l = p.L - 1; l >= 0; --l) {
            const layer_t &ly = all[d][l];
            const int64_t K = l == 0 ? p.SLC : p.DIC;
            std::vector<vec> dx(T, vec(N * K, 0));
            // Recurrent diff rows W wide: DIC entering a step, SIC leaving
            // it (they differ only when T == 1).
            const int64_t W = p.SIC > p.DIC ? p.SIC : p.DIC;
            vec dh_rec(N * W, 0), dc_rec(N * H, 0);
            for (int64_t n = 0; n < N; ++n) {
                for (int64_t k = 0; k < p.DIC && !df.dst_iter.empty(); ++k)
                    dh_rec[n * W + k] = df.dst_iter[((l * D + d) * N + n) * p.DIC + k];
                for (int64_t j = 0; j < H && !df.dst_iter_c.empty(); ++j)
                    dc_rec[n * H + j] = df.dst_iter_c[((l * D + d) * N + n) * H + j];
            }
            for (int64_t s = T - 1; s >= 0; --s) {
                const int64_t tt = c.r2l(d) ? T - 1 - s : s;
                const step_t &st = ly.steps[tt];
                vec dhp(N * W, 0), dcp(N * H, 0);
                for (int64_t n = 0; n < N; ++n) {
                    vec dh(p.DIC);
                    for (int64_t k = 0; k < p.DIC; ++k)
                        dh[k] = dh_out[tt][n * p.DIC + k] + dh_rec[n * W + k];
                    const double *g = &st.g[n * G * H];
                    // dgin: diff of the input-side pre-activation per
                    // gate; dgrec: of the recurrent side (GRU o: of
                    // U_o (r h'), LBR o: of U_o h').
                    vec dgin(G * H, 0), dgrec(G * H, 0);
                    const double att = p.augru() ? t.attention[tt * N + n] : 0;
                    switch (p.cell) {
                        case cell_t::vanilla:
                            for (int64_t j = 0; j < H; ++j)
                                dgin[j] = dgrec[j] = dh[j] * dact(p, g[j]);
                            break;
                        case cell_t::lstm: {
                            vec dht(H);
                            for (int64_t j = 0; j < H; ++j) {
                                if (p.projection) {
                                    double a = 0;
                                    for (int64_t o = 0; o < p.DIC; ++o) {
                                        a += dh[o] * c.wproj(l, d, j, o);
                                        df.projection[((l * D + d) * H + j) * p.DIC + o]
                                                += st.ht[n * H + j] * dh[o];
                                    }
                                    dht[j] = a;
                                } else {
                                    dht[j] = dh[j];
                                }
                            }
                            for (int64_t j = 0; j < H; ++j) {
                                const double i = g[j], f = g[H + j], cc = g[2 * H + j],
                                             o = g[3 * H + j];
                                const double cn = st.c[n * H + j], cp = st.cp[n * H + j];
                                const double tc = std::tanh(cn);
                                const double dgo = dht[j] * tc * o * (1 - o);
                                const double dcn = dc_rec[n * H + j]
                                        + dht[j] * o * (1 - tc * tc) + dgo * c.wp(l, d, 2, j);
                                const double dgi = dcn * cc * i * (1 - i);
                                const double dgf = dcn * cp * f * (1 - f);
                                const double dgc = dcn * i * (1 - cc * cc);
                                dcp[n * H + j] = dcn * f + dgi * c.wp(l, d, 0, j)
                                        + dgf * c.wp(l, d, 1, j);
                                dgin[j] = dgi, dgin[H + j] = dgf, dgin[2 * H + j] = dgc,
                                dgin[3 * H + j] = dgo;
                                if (p.peephole) {
                                    df.peephole[((l * D + d) * 3 + 0) * H + j] += dgi * cp;
                                    df.peephole[((l * D + d) * 3 + 1) * H + j] += dgf * cp;
                                    df.peephole[((l * D + d) * 3 + 2) * H + j] += dgo * cn;
                                }
                            }
                            dgrec = dgin;
                            break;
                        }
                        case cell_t::gru:
                        case cell_t::augru:
                        case cell_t::lbr_gru:
                        case cell_t::lbr_augru: {
                            const bool lbr = p.lbr();
                            double datt = 0;
                            vec drh(H, 0);
                            for (int64_t j = 0; j < H; ++j) {
                                const double u = g[j], o = g[2 * H + j];
                                const double hp = st.hp[n * p.SIC + j];
                                const double uu = (1 - att) * u;
                                const double duu = dh[j] * (hp - o);
                                datt -= duu * u;
                                dgin[j] = dgrec[j] = duu * (1 - att) * u * (1 - u);
                                const double dgo = dh[j] * (1 - uu) * (1 - o * o);
                                dgin[2 * H + j] = dgo;
                                dhp[n * W + j] += dh[j] * uu;
                                if (lbr) {
                                    const double r = g[H + j];
                                    dgrec[2 * H + j] = dgo * r;
                                    const double dgr = dgo * st.gr[n * H + j] * r * (1 - r);
                                    dgin[H + j] = dgrec[H + j] = dgr;
                                }
                            }
                            if (!lbr) {
                                // o's recurrent input r * h'
                                for (int64_t i = 0; i < H; ++i) {
                                    double a = 0;
                                    for (int64_t j = 0; j < H; ++j)
                                        a += dgin[2 * H + j] * c.wi(l, d, i, 2, j);
                                    drh[i] = a;
                                }
                                for (int64_t j = 0; j < H; ++j) {
                                    const double r = g[H + j], hp = st.hp[n * p.SIC + j];
                                    dgin[H + j] = dgrec[H + j] = drh[j] * hp * r * (1 - r);
                                    dhp[n * W + j] += drh[j] * r;
                                    for (int64_t jj = 0; jj < H; ++jj)
                                        dwi(l, d, j, 2, jj) += st.rh[n * H + j] * dgin[2 * H + jj];
                                }
                            }
                            if (p.augru()) df.attention[tt * N + n] = datt;
                            break;
                        }
                    }
                    // Accumulate weight and bias diffs, input and state diffs.
                    for (int64_t gg = 0; gg < G; ++gg)
                        for (int64_t j = 0; j < H; ++j) {
                            const double a = dgin[gg * H + j];
                            const bool gru_o = gg == 2
                                    && (p.cell == cell_t::gru || p.cell == cell_t::augru);
                            df.bias[((l * D + d) * c.GB + gg) * H + j] += a;
                            for (int64_t k = 0; k < K; ++k) {
                                dwl(l, d, k, gg, j) += st.x[n * K + k] * a;
                                dx[tt][n * K + k] += a * c.wl(l, d, k, gg, j);
                            }
                            if (gru_o) continue; // handled through r * h'
                            const double r = dgrec[gg * H + j];
                            for (int64_t i = 0; i < p.SIC; ++i) {
                                dwi(l, d, i, gg, j) += st.hp[n * p.SIC + i] * r;
                                dhp[n * W + i] += r * c.wi(l, d, i, gg, j);
                            }
                        }
                    if (p.lbr())
                        for (int64_t j = 0; j < H; ++j)
                            df.bias[((l * D + d) * c.GB + 3) * H + j] += dgrec[2 * H + j];
                }
                dh_rec = dhp;
                dc_rec = dcp;
            }
            for (int64_t n = 0; n < N; ++n) {
                for (int64_t i = 0; i < p.SIC; ++i)
                    df.src_iter[((l * D + d) * N + n) * p.SIC + i] = dh_rec[n * W + i];
                for (int64_t j = 0; j < H; ++j)
                    df.src_iter_c[((l * D + d) * N + n) * H + j] = dc_rec[n * H + j];
            }
            if (l > 0) {
                dh_out = dx;
            } else {
                for (int64_t tt = 0; tt < T; ++tt)
                    for (int64_t k = 0; k < N * p.SLC; ++k)
                        df.src_layer[tt * N * p.SLC + k] += dx[tt][k];
            }
        }
    }
}

} // namespace rnn_ref
