// The resampling row kernels (src/cpu/resampling/resampling_kernels.hpp):
// every function of every entry this processor supports against naive
// loops: the vertical blend (axpy), the fused linear and nearest gathers
// over points of V channels (V = 16 and 8, the compiled channel blocks,
// and odd channels-last widths) and over single values, and the backward
// inverse-tap sums, including inputs no output reads; whole planes of
// short rows. Outputs carry a
// guard past their end that must stay untouched.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/resampling/resampling_kernels.hpp"
#include "cpu/resampling/resampling_taps.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace resampling = dnnl::impl::cpu::resampling;
using kernel_table_glue::random_floats;

std::vector<const resampling::kernel_table_t *> entries() {
    return kernel_table_glue::runnable_entries<resampling::kernel_table_t>(
            "resampling");
}

bool close(float got, double want) {
    return std::fabs((double)got - want)
           <= 1e-6 * std::max(1.0, std::fabs(want)) * 4;
}

const dim_t widths[] = {1, 3, 8, 16, 19};

// Taps of an output row of OW points from IW source points: two source
// indices and weights per output point (as a linear resampling would
// give, the second index clipped to the row).
struct taps_t {
    std::vector<dim_t> i0, i1;
    std::vector<float> w0, w1;
    taps_t(dim_t OW, dim_t IW) {
        for (dim_t k = 0; k < OW; ++k) {
            const double s = (k + 0.5) * IW / OW - 0.5;
            const dim_t a = std::max<dim_t>(0, (dim_t)std::floor(s));
            const dim_t b = std::min(a + 1, IW - 1);
            const float f = (float)std::min(1.0, std::max(0.0, s - a));
            i0.push_back(a), i1.push_back(b);
            w0.push_back(1.f - f), w1.push_back(f);
        }
    }
};

} // namespace

TEST(KernelTables, ResamplingRowBlendsOnEveryIsa) {
    const auto v = entries();
    ASSERT_FALSE(v.empty());
    for (const auto *e : v)
        for (dim_t IW : {1, 5, 17, 40})
            for (dim_t OW : {1, 7, 16, 33, 81}) {
                const auto s = random_floats((size_t)IW, -1.f, 1.f, 3);
                const taps_t t(OW, IW);
                const std::string w = std::string(e->isa_name) + " IW "
                                      + std::to_string(IW) + " OW "
                                      + std::to_string(OW);
                std::vector<float> y((size_t)OW + 1, 42.f);
                e->blend_row(y.data(), s.data(), t.i0.data(), t.i1.data(),
                        t.w0.data(), t.w1.data(), OW);
                for (dim_t k = 0; k < OW; ++k) {
                    const size_t K = (size_t)k;
                    const double want = (double)t.w0[K] * s[(size_t)t.i0[K]]
                                        + (double)t.w1[K] * s[(size_t)t.i1[K]];
                    ASSERT_TRUE(close(y[K], want)) << w << " blend at " << k;
                }
                ASSERT_EQ(y[(size_t)OW], 42.f) << w << " blend wrote past";
                e->copy_row(y.data(), s.data(), t.i1.data(), OW);
                for (dim_t k = 0; k < OW; ++k)
                    ASSERT_EQ(y[(size_t)k], s[(size_t)t.i1[(size_t)k]]) << w;
                ASSERT_EQ(y[(size_t)OW], 42.f) << w << " copy wrote past";
            }
}

