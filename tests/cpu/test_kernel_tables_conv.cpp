// The convolution kernel table (src/cpu/convolution/conv_kernels.hpp):
// the depthwise row kernels (channels last: forward, backward data and
// weights; channels first: forward), the
// implicit GEMM's B-panel packing (the generic pack of every entry, the
// AVX-512 entry's gathering pack with its plan) of every entry this processor supports, against naive loops. Shapes
// have tails: channel counts past the 64- and 16-wide blocks, output
// rows clipped by padding, strides, dilation, K ranges that start inside
// a kernel tap and panels with unused lanes.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/convolution/conv_igemm_pack.hpp"
#include "cpu/convolution/conv_kernels.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace conv = dnnl::impl::cpu::conv;
namespace gemm = dnnl::impl::cpu::gemm;
using kernel_table_glue::random_floats;

const auto entries = [] {
    return kernel_table_glue::runnable_entries<conv::conv_kernels_t>("conv");
};

// A 3-D geometry; dilations are given as oneDNN's (0 = dense) and stored
// plus one, as the plan does.
conv::conv_conf_t conf(dim_t g, dim_t icg, dim_t id, dim_t ih, dim_t iw,
        dim_t k, dim_t s, dim_t dil, dim_t pad, dim_t kd = 1) {
    conv::conv_conf_t c;
    c.ndims = 5;
    c.mb = 1;
    c.g = g;
    c.icg = icg;
    c.ocg = 1;
    c.id = id;
    c.ih = ih;
    c.iw = iw;
    c.kd = kd;
    c.kh = c.kw = k;
    c.sd = c.sh = c.sw = s;
    c.ddl = c.dhl = c.dwl = dil + 1;
    c.pf = kd > 1 ? pad : 0;
    c.pt = c.pl = pad;
    auto out = [&](dim_t i, dim_t kk, dim_t p) {
        return (i + 2 * p - ((kk - 1) * (dil + 1) + 1)) / s + 1;
    };
    c.od = out(id, kd, c.pf);
    c.oh = out(ih, k, pad);
    c.ow = out(iw, k, pad);
    return c;
}

std::string conf_name(const conv::conv_conf_t &c) {
    return "g" + std::to_string(c.g) + "ic" + std::to_string(c.icg) + "id"
            + std::to_string(c.id) + "ih" + std::to_string(c.ih) + "iw"
            + std::to_string(c.iw) + "k" + std::to_string(c.kw) + "s"
            + std::to_string(c.sw) + "dl" + std::to_string(c.dwl) + "p"
            + std::to_string(c.pl);
}

} // namespace

// Depthwise, channels last: one output row from the input rows of the
// kernel rows that fall inside the source (the caller's choice), G
// channels per point; 83 channels = five 16 blocks and a tail, interior
// points 8 at a time and singly (30 wide), border points tap by tap.
TEST(KernelTables, ConvDepthwiseRowChannelsLastOnEveryIsa) {
    ASSERT_FALSE(entries().empty());
    const dim_t G = 83;
    for (const auto *e : entries())
        for (const auto &c : {conf(G, 1, 1, 5, 11, 3, 2, 0, 1),
                     conf(G, 1, 1, 5, 12, 3, 1, 1, 2),
                     conf(G, 1, 1, 5, 9, 3, 1, 0, 0),
                     conf(G, 1, 1, 5, 30, 3, 1, 1, 0)}) {
            const auto src
                    = random_floats((size_t)(c.ih * c.iw * G), -1.f, 1.f, 51);
            const auto w = random_floats(
                    (size_t)(c.kh * c.kw * G), -1.f, 1.f, 52);
            // Output row oh = 0: kernel rows whose input row exists.
            std::vector<const float *> rows;
            std::vector<dim_t> taps;
            for (dim_t kh = 0; kh < c.kh; ++kh) {
                const dim_t ih = -c.pt + kh * c.dhl;
                if (ih < 0 || ih >= c.ih) continue;
                rows.push_back(src.data() + ih * c.iw * G);
                taps.push_back(kh);
            }
            const dim_t ldo = G + 5;
            // All channels, and a range from the second 16-block with a
            // tail (a thread's share of a few rows).
            for (const auto &range : {std::make_pair<dim_t, dim_t>(0, 83),
                         std::make_pair<dim_t, dim_t>(16, 35)}) {
                const dim_t c0 = range.first, nc = range.second;
                std::vector<float> out((size_t)(c.ow * ldo), 42.f);
                e->dw_row_nspc(c, rows.data(), taps.data(), (int)rows.size(),
                        w.data(), out.data(), ldo, c0, nc);
                const std::string what = std::string(e->isa) + " "
                        + conf_name(c) + " c0 " + std::to_string(c0);
                for (dim_t ow = 0; ow < c.ow; ++ow)
                    for (dim_t g = 0; g < ldo; ++g) {
                        const float got = out[(size_t)(ow * ldo + g)];
                        if (g < c0 || g >= c0 + nc) {
                            EXPECT_EQ(got, 42.f) << what << " wrote g " << g;
                            continue;
                        }
                        double s = 0;
                        for (size_t r = 0; r < rows.size(); ++r)
                            for (dim_t kw = 0; kw < c.kw; ++kw) {
                                const dim_t iw = ow * c.sw - c.pl + kw * c.dwl;
                                if (iw < 0 || iw >= c.iw) continue;
                                s += (double)rows[r][iw * G + g]
                                        * w[(size_t)((taps[r] * c.kw + kw) * G
                                                + g)];
                            }
                        EXPECT_NEAR(got, s, 1e-5)
                                << what << " ow " << ow << " g " << g;
                    }
            }
        }
}

