// The LRN kernel table (src/cpu/lrn/lrn_kernels.hpp): every kernel of
// every entry this processor supports against naive loops, on shapes with
// tails (channel counts and point counts that are not multiples of the
// vector width, windows clipped at both borders, a short last segment).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/lrn/lrn_kernels.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace lrn = dnnl::impl::cpu::lrn;
using kernel_table_glue::random_floats;

lrn::params_t params(dim_t local_size, float alpha, float beta, float k,
        double summands) {
    lrn::params_t p;
    p.lo = (local_size - 1) / 2;
    p.hi = (local_size + 1) / 2 - 1;
    p.a = (float)(alpha / summands);
    p.k = k;
    p.beta = beta;
    p.c2 = -2.f * p.a * beta;
    p.pw = beta == 0.75f ? lrn::pow_kind_t::b075
            : beta == 1.f ? lrn::pow_kind_t::b1
            : beta == 0.5f ? lrn::pow_kind_t::b05
                           : lrn::pow_kind_t::general;
    return p;
}

// N of channel c at point p over x[c * ld + p], C channels.
double across_n(const lrn::params_t &p, const std::vector<float> &x, dim_t ld,
        dim_t C, dim_t c, dim_t pt) {
    double s = 0;
    for (dim_t q = c - p.lo; q <= c + p.hi; ++q)
        if (q >= 0 && q < C) {
            const double v = x[(size_t)(q * ld + pt)];
            s += v * v;
        }
    return p.k + p.a * s;
}

// Backward of across channels at (c, pt), naive from the definition:
// dd * N^-beta - 2 a beta x * sum over the windows that hold c.
double across_bwd(const lrn::params_t &p, const std::vector<float> &x,
        const std::vector<float> &dd, dim_t ld, dim_t C, dim_t c, dim_t pt) {
    const size_t i = (size_t)(c * ld + pt);
    double s = 0;
    for (dim_t q = c - p.hi; q <= c + p.lo; ++q)
        if (q >= 0 && q < C) {
            const size_t j = (size_t)(q * ld + pt);
            const double n = across_n(p, x, ld, C, q, pt);
            s += dd[j] * x[j] * std::pow(n, -(double)p.beta - 1);
        }
    return dd[i] * std::pow(across_n(p, x, ld, C, c, pt), -(double)p.beta)
            + (double)p.c2 * x[i] * s;
}

void expect_near_rel(float got, double want, const std::string &what) {
    EXPECT_NEAR(got, want, 2e-5 * std::max(1.0, std::fabs(want))) << what;
}

const float betas[] = {0.75f, 1.f, 0.5f, 0.6f};

} // namespace

TEST(KernelTables, LrnAcrossChannelsFirstForwardOnEveryIsa) {
    const dim_t C = 19, P = 37, ld = 41;
    const auto x = random_floats((size_t)(C * ld), -2.f, 2.f, 21);
    const auto v = kernel_table_glue::runnable_entries<lrn::kernel_table_t>(
            "lrn");
    ASSERT_FALSE(v.empty());
    for (const auto *e : v)
        for (float beta : betas) {
            const auto p = params(5, 1e-1f, beta, 2.f, 5);
            std::vector<float> y((size_t)(C * ld), 7.f), ws(y);
            e->across_fwd_cp(p, x.data(), ld, y.data(), ld, ws.data(), ld, C, P);
            const std::string what = std::string(e->isa_name) + " beta "
                    + std::to_string(beta);
            for (dim_t c = 0; c < C; ++c)
                for (dim_t pt = 0; pt < ld; ++pt) {
                    const size_t i = (size_t)(c * ld + pt);
                    if (pt >= P) {
                        EXPECT_EQ(y[i], 7.f) << what << " wrote past P";
                        continue;
                    }
                    const double n = across_n(p, x, ld, C, c, pt);
                    expect_near_rel(ws[i], n, what + " ws");
                    expect_near_rel(y[i], x[i] * std::pow(n, -(double)beta),
                            what + " dst");
                }
        }
}

TEST(KernelTables, LrnAcrossChannelsFirstBackwardOnEveryIsa) {
    const dim_t C = 21, P = 29;
    const auto x = random_floats((size_t)(C * P), -2.f, 2.f, 22);
    const auto dd = random_floats((size_t)(C * P), -1.f, 1.f, 23);
    for (const auto *e :
            kernel_table_glue::runnable_entries<lrn::kernel_table_t>("lrn"))
        for (float beta : betas)
            for (bool with_ws : {true, false}) {
                const auto p = params(4, 2e-1f, beta, 1.5f, 4);
                std::vector<float> ws((size_t)(C * P));
                for (dim_t c = 0; c < C; ++c)
                    for (dim_t pt = 0; pt < P; ++pt)
                        ws[(size_t)(c * P + pt)]
                                = (float)across_n(p, x, P, C, c, pt);
                std::vector<float> ds((size_t)(C * P));
                std::vector<float> scratch(
                        (size_t)lrn::across_cp_bwd_scratch(C, P));
                e->across_bwd_cp(p, x.data(), P, dd.data(), P,
                        with_ws ? ws.data() : nullptr, P, ds.data(), P, C, P,
                        scratch.data());
                const std::string what = std::string(e->isa_name) + " beta "
                        + std::to_string(beta) + (with_ws ? " ws" : " no ws");
                for (dim_t c = 0; c < C; ++c)
                    for (dim_t pt = 0; pt < P; ++pt)
                        expect_near_rel(ds[(size_t)(c * P + pt)],
                                across_bwd(p, x, dd, P, C, c, pt), what);
            }
}