// Whole planes: taps along h (one or two a row, as hcnt says) and w,
// against the same sums in double; nearest takes the first taps.
TEST(KernelTables, ResamplingPlanesOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t IH : {1, 5, 9})
            for (dim_t OH : {1, 4, 10})
                for (dim_t OW : {1, 4, 15}) {
                    const dim_t IW = 6;
                    const auto s =
                            random_floats((size_t)(IH * IW), -1.f, 1.f, 7);
                    const taps_t th(OH, IH), tw(OW, IW);
                    std::vector<int> hcnt;
                    for (dim_t h = 0; h < OH; ++h)
                        hcnt.push_back(th.w1[(size_t)h] != 0.f ? 2 : 1);
                    const std::string w = std::string(e->isa_name) + " IH "
                                          + std::to_string(IH) + " OH "
                                          + std::to_string(OH) + " OW "
                                          + std::to_string(OW);
                    const size_t n = (size_t)(OH * OW);
                    std::vector<float> y(n + 1, 42.f);
                    e->linear_plane(y.data(), s.data(), IW, th.i0.data(),
                            th.i1.data(), th.w0.data(), th.w1.data(),
                            hcnt.data(), OH, tw.i0.data(), tw.i1.data(),
                            tw.w0.data(), tw.w1.data(), OW, false);
                    for (dim_t h = 0; h < OH; ++h)
                        for (dim_t k = 0; k < OW; ++k) {
                            const size_t H = (size_t)h, K = (size_t)k;
                            auto col = [&](dim_t i) {
                                double t = (double)th.w0[H]
                                           * s[(size_t)(th.i0[H] * IW + i)];
                                if (hcnt[H] == 2)
                                    t += (double)th.w1[H]
                                         * s[(size_t)(th.i1[H] * IW + i)];
                                return t;
                            };
                            const double want = tw.w0[K] * col(tw.i0[K])
                                                + tw.w1[K] * col(tw.i1[K]);
                            ASSERT_TRUE(close(y[(size_t)(h * OW + k)], want))
                                    << w << " linear at " << h << "," << k;
                        }
                    ASSERT_EQ(y[n], 42.f) << w << " linear wrote past";
                    e->copy_plane(y.data(), s.data(), IW, th.i0.data(), OH,
                            tw.i0.data(), OW, false);
                    for (dim_t h = 0; h < OH; ++h)
                        for (dim_t k = 0; k < OW; ++k)
                            ASSERT_EQ(y[(size_t)(h * OW + k)],
                                    s[(size_t)(th.i0[(size_t)h] * IW
                                               + tw.i0[(size_t)k])])
                                    << w << " nearest at " << h << "," << k;
                    ASSERT_EQ(y[n], 42.f) << w << " nearest wrote past";
                    // 2x along w, the unpack form (i0[k] = k / 2).
                    std::vector<dim_t> half;
                    for (dim_t k = 0; k < 2 * IW; ++k) half.push_back(k / 2);
                    std::vector<float> z((size_t)(OH * 2 * IW) + 1, 42.f);
                    e->copy_plane(z.data(), s.data(), IW, th.i0.data(), OH,
                            half.data(), 2 * IW, true);
                    for (dim_t h = 0; h < OH; ++h)
                        for (dim_t k = 0; k < 2 * IW; ++k)
                            ASSERT_EQ(z[(size_t)(h * 2 * IW + k)],
                                    s[(size_t)(th.i0[(size_t)h] * IW + k / 2)])
                                    << w << " doubling at " << h << "," << k;
                    ASSERT_EQ(z.back(), 42.f) << w << " doubling wrote past";
                }
}

