// f32 backward convolution on the BRGEMM kernels (brgconv_bwd_d,
// brgconv_bwd_w) through the public API against the naive reference:
// 1x1 (one GEMM per image, strides with points no tap reaches), 3x3,
// 7x7 stride 2, strides whose width phases have no tap, dilation with
// strides, asymmetric and negative padding, points that see only
// padding, 1D and 3D, channel counts past the panels and the vectors,
// output channels in blocks, input channels in blocks, wide rows in
// column blocks, chunks of rows across images, the bias gradient,
// sixteen threads' plans;
// `any` resolving to channels last and the passes' weight panels; what
// they decline going to the other implementations, correct; the names
// following the ISA limit.
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
#include <omp.h>
#elif DNNL_CPU_RUNTIME == DNNL_RUNTIME_TBB
#include <tbb/task_arena.h>
#endif

#include "brgemm_conv_glue.hpp"

namespace {

using namespace brgemm_conv_glue;

enum class dir_t { bwd_d, bwd_w };

// The forward descriptor that backward descriptors take as their hint.
convolution_forward::primitive_desc fwd_hint(const engine &eng,
        const shape_t &sh, const memory::desc &src, const memory::desc &wei,
        const memory::desc &bias, const memory::desc &dst) {
    return convolution_forward::primitive_desc(eng, prop_kind::forward_training,
            algorithm::convolution_direct, src, wei, bias, dst, sh.strides,
            sh.dil, sh.pl, sh.pr);
}

// Runs one backward pass of the case against the reference (outputs
// filled with garbage first: everything must be written); returns the
// implementation name.
std::string run_bwd(const case_t &c, dir_t dir, unsigned seed) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const shape_t sh = shape_of(c);
    const tag act = c.user_act == tag::undef ? tag::any : c.user_act;
    const tag wt = c.user_wei == tag::undef ? tag::any : c.user_wei;
    memory::desc src_md(sh.src, dt::f32, act), dst_md(sh.dst, dt::f32, act);
    memory::desc wei_md(sh.wei, dt::f32, wt);
    memory::desc bias_md =
            c.bias ? memory::desc({c.oc}, dt::f32, tag::a) : memory::desc();
    const auto hint = fwd_hint(eng, sh, src_md, wei_md, bias_md, dst_md);
    const auto ddst = random_floats(product(sh.dst), seed);
    std::vector<double> ref_dd(ddst.begin(), ddst.end());
    std::string impl;
    try {
        if (dir == dir_t::bwd_d) {
            convolution_backward_data::primitive_desc pd(eng,
                    algorithm::convolution_direct, src_md, wei_md, dst_md,
                    sh.strides, sh.dil, sh.pl, sh.pr, hint);
            impl = pd.impl_info_str();
            const auto wei = random_floats(product(sh.wei), seed + 1);
            memory wei_m = to_memory(eng, s, sh.wei, wei, pd.weights_desc());
            memory dd_m = to_memory(eng, s, sh.dst, ddst, pd.diff_dst_desc());
            memory ds_m = to_memory(eng, s, sh.src,
                    std::vector<float>(product(sh.src), 1e3f),
                    pd.diff_src_desc());
            convolution_backward_data(pd).execute(
                    s, {{DNNL_ARG_DIFF_DST, dd_m}, {DNNL_ARG_WEIGHTS, wei_m},
                               {DNNL_ARG_DIFF_SRC, ds_m}});
            const auto got = from_memory(eng, s, ds_m, sh.src);
            std::vector<double> ref, rw(wei.begin(), wei.end());
            conv_ref::conv_bwd_data(sh.p, ref_dd, rw, ref);
            expect_near(got, ref, (double)(c.oc * product(c.k)), impl);
            return impl;
        }
        convolution_backward_weights::primitive_desc pd(eng,
                algorithm::convolution_direct, src_md, wei_md, bias_md, dst_md,
                sh.strides, sh.dil, sh.pl, sh.pr, hint);
        impl = pd.impl_info_str();
        const auto src = random_floats(product(sh.src), seed + 2);
        memory src_m = to_memory(eng, s, sh.src, src, pd.src_desc());
        memory dd_m = to_memory(eng, s, sh.dst, ddst, pd.diff_dst_desc());
        memory dw_m(pd.diff_weights_desc(), eng);
        const size_t raw_n = pd.diff_weights_desc().get_size() / sizeof(float);
        float *raw = (float *)dw_m.get_data_handle();
        std::fill(raw, raw + raw_n, 1e3f); // padding included
        memory db_m(pd.diff_bias_desc(), eng);
        if (c.bias)
            std::fill((float *)db_m.get_data_handle(),
                    (float *)db_m.get_data_handle() + c.oc, 1e3f);
        std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src_m},
                {DNNL_ARG_DIFF_DST, dd_m}, {DNNL_ARG_DIFF_WEIGHTS, dw_m}};
        if (c.bias) args[DNNL_ARG_DIFF_BIAS] = db_m;
        convolution_backward_weights(pd).execute(s, args);
        const auto got = from_memory(eng, s, dw_m, sh.wei);
        std::vector<double> ref, ref_b, rs(src.begin(), src.end());
        conv_ref::conv_bwd_weights(
                sh.p, rs, ref_dd, ref, c.bias ? &ref_b : nullptr);
        const double K = (double)(sh.p.mb * sh.p.osp());
        expect_near(got, ref, K, impl + " diff_weights");
        // Padding of a blocked layout must hold zeros: the sum of the
        // whole buffer's magnitudes is that of the elements.
        double whole = 0, elems = 0;
        for (size_t i = 0; i < raw_n; ++i) whole += std::fabs(raw[i]);
        for (float v : got) elems += std::fabs(v);
        EXPECT_NEAR(whole, elems, 1e-4 * (1 + elems)) << impl << " padding";
        if (c.bias) {
            const float *b = (const float *)db_m.get_data_handle();
            expect_near(std::vector<float>(b, b + c.oc), ref_b, K,
                    impl + " diff_bias");
        }
    } catch (const dnnl::error &e) {
        ADD_FAILURE() << impl << ": " << e.what();
    }
    return impl;
}

