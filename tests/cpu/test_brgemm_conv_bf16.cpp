// bf16 x bf16 forward convolution on the BRGEMM kernels (brgconv on the
// bf16 target: vdpbf16ps on AVX512_BF16, tiles on AMX) through the
// public API against the naive reference: 1x1 and 3x3, strides, padding,
// dilation, 1D and 3D, output channels off the panels, f32 and bf16
// destinations, f32 and bf16 bias, post-ops (eltwise, sum, binary), odd
// input channel counts (each tap padded to pairs in the panel). Values are multiples of 1/8 in [-1, 1]:
// exact in bf16, and their products' sums exact in f32, so an f32 dst
// matches the reference to the last bit and a bf16 dst to its rounding.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "brgemm_conv_glue.hpp"

namespace {

using namespace brgemm_conv_glue;

std::vector<float> eighths(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> d(-8, 8);
    std::vector<float> v(n);
    for (auto &x : v) x = (float)d(gen) / 8.f;
    return v;
}

struct bf16_case_t {
    case_t c;
    dt dst = dt::f32;
    dt bias = dt::f32;
};

bool on_bf16_brgconv(const std::string &impl) {
    return impl.rfind("brgconv", 0) == 0
           && (impl.find("bf16") != std::string::npos
                   || impl.find("amx") != std::string::npos);
}

// Runs the case and checks it; returns the implementation's name.
std::string run_bf16(const bf16_case_t &bc, unsigned seed) {
    const case_t &c = bc.c;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const shape_t sh = shape_of(c);
    const size_t nd = sh.nd;
    memory::desc src_md(sh.src, dt::bf16, tag::any),
            wei_md(sh.wei, dt::bf16, tag::any), dst_md(sh.dst, bc.dst, tag::any);
    memory::desc bias_md
            = c.bias ? memory::desc({c.oc}, bc.bias, tag::a) : memory::desc();
    post_ops po;
    std::vector<conv_ref::post_op_t> ref_po;
    append_sum(c.sum_scale, po, ref_po);
    append_eltwise(c.eltwise, po, ref_po);
    std::vector<binary_operand_t> bins;
    for (const auto &b : c.binaries)
        bins.push_back(append_binary(b, sh.dst,
                eighths(product(binary_dims(b, sh.dst)), seed + 7), eng, s, po,
                ref_po));
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, src_md, wei_md, bias_md, dst_md,
            sh.strides, sh.dil, sh.pl, sh.pr, attr);
    const std::string impl = pd.impl_info_str();

    const auto src = eighths(product(sh.src), seed);
    const auto wei = eighths(product(sh.wei), seed + 1);
    const auto bias = eighths(c.oc, seed + 2);
    const auto old_dst = eighths(product(sh.dst), seed + 3);
    memory src_m = to_memory(eng, s, sh.src, src, pd.src_desc());
    memory wei_m = to_memory(eng, s, sh.wei, wei, pd.weights_desc());
    memory dst_m = to_memory(eng, s, sh.dst, old_dst, pd.dst_desc());
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src_m},
            {DNNL_ARG_WEIGHTS, wei_m}, {DNNL_ARG_DST, dst_m}};
    std::vector<float> bias_v = bias;
    if (c.bias) {
        memory user(memory::desc({c.oc}, dt::f32, tag::a), eng, bias_v.data());
        memory m(bias_md, eng);
        reorder(user, m).execute(s, user, m);
        args[DNNL_ARG_BIAS] = m;
    }
    for (const auto &b : bins)
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(b.po_index) | DNNL_ARG_SRC_1]
                = b.mem;
    convolution_forward(pd).execute(s, args);
    const std::vector<float> got = from_memory(eng, s, dst_m, sh.dst);

    std::vector<double> ds(src.begin(), src.end()), dw(wei.begin(), wei.end());
    std::vector<double> ref, db(bias.begin(), bias.end());
    conv_ref::conv_fwd(sh.p, ds, dw, ref);
    conv_ref::finish(ref, (int)nd, sh.dst.data(), conv_ref::quant_t(),
            c.bias ? &db : nullptr, ref_po,
            std::vector<double>(old_dst.begin(), old_dst.end()));
    int bad = 0;
    for (size_t i = 0; i < ref.size() && bad < 5; ++i) {
        // f32: exact sums, post-ops in f32; bf16: one rounding of 2^-8.
        const double tol = bc.dst == dt::bf16
                ? 4e-3 * std::fabs(ref[i]) + 1e-6
                : 1e-5 * (1 + std::fabs(ref[i]));
        if (std::fabs(got[i] - ref[i]) > tol) {
            ADD_FAILURE() << impl << " at " << i << ": " << got[i] << " vs "
                          << ref[i];
            ++bad;
        }
    }
    return impl;
}