// Depthwise backward data, channels last: one diff_src row (ih = 1)
// from the diff_dst rows of the kernel rows that reach it; strides 1
// (columns 8 at a time inside the padding) and 2 (column by column).
TEST(KernelTables, ConvDepthwiseBackwardDataRowOnEveryIsa) {
    const dim_t G = 83;
    for (const auto *e : entries())
        for (const auto &c : {conf(G, 1, 1, 5, 30, 3, 1, 0, 1),
                     conf(G, 1, 1, 5, 31, 3, 1, 1, 2),
                     conf(G, 1, 1, 6, 13, 3, 2, 0, 1)}) {
            const dim_t ih = 1;
            const auto dd = random_floats(
                    (size_t)(c.oh * c.ow * G), -1.f, 1.f, 61);
            const auto w = random_floats(
                    (size_t)(c.kh * c.kw * G), -1.f, 1.f, 62);
            std::vector<const float *> rows;
            std::vector<dim_t> taps;
            for (dim_t kh = 0; kh < c.kh; ++kh) {
                const dim_t num = ih + c.pt - kh * c.dhl;
                if (num < 0 || num % c.sh || num / c.sh >= c.oh) continue;
                rows.push_back(dd.data() + num / c.sh * c.ow * G);
                taps.push_back(kh);
            }
            const dim_t ldo = G + 5;
            std::vector<float> out((size_t)(c.iw * ldo), 42.f);
            e->dw_bwd_d_row_nspc(c, rows.data(), taps.data(),
                    (int)rows.size(), w.data(), out.data(), ldo);
            const std::string what = std::string(e->isa) + " " + conf_name(c);
            for (dim_t iw = 0; iw < c.iw; ++iw)
                for (dim_t g = 0; g < ldo; ++g) {
                    const float got = out[(size_t)(iw * ldo + g)];
                    if (g >= G) {
                        EXPECT_EQ(got, 42.f) << what << " wrote past G";
                        continue;
                    }
                    double s = 0;
                    for (size_t r = 0; r < rows.size(); ++r)
                        for (dim_t kw = 0; kw < c.kw; ++kw) {
                            const dim_t num = iw + c.pl - kw * c.dwl;
                            if (num < 0 || num % c.sw || num / c.sw >= c.ow)
                                continue;
                            s += (double)rows[r][num / c.sw * G + g]
                                    * w[(size_t)((taps[r] * c.kw + kw) * G
                                            + g)];
                        }
                    EXPECT_NEAR(got, s, 1e-5)
                            << what << " iw " << iw << " g " << g;
                }
        }
}