// Linear 2x along w: the library's own taps are the halves form, and
// blend2_row (and linear_plane told so) gives what the tables give.
TEST(KernelTables, ResamplingLinearDoublingOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t IW : {1, 2, 3, 8, 17, 31, 40}) {
            resampling::taps_t tp;
            tp.init(IW, 2 * IW, true);
            ASSERT_TRUE(tp.halves) << "IW " << IW;
            const dim_t OW = 2 * IW;
            const auto t = random_floats((size_t)IW, -1.f, 1.f, 11);
            std::vector<float> want((size_t)OW), got((size_t)OW + 1, 42.f);
            e->blend_row(want.data(), t.data(), tp.i0.data(), tp.i1.data(),
                    tp.w0.data(), tp.w1.data(), OW);
            e->blend2_row(got.data(), t.data(), IW);
            for (dim_t k = 0; k < OW; ++k)
                ASSERT_TRUE(close(got[(size_t)k], want[(size_t)k]))
                        << e->isa_name << " IW " << IW << " at " << k;
            ASSERT_EQ(got[(size_t)OW], 42.f) << e->isa_name << " wrote past";
            // A plane of three rows, two taps along h.
            const auto s = random_floats((size_t)(2 * IW), -1.f, 1.f, 12);
            const dim_t hi0[3] = {0, 0, 1}, hi1[3] = {1, 1, 1};
            const float hw0[3] = {0.5f, 0.25f, 1.f},
                        hw1[3] = {0.5f, 0.75f, 0.f};
            const int hcnt[3] = {2, 2, 1};
            std::vector<float> pw((size_t)(3 * OW)),
                    pg((size_t)(3 * OW) + 1, 42.f);
            e->linear_plane(pw.data(), s.data(), IW, hi0, hi1, hw0, hw1, hcnt,
                    3, tp.i0.data(), tp.i1.data(), tp.w0.data(), tp.w1.data(),
                    OW, false);
            e->linear_plane(pg.data(), s.data(), IW, hi0, hi1, hw0, hw1, hcnt,
                    3, tp.i0.data(), tp.i1.data(), tp.w0.data(), tp.w1.data(),
                    OW, true);
            for (size_t k = 0; k < pw.size(); ++k)
                ASSERT_TRUE(close(pg[k], pw[k]))
                        << e->isa_name << " plane IW " << IW << " at " << k;
            ASSERT_EQ(pg.back(), 42.f) << e->isa_name << " plane wrote past";
        }
    // Not the halves form: 2x nearest, and linear 3 -> 7.
    resampling::taps_t a, b;
    a.init(5, 10, false);
    b.init(3, 7, true);
    EXPECT_FALSE(a.halves);
    EXPECT_FALSE(b.halves);
}

// Nearest 2x along w: every source value twice, nothing past 2 * IW.
TEST(KernelTables, ResamplingDup2RowOnEveryIsa) {
    const auto v = entries();
    ASSERT_FALSE(v.empty());
    for (const auto *e : v)
        for (dim_t IW : {1, 3, 8, 17, 64, 101}) {
            const auto s = random_floats((size_t)IW, -1.f, 1.f, 5);
            std::vector<float> y((size_t)(2 * IW) + 1, 42.f);
            e->dup2_row(y.data(), s.data(), IW);
            for (dim_t k = 0; k < 2 * IW; ++k)
                ASSERT_EQ(y[(size_t)k], s[(size_t)(k / 2)])
                        << e->isa_name << " IW " << IW << " at " << k;
            ASSERT_EQ(y[(size_t)(2 * IW)], 42.f) << e->isa_name << " wrote past";
        }
}

// y[k * V + v] = sum_r wr[r] * (w0[k] * row_r[i0[k] * V + v]
//                               + w1[k] * row_r[i1[k] * V + v]).
TEST(KernelTables, ResamplingChannelVectorsOnEveryIsa) {
    const dim_t IW = 9, OW = 14;
    const taps_t t(OW, IW);
    for (const auto *e : entries())
        for (dim_t V : widths)
            for (int nr : {1, 2, 4}) {
                std::vector<std::vector<float>> rows;
                std::vector<const float *> rp;
                for (int r = 0; r < nr; ++r)
                    rows.push_back(random_floats(
                            (size_t)(IW * V), -1.f, 1.f, 40 + (unsigned)r));
                for (const auto &r : rows) rp.push_back(r.data());
                const float wr[4] = {0.5f, 0.25f, 0.125f, 0.125f};
                const size_t n = (size_t)(OW * V);
                std::vector<float> y(n + 1, 42.f);
                e->linear_vec(y.data(), rp.data(), wr, nr, t.i0.data(),
                        t.i1.data(), t.w0.data(), t.w1.data(), OW, V);
                const std::string w = std::string(e->isa_name) + " V "
                                      + std::to_string(V) + " nr "
                                      + std::to_string(nr);
                for (dim_t k = 0; k < OW; ++k)
                    for (dim_t c = 0; c < V; ++c) {
                        const size_t K = (size_t)k;
                        double want = 0;
                        for (int r = 0; r < nr; ++r)
                            want += wr[r]
                                    * ((double)t.w0[K]
                                                    * rows[(size_t)r]
                                                          [(size_t)(t.i0[K] * V
                                                                    + c)]
                                            + (double)t.w1[K]
                                                      * rows[(size_t)r]
                                                            [(size_t)(t.i1[K] * V
                                                                      + c)]);
                        ASSERT_TRUE(close(y[(size_t)(k * V + c)], want))
                                << w << " linear at " << k << "," << c;
                    }
                ASSERT_EQ(y[n], 42.f) << w << " linear wrote past";
                e->copy_vec(y.data(), rows[0].data(), t.i1.data(), OW, V);
                for (dim_t k = 0; k < OW; ++k)
                    for (dim_t c = 0; c < V; ++c)
                        ASSERT_EQ(y[(size_t)(k * V + c)],
                                rows[0][(size_t)(t.i1[(size_t)k] * V + c)])
                                << w << " copy at " << k << "," << c;
                ASSERT_EQ(y[n], 42.f) << w << " copy wrote past";
            }
}

