// u8 x s8 forward convolution on the BRGEMM kernels (brgconv on the
// vpdpbusd target) through the public API against the naive reference:
// 1x1 and 3x3, strides, padding, 1D and 3D, output channels off the
// 64-channel panels, f32 / s8 / u8 / s32 destinations, source scales with
// common or per-channel weight scales and a destination scale (after the
// bias and post-ops), bias and post-ops; input channels that are no
// multiple of 4 (each tap padded to quads in the panel, a batch element
// of its own). Values are
// small integers, so the sums are exact and the only rounding is the
// final conversion (at most one unit apart from the reference's).
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "brgemm_conv_glue.hpp"

namespace {

using namespace brgemm_conv_glue;

std::vector<float> small_ints(size_t n, int lo, int hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v) x = (float)d(gen);
    return v;
}

struct q_case_t {
    case_t c;
    dt dst = dt::u8;
    bool per_oc = true;
    bool dst_scale = false;
    bool raw = false; // no scales at all (an s32 dst)
};

std::string run_int8(const q_case_t &qc, unsigned seed) {
    const case_t &c = qc.c;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const shape_t sh = shape_of(c);
    const size_t nd = sh.nd;
    memory::desc src_md(sh.src, dt::u8, tag::any),
            wei_md(sh.wei, dt::s8, tag::any), dst_md(sh.dst, qc.dst, tag::any);
    memory::desc bias_md = c.bias ? memory::desc({c.oc}, dt::f32, tag::a)
                                  : memory::desc();
    primitive_attr attr;
    if (!qc.raw) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        attr.set_scales_mask(DNNL_ARG_WEIGHTS, qc.per_oc ? 1 : 0);
    }
    if (qc.dst_scale) attr.set_scales_mask(DNNL_ARG_DST, 0);
    post_ops po;
    std::vector<conv_ref::post_op_t> ref_po;
    append_eltwise(c.eltwise, po, ref_po);
    attr.set_post_ops(po);
    convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, src_md, wei_md, bias_md, dst_md,
            sh.strides, sh.dil, sh.pl, sh.pr, attr);
    const std::string impl = pd.impl_info_str();

    const auto src = small_ints(product(sh.src), 0, 7, seed);
    const auto wei = small_ints(product(sh.wei), -4, 4, seed + 1);
    const auto bias = small_ints(c.oc, -8, 8, seed + 2);
    std::vector<float> sc_src = {0.25f}, sc_dst = {2.f}, sc_wei;
    for (int64_t o = 0; o < (qc.per_oc ? c.oc : 1); ++o)
        sc_wei.push_back(0.5f + 0.25f * (float)(o % 3));
    memory src_m = to_memory(eng, s, sh.src, src, pd.src_desc());
    memory wei_m = to_memory(eng, s, sh.wei, wei, pd.weights_desc());
    memory dst_m(pd.dst_desc(), eng);
    auto f32_mem = [&](std::vector<float> &v) {
        return memory(memory::desc({(memory::dim)v.size()}, dt::f32, tag::a),
                eng, v.data());
    };
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src_m},
            {DNNL_ARG_WEIGHTS, wei_m}, {DNNL_ARG_DST, dst_m}};
    if (!qc.raw) {
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = f32_mem(sc_src);
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] = f32_mem(sc_wei);
    }
    if (qc.dst_scale)
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = f32_mem(sc_dst);
    std::vector<float> bias_v = bias;
    if (c.bias) args[DNNL_ARG_BIAS] = f32_mem(bias_v);
    convolution_forward(pd).execute(s, args);
    const std::vector<float> got = from_memory(eng, s, dst_m, sh.dst);

    std::vector<double> ds(src.begin(), src.end()), dw(wei.begin(), wei.end());
    std::vector<double> ref, db(bias.begin(), bias.end());
    conv_ref::conv_fwd(sh.p, ds, dw, ref);
    conv_ref::quant_t q;
    if (!qc.raw) {
        q.src_scale = sc_src[0];
        q.wei_scale.assign(sc_wei.begin(), sc_wei.end());
    }
    if (qc.dst_scale) q.dst_scale = {sc_dst[0]};
    conv_ref::finish(ref, (int)nd, sh.dst.data(), q, c.bias ? &db : nullptr,
            ref_po, std::vector<double>(ref.size(), 0.0));
    if (qc.dst == dt::s8 || qc.dst == dt::u8) {
        const double lo = qc.dst == dt::u8 ? 0 : -128,
                     hi = qc.dst == dt::u8 ? 255 : 127;
        for (auto &x : ref) x = std::min(hi, std::max(lo, std::nearbyint(x)));
    }
    int bad = 0;
    for (size_t i = 0; i < ref.size() && bad < 5; ++i) {
        const double tol = qc.dst == dt::f32 ? 1e-5 * (1 + std::fabs(ref[i])) : 1.0;
        if (std::fabs(got[i] - ref[i]) > tol) {
            ADD_FAILURE() << impl << " at " << i << ": " << got[i] << " vs "
                          << ref[i];
            ++bad;
        }
    }
    return impl;
}