// Depthwise backward weights, channels last: one diff_dst row (oh = 0)
// added to partial sums (and bias sums) that already hold values; taps
// in groups of up to four (5 wide: four and one) with their own border
// columns; rows of several column blocks (many channels, or long rows).
TEST(KernelTables, ConvDepthwiseBackwardWeightsRowOnEveryIsa) {
    for (const dim_t G : {83, 300})
    for (const auto *e : entries())
        for (const auto &c : {conf(G, 1, 1, 5, 30, 3, 1, 0, 1),
                     conf(G, 1, 1, 5, 31, 3, 2, 1, 2),
                     conf(G, 1, 1, 5, 9, 5, 1, 0, 0),
                     conf(G, 1, 1, 5, 23, 5, 1, 0, 2),
                     conf(G, 1, 1, 3, 130, 3, 1, 0, 1)}) {
            const auto src = random_floats(
                    (size_t)(c.ih * c.iw * G), -1.f, 1.f, 63);
            const auto dd = random_floats((size_t)(c.ow * G), -1.f, 1.f, 64);
            std::vector<const float *> rows;
            std::vector<dim_t> taps;
            for (dim_t kh = 0; kh < c.kh; ++kh) {
                const dim_t ih = -c.pt + kh * c.dhl;
                if (ih < 0 || ih >= c.ih) continue;
                rows.push_back(src.data() + ih * c.iw * G);
                taps.push_back(kh);
            }
            const size_t n = (size_t)(c.kh * c.kw * G);
            const auto start = random_floats(n, -1.f, 1.f, 65);
            std::vector<float> acc = start;
            const auto bias_start = random_floats((size_t)G, -1.f, 1.f, 66);
            std::vector<float> bias = bias_start;
            e->dw_bwd_w_row_nspc(c, rows.data(), taps.data(),
                    (int)rows.size(), dd.data(), acc.data(), bias.data());
            for (dim_t g = 0; g < G; ++g) {
                double b = bias_start[(size_t)g];
                for (dim_t ow = 0; ow < c.ow; ++ow) b += dd[ow * G + g];
                EXPECT_NEAR(bias[(size_t)g], b, 1e-4) << "bias g " << g;
            }
            const std::string what = std::string(e->isa) + " " + conf_name(c);
            for (size_t r = 0; r < rows.size(); ++r)
                for (dim_t kw = 0; kw < c.kw; ++kw)
                    for (dim_t g = 0; g < G; ++g) {
                        double s = start[(size_t)((taps[r] * c.kw + kw) * G
                                + g)];
                        for (dim_t ow = 0; ow < c.ow; ++ow) {
                            const dim_t iw = ow * c.sw - c.pl + kw * c.dwl;
                            if (iw < 0 || iw >= c.iw) continue;
                            s += (double)rows[r][iw * G + g] * dd[ow * G + g];
                        }
                        EXPECT_NEAR(acc[(size_t)((taps[r] * c.kw + kw) * G
                                            + g)],
                                s, 1e-4)
                                << what << " tap " << taps[r] << "," << kw
                                << " g " << g;
                    }
        }
}

// Depthwise, channels first: every output row of one channel's 3-D plane.
TEST(KernelTables, ConvDepthwiseRowChannelsFirstOnEveryIsa) {
    for (const auto *e : entries())
        for (const auto &c : {conf(1, 1, 4, 7, 19, 3, 2, 0, 1, 3),
                     conf(1, 1, 3, 6, 23, 3, 1, 1, 2, 3),
                     conf(1, 1, 1, 5, 17, 5, 1, 0, 2)}) {
            const auto src = random_floats(
                    (size_t)(c.id * c.ih * c.iw), -1.f, 1.f, 53);
            const auto w = random_floats((size_t)c.ksp(), -1.f, 1.f, 54);
            const std::string what = std::string(e->isa) + " " + conf_name(c);
            std::vector<float> acc((size_t)c.ow + 3);
            for (dim_t od = 0; od < c.od; ++od)
                for (dim_t oh = 0; oh < c.oh; ++oh) {
                    acc.assign(acc.size(), 42.f);
                    e->dw_row_ncsp(c, src.data(), w.data(), od, oh, acc.data());
                    for (dim_t ow = 0; ow < c.ow; ++ow) {
                        double s = 0;
                        for (dim_t kd = 0; kd < c.kd; ++kd)
                            for (dim_t kh = 0; kh < c.kh; ++kh)
                                for (dim_t kw = 0; kw < c.kw; ++kw) {
                                    const dim_t id
                                            = od * c.sd - c.pf + kd * c.ddl;
                                    const dim_t ih
                                            = oh * c.sh - c.pt + kh * c.dhl;
                                    const dim_t iw
                                            = ow * c.sw - c.pl + kw * c.dwl;
                                    if (id < 0 || id >= c.id || ih < 0
                                            || ih >= c.ih || iw < 0
                                            || iw >= c.iw)
                                        continue;
                                    s += (double)src[(size_t)((id * c.ih + ih)
                                                                 * c.iw
                                                         + iw)]
                                            * w[(size_t)((kd * c.kh + kh)
                                                            * c.kw
                                                    + kw)];
                                }
                        EXPECT_NEAR(acc[(size_t)ow], s, 1e-5)
                                << what << " od " << od << " oh " << oh
                                << " ow " << ow;
                    }
                    for (size_t i = (size_t)c.ow; i < acc.size(); ++i)
                        EXPECT_EQ(acc[i], 42.f) << what << " wrote past ow";
                }
        }
}