// Backward data in bf16 (diff_dst and weights; diff_src bf16 or f32)
// against the reference. Values are multiples of 1/8: exact in bf16, with
// sums exact in f32, so an f32 diff_src matches to the last bit and a
// bf16 one to its rounding.
std::string run_bwd_data_bf16(const case_t &c, dt ds_dt, unsigned seed) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const shape_t sh = shape_of(c);
    auto eighths = [](size_t n, unsigned sd) {
        std::vector<float> v = random_floats(n, sd);
        for (auto &x : v) x = std::round(x * 8.f) / 8.f;
        return v;
    };
    memory::desc src_md(sh.src, ds_dt, tag::any),
            dst_md(sh.dst, dt::bf16, tag::any),
            wei_md(sh.wei, dt::bf16, tag::any);
    const auto hint = convolution_forward::primitive_desc(eng,
            prop_kind::forward_training, algorithm::convolution_direct,
            memory::desc(sh.src, dt::bf16, tag::any), wei_md, memory::desc(),
            dst_md, sh.strides, sh.dil, sh.pl, sh.pr);
    convolution_backward_data::primitive_desc pd(eng,
            algorithm::convolution_direct, src_md, wei_md, dst_md, sh.strides,
            sh.dil, sh.pl, sh.pr, hint);
    const std::string impl = pd.impl_info_str();
    const auto ddst = eighths(product(sh.dst), seed);
    const auto wei = eighths(product(sh.wei), seed + 1);
    memory wei_m = to_memory(eng, s, sh.wei, wei, pd.weights_desc());
    memory dd_m = to_memory(eng, s, sh.dst, ddst, pd.diff_dst_desc());
    memory ds_m = to_memory(eng, s, sh.src,
            std::vector<float>(product(sh.src), 1e3f), pd.diff_src_desc());
    convolution_backward_data(pd).execute(s,
            {{DNNL_ARG_DIFF_DST, dd_m}, {DNNL_ARG_WEIGHTS, wei_m},
                    {DNNL_ARG_DIFF_SRC, ds_m}});
    const auto got = from_memory(eng, s, ds_m, sh.src);
    std::vector<double> ref, rd(ddst.begin(), ddst.end()),
            rw(wei.begin(), wei.end());
    conv_ref::conv_bwd_data(sh.p, rd, rw, ref);
    int bad = 0;
    for (size_t i = 0; i < ref.size() && bad < 5; ++i) {
        const double tol = ds_dt == dt::bf16 ? 4e-3 * std::fabs(ref[i]) + 1e-6
                                             : 1e-6 * (1 + std::fabs(ref[i]));
        if (std::fabs(got[i] - ref[i]) > tol) {
            ADD_FAILURE() << impl << " at " << i << ": " << got[i] << " vs "
                          << ref[i];
            ++bad;
        }
    }
    return impl;
}

