// The normalization row kernels (src/cpu/norm_kernels/norm_kernels.hpp):
// every function of every entry this processor supports against naive
// loops in double: the sums (across the 1024-element blocks of float
// partial sums), the affine maps, the backward combinations with and
// without scale and shift, and the per-channel accumulators with their
// flush into double. Lengths leave tails past 16 and 32 lanes.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/norm_kernels/norm_kernels.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace norm = dnnl::impl::cpu::norm;
using kernel_table_glue::random_floats;

std::vector<const norm::kernels_t *> entries() {
    return kernel_table_glue::runnable_entries<norm::kernels_t>("norm");
}

const dim_t lengths[] = {1, 5, 16, 31, 33, 301, 1024, 2500};

bool close(double got, double want, double rel = 1e-5) {
    return std::fabs(got - want) <= rel * std::max(1.0, std::fabs(want));
}

struct data_t {
    std::vector<float> x, g, sc, sh, m, a, b, c;
    explicit data_t(dim_t n)
        : x(random_floats((size_t)n, -3.f, 5.f, 1)),
          g(random_floats((size_t)n, -1.f, 1.f, 2)),
          sc(random_floats((size_t)n, 0.5f, 2.f, 3)),
          sh(random_floats((size_t)n, -1.f, 1.f, 4)),
          m(random_floats((size_t)n, 0.f, 1.f, 5)),
          a(random_floats((size_t)n, -2.f, 2.f, 6)),
          b(random_floats((size_t)n, -2.f, 2.f, 7)),
          c(random_floats((size_t)n, -2.f, 2.f, 8)) {}
};

std::string what(const norm::kernels_t *e, const char *fn, dim_t n) {
    return std::string(e->isa) + " " + fn + " n " + std::to_string(n);
}

} // namespace

TEST(KernelTables, NormSumsOnEveryIsa) {
    const auto v = entries();
    ASSERT_FALSE(v.empty());
    for (const auto *e : v)
        for (dim_t n : lengths) {
            const data_t d(n);
            const float m = 0.75f;
            double s = 0, sq = 0, s1 = 0, s2 = 0, t1 = 0, t2 = 0;
            for (size_t i = 0; i < (size_t)n; ++i) {
                const double dev = (double)d.x[i] - m;
                s += d.x[i];
                sq += dev * dev;
                s1 += (double)d.g[i] * d.sc[i];
                s2 += (double)d.g[i] * d.sc[i] * dev;
                t1 += d.g[i];
                t2 += (double)d.g[i] * dev;
            }
            // Absolute bounds: a few float ulps of the running partials.
            EXPECT_NEAR(e->sum(d.x.data(), n), s, 1e-5 * n)
                    << what(e, "sum", n);
            EXPECT_NEAR(e->sum_sq_dev(d.x.data(), n, m), sq, 1e-5 * n)
                    << what(e, "sum_sq_dev", n);
            double r1 = 0, r2 = 0;
            e->dot_dev(d.g.data(), d.sc.data(), d.x.data(), n, m, &r1, &r2);
            EXPECT_NEAR(r1, s1, 1e-5 * n) << what(e, "dot_dev", n);
            EXPECT_NEAR(r2, s2, 1e-5 * n) << what(e, "dot_dev", n);
            e->dot_dev(d.g.data(), nullptr, d.x.data(), n, m, &r1, &r2);
            EXPECT_NEAR(r1, t1, 1e-5 * n) << what(e, "dot_dev no scale", n);
            EXPECT_NEAR(r2, t2, 1e-5 * n) << what(e, "dot_dev no scale", n);
        }
}

// row_stats over three rows of a matrix with a leading dimension past
// the row length: each row's mean and variance as sum() and sum_sq_dev()
// give them (the same numbers), and the naive ones within float bounds;
// with rms the mean is zero and the variance the mean square.
TEST(KernelTables, NormRowStatsOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t n : lengths) {
            const int rows = 3;
            const dim_t ld = n + 7;
            const auto x = random_floats((size_t)(ld * rows), -3.f, 5.f, 9);
            const double inv_n = 1.0 / (double)n;
            for (bool rms : {false, true}) {
                float m[rows], v[rows];
                e->row_stats(x.data(), ld, n, rows, rms, inv_n, m, v);
                for (int r = 0; r < rows; ++r) {
                    const float *row = x.data() + r * ld;
                    const float mk =
                            rms ? 0.f : (float)(e->sum(row, n) * inv_n);
                    const float vk = (float)(e->sum_sq_dev(row, n, mk) * inv_n);
                    EXPECT_EQ(m[r], mk) << what(e, "row_stats mean", n);
                    EXPECT_EQ(v[r], vk) << what(e, "row_stats var", n);
                    double s = 0, q = 0;
                    for (dim_t i = 0; i < n; ++i) s += row[i];
                    const double mean = rms ? 0.0 : s / (double)n;
                    for (dim_t i = 0; i < n; ++i)
                        q += (row[i] - mean) * (row[i] - mean);
                    EXPECT_TRUE(close(m[r], mean, 1e-5))
                            << what(e, "row_stats mean", n);
                    EXPECT_TRUE(close(v[r], q / (double)n, 1e-5))
                            << what(e, "row_stats var", n);
                }
            }
        }
}

