// The RNN cell kernel table (src/cpu/rnn/rnn_cells.hpp): every kernel of
// every entry this processor supports against the cells' formulas in
// double, on a block of rows and channels whose ends are not multiples of
// any vector width (37 channels, the block from channel 3), with
// AUGRU attention and LSTM peepholes.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/rnn/rnn_cells.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace rnn = dnnl::impl::cpu::rnn;
using kernel_table_glue::random_floats;

constexpr dim_t N = 3, H = 37, jb = 3, je = H;

double sg(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

void near(float got, double want, const std::string &what) {
    EXPECT_NEAR(got, want, 2e-6 * std::max(1.0, std::fabs(want))) << what;
}

std::vector<const rnn::cell_kernels_t *> kernels() {
    return kernel_table_glue::runnable_entries<rnn::cell_kernels_t>(
            "rnn_cells");
}

} // namespace

TEST(KernelTablesRnn, ForwardCellsOnEveryIsa) {
    const auto v = kernels();
    ASSERT_FALSE(v.empty());
    const dim_t ldg = 4 * H + 5, ldh = H + 2;
    const auto g0 = random_floats((size_t)(N * ldg), -3.f, 3.f, 1);
    const auto hp = random_floats((size_t)(N * ldh), -1.f, 1.f, 2);
    const auto cp = random_floats((size_t)(N * H), -2.f, 2.f, 3);
    const auto wp = random_floats((size_t)(3 * H), -0.5f, 0.5f, 4);
    const auto rec0 = random_floats((size_t)(N * 3 * H), -1.f, 1.f, 5);
    const auto be = random_floats((size_t)H, -1.f, 1.f, 6);
    const std::vector<float> att = {0.25f, 0.f, 0.75f};
    for (const auto *k : v) {
        const std::string isa = k->isa;
        rnn::cell_fwd_t a;
        a.DHC = H, a.ldg = ldg, a.hp = hp.data(), a.ldh = ldh, a.ldo = ldh;
        // Vanilla, each activation.
        for (auto act :
                {dnnl_eltwise_relu, dnnl_eltwise_tanh, dnnl_eltwise_logistic}) {
            auto g = g0;
            std::vector<float> h((size_t)(N * ldh), 9.f);
            a.gates = g.data(), a.h = h.data(), a.act = act, a.alpha = 0.25f;
            k->vanilla_fwd(a, 0, N, jb, je);
            for (dim_t n = 0; n < N; ++n)
                for (dim_t j = jb; j < je; ++j) {
                    const double x = g0[n * ldg + j];
                    const double y = act == dnnl_eltwise_relu
                                             ? (x > 0 ? x : 0.25 * x)
                                     : act == dnnl_eltwise_tanh ? std::tanh(x)
                                                                : sg(x);
                    near(h[n * ldh + j], y, isa + " vanilla");
                    near(g[n * ldg + j], y, isa + " vanilla gates");
                }
        }
        // LSTM with and without peepholes.
        for (bool peep : {false, true}) {
            auto g = g0;
            std::vector<float> h((size_t)(N * ldh), 9.f),
                    c((size_t)(N * H), 9.f);
            a.gates = g.data(), a.h = h.data(), a.cp = cp.data(),
            a.c = c.data();
            a.peephole = peep ? wp.data() : nullptr;
            k->lstm_fwd(a, 0, N, jb, je);
            for (dim_t n = 0; n < N; ++n)
                for (dim_t j = jb; j < je; ++j) {
                    const float *x = g0.data() + n * ldg;
                    const double cpv = cp[n * H + j];
                    const double pi = peep ? wp[j] * cpv : 0,
                                 pf = peep ? wp[H + j] * cpv : 0;
                    const double i = sg(x[j] + pi), f = sg(x[H + j] + pf),
                                 cc = std::tanh(x[2 * H + j]);
                    const double cn = f * cpv + i * cc;
                    const double o =
                            sg(x[3 * H + j] + (peep ? wp[2 * H + j] * cn : 0));
                    near(c[n * H + j], cn, isa + " lstm c");
                    near(h[n * ldh + j], o * std::tanh(cn), isa + " lstm h");
                    near(g[n * ldg + 3 * H + j], o, isa + " lstm o");
                }
        }
        a.peephole = nullptr;
        // GRU (AUGRU attention): both parts.
        {
            auto g = g0;
            std::vector<float> h((size_t)(N * ldh), 9.f),
                    rec((size_t)(N * H), 9.f);
            a.gates = g.data(), a.h = h.data(), a.rec = rec.data(),
            a.att = att.data();
            k->gru_fwd_part1(a, 0, N, jb, je);
            k->gru_fwd_part2(a, 0, N, jb, je);
            for (dim_t n = 0; n < N; ++n)
                for (dim_t j = jb; j < je; ++j) {
                    const float *x = g0.data() + n * ldg;
                    const double u = sg(x[j]), r = sg(x[H + j]),
                                 o = std::tanh(x[2 * H + j]);
                    const double uu = (1.0 - att[n]) * u, hpv = hp[n * ldh + j];
                    near(rec[n * H + j], r * hpv, isa + " gru r h'");
                    near(h[n * ldh + j], uu * hpv + (1.0 - uu) * o,
                            isa + " gru h");
                }
        }
        // Linear-before-reset GRU.
        {
            auto g = g0;
            auto rec = rec0;
            std::vector<float> h((size_t)(N * ldh), 9.f),
                    grid((size_t)(N * H), 9.f);
            a.gates = g.data(), a.h = h.data(), a.rec = rec.data(),
            a.att = nullptr;
            a.bias_extra = be.data(), a.grid = grid.data();
            k->lbr_fwd(a, 0, N, jb, je);
            for (dim_t n = 0; n < N; ++n)
                for (dim_t j = jb; j < je; ++j) {
                    const float *x = g0.data() + n * ldg,
                                *uh = rec0.data() + n * 3 * H;
                    const double u = sg(x[j] + uh[j]),
                                 r = sg(x[H + j] + uh[H + j]);
                    const double gr = uh[2 * H + j] + be[j];
                    const double o = std::tanh(x[2 * H + j] + r * gr);
                    near(grid[n * H + j], gr, isa + " lbr grid");
                    near(h[n * ldh + j], u * hp[n * ldh + j] + (1.0 - u) * o,
                            isa + " lbr h");
                }
        }
    }
}