// On the u8 x s8 BRGEMM kernels: VNNI, or AMX where the machine has it.
bool on_int8_brgconv(const std::string &impl) {
    return impl.rfind("brgconv", 0) == 0
           && (impl.find("vnni") != std::string::npos
                   || impl.find("amx") != std::string::npos);
}

bool has_vnni() {
    return (int)get_effective_cpu_isa() >= (int)cpu_isa::avx512_core_vnni;
}

} // namespace

TEST(JitBrgemmConvInt8, ShapesTypesAndScales) {
    std::vector<q_case_t> cases;
    auto add = [&](case_t c, dt d, bool per_oc, bool dsc) {
        cases.push_back({c, d, per_oc, dsc});
    };
    add(c2d(1, 64, 64, 14, 14, 1, 1, 0), dt::u8, true, true); // 1x1, one GEMM
    add(c2d(2, 32, 72, 9, 11, 3, 1, 1), dt::u8, true, true); // N tail
    add(c2d(1, 16, 40, 15, 15, 3, 2, 1), dt::s8, false, true); // stride 2
    add(c2d(1, 8, 100, 6, 7, 1, 2, 0), dt::f32, true, false);
    case_t d3 = c2d(1, 12, 20, 5, 6, 3, 1, 1);
    d3.in = {4, 5, 6};
    d3.k = {3, 3, 3};
    d3.s = {1, 1, 1};
    d3.pl = d3.pr = {1, 1, 1};
    d3.dil = {0, 0, 0};
    add(d3, dt::f32, true, false);
    case_t d1 = c2d(2, 4, 70, 1, 19, 3, 1, 1);
    d1.in = {19};
    d1.k = {3};
    d1.s = {1};
    d1.pl = d1.pr = {1};
    d1.dil = {1}; // dilated
    add(d1, dt::s8, true, true);
    case_t b = c2d(2, 32, 50, 7, 7, 3, 1, 1);
    b.bias = true;
    b.eltwise = {algorithm::eltwise_relu};
    add(b, dt::f32, true, false);
    add(b, dt::u8, false, true); // dst scale after bias and post-op
    // s32: the sums as they are (no scales: the conversion skipped).
    q_case_t raw{c2d(2, 32, 72, 9, 11, 3, 1, 1), dt::s32, true, false};
    raw.raw = true;
    cases.push_back(raw);
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        const std::string impl = run_int8(cases[i], 100 + (unsigned)i);
        if (has_vnni()) EXPECT_TRUE(on_int8_brgconv(impl)) << impl;
    }
}

// Input channels that are no multiple of 4: each tap's channels padded
// to quads in the panel, every tap a batch element of its own (a first
// layer's 3 channels, 7x7 stride 2 included).
TEST(JitBrgemmConvInt8, InputChannelsOutOfQuads) {
    const std::vector<q_case_t> cases = {
            {c2d(1, 6, 16, 6, 6, 3, 1, 1), dt::u8, true, true},
            {c2d(1, 3, 64, 23, 23, 7, 2, 3), dt::f32, true, false},
            {c2d(2, 5, 70, 9, 8, 3, 1, 1), dt::s8, false, true},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        const std::string impl = run_int8(cases[i], 50 + (unsigned)i);
        if (has_vnni()) EXPECT_TRUE(on_int8_brgconv(impl)) << impl;
    }
}