bool on_bwd_d(const std::string &impl) {
    return impl.rfind("brgconv_bwd_d:", 0) == 0;
}
bool on_bwd_w(const std::string &impl) {
    return impl.rfind("brgconv_bwd_w:", 0) == 0;
}

// Shapes both passes run: tails, strides, dilation, padding, 1D, 3D.
std::vector<case_t> common_cases() {
    std::vector<case_t> v = {
            c2d(2, 13, 70, 7, 9, 1, 1, 0),    // 1x1: one GEMM per image
            c2d(1, 33, 64, 9, 11, 1, 2, 0),   // 1x1 stride 2
            c2d(1, 70, 17, 10, 11, 3, 1, 1),  // 3x3, channel tails
            c2d(2, 64, 130, 14, 14, 3, 2, 1), // 3x3 stride 2, tails
            c2d(1, 3, 64, 30, 29, 7, 2, 3),   // 7x7 stride 2 (conv1)
            c2d(3, 5, 9, 6, 6, 3, 1, 1),      // mb 3, small channels
            c2d(1, 1, 1, 1, 1, 1, 1, 0),
            c2d(1, 7, 20, 2, 2, 3, 1, 3),   // points seeing only padding
            c2d(1, 8, 24, 11, 10, 2, 3, 0), // stride 3 > kernel: gaps
    };
    // Asymmetric padding; dilation with strides (width phases every
    // other tap); 1D with and without stride; 3D; a 1x1 stride 2 whose
    // right padding is -1; 3D 1x1x1 as one GEMM.
    v.push_back({1, 16, 40, {8, 9}, {3, 2}, {1, 2}, {0, 1}, {2, 0}, {0, 0}});
    v.push_back({2, 9, 33, {12, 13}, {3, 3}, {2, 2}, {2, 1}, {2, 3}, {1, 2}});
    v.push_back({2, 20, 50, {31}, {5}, {1}, {2}, {2}, {0}});
    v.push_back({1, 8, 24, {40}, {3}, {2}, {1}, {1}, {1}});
    v.push_back({1, 6, 20, {5, 6, 7}, {3, 3, 3}, {1, 2, 1}, {1, 1, 1},
            {1, 1, 1}, {0, 0, 0}});
    v.push_back({1, 16, 32, {6, 8}, {1, 1}, {2, 2}, {0, 0}, {-1, -1}, {0, 0}});
    v.push_back({2, 10, 70, {3, 4, 5}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0},
            {0, 0, 0}, {0, 0, 0}});
    return v;
}

void run_all(const std::vector<case_t> &cases, dir_t dir, unsigned seed0) {
    int on = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        const std::string impl = run_bwd(cases[i], dir, seed0 + (unsigned)i);
        on += dir == dir_t::bwd_d ? on_bwd_d(impl) : on_bwd_w(impl);
    }
    if (!have_brgemm()) {
        EXPECT_EQ(on, 0);
        GTEST_SKIP() << "no BRGEMM target under this ISA limit";
    }
    EXPECT_EQ(on, (int)cases.size());
}

} // namespace

TEST(JitBrgemmConvBwd, DataShapesAndTails) {
    // Backward data declines less than one vector of input channels
    // (SmallInputChannelsFallBack): 32 more keep the tails.
    auto cases = common_cases();
    for (auto &c : cases) c.ic += 32;
    cases.push_back(c2d(1, 70, 600, 5, 5, 3, 1, 1)); // output-channel blocks
    // Wide rows in column blocks (one GEMM, and a 1D row with taps).
    cases.push_back(c2d(1, 48, 16, 1, 1000, 1, 1, 0));
    cases.push_back({1, 48, 24, {1500}, {3}, {1}, {1}, {1}, {0}});
    run_all(cases, dir_t::bwd_d, 0);
}

TEST(JitBrgemmConvBwd, WeightsShapesAndTails) {
    auto cases = common_cases();
    cases.push_back(c2d(1, 600, 40, 5, 5, 3, 1, 1)); // input-channel blocks
    // Chunks of rows across images, column blocks of one GEMM and of
    // a 1D row with taps.
    cases.push_back(c2d(3, 64, 32, 40, 41, 3, 2, 1));
    cases.push_back(c2d(2, 64, 64, 40, 50, 1, 1, 0));
    cases.push_back({1, 256, 16, {3000}, {3}, {1}, {1}, {1}, {0}});
    // Whole-vector channel counts of four panels and more on every
    // target (diff_dst copied into panels first), with more points than
    // a chunk.
    cases.push_back(c2d(1, 24, 256, 6, 7, 3, 1, 1));
    cases.push_back(c2d(2, 16, 512, 30, 20, 1, 1, 0));
    run_all(cases, dir_t::bwd_w, 100);
}