// Channels last (point rows of C channels, segments of S): the pc kernels
// see the same numbers as the cp ones with the roles of the strides
// swapped, so the naive loops read x[c + pt * C] through ld = 1 terms.
TEST(KernelTables, LrnAcrossChannelsLastOnEveryIsa) {
    const dim_t C = 37, P = 23;
    const auto x = random_floats((size_t)(C * P), -2.f, 2.f, 24);
    const auto dd = random_floats((size_t)(C * P), -1.f, 1.f, 25);
    // Transposed copies for the reference (channels first, ld = P).
    std::vector<float> xt((size_t)(C * P)), ddt(xt);
    for (dim_t c = 0; c < C; ++c)
        for (dim_t pt = 0; pt < P; ++pt) {
            xt[(size_t)(c * P + pt)] = x[(size_t)(pt * C + c)];
            ddt[(size_t)(c * P + pt)] = dd[(size_t)(pt * C + c)];
        }
    for (const auto *e :
            kernel_table_glue::runnable_entries<lrn::kernel_table_t>("lrn"))
        for (dim_t S : {16, 8})
            for (float beta : betas) {
                const auto p = params(5, 3e-1f, beta, 1.f, 5);
                std::vector<dim_t> off((size_t)((C + S - 1) / S));
                for (size_t s = 0; s < off.size(); ++s)
                    off[s] = (dim_t)s * S;
                std::vector<float> y((size_t)(C * P)), ws(y), ds(y);
                std::vector<float> scratch(
                        (size_t)lrn::across_pc_scratch(p, C));
                lrn::pc_in_t xin {x.data(), C, off.data()};
                lrn::pc_out_t yout {y.data(), C, off.data()};
                lrn::pc_out_t wout {ws.data(), C, off.data()};
                e->across_fwd_pc(p, xin, yout, &wout, C, S, P, scratch.data());
                lrn::pc_in_t ddin {dd.data(), C, off.data()};
                lrn::pc_in_t wsin {ws.data(), C, off.data()};
                lrn::pc_out_t dsout {ds.data(), C, off.data()};
                e->across_bwd_pc(p, xin, ddin, &wsin, dsout, C, S, P,
                        scratch.data());
                const std::string what = std::string(e->isa_name) + " S "
                        + std::to_string(S) + " beta " + std::to_string(beta);
                for (dim_t c = 0; c < C; ++c)
                    for (dim_t pt = 0; pt < P; ++pt) {
                        const size_t i = (size_t)(pt * C + c);
                        const double n = across_n(p, xt, P, C, c, pt);
                        expect_near_rel(ws[i], n, what + " ws");
                        expect_near_rel(y[i],
                                x[i] * std::pow(n, -(double)beta),
                                what + " dst");
                        expect_near_rel(ds[i],
                                across_bwd(p, xt, ddt, P, C, c, pt),
                                what + " diff_src");
                    }
            }
}

// Within channel: one plane of D x H x W points, a box window of local
// size in every dimension, clipped at the borders.
TEST(KernelTables, LrnWithinChannelOnEveryIsa) {
    const dim_t sp[3] = {1, 9, 13};
    const dim_t n = sp[0] * sp[1] * sp[2];
    const auto x = random_floats((size_t)n, -2.f, 2.f, 26);
    const auto dd = random_floats((size_t)n, -1.f, 1.f, 27);
    for (const auto *e :
            kernel_table_glue::runnable_entries<lrn::kernel_table_t>("lrn"))
        for (float beta : betas) {
            const auto p = params(3, 2e-1f, beta, 1.f, 9);
            auto norm = [&](dim_t h, dim_t w) {
                double s = 0;
                for (dim_t y = h - p.lo; y <= h + p.hi; ++y)
                    for (dim_t z = w - p.lo; z <= w + p.hi; ++z)
                        if (y >= 0 && y < sp[1] && z >= 0 && z < sp[2]) {
                            const double v = x[(size_t)(y * sp[2] + z)];
                            s += v * v;
                        }
                return p.k + p.a * s;
            };
            std::vector<float> y((size_t)n), ws(y), ds(y);
            std::vector<float> scratch((size_t)lrn::within_scratch(p, sp));
            e->within_fwd(p, x.data(), y.data(), ws.data(), sp, scratch.data());
            e->within_bwd(p, x.data(), dd.data(), nullptr, ds.data(), sp,
                    scratch.data());
            const std::string what = std::string(e->isa_name) + " beta "
                    + std::to_string(beta);
            for (dim_t h = 0; h < sp[1]; ++h)
                for (dim_t w = 0; w < sp[2]; ++w) {
                    const size_t i = (size_t)(h * sp[2] + w);
                    const double nv = norm(h, w);
                    expect_near_rel(ws[i], nv, what + " ws");
                    expect_near_rel(y[i], x[i] * std::pow(nv, -(double)beta),
                            what + " dst");
                    double s = 0; // windows that hold (h, w): mirrored
                    for (dim_t a = h - p.hi; a <= h + p.lo; ++a)
                        for (dim_t b = w - p.hi; b <= w + p.lo; ++b)
                            if (a >= 0 && a < sp[1] && b >= 0 && b < sp[2]) {
                                const size_t j = (size_t)(a * sp[2] + b);
                                s += dd[j] * x[j]
                                        * std::pow(norm(a, b),
                                                -(double)beta - 1);
                            }
                    expect_near_rel(ds[i],
                            dd[i] * std::pow(nv, -(double)beta)
                                    + (double)p.c2 * x[i] * s,
                            what + " diff_src");
                }
        }
}
