// f32 forward convolution on the BRGEMM kernels (brgconv) through the
// public API against the naive reference: 1x1 (unit and other strides),
// 3x3, 7x7 stride 2, dilation, 1D and 3D, padding (borders where some or
// all kernel taps fall outside), odd channel counts (tails of the 64/24
// channel panels), input channels in blocks, mini-batches, bias and
// post-op chains; `any` resolving to channels last and the kernel's
// weights; what it declines going to the other implementations, correct;
// the name following the ISA limit.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "brgemm_conv_glue.hpp"

namespace {

using namespace brgemm_conv_glue;

// Runs the case against the reference; returns the implementation name.
std::string run_case(const case_t &c, unsigned seed) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const shape_t sh = shape_of(c);
    const size_t nd = sh.nd;
    const memory::dims &src_d = sh.src, &dst_d = sh.dst, &wei_d = sh.wei;
    const tag act = c.user_act == tag::undef ? tag::any : c.user_act;
    const tag wt = c.user_wei == tag::undef ? tag::any : c.user_wei;
    memory::desc src_md(src_d, dt::f32, act), dst_md(dst_d, dt::f32, act);
    memory::desc wei_md(wei_d, dt::f32, wt);
    memory::desc bias_md = c.bias ? memory::desc({c.oc}, dt::f32, tag::a)
                                  : memory::desc();

    post_ops po;
    std::vector<conv_ref::post_op_t> ref_po;
    append_sum(c.sum_scale, po, ref_po);
    append_eltwise(c.eltwise, po, ref_po);
    std::vector<binary_operand_t> bins;
    for (size_t i = 0; i < c.binaries.size(); ++i) {
        const auto &b = c.binaries[i];
        auto vals = random_floats(product(binary_dims(b, dst_d)),
                seed + 50 + (unsigned)i);
        if (b.alg == algorithm::binary_div)
            for (auto &x : vals) x += 2.f;
        bins.push_back(append_binary(b, dst_d, vals, eng, s, po, ref_po));
    }
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, src_md, wei_md, bias_md, dst_md,
            sh.strides, sh.dil, sh.pl, sh.pr, attr);
    const std::string impl = pd.impl_info_str();

    const auto src = random_floats(product(src_d), seed);
    const auto wei = random_floats(product(wei_d), seed + 1);
    const auto bias = random_floats(c.oc, seed + 2);
    const auto old = random_floats(product(dst_d), seed + 3);
    memory src_m = to_memory(eng, s, src_d, src, pd.src_desc());
    memory wei_m = to_memory(eng, s, wei_d, wei, pd.weights_desc());
    memory dst_m = to_memory(eng, s, dst_d, old, pd.dst_desc());
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src_m},
            {DNNL_ARG_WEIGHTS, wei_m}, {DNNL_ARG_DST, dst_m}};
    if (c.bias) {
        memory bias_m(pd.bias_desc(), eng);
        std::copy(bias.begin(), bias.end(), (float *)bias_m.get_data_handle());
        args[DNNL_ARG_BIAS] = bias_m;
    }
    for (const auto &b : bins)
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(b.po_index) | DNNL_ARG_SRC_1]
                = b.mem;
    try {
        convolution_forward(pd).execute(s, args);
    } catch (const dnnl::error &e) {
        ADD_FAILURE() << impl << ": " << e.what();
        return impl;
    }
    const std::vector<float> got = from_memory(eng, s, dst_m, dst_d);

    std::vector<double> ds(src.begin(), src.end()), dw(wei.begin(), wei.end());
    std::vector<double> ref, db(bias.begin(), bias.end());
    std::vector<double> dold(old.begin(), old.end());
    conv_ref::conv_fwd(sh.p, ds, dw, ref);
    conv_ref::finish(ref, (int)nd, dst_d.data(), conv_ref::quant_t(),
            c.bias ? &db : nullptr, ref_po, dold);
    expect_near(got, ref, (double)(c.ic * product(c.k)), impl);
    return impl;
}

bool on_brgconv(const std::string &impl) {
    return impl.rfind("brgconv", 0) == 0;
}

} // namespace