bool has_bf16() {
    return isa_at_least(cpu_isa::avx512_core_bf16);
}

} // namespace

TEST(JitBrgemmConvBf16, ShapesTypesAndPostOps) {
    std::vector<bf16_case_t> cases;
    auto add = [&](case_t c, dt d, dt b = dt::f32) {
        cases.push_back({c, d, b});
    };
    add(c2d(1, 64, 64, 9, 9, 1, 1, 0), dt::f32);    // 1x1
    add(c2d(2, 32, 70, 7, 11, 3, 1, 1), dt::bf16); // channels off panels
    add(c2d(1, 18, 40, 13, 6, 3, 2, 1), dt::f32);  // strided, padded
    case_t d1{1, 6, 33, {19}, {3}, {1}, {2}, {2}, {1}}; // 1D, dilated
    add(d1, dt::bf16);
    case_t d3{1, 8, 16, {4, 5, 6}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1},
            {1, 1, 1}, {0, 0, 0}}; // 3D
    add(d3, dt::f32);
    case_t b = c2d(2, 64, 96, 7, 7, 3, 1, 1);
    b.bias = true;
    b.eltwise = {algorithm::eltwise_relu};
    add(b, dt::f32, dt::f32);
    add(b, dt::bf16, dt::bf16); // bf16 bias
    case_t sm = c2d(1, 16, 64, 6, 6, 3, 1, 1);
    sm.sum_scale = 0.5f;
    sm.eltwise = {algorithm::eltwise_relu};
    sm.binaries = {{algorithm::binary_add, 2}, {algorithm::binary_mul, 0}};
    add(sm, dt::f32);
    add(sm, dt::bf16);
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        const std::string impl = run_bf16(cases[i], 300 + (unsigned)i);
        if (has_bf16()) EXPECT_TRUE(on_bf16_brgconv(impl)) << impl;
    }
}

// Odd input channel counts: each tap's channels padded to pairs in the
// panel; the columns with every kernel column in range run a kernel
// row's taps as one K range through the merged copy of the panels, the
// border columns tap by tap (a first layer's 3 channels, 7x7 stride 2
// included; several panels with a tail; dilation along w, which merges
// nothing).
TEST(JitBrgemmConvBf16, OddInputChannels) {
    case_t dil = c2d(1, 3, 24, 12, 13, 3, 1, 2);
    dil.dil = {0, 1};
    const std::vector<bf16_case_t> cases = {
            {c2d(1, 5, 16, 6, 6, 3, 1, 1), dt::f32},
            {c2d(1, 3, 64, 23, 23, 7, 2, 3), dt::bf16},
            {c2d(2, 1, 40, 9, 8, 3, 1, 1), dt::f32},
            {c2d(2, 3, 150, 30, 29, 7, 2, 3), dt::f32},
            {c2d(1, 7, 33, 11, 12, 5, 1, 0), dt::bf16},
            {dil, dt::f32},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        const std::string impl = run_bf16(cases[i], 60 + (unsigned)i);
        if (has_bf16()) EXPECT_TRUE(on_bf16_brgconv(impl)) << impl;
    }
}