TEST(KernelTablesRnn, BackwardCellsOnEveryIsa) {
    const auto v = kernels();
    ASSERT_FALSE(v.empty());
    const dim_t ldg = 4 * H + 5, ldh = H + 2;
    // Activated gates in (0, 1) (tanh gates in (-1, 1) would do as well).
    const auto g = random_floats((size_t)(N * ldg), 0.05f, 0.95f, 11);
    const auto hp = random_floats((size_t)(N * ldh), -1.f, 1.f, 12);
    const auto dh = random_floats((size_t)(N * H), -1.f, 1.f, 13);
    const auto cp = random_floats((size_t)(N * H), -2.f, 2.f, 14);
    const auto c = random_floats((size_t)(N * H), -2.f, 2.f, 15);
    const auto dc = random_floats((size_t)(N * H), -1.f, 1.f, 16);
    const auto wp = random_floats((size_t)(3 * H), -0.5f, 0.5f, 17);
    const auto drec = random_floats((size_t)(N * H), -1.f, 1.f, 18);
    const auto grid = random_floats((size_t)(N * H), -1.f, 1.f, 19);
    const std::vector<float> att = {0.25f, 0.f, 0.75f};
    for (const auto *k : v) {
        const std::string isa = k->isa;
        rnn::cell_bwd_t a;
        a.DHC = H, a.gates = g.data(), a.ldg = ldg, a.hp = hp.data(),
        a.ldh = ldh;
        a.dh = dh.data(), a.lddh = H;
        std::vector<float> dg((size_t)(N * ldg), 9.f),
                dhp((size_t)(N * ldh), 9.f);
        a.dg = dg.data(), a.dhp = dhp.data();
        // Vanilla tanh.
        a.act = dnnl_eltwise_tanh;
        k->vanilla_bwd(a, 0, N, jb, je);
        for (dim_t n = 0; n < N; ++n)
            for (dim_t j = jb; j < je; ++j) {
                const double y = g[n * ldg + j];
                near(dg[n * ldg + j], dh[n * H + j] * (1.0 - y * y),
                        isa + " vanilla");
            }
        // LSTM with peepholes.
        std::vector<float> dcp((size_t)(N * H), 9.f);
        a.cp = cp.data(), a.c = c.data(), a.dc = dc.data(), a.dcp = dcp.data();
        a.peephole = wp.data();
        k->lstm_bwd(a, 0, N, jb, je);
        for (dim_t n = 0; n < N; ++n)
            for (dim_t j = jb; j < je; ++j) {
                const float *x = g.data() + n * ldg;
                const double i = x[j], f = x[H + j], cc = x[2 * H + j],
                             o = x[3 * H + j];
                const double d = dh[n * H + j],
                             tc = std::tanh((double)c[n * H + j]);
                const double dgo = d * tc * o * (1 - o);
                const double dcc = dc[n * H + j] + d * o * (1 - tc * tc)
                                   + dgo * wp[2 * H + j];
                const double dgi = dcc * cc * i * (1 - i),
                             dgf = dcc * cp[n * H + j] * f * (1 - f);
                near(dg[n * ldg + j], dgi, isa + " lstm di");
                near(dg[n * ldg + H + j], dgf, isa + " lstm df");
                near(dg[n * ldg + 2 * H + j], dcc * i * (1 - cc * cc),
                        isa + " lstm dc~");
                near(dg[n * ldg + 3 * H + j], dgo, isa + " lstm do");
                near(dcp[n * H + j], dcc * f + dgi * wp[j] + dgf * wp[H + j],
                        isa + " lstm dc'");
            }
        a.peephole = nullptr;
        // GRU (AUGRU attention), both parts, and the attention's diff.
        std::vector<float> datt(N, 9.f);
        a.att = att.data(), a.drec = drec.data(), a.datt = datt.data();
        k->gru_bwd_part1(a, 0, N, jb, je);
        k->gru_bwd_part2(a, 0, N, jb, je);
        k->augru_att_bwd(a, 0, N);
        for (dim_t n = 0; n < N; ++n) {
            double s = 0;
            for (dim_t j = 0; j < H; ++j) {
                const float *x = g.data() + n * ldg;
                s += dh[n * H + j] * (hp[n * ldh + j] - x[2 * H + j]) * x[j];
            }
            near(datt[n], -s, isa + " augru datt");
            for (dim_t j = jb; j < je; ++j) {
                const float *x = g.data() + n * ldg;
                const double u = x[j], r = x[H + j], o = x[2 * H + j],
                             keep = 1.0 - att[n];
                const double d = dh[n * H + j], hpv = hp[n * ldh + j];
                near(dg[n * ldg + j], d * (hpv - o) * keep * u * (1 - u),
                        isa + " gru du");
                near(dg[n * ldg + 2 * H + j], d * (1 - keep * u) * (1 - o * o),
                        isa + " gru do");
                near(dg[n * ldg + H + j], drec[n * H + j] * hpv * r * (1 - r),
                        isa + " gru dr");
                near(dhp[n * ldh + j], d * keep * u + drec[n * H + j] * r,
                        isa + " gru dh'");
            }
        }
        // Linear-before-reset GRU.
        std::vector<float> dgrid((size_t)(N * 3 * H), 9.f);
        a.att = nullptr, a.grid = grid.data(), a.dgrid = dgrid.data();
        k->lbr_bwd(a, 0, N, jb, je);
        for (dim_t n = 0; n < N; ++n)
            for (dim_t j = jb; j < je; ++j) {
                const float *x = g.data() + n * ldg;
                const double u = x[j], r = x[H + j], o = x[2 * H + j],
                             d = dh[n * H + j];
                const double dgo = d * (1 - u) * (1 - o * o);
                const double dgu = d * (hp[n * ldh + j] - o) * u * (1 - u);
                const double dgr = dgo * grid[n * H + j] * r * (1 - r);
                near(dg[n * ldg + j], dgu, isa + " lbr du");
                near(dg[n * ldg + H + j], dgr, isa + " lbr dr");
                near(dg[n * ldg + 2 * H + j], dgo, isa + " lbr do");
                near(dgrid[n * 3 * H + 2 * H + j], dgo * r,
                        isa + " lbr dgrid o");
                near(dhp[n * ldh + j], d * u, isa + " lbr dh'");
            }
    }
}