namespace {

// Output points [sp0, sp0 + nsp) as runs along output rows (what the
// implicit-GEMM driver hands the packing kernel).
std::vector<conv::run_t> runs_of(
        const conv::conv_conf_t &c, dim_t sp0, dim_t nsp, int NR) {
    std::vector<conv::run_t> runs;
    for (dim_t j = 0; j < nsp;) {
        const dim_t sp = sp0 + j;
        const dim_t ow0 = sp % c.ow, oh = (sp / c.ow) % c.oh,
                    od = sp / (c.ow * c.oh);
        const dim_t len = std::min(nsp - j, c.ow - ow0);
        runs.push_back({j, len, od * c.sd - c.pf, oh * c.sh - c.pt, ow0,
                j / NR, j % NR});
        j += len;
    }
    return runs;
}

// The im2col value of GEMM row k and output point sp, from the source of
// one (image, group): channels first (k = (ic, kd, kh, kw)) or channels
// last (k = (kd, kh, kw, ic), channel stride IC); zero in the padding.
template <typename V>
double col(const conv::conv_conf_t &c, bool ncsp, const V &src, dim_t k,
        dim_t sp) {
    const dim_t ksp = c.ksp();
    const dim_t ic = ncsp ? k / ksp : k % c.icg;
    const dim_t kr = ncsp ? k % ksp : k / c.icg;
    const dim_t kw = kr % c.kw, kh = (kr / c.kw) % c.kh,
                kd = kr / (c.kw * c.kh);
    const dim_t ow = sp % c.ow, oh = (sp / c.ow) % c.oh,
                od = sp / (c.ow * c.oh);
    const dim_t id = od * c.sd - c.pf + kd * c.ddl;
    const dim_t ih = oh * c.sh - c.pt + kh * c.dhl;
    const dim_t iw = ow * c.sw - c.pl + kw * c.dwl;
    if (id < 0 || id >= c.id || ih < 0 || ih >= c.ih || iw < 0 || iw >= c.iw)
        return 0.0;
    const dim_t point = (id * c.ih + ih) * c.iw + iw;
    return src(ncsp ? ic * c.isp() + point : point * c.ic() + ic);
}

float bf16_to_f32(uint16_t b) {
    const uint32_t u = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// An f16 value from its fields (the test makes normal numbers only).
float f16_to_f32(uint16_t h) {
    const int e = (h >> 10) & 31;
    const float m = 1.f + (float)(h & 1023) / 1024.f;
    return (h & 0x8000 ? -1.f : 1.f) * std::ldexp(m, e - 15);
}

// f16 bits of normal numbers of moderate size: exponents 10..20.
std::vector<uint16_t> random_f16(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::vector<uint16_t> v(n);
    for (auto &h : v)
        h = (uint16_t)((g() & 0x8000) | ((10 + g() % 11) << 10) | (g() & 1023));
    return v;
}

} // namespace

// B panels of K rows [pc, pc + kc) for a chunk of output points that
// starts and ends inside output rows: bp[j / NR][p][j % NR], zero lanes
// past the chunk. f32, bf16 and f16 sources, both layouts, a pointwise
// case.
TEST(KernelTables, ConvImplicitGemmPackOnEveryIsa) {
    struct case_t {
        conv::conv_conf_t c;
        dim_t sp0, nsp, pc, kc;
    };
    // Two groups of 5 channels: group 1 is packed, so channels-last reads
    // skip the other group's channels.
    auto grouped = [](conv::conv_conf_t c) {
        c.g = 2;
        return c;
    };
    const case_t cases[] = {
            {grouped(conf(1, 5, 1, 7, 9, 3, 1, 0, 1)), 4, 37, 0, 45},
            {grouped(conf(1, 5, 1, 7, 9, 3, 1, 0, 1)), 11, 29, 7, 23},
            {grouped(conf(1, 5, 3, 6, 11, 3, 2, 1, 2, 3)), 3, 21, 13, 50},
            {grouped(conf(1, 5, 1, 6, 10, 1, 1, 0, 0)), 5, 33, 1, 3},
            // A wide kernel over rows of 16 points and more (the walk
            // along runs, not the offset table).
            {grouped(conf(1, 2, 1, 18, 20, 17, 1, 0, 8)), 2, 30, 40, 300},
    };
    for (const auto *e : entries())
        for (const auto &t : cases)
            for (bool ncsp : {true, false})
                for (int NR : {8, 16, 32}) {
                    const auto &c = t.c;
                    const size_t n = (size_t)(c.isp() * c.ic());
                    const auto src = random_floats(n, -1.f, 1.f, 55);
                    std::vector<uint16_t> src16(n);
                    for (size_t i = 0; i < n; ++i) {
                        uint32_t u;
                        std::memcpy(&u, &src[i], 4);
                        src16[i] = (uint16_t)(u >> 16);
                    }
                    const auto srch = random_f16(n, 56);
                    // Group 1's source: channels first start at its first
                    // channel plane, channels last at its first channel.
                    const dim_t g0 = ncsp ? c.icg * c.isp() : c.icg;
                    const auto runs = runs_of(c, t.sp0, t.nsp, NR);
                    const dim_t npanels = (t.nsp + NR - 1) / NR;
                    const size_t bsize = (size_t)(npanels * t.kc * NR);
                    std::vector<float> bp(bsize + 7, 42.f), bq(bp), bh(bp);
                    e->pack_b_f32(c, ncsp, src.data() + g0, runs, t.pc, t.kc,
                            t.sp0, t.nsp, NR, bp.data());
                    e->pack_b_bf16(c, ncsp,
                            reinterpret_cast<const gemm::bf16_tag_t *>(
                                    src16.data() + g0),
                            runs, t.pc, t.kc, t.sp0, t.nsp, NR, bq.data());
                    e->pack_b_f16(c, ncsp,
                            reinterpret_cast<const gemm::f16_tag_t *>(
                                    srch.data() + g0),
                            runs, t.pc, t.kc, t.sp0, t.nsp, NR, bh.data());
                    const std::string what = std::string(e->isa) + " "
                            + conf_name(c) + (ncsp ? " ncsp" : " nspc")
                            + " NR " + std::to_string(NR) + " pc "
                            + std::to_string(t.pc);
                    for (dim_t p = 0; p < t.kc; ++p)
                        for (dim_t j = 0; j < npanels * NR; ++j) {
                            const size_t o
                                    = (size_t)((j / NR) * t.kc * NR + p * NR
                                            + j % NR);
                            double want = 0, want16 = 0, wanth = 0;
                            if (j < t.nsp) {
                                want = col(c, ncsp,
                                        [&](dim_t i) {
                                            return src[(size_t)(g0 + i)];
                                        },
                                        t.pc + p, t.sp0 + j);
                                want16 = col(c, ncsp,
                                        [&](dim_t i) {
                                            return bf16_to_f32(
                                                    src16[(size_t)(g0 + i)]);
                                        },
                                        t.pc + p, t.sp0 + j);
                                wanth = col(c, ncsp,
                                        [&](dim_t i) {
                                            return f16_to_f32(
                                                    srch[(size_t)(g0 + i)]);
                                        },
                                        t.pc + p, t.sp0 + j);
                            }
                            ASSERT_EQ(bp[o], (float)want)
                                    << what << " k " << t.pc + p << " j " << j;
                            ASSERT_EQ(bq[o], (float)want16)
                                    << what << " bf16 k " << t.pc + p
                                    << " j " << j;
                            ASSERT_EQ(bh[o], (float)wanth)
                                    << what << " f16 k " << t.pc + p
                                    << " j " << j;
                        }
                    for (size_t i = bsize; i < bp.size(); ++i) {
                        EXPECT_EQ(bp[i], 42.f) << what << " wrote past panels";
                        EXPECT_EQ(bq[i], 42.f) << what << " wrote past panels";
                        EXPECT_EQ(bh[i], 42.f) << what << " wrote past panels";
                    }
                }
}

// The gathering pack of f32 channels-first sources (the AVX-512 entry's
// pack_b_f32_gather, with a plan from igemm_gather_plan): the same panels
// as im2col. Chunks that start and end inside output rows and span
// several rows per 16-lane vector, unit and 2x width strides, padding on
// every side, dilation, 3-D, K ranges that start inside a channel, panel
// widths 16 and 32 (lanes past the chunk zero).
TEST(KernelTables, ConvImplicitGemmGatherPackOnEveryIsa) {
    struct case_t {
        conv::conv_conf_t c;
        dim_t sp0, nsp, pc, kc;
    };
    const case_t cases[] = {
            {conf(1, 3, 1, 7, 9, 3, 1, 0, 1), 4, 37, 0, 27},
            {conf(1, 3, 1, 7, 9, 3, 1, 0, 1), 11, 29, 7, 13},
            {conf(1, 2, 1, 9, 20, 3, 2, 0, 1), 3, 47, 2, 16},
            {conf(1, 2, 1, 6, 5, 3, 1, 1, 2), 0, 30, 0, 18},
            {conf(1, 2, 3, 6, 11, 3, 2, 0, 1, 3), 3, 21, 13, 40},
            {conf(1, 4, 1, 6, 40, 1, 1, 0, 0), 5, 70, 1, 3},
    };
    int ran = 0;
    for (const auto *e : entries()) {
        if (!e->pack_b_f32_gather) continue;
        for (const auto &t : cases)
            for (int NR : {16, 32}) {
                const auto &c = t.c;
                if (!conv::igemm_gather_fits(c, NR)) continue;
                ++ran;
                const auto src = random_floats(
                        (size_t)(c.isp() * c.icg), -1.f, 1.f, 56);
                conv::igemm_gather_t g;
                conv::igemm_gather_plan(c, t.sp0, t.nsp, NR, g);
                const dim_t npanels = (t.nsp + NR - 1) / NR;
                const size_t bsize = (size_t)(npanels * t.kc * NR);
                std::vector<float> bp(bsize + 7, 42.f);
                e->pack_b_f32_gather(
                        c, src.data(), g, t.pc, t.kc, NR, bp.data());
                const std::string what = std::string(e->isa) + " "
                        + conf_name(c) + " NR " + std::to_string(NR) + " sp0 "
                        + std::to_string(t.sp0) + " pc "
                        + std::to_string(t.pc);
                for (dim_t p = 0; p < t.kc; ++p)
                    for (dim_t j = 0; j < npanels * NR; ++j) {
                        const size_t o = (size_t)((j / NR) * t.kc * NR
                                + p * NR + j % NR);
                        const double want = j < t.nsp
                                ? col(c, true,
                                        [&](dim_t i) {
                                            return src[(size_t)i];
                                        },
                                        t.pc + p, t.sp0 + j)
                                : 0.0;
                        ASSERT_EQ(bp[o], (float)want)
                                << what << " k " << t.pc + p << " j " << j;
                    }
                for (size_t i = bsize; i < bp.size(); ++i)
                    EXPECT_EQ(bp[i], 42.f) << what << " wrote past panels";
            }
    }
    if (!ran) GTEST_SKIP() << "no entry with the gathering pack here";
}

// Only the AVX-512 entry carries the gathering pack, and the library's
// pick follows the ISA limit like every other table: an entry without it
// makes the implicit GEMM pack through pack_b_f32.
TEST(KernelTables, ConvGatherPackIsInTheAvx512EntryOnly) {
    for (int i = 0;; ++i) {
        unsigned isa = 0;
        const auto *k = static_cast<const conv::conv_kernels_t *>(
                dnnl_test_cpu_kernel_table_entry("conv", i, &isa, nullptr));
        if (!k) break;
        EXPECT_EQ(k->pack_b_f32_gather != nullptr,
                std::string(k->isa) == "avx512_core")
                << k->isa;
    }
}