TEST(JitBrgemmConvBwd, WeightsWithBias) {
    std::vector<case_t> cases = {c2d(2, 13, 70, 7, 9, 1, 1, 0),
            c2d(1, 3, 20, 16, 15, 7, 2, 3), c2d(1, 600, 30, 4, 5, 3, 1, 1),
            c2d(2, 64, 64, 40, 50, 1, 1, 0), c2d(1, 7, 20, 2, 2, 3, 1, 3)};
    for (auto &c : cases) c.bias = true;
    run_all(cases, dir_t::bwd_w, 200);
}

// Sixteen threads on small images (fewer chunks and channel blocks than
// threads): the work items are cut both ways, blocks of input channels
// times groups of output-channel panels (a thread copying only its
// panels of diff_dst), with and without the bias and reduction groups;
// and groups of panels where chunks abound but the weights outweigh the
// source.
// The plan depends on the thread count, which only a team larger than
// this machine's shows.
TEST(JitBrgemmConvBwd, WeightsOnSixteenThreads) {
    std::vector<case_t> cases = {
            c2d(2, 40, 200, 7, 7, 3, 1, 1), // panels of both passes' widths
            c2d(2, 20, 1030, 9, 9, 3, 1, 1), // one input block, OC tail
            c2d(2, 512, 520, 7, 7, 1, 1, 0), // channels cut both ways
            c2d(1, 600, 33, 3, 3, 1, 1, 0), // one panel: input channels
            c2d(8, 7, 70, 5, 5, 1, 1, 0), // fewer than a tile
            // Chunks enough, the source smaller than two copies of the
            // weights: groups of panels before reduction groups.
            // (8192 points, one channel: 16 chunks on AVX2, 64 on
            // AVX-512, at a small cost for the reference.)
            c2d(32, 1, 464, 16, 16, 3, 1, 1),
    };
    std::vector<case_t> biased = {c2d(2, 64, 300, 5, 5, 3, 2, 1),
            c2d(3, 30, 700, 8, 8, 1, 1, 0)};
    for (auto &c : biased) c.bias = true;
    cases.insert(cases.end(), biased.begin(), biased.end());
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
    const int nthr = omp_get_max_threads();
    omp_set_num_threads(16);
    run_all(cases, dir_t::bwd_w, 300);
    omp_set_num_threads(nthr);
#elif DNNL_CPU_RUNTIME == DNNL_RUNTIME_TBB
    tbb::task_arena arena(16);
    arena.execute([&] { run_all(cases, dir_t::bwd_w, 300); });
#else
    GTEST_SKIP() << "a sequential build runs one thread";
#endif
}