TEST(JitBrgemmConv, ShapesAndTails) {
    std::vector<case_t> cases = {
            c2d(2, 13, 70, 7, 9, 1, 1, 0),    // 1x1: one GEMM per image
            c2d(1, 33, 64, 9, 11, 1, 2, 0),   // 1x1 stride 2
            c2d(1, 3, 17, 10, 11, 3, 1, 1),   // 3x3, few channels
            c2d(2, 64, 130, 14, 14, 3, 2, 1), // 3x3 stride 2, tails
            c2d(1, 3, 64, 30, 29, 7, 2, 3),   // 7x7 stride 2 (conv1)
            c2d(3, 5, 9, 6, 6, 3, 1, 1),      // mb 3, small channels
            c2d(1, 600, 70, 5, 5, 3, 1, 1),   // input channels in blocks
            c2d(1, 1, 1, 1, 1, 1, 1, 0),
            c2d(1, 7, 200, 2, 2, 3, 1, 3), // points seeing only padding
            // Rows of 40 and 60 columns: the border columns run down the
            // rows with ymm tiles (AVX2), as one-point calls with zmm.
            c2d(2, 16, 24, 6, 40, 3, 1, 1),
            c2d(1, 8, 16, 8, 60, 5, 1, 2),
    };
    // Asymmetric padding, dilation, 1D, 3D.
    case_t a{1, 16, 40, {8, 9}, {3, 2}, {1, 2}, {0, 1}, {2, 0}, {0, 0}};
    cases.push_back(a);
    case_t dl{2, 9, 33, {12, 13}, {3, 3}, {1, 1}, {2, 1}, {2, 3}, {1, 2}};
    cases.push_back(dl);
    case_t d1{2, 20, 50, {31}, {5}, {1}, {2}, {2}, {0}};
    cases.push_back(d1);
    case_t d1s{1, 8, 24, {40}, {1}, {3}, {0}, {0}, {0}}; // 1x1 stride 3
    cases.push_back(d1s);
    case_t d3{1, 6, 20, {5, 6, 7}, {3, 3, 3}, {1, 2, 1}, {1, 1, 1},
            {1, 1, 1}, {0, 0, 0}};
    cases.push_back(d3);
    case_t d3f{2, 10, 70, {3, 4, 5}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0},
            {0, 0, 0}, {0, 0, 0}}; // 3D 1x1x1: one GEMM per image
    cases.push_back(d3f);
    int on = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        on += on_brgconv(run_case(cases[i], (unsigned)i));
    }
    if (!have_brgemm()) {
        EXPECT_EQ(on, 0);
        GTEST_SKIP() << "no BRGEMM target under this ISA limit";
    }
    EXPECT_EQ(on, (int)cases.size());
}

TEST(JitBrgemmConv, BiasAndPostOps) {
    using a = algorithm;
    std::vector<case_t> cases;
    auto add = [&](case_t c) {
        const int nd = (int)c.in.size() + 2;
        const int full = (1 << nd) - 1, full_bcast_mb = full & ~1;
        c.bias = true;
        cases.push_back(c);
        c.eltwise = {a::eltwise_relu};
        cases.push_back(c);
        c.eltwise = {a::eltwise_gelu_erf};
        c.sum_scale = 0.5f;
        cases.push_back(c);
        c.eltwise = {};
        c.sum_scale = 0.f;
        c.binaries = {{a::binary_add, 2}, {a::binary_mul, 0},
                {a::binary_sub, full}};
        cases.push_back(c);
        c.bias = false;
        c.sum_scale = 1.f;
        c.eltwise = {a::eltwise_tanh};
        c.binaries = {{a::binary_div, full_bcast_mb}, {a::binary_max, 2}};
        cases.push_back(c);
    };
    add(c2d(2, 13, 70, 7, 9, 1, 1, 0));   // 1x1 as one GEMM
    add(c2d(2, 19, 33, 9, 10, 3, 2, 1));  // 3x3 stride 2
    add(c2d(1, 3, 20, 16, 15, 7, 2, 3));  // 7x7 stride 2
    add(c2d(1, 700, 30, 4, 5, 3, 1, 1));  // channel blocks, epilogue last
    int on = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        on += on_brgconv(run_case(cases[i], (unsigned)(100 + i)));
    }
    if (!have_brgemm()) GTEST_SKIP() << "no BRGEMM target here";
    EXPECT_EQ(on, (int)cases.size());
}

