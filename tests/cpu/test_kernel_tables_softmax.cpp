// The softmax kernel table (src/cpu/softmax/softmax_kernels.hpp): the row
// and lane kernels, forward and backward, softmax and log-softmax, of
// every entry this processor supports against naive loops in double.
// Rows are shorter and longer than the 64 partial sums the kernels keep;
// lane counts leave vector tails, and every tensor has its own leading
// dimension, wider than the lanes, whose gaps must stay untouched.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/softmax/softmax_kernels.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace softmax = dnnl::impl::cpu::softmax;
using kernel_table_glue::random_floats;

std::vector<const softmax::kernels_t *> entries() {
    return kernel_table_glue::runnable_entries<softmax::kernels_t>("softmax");
}

bool close(float got, double want) {
    return std::fabs((double)got - want) <= 2e-6 + 2e-5 * std::fabs(want);
}

// Softmax (or log-softmax) times s of x[0], x[ld], ... x[(n - 1) * ld].
std::vector<double> ref_fwd(
        const float *x, dim_t ld, dim_t n, bool log, double s) {
    double mx = -INFINITY, sum = 0;
    for (dim_t i = 0; i < n; ++i) mx = std::max(mx, (double)x[i * ld]);
    for (dim_t i = 0; i < n; ++i) sum += std::exp(x[i * ld] - mx);
    std::vector<double> y((size_t)n);
    for (dim_t i = 0; i < n; ++i)
        y[(size_t)i] = s
                       * (log ? x[i * ld] - mx - std::log(sum)
                              : std::exp(x[i * ld] - mx) / sum);
    return y;
}

// diff_src of diff_dst dd and the forward's dst.
std::vector<double> ref_bwd(const float *dst, dim_t ldy, const float *dd,
        dim_t ldd, dim_t n, bool log) {
    double s = 0;
    for (dim_t i = 0; i < n; ++i)
        s += log ? (double)dd[i * ldd] : (double)dd[i * ldd] * dst[i * ldy];
    std::vector<double> ds((size_t)n);
    for (dim_t i = 0; i < n; ++i)
        ds[(size_t)i] = log ? dd[i * ldd] - std::exp((double)dst[i * ldy]) * s
                            : dst[i * ldy] * (dd[i * ldd] - s);
    return ds;
}

const dim_t row_lengths[] = {1, 7, 16, 63, 64, 65, 517};

} // namespace

TEST(KernelTables, SoftmaxRowsEveryVariantOnEveryIsa) {
    const auto v = entries();
    ASSERT_FALSE(v.empty());
    for (const auto *e : v)
        for (dim_t n : row_lengths)
            for (bool log : {false, true})
                for (float s : {1.f, 0.5f}) {
                    const auto x =
                            random_floats((size_t)n, -10.f, 10.f, (unsigned)n);
                    const auto want = ref_fwd(x.data(), 1, n, log, s);
                    std::vector<float> y((size_t)n, 42.f), z(x);
                    e->fwd_row(x.data(), y.data(), n, log, s);
                    e->fwd_row(z.data(), z.data(), n, log, s);
                    const std::string w =
                            std::string(e->isa) + " n " + std::to_string(n)
                            + (log ? " log" : "") + " s " + std::to_string(s);
                    for (dim_t i = 0; i < n; ++i) {
                        ASSERT_TRUE(close(y[(size_t)i], want[(size_t)i]))
                                << w << " fwd at " << i << ": " << y[(size_t)i]
                                << " vs " << want[(size_t)i];
                        ASSERT_EQ(z[(size_t)i], y[(size_t)i]) << w;
                    }
                    // Backward from the unscaled forward's output.
                    const auto unscaled = ref_fwd(x.data(), 1, n, log, 1.0);
                    const std::vector<float> dst(
                            unscaled.begin(), unscaled.end());
                    const auto dd = random_floats((size_t)n, -1.f, 1.f, 5);
                    const auto wb =
                            ref_bwd(dst.data(), 1, dd.data(), 1, n, log);
                    std::vector<float> ds((size_t)n, 42.f);
                    e->bwd_row(dst.data(), dd.data(), ds.data(), n, log);
                    for (dim_t i = 0; i < n; ++i)
                        ASSERT_TRUE(close(ds[(size_t)i], wb[(size_t)i]))
                                << w << " bwd at " << i << ": " << ds[(size_t)i]
                                << " vs " << wb[(size_t)i];
                }
}

// nl softmaxes at once along C, value c of lane l at p[c * ld + l].
TEST(KernelTables, SoftmaxLanesEveryVariantOnEveryIsa) {
    struct shape_t {
        dim_t C, nl;
    } shapes[] = {{1, 5}, {3, 1}, {5, 16}, {17, 7}, {33, 37}, {70, 64}};
    for (const auto *e : entries())
        for (const auto &sh : shapes)
            for (bool log : {false, true}) {
                const dim_t C = sh.C, nl = sh.nl;
                // Leading dimensions past the lanes, each its own.
                const dim_t sld = nl + 3, dld = nl + 5, ddld = nl + 1;
                const auto x = random_floats(
                        (size_t)(C * sld), -8.f, 8.f, (unsigned)(C + nl));
                std::vector<float> y((size_t)(C * dld), 42.f);
                std::vector<float> tmp((size_t)(2 * nl));
                e->fwd_lanes(x.data(), sld, y.data(), dld, C, nl, log, 0.5f,
                        tmp.data());
                const std::string w =
                        std::string(e->isa) + " C " + std::to_string(C) + " nl "
                        + std::to_string(nl) + (log ? " log" : "");
                std::vector<float> dst((size_t)(C * dld), 0.f);
                for (dim_t l = 0; l < nl; ++l) {
                    const auto want = ref_fwd(x.data() + l, sld, C, log, 0.5);
                    const auto unscaled =
                            ref_fwd(x.data() + l, sld, C, log, 1.0);
                    for (dim_t c = 0; c < C; ++c) {
                        ASSERT_TRUE(close(
                                y[(size_t)(c * dld + l)], want[(size_t)c]))
                                << w << " fwd lane " << l << " c " << c;
                        dst[(size_t)(c * dld + l)] = (float)unscaled[(size_t)c];
                    }
                }
                for (dim_t c = 0; c < C; ++c)
                    for (dim_t l = nl; l < dld; ++l)
                        ASSERT_EQ(y[(size_t)(c * dld + l)], 42.f)
                                << w << " fwd wrote a gap";

                const auto dd = random_floats((size_t)(C * ddld), -1.f, 1.f, 9);
                const dim_t dsld = nl + 2;
                std::vector<float> ds((size_t)(C * dsld), 42.f);
                e->bwd_lanes(dst.data(), dld, dd.data(), ddld, ds.data(), dsld,
                        C, nl, log, tmp.data());
                for (dim_t l = 0; l < nl; ++l) {
                    const auto want = ref_bwd(
                            dst.data() + l, dld, dd.data() + l, ddld, C, log);
                    for (dim_t c = 0; c < C; ++c)
                        ASSERT_TRUE(close(
                                ds[(size_t)(c * dsld + l)], want[(size_t)c]))
                                << w << " bwd lane " << l << " c " << c << ": "
                                << ds[(size_t)(c * dsld + l)] << " vs "
                                << want[(size_t)c];
                }
                for (dim_t c = 0; c < C; ++c)
                    for (dim_t l = nl; l < dsld; ++l)
                        ASSERT_EQ(ds[(size_t)(c * dsld + l)], 42.f)
                                << w << " bwd wrote a gap";
            }
}