// Backward along w: source point i gathers w[e] * t[o[e]] over its taps
// [start[i], start[i + 1]); a point with no taps gets 0.
TEST(KernelTables, ResamplingInverseTapsOnEveryIsa) {
    const dim_t IW = 11, OW = 6;
    // Taps per source point: 0, 1, 2 or 3 of them, cycling.
    std::vector<dim_t> start{0}, o;
    std::vector<float> wt;
    for (dim_t i = 0; i < IW; ++i) {
        const dim_t n = i % 4;
        for (dim_t e = 0; e < n; ++e) {
            o.push_back((i + 2 * e) % OW);
            wt.push_back(0.25f * (float)(e + 1));
        }
        start.push_back((dim_t)o.size());
    }
    for (const auto *e : entries()) {
        const std::string isa(e->isa_name);
        for (dim_t V : widths) {
            const auto t = random_floats((size_t)(OW * V), -1.f, 1.f, 50);
            std::vector<float> y((size_t)(IW * V) + 1, 42.f);
            e->inv_vec(y.data(), t.data(), start.data(), o.data(), wt.data(),
                    IW, V);
            for (dim_t i = 0; i < IW; ++i)
                for (dim_t c = 0; c < V; ++c) {
                    double want = 0;
                    for (dim_t q = start[(size_t)i]; q < start[(size_t)i + 1];
                            ++q)
                        want += (double)wt[(size_t)q]
                                * t[(size_t)(o[(size_t)q] * V + c)];
                    ASSERT_TRUE(close(y[(size_t)(i * V + c)], want))
                            << isa << " inv_vec V " << V << " at " << i << ","
                            << c;
                }
            ASSERT_EQ(y[(size_t)(IW * V)], 42.f) << isa << " inv_vec past";
        }
        const auto t = random_floats((size_t)OW, -1.f, 1.f, 51);
        std::vector<float> y((size_t)IW + 1, 42.f);
        e->inv_row(y.data(), t.data(), start.data(), o.data(), wt.data(), IW);
        for (dim_t i = 0; i < IW; ++i) {
            double want = 0;
            for (dim_t q = start[(size_t)i]; q < start[(size_t)i + 1]; ++q)
                want += (double)wt[(size_t)q] * t[(size_t)o[(size_t)q]];
            ASSERT_TRUE(close(y[(size_t)i], want)) << isa << " inv_row " << i;
        }
        ASSERT_EQ(y[(size_t)IW], 42.f) << isa << " inv_row past";
    }
}

// t = w * s, then t += w * s, over lengths with vector tails.
TEST(KernelTables, ResamplingAxpyTailsOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t n : {1, 7, 8, 15, 16, 17, 65}) {
            const auto s = random_floats((size_t)n, -1.f, 1.f, 60);
            const auto s2 = random_floats((size_t)n, -1.f, 1.f, 61);
            std::vector<float> t((size_t)n + 1, 42.f);
            e->axpy(t.data(), s.data(), 0.3f, n, true);
            e->axpy(t.data(), s2.data(), -0.7f, n, false);
            for (dim_t i = 0; i < n; ++i)
                ASSERT_TRUE(close(
                        t[(size_t)i], 0.3 * s[(size_t)i] - 0.7 * s2[(size_t)i]))
                        << e->isa_name << " n " << n << " at " << i;
            ASSERT_EQ(t[(size_t)n], 42.f) << e->isa_name << " wrote past";
        }
}