// `any` resolves to channels last and the kernel's weight panels; the
// user's channels-last tensors and those weights are taken as they are.
TEST(JitBrgemmConv, AnyResolvesToChannelsLast) {
    if (!have_brgemm()) GTEST_SKIP() << "no BRGEMM target here";
    engine eng(engine::kind::cpu, 0);
    auto make = [&](tag act, const memory::desc &wei) {
        memory::desc s({1, 16, 8, 8}, dt::f32, act), d({1, 40, 8, 8}, dt::f32,
                                                           act);
        return convolution_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::convolution_direct,
                s, wei, d, {1, 1}, {1, 1}, {1, 1});
    };
    auto pd = make(tag::any, memory::desc({40, 16, 3, 3}, dt::f32, tag::any));
    EXPECT_TRUE(on_brgconv(pd.impl_info_str())) << pd.impl_info_str();
    EXPECT_EQ(pd.src_desc(), memory::desc({1, 16, 8, 8}, dt::f32, tag::nhwc));
    EXPECT_EQ(pd.dst_desc(), memory::desc({1, 40, 8, 8}, dt::f32, tag::nhwc));
    EXPECT_NE(pd.weights_desc(),
            memory::desc({40, 16, 3, 3}, dt::f32, tag::hwio));
    auto again = make(tag::nhwc, pd.weights_desc());
    EXPECT_TRUE(on_brgconv(again.impl_info_str())) << again.impl_info_str();
    EXPECT_EQ(again.weights_desc(), pd.weights_desc());
}

// What it declines runs elsewhere, correctly: channels-first and blocked
// activations, plain weights, groups, post-ops outside the epilogue.
// (Backward passes: test_brgemm_conv_bwd.cpp.)
TEST(JitBrgemmConv, OthersFallBack) {
    case_t c = c2d(2, 16, 20, 6, 7, 3, 1, 1);
    c.user_act = tag::nchw;
    EXPECT_FALSE(on_brgconv(run_case(c, 1)));
    c.user_act = tag::nChw16c;
    EXPECT_FALSE(on_brgconv(run_case(c, 2)));
    c.user_act = tag::nhwc;
    c.user_wei = tag::oihw;
    EXPECT_FALSE(on_brgconv(run_case(c, 3)));
    c.user_wei = tag::undef;
    c.binaries = {{algorithm::binary_add, 1}}; // per mini-batch
    EXPECT_FALSE(on_brgconv(run_case(c, 4)));
    c.binaries = {{algorithm::binary_add, 12}}; // per point, no channels
    EXPECT_FALSE(on_brgconv(run_case(c, 5)));

    engine eng(engine::kind::cpu, 0);
    memory::desc s({1, 16, 6, 6}, dt::f32, tag::any),
            w({2, 10, 8, 3, 3}, dt::f32, tag::any),
            d({1, 20, 6, 6}, dt::f32, tag::any);
    convolution_forward::primitive_desc g(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, s, w, d, {1, 1}, {1, 1}, {1, 1});
    EXPECT_FALSE(on_brgconv(g.impl_info_str())) << g.impl_info_str();
}

// The ISA dispatch picks the kernel: ONEDNN_MAX_CPU_ISA (CTest runs these
// tests under each limit) or the processor decides the name; below AVX2
// the next implementation runs.
TEST(JitBrgemmConv, NameFollowsIsaLimit) {
    const std::string k3 = run_case(c2d(1, 8, 20, 6, 6, 3, 1, 1), 9);
    const std::string k1 = run_case(c2d(1, 8, 20, 6, 6, 1, 2, 0), 10);
    // The same with right padding -1 (benchdnn's, and oneDNN's minimal
    // one): still no padding.
    case_t neg = c2d(1, 8, 20, 6, 6, 1, 2, 0);
    neg.pr = {-1, -1};
    const std::string k1n = run_case(neg, 11);
    EXPECT_EQ(k1n, k1);
    if (isa_at_least(cpu_isa::avx512_core)) {
        EXPECT_EQ(k3, "brgconv:avx512_core");
        EXPECT_EQ(k1, "brgconv_1x1:avx512_core");
    } else if (isa_at_least(cpu_isa::avx2)) {
        EXPECT_EQ(k3, "brgconv:avx2");
        EXPECT_EQ(k1, "brgconv_1x1:avx2");
    } else {
        EXPECT_FALSE(on_brgconv(k3)) << k3;
        EXPECT_FALSE(on_brgconv(k1)) << k1;
    }
}