// `any` resolves to channels last; backward data's weights to panels of
// input channels (not the forward's), backward weights' to the
// forward's panels; both take those descriptors back as they are.
TEST(JitBrgemmConvBwd, AnyResolution) {
    if (!have_brgemm()) GTEST_SKIP() << "no BRGEMM target here";
    engine eng(engine::kind::cpu, 0);
    const case_t c = c2d(2, 40, 24, 8, 8, 3, 1, 1);
    const shape_t sh = shape_of(c);
    memory::desc s(sh.src, dt::f32, tag::any), d(sh.dst, dt::f32, tag::any),
            w(sh.wei, dt::f32, tag::any), b({c.oc}, dt::f32, tag::any);
    const auto f = fwd_hint(eng, sh, s, w, b, d);
    convolution_backward_data::primitive_desc bd(eng,
            algorithm::convolution_direct, s, w, d, sh.strides, sh.dil, sh.pl,
            sh.pr, f);
    convolution_backward_weights::primitive_desc bw(eng,
            algorithm::convolution_direct, s, w, b, d, sh.strides, sh.dil,
            sh.pl, sh.pr, f);
    EXPECT_TRUE(on_bwd_d(bd.impl_info_str())) << bd.impl_info_str();
    EXPECT_TRUE(on_bwd_w(bw.impl_info_str())) << bw.impl_info_str();
    const memory::desc nhwc_s(sh.src, dt::f32, tag::nhwc),
            nhwc_d(sh.dst, dt::f32, tag::nhwc);
    EXPECT_EQ(bd.diff_src_desc(), nhwc_s);
    EXPECT_EQ(bd.diff_dst_desc(), nhwc_d);
    EXPECT_EQ(bw.src_desc(), nhwc_s);
    EXPECT_EQ(bw.diff_dst_desc(), nhwc_d);
    EXPECT_EQ(bw.diff_bias_desc(), memory::desc({c.oc}, dt::f32, tag::a));
    EXPECT_NE(bd.weights_desc(), f.weights_desc());
    EXPECT_NE(bd.weights_desc(), memory::desc(sh.wei, dt::f32, tag::hwio));
    EXPECT_EQ(bw.diff_weights_desc(), f.weights_desc());
    convolution_backward_data::primitive_desc bd2(eng,
            algorithm::convolution_direct, nhwc_s, bd.weights_desc(), nhwc_d,
            sh.strides, sh.dil, sh.pl, sh.pr, f);
    EXPECT_TRUE(on_bwd_d(bd2.impl_info_str())) << bd2.impl_info_str();
    convolution_backward_weights::primitive_desc bw2(eng,
            algorithm::convolution_direct, nhwc_s, f.weights_desc(), b, nhwc_d,
            sh.strides, sh.dil, sh.pl, sh.pr, f);
    EXPECT_TRUE(on_bwd_w(bw2.impl_info_str())) << bw2.impl_info_str();
    // The forward's panels are not backward data's: declined.
    convolution_backward_data::primitive_desc bd3(eng,
            algorithm::convolution_direct, nhwc_s, f.weights_desc(), nhwc_d,
            sh.strides, sh.dil, sh.pl, sh.pr, f);
    EXPECT_FALSE(on_bwd_d(bd3.impl_info_str())) << bd3.impl_info_str();
}

// What they decline runs elsewhere, correctly: channels-first and blocked
// activations, plain weights; groups.
TEST(JitBrgemmConvBwd, OthersFallBack) {
    for (dir_t dir : {dir_t::bwd_d, dir_t::bwd_w}) {
        const auto on = dir == dir_t::bwd_d ? on_bwd_d : on_bwd_w;
        case_t c = c2d(2, 40, 20, 6, 7, 3, 1, 1);
        c.bias = dir == dir_t::bwd_w;
        c.user_act = tag::nchw;
        EXPECT_FALSE(on(run_bwd(c, dir, 1)));
        c.user_act = tag::nChw16c;
        EXPECT_FALSE(on(run_bwd(c, dir, 2)));
        c.user_act = tag::nhwc;
        c.user_wei = tag::oihw;
        EXPECT_FALSE(on(run_bwd(c, dir, 3)));
    }
    engine eng(engine::kind::cpu, 0);
    memory::desc s({1, 16, 6, 6}, dt::f32, tag::any),
            w({2, 10, 8, 3, 3}, dt::f32, tag::any),
            d({1, 20, 6, 6}, dt::f32, tag::any);
    convolution_forward::primitive_desc f(eng, prop_kind::forward_training,
            algorithm::convolution_direct, s, w, d, {1, 1}, {1, 1}, {1, 1});
    convolution_backward_data::primitive_desc bd(eng,
            algorithm::convolution_direct, s, w, d, {1, 1}, {1, 1}, {1, 1}, f);
    EXPECT_FALSE(on_bwd_d(bd.impl_info_str())) << bd.impl_info_str();
    convolution_backward_weights::primitive_desc bw(eng,
            algorithm::convolution_direct, s, w, d, {1, 1}, {1, 1}, {1, 1}, f);
    EXPECT_FALSE(on_bwd_w(bw.impl_info_str())) << bw.impl_info_str();
}

// Backward data with less than one vector of input channels (the 7x7
// first layer of ResNet-50) runs on the GEMM-based entry, correctly;
// backward weights keeps it. Exactly one vector stays on BRGEMM.
TEST(JitBrgemmConvBwd, SmallInputChannelsFallBack) {
    const case_t c = c2d(1, 3, 64, 30, 29, 7, 2, 3);
    EXPECT_FALSE(on_bwd_d(run_bwd(c, dir_t::bwd_d, 5)));
    const std::string w = run_bwd(c, dir_t::bwd_w, 6);
    if (have_brgemm()) EXPECT_TRUE(on_bwd_w(w)) << w;
    case_t c16 = c2d(2, 15, 20, 6, 7, 3, 1, 1);
    if (!isa_at_least(cpu_isa::avx512_core)) c16.ic = 7;
    EXPECT_FALSE(on_bwd_d(run_bwd(c16, dir_t::bwd_d, 7)));
    c16.ic += 1;
    const std::string d = run_bwd(c16, dir_t::bwd_d, 8);
    if (have_brgemm()) EXPECT_TRUE(on_bwd_d(d)) << d;
}