TEST(KernelTables, NormAffineMapsOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t n : lengths) {
            const data_t d(n);
            const size_t N = (size_t)n;
            const float m = 0.5f, a = 1.5f, b = -0.25f, inv = 0.7f;
            std::vector<float> y(N + 1, 42.f);
            e->affine(d.x.data(), y.data(), n, m, a, b);
            for (size_t i = 0; i < N; ++i)
                ASSERT_TRUE(close(y[i], a * ((double)d.x[i] - m) + b))
                        << what(e, "affine", n) << " at " << i;
            ASSERT_EQ(y[N], 42.f) << what(e, "affine", n) << " wrote past";
            e->affine_v(d.x.data(), y.data(), n, d.m.data(), d.a.data(),
                    d.b.data());
            for (size_t i = 0; i < N; ++i)
                ASSERT_TRUE(close(y[i],
                        (double)d.a[i] * ((double)d.x[i] - d.m[i]) + d.b[i]))
                        << what(e, "affine_v", n) << " at " << i;
            // norm_row with and without each of scale and shift, and in
            // place.
            for (int k = 0; k < 4; ++k) {
                const float *sc = k & 1 ? d.sc.data() : nullptr;
                const float *sh = k & 2 ? d.sh.data() : nullptr;
                std::vector<float> z(d.x);
                e->norm_row(d.x.data(), y.data(), n, m, inv, sc, sh);
                e->norm_row(z.data(), z.data(), n, m, inv, sc, sh);
                for (size_t i = 0; i < N; ++i) {
                    const double want =
                            (sc ? d.sc[i] : 1.0) * ((double)d.x[i] - m) * inv
                            + (sh ? d.sh[i] : 0.0);
                    ASSERT_TRUE(close(y[i], want)) << what(e, "norm_row", n)
                                                   << " k " << k << " at " << i;
                    ASSERT_EQ(z[i], y[i]) << what(e, "norm_row in place", n);
                }
            }
        }
}

TEST(KernelTables, NormBackwardCombinationsOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t n : lengths) {
            const data_t d(n);
            const size_t N = (size_t)n;
            const float a = 0.8f, m = 0.3f, b = -1.2f, c = 0.1f;
            std::vector<float> y(N, 42.f);
            for (bool with_sc : {false, true}) {
                const float *sc = with_sc ? d.sc.data() : nullptr;
                e->lin2(d.g.data(), d.x.data(), y.data(), n, sc, a, m, b, c);
                for (size_t i = 0; i < N; ++i)
                    ASSERT_TRUE(
                            close(y[i], a * (sc ? d.sc[i] : 1.0) * d.g[i]
                                                + b * ((double)d.x[i] - m) + c))
                            << what(e, "lin2", n) << " at " << i;
                // In place over g.
                std::vector<float> z(d.g);
                e->lin2(z.data(), d.x.data(), z.data(), n, sc, a, m, b, c);
                for (size_t i = 0; i < N; ++i)
                    ASSERT_EQ(z[i], y[i]) << what(e, "lin2 in place", n);
            }
            e->lin2_v(d.g.data(), d.x.data(), y.data(), n, d.a.data(),
                    d.m.data(), d.b.data(), d.c.data());
            for (size_t i = 0; i < N; ++i)
                ASSERT_TRUE(close(y[i],
                        (double)d.a[i] * d.g[i]
                                + (double)d.b[i] * ((double)d.x[i] - d.m[i])
                                + d.c[i]))
                        << what(e, "lin2_v", n) << " at " << i;
        }
}

// Per-channel accumulators over a few rows, then flushed into double.
TEST(KernelTables, NormAccumulatorsOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t n : lengths) {
            const size_t N = (size_t)n;
            const float m = 0.4f, inv = 1.3f;
            const data_t d(n);
            std::vector<float> add(N, 0.f), sq(N, 0.f), a1(N, 0.f), a2(N, 0.f),
                    s1(N, 0.f), s2(N, 0.f);
            std::vector<double> w_add(N, 0), w_sq(N, 0), w_a1(N, 0), w_a2(N, 0),
                    w_s1(N, 0), w_s2(N, 0);
            for (unsigned row = 0; row < 3; ++row) {
                const auto x = random_floats(N, -3.f, 3.f, 20 + row);
                const auto g = random_floats(N, -1.f, 1.f, 30 + row);
                e->acc_add(add.data(), x.data(), n);
                e->acc_sq_dev(sq.data(), x.data(), d.m.data(), n);
                e->acc_dot_dev(a1.data(), a2.data(), g.data(), x.data(),
                        d.m.data(), n);
                e->acc_dot_dev_s(
                        s1.data(), s2.data(), g.data(), x.data(), m, inv, n);
                for (size_t i = 0; i < N; ++i) {
                    const double dev = (double)x[i] - d.m[i];
                    w_add[i] += x[i];
                    w_sq[i] += dev * dev;
                    w_a1[i] += g[i];
                    w_a2[i] += g[i] * dev;
                    w_s1[i] += g[i] * ((double)x[i] - m) * inv;
                    w_s2[i] += g[i];
                }
            }
            auto check = [&](const std::vector<float> &got,
                                 const std::vector<double> &want,
                                 const char *fn) {
                for (size_t i = 0; i < N; ++i)
                    ASSERT_TRUE(close(got[i], want[i]))
                            << what(e, fn, n) << " at " << i << ": " << got[i]
                            << " vs " << want[i];
            };
            check(add, w_add, "acc_add");
            check(sq, w_sq, "acc_sq_dev");
            check(a1, w_a1, "acc_dot_dev a1");
            check(a2, w_a2, "acc_dot_dev a2");
            check(s1, w_s1, "acc_dot_dev_s a1");
            check(s2, w_s2, "acc_dot_dev_s a2");
            // flush: d += f, f = 0.
            std::vector<double> dd(N, 0.5);
            std::vector<float> f(add);
            e->flush(dd.data(), f.data(), n);
            for (size_t i = 0; i < N; ++i) {
                ASSERT_EQ(dd[i], 0.5 + (double)add[i]) << what(e, "flush", n);
                ASSERT_EQ(f[i], 0.f) << what(e, "flush", n);
            }
        }
}