// Descriptors with strides, widths or kernels of a billion (valid, with
// no memory behind them) are declined at once rather than planned: the
// backward-data plan keeps runs per width phase, both plans per-tap
// tables.
TEST(JitBrgemmConvBwd, ExtremeDescriptorsDecline) {
    engine eng(engine::kind::cpu, 0);
    const int64_t big = int64_t(1) << 30;
    auto impl_of = [&](dir_t dir, int64_t iw, int64_t k, int64_t s) {
        const int64_t ow = (iw - k) / s + 1;
        memory::desc src({1, 48, iw}, dt::f32, tag::nwc),
                wei({32, 48, k}, dt::f32, tag::any),
                dst({1, 32, ow}, dt::f32, tag::nwc);
        try {
            convolution_forward::primitive_desc f(eng,
                    prop_kind::forward_training, algorithm::convolution_direct,
                    src, wei, dst, {s}, {0}, {0});
            if (dir == dir_t::bwd_d)
                return std::string(convolution_backward_data::primitive_desc(
                        eng, algorithm::convolution_direct, src, wei, dst, {s},
                        {0}, {0}, f)
                                           .impl_info_str());
            return std::string(convolution_backward_weights::primitive_desc(eng,
                    algorithm::convolution_direct, src, wei, dst, {s}, {0}, {0},
                    f)
                                       .impl_info_str());
        } catch (const dnnl::error &) {
            return std::string("none");
        }
    };
    // A billion width phases; a billion kernel columns.
    EXPECT_FALSE(on_bwd_d(impl_of(dir_t::bwd_d, big, 1, big / 2)));
    EXPECT_FALSE(on_bwd_d(impl_of(dir_t::bwd_d, big, big / 2, 1)));
    EXPECT_FALSE(on_bwd_w(impl_of(dir_t::bwd_w, big, big / 2, 1)));
    // Ordinary ones beside them are taken.
    if (have_brgemm()) {
        EXPECT_TRUE(on_bwd_d(impl_of(dir_t::bwd_d, 64, 3, 2)));
        EXPECT_TRUE(on_bwd_w(impl_of(dir_t::bwd_w, 64, 3, 2)));
    }
}

// The ISA dispatch picks the kernels: ONEDNN_MAX_CPU_ISA (CTest runs these
// tests under each limit) or the processor decides the names; below AVX2
// the next implementation runs.
TEST(JitBrgemmConvBwd, NameFollowsIsaLimit) {
    const case_t c = c2d(1, 40, 20, 6, 6, 3, 1, 1);
    const std::string d = run_bwd(c, dir_t::bwd_d, 9);
    const std::string w = run_bwd(c, dir_t::bwd_w, 10);
    if (isa_at_least(cpu_isa::avx512_core)) {
        EXPECT_EQ(d, "brgconv_bwd_d:avx512_core");
        EXPECT_EQ(w, "brgconv_bwd_w:avx512_core");
    } else if (isa_at_least(cpu_isa::avx2)) {
        EXPECT_EQ(d, "brgconv_bwd_d:avx2");
        EXPECT_EQ(w, "brgconv_bwd_w:avx2");
    } else {
        EXPECT_FALSE(on_bwd_d(d)) << d;
        EXPECT_FALSE(on_bwd_w(w)) << w;
    }
}

// bf16 backward data: the shapes above (input channels past a vector),
// output channel counts that are odd (each tap's pairs padded in the
// panels), bf16 and f32 diff_src.
TEST(JitBrgemmConvBwd, DataBf16) {
    auto cases = common_cases();
    for (auto &c : cases) c.ic += 32;
    cases.push_back(c2d(2, 40, 33, 9, 9, 3, 1, 1));
    int on = 0;
    for (size_t i = 0; i < cases.size(); ++i)
        for (dt d : {dt::bf16, dt::f32}) {
            SCOPED_TRACE("case " + std::to_string(i)
                    + (d == dt::bf16 ? " bf16" : " f32"));
            on += on_bwd_d(run_bwd_data_bf16(cases[i], d, 80 + (unsigned)i));
        }
    if (isa_at_least(cpu_isa::avx512_core_bf16))
        EXPECT_EQ(on, 2 * (int)cases.size());
}
