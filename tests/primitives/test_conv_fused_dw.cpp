// Convolution with a depthwise post-op (post_ops::append_dw): results
// against two chained naive convolutions, the destination and depthwise
// argument descriptors, post-ops on both sides of the depthwise entry,
// nested primitives shared through the cache, bad parameters, and int8
// with the depthwise convolution's own scales (DNNL_ARG_ATTR_POST_OP_DW).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.hpp"
#include "reference/conv_ref.hpp"

using namespace dnnl;

namespace {

using dt = memory::data_type;
using tag = memory::format_tag;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}
stream &strm() {
    static stream s(eng());
    return s;
}

std::vector<double> gen(size_t n, int seed) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = (double)((int)((i * 7 + seed * 13) % 17) - 8) / 8.0;
    return v;
}

// A memory in `want`'s layout holding `vals` given in dense logical order
// (`plain` describes that order).
memory make_mem(const memory::desc &want, const memory::desc &plain,
        const std::vector<double> &vals) {
    memory p(plain, eng());
    float *f = static_cast<float *>(p.get_data_handle());
    for (size_t i = 0; i < vals.size(); ++i) f[i] = (float)vals[i];
    if (want == plain) return p;
    memory m(want, eng());
    reorder(p, m).execute(strm(), p, m);
    strm().wait();
    return m;
}

std::vector<double> read_plain(const memory &m, const memory::desc &plain) {
    memory p(plain, eng());
    reorder(m, p).execute(strm(), const_cast<memory &>(m), p);
    strm().wait();
    const float *f = static_cast<const float *>(p.get_data_handle());
    return std::vector<double>(f, f + plain.get_size() / sizeof(float));
}

struct case_t {
    int64_t mb, ic, oc, ih, iw, k, s, p; // base convolution
    int64_t dw_k, dw_s, dw_p; // depthwise post-op
    tag act; // activation layout given by the user
    bool relu_before, add_after, dw_bias;
};

void run(const case_t &c) {
    const int64_t oh = (c.ih + 2 * c.p - c.k) / c.s + 1;
    const int64_t ow = (c.iw + 2 * c.p - c.k) / c.s + 1;
    const int64_t dh = (oh + c.dw_s - 1) / c.dw_s;
    const int64_t dw_ = (ow + c.dw_s - 1) / c.dw_s;

    memory::desc src_md({c.mb, c.ic, c.ih, c.iw}, dt::f32, c.act);
    memory::desc wei_md({c.oc, c.ic, c.k, c.k}, dt::f32, tag::any);
    memory::desc bia_md({c.oc}, dt::f32, tag::a);
    memory::desc inter_md({c.mb, c.oc, oh, ow}, dt::f32, c.act);
    memory::desc add_md({1, c.oc, 1, 1}, dt::f32, tag::nchw);

    post_ops po;
    if (c.relu_before) po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_dw(dt::f32, c.dw_bias ? dt::f32 : dt::undef, dt::f32, c.dw_k,
            c.dw_s, c.dw_p);
    if (c.add_after) po.append_binary(algorithm::binary_add, add_md);
    primitive_attr attr;
    attr.set_post_ops(po);

    convolution_forward::primitive_desc pd(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            src_md, wei_md, bia_md, inter_md, {c.s, c.s}, {c.p, c.p},
            {c.p, c.p}, attr);
    EXPECT_EQ(std::string(pd.impl_info_str()), "fused:dw");

    // The destination is the depthwise output.
    const memory::desc dst_md = pd.dst_desc();
    ASSERT_EQ(dst_md.get_dims(), (memory::dims {c.mb, c.oc, dh, dw_}));
    const memory::desc dw_wei_md = pd.query_md(
            query::exec_arg_md, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS);
    ASSERT_EQ(dw_wei_md.get_dims(), (memory::dims {c.oc, 1, 1, c.dw_k, c.dw_k}));

    // Data and reference.
    conv_ref::prb_t p1;
    p1.mb = c.mb, p1.ic = c.ic, p1.oc = c.oc;
    p1.i[1] = c.ih, p1.i[2] = c.iw, p1.o[1] = oh, p1.o[2] = ow;
    p1.k[1] = p1.k[2] = c.k, p1.s[1] = p1.s[2] = c.s;
    p1.pl[1] = p1.pl[2] = c.p;
    conv_ref::prb_t p2;
    p2.mb = c.mb, p2.g = p2.ic = p2.oc = c.oc;
    p2.i[1] = oh, p2.i[2] = ow, p2.o[1] = dh, p2.o[2] = dw_;
    p2.k[1] = p2.k[2] = c.dw_k, p2.s[1] = p2.s[2] = c.dw_s;
    p2.pl[1] = p2.pl[2] = c.dw_p;

    const auto src = gen(p1.src_size(), 1), wei = gen(p1.wei_size(), 2);
    const auto bia = gen(c.oc, 3), dww = gen(p2.wei_size(), 4);
    const auto dwb = gen(c.oc, 5), add = gen(c.oc, 6);

    std::vector<double> inter, expect;
    conv_ref::conv_fwd(p1, src, wei, inter);
    std::vector<conv_ref::post_op_t> before, after;
    if (c.relu_before) {
        conv_ref::post_op_t relu;
        relu.alg = dnnl_eltwise_relu;
        before.push_back(relu);
    }
    const int64_t idims[4] = {c.mb, c.oc, oh, ow};
    conv_ref::finish(inter, 4, idims, {}, &bia, before, {});
    conv_ref::conv_fwd(p2, inter, dww, expect);
    if (c.add_after) {
        conv_ref::post_op_t b;
        b.kind = conv_ref::post_op_t::binary;
        b.alg = dnnl_binary_add;
        b.mask = 2;
        b.data = add;
        after.push_back(b);
    }
    const int64_t odims[4] = {c.mb, c.oc, dh, dw_};
    conv_ref::finish(expect, 4, odims, {}, c.dw_bias ? &dwb : nullptr, after, {});

    // Library.
    memory src_m = make_mem(pd.src_desc(),
            memory::desc({c.mb, c.ic, c.ih, c.iw}, dt::f32, tag::nchw), src);
    memory wei_m = make_mem(pd.weights_desc(),
            memory::desc({c.oc, c.ic, c.k, c.k}, dt::f32, tag::oihw), wei);
    memory bia_m = make_mem(bia_md, bia_md, bia);
    memory dww_m = make_mem(dw_wei_md,
            memory::desc({c.oc, 1, 1, c.dw_k, c.dw_k}, dt::f32, tag::goihw), dww);
    memory dwb_m = make_mem(bia_md, bia_md, dwb);
    memory add_m = make_mem(add_md, add_md, add);
    memory dst_m(dst_md, eng());

    std::unordered_map<int, memory> args {{DNNL_ARG_SRC, src_m},
            {DNNL_ARG_WEIGHTS, wei_m}, {DNNL_ARG_BIAS, bia_m},
            {DNNL_ARG_DST, dst_m},
            {DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, dww_m}};
    if (c.dw_bias) args[DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS] = dwb_m;
    if (c.add_after) {
        const int index = c.relu_before ? 2 : 1;
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1] = add_m;
    }
    convolution_forward(pd).execute(strm(), args);
    strm().wait();

    const auto got = read_plain(
            dst_m, memory::desc({c.mb, c.oc, dh, dw_}, dt::f32, tag::nchw));
    ASSERT_EQ(got.size(), expect.size());
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], expect[i], 1e-4 * (1 + std::fabs(expect[i])))
                << "at " << i;
}

} // namespace

// u8 1x1 convolution into an s8 intermediate (src, weights and dst
// scales), then a 3x3 depthwise convolution into u8 with per-channel
// weights scales and a dst scale of its own, against naive loops.
TEST(ConvolutionFusedDw, Int8WithDepthwiseScales) {
    const int64_t C = 4, OC = 8, H = 5;
    const float s_src = 0.5f, s_wei = 0.25f, s_dst = 2.f, s_dw_dst = 0.5f;
    std::vector<float> s_dw_wei(OC);
    for (int64_t c = 0; c < OC; ++c) s_dw_wei[c] = 0.1f * (float)(c + 1);

    post_ops po;
    po.append_dw(dt::s8, dt::undef, dt::u8, 3, 1, 1);
    primitive_attr attr;
    attr.set_post_ops(po);
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    attr.set_scales_mask(DNNL_ARG_WEIGHTS, 0);
    attr.set_scales_mask(DNNL_ARG_DST, 0);
    attr.set_scales_mask(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, 3);
    attr.set_scales_mask(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_DST, 0);
    memory::desc src_md({1, C, H, H}, dt::u8, tag::nchw);
    memory::desc wei_md({OC, C, 1, 1}, dt::s8, tag::oihw);
    memory::desc inter_md({1, OC, H, H}, dt::s8, tag::nchw);
    convolution_forward::primitive_desc pd(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            src_md, wei_md, inter_md, {1, 1}, {0, 0}, {0, 0}, attr);
    memory::desc dww_md = pd.query_md(
            query::exec_arg_md, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS);

    std::vector<uint8_t> src(C * H * H);
    std::vector<int8_t> wei(OC * C), dww(OC * 9);
    for (size_t i = 0; i < src.size(); ++i) src[i] = (uint8_t)((i * 13) % 40);
    for (size_t i = 0; i < wei.size(); ++i) wei[i] = (int8_t)((i * 7) % 11 - 5);
    for (size_t i = 0; i < dww.size(); ++i) dww[i] = (int8_t)((i * 5) % 9 - 4);
    auto round_sat = [](float v, float lo, float hi) {
        return std::min(hi, std::max(lo, std::nearbyint(v)));
    };
    std::vector<float> inter(OC * H * H), expect(OC * H * H);
    for (int64_t o = 0; o < OC; ++o)
        for (int64_t p = 0; p < H * H; ++p) {
            int32_t acc = 0;
            for (int64_t c = 0; c < C; ++c)
                acc += src[c * H * H + p] * wei[o * C + c];
            inter[o * H * H + p] = round_sat(
                    (float)acc * s_src * s_wei / s_dst, -128.f, 127.f);
        }
    for (int64_t o = 0; o < OC; ++o)
        for (int64_t y = 0; y < H; ++y)
            for (int64_t x = 0; x < H; ++x) {
                int32_t acc = 0;
                for (int64_t ky = 0; ky < 3; ++ky)
                    for (int64_t kx = 0; kx < 3; ++kx) {
                        const int64_t iy = y + ky - 1, ix = x + kx - 1;
                        if (iy < 0 || ix < 0 || iy >= H || ix >= H) continue;
                        acc += (int32_t)inter[(o * H + iy) * H + ix]
                                * dww[o * 9 + ky * 3 + kx];
                    }
                expect[(o * H + y) * H + x] = round_sat(
                        (float)acc * s_dw_wei[o] / s_dw_dst, 0.f, 255.f);
            }

    auto filled = [](const memory::desc &md, const void *data, size_t bytes) {
        memory m(md, eng());
        std::memcpy(m.get_data_handle(), data, bytes);
        return m;
    };
    auto scale = [](const std::vector<float> &v) {
        memory m({{(memory::dim)v.size()}, dt::f32, tag::a}, eng());
        std::memcpy(m.get_data_handle(), v.data(), v.size() * sizeof(float));
        return m;
    };
    memory dww_plain = filled(
            memory::desc({OC, 1, 1, 3, 3}, dt::s8, tag::goihw), dww.data(),
            dww.size());
    memory dww_m(dww_md, eng());
    reorder(dww_plain, dww_m).execute(strm(), dww_plain, dww_m);
    memory dst_m(pd.dst_desc(), eng());
    convolution_forward(pd).execute(strm(),
            {{DNNL_ARG_SRC, filled(src_md, src.data(), src.size())},
                    {DNNL_ARG_WEIGHTS, filled(wei_md, wei.data(), wei.size())},
                    {DNNL_ARG_DST, dst_m},
                    {DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, dww_m},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scale({s_src})},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, scale({s_wei})},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, scale({s_dst})},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_ATTR_POST_OP_DW
                                    | DNNL_ARG_WEIGHTS,
                            scale(s_dw_wei)},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_ATTR_POST_OP_DW
                                    | DNNL_ARG_DST,
                            scale({s_dw_dst})}});
    strm().wait();
    memory out(memory::desc({1, OC, H, H}, dt::u8, tag::nchw), eng());
    reorder(dst_m, out).execute(strm(), dst_m, out);
    strm().wait();
    const uint8_t *got = static_cast<const uint8_t *>(out.get_data_handle());
    for (size_t i = 0; i < expect.size(); ++i)
        ASSERT_EQ((float)got[i], expect[i]) << "at " << i;
}

TEST(ConvolutionFusedDw, OneByOneThenDepthwiseStride1) {
    run({2, 8, 16, 7, 9, 1, 1, 0, 3, 1, 1, tag::nchw, true, false, true});
}

TEST(ConvolutionFusedDw, Stride2ChannelsLastWithPostOpsAfter) {
    run({1, 5, 12, 10, 11, 1, 1, 0, 3, 2, 1, tag::nhwc, true, true, false});
}

TEST(ConvolutionFusedDw, ThreeByThreeBaseNoPostOpsBefore) {
    run({2, 3, 8, 9, 8, 3, 1, 1, 3, 2, 1, tag::nchw, false, true, true});
}

TEST(ConvolutionFusedDw, NestedPrimitivesComeFromTheCache) {
    // Creating the fused primitive puts its two nested primitives in the
    // cache: the plain base convolution is then a hit.
    set_primitive_cache_capacity(0);
    set_primitive_cache_capacity(1024);
    if (get_primitive_cache_capacity() == 0)
        GTEST_SKIP() << "primitive cache compiled out";
    memory::desc src({1, 4, 6, 6}, dt::f32, tag::nchw);
    memory::desc wei({8, 4, 1, 1}, dt::f32, tag::oihw);
    memory::desc dst({1, 8, 6, 6}, dt::f32, tag::nchw);
    post_ops po;
    po.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 1);
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward fused(convolution_forward::primitive_desc(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct, src,
            wei, memory::desc(), dst, {1, 1}, {0, 0}, {0, 0}, attr));
    ext::reset_primitive_cache_stats();
    convolution_forward plain(convolution_forward::primitive_desc(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct, src,
            wei, memory::desc(), dst, {1, 1}, {0, 0}, {0, 0}));
    const auto st = ext::get_primitive_cache_stats();
    EXPECT_EQ(st.hits, 1);
    EXPECT_EQ(st.misses, 0);
}

TEST(ConvolutionFusedDw, BadParametersAreRejected) {
    memory::desc src({1, 4, 6, 6}, dt::f32, tag::nchw);
    memory::desc wei({8, 4, 1, 1}, dt::f32, tag::oihw);
    memory::desc dst({1, 8, 6, 6}, dt::f32, tag::nchw);
    auto make = [&](const post_ops &po, prop_kind pk) {
        primitive_attr attr;
        attr.set_post_ops(po);
        return convolution_forward::primitive_desc(eng(), pk,
                algorithm::convolution_direct, src, wei, memory::desc(), dst,
                {1, 1}, {0, 0}, {0, 0}, attr);
    };
    // A kernel that does not reach past the left padding: refused by the
    // setter, as in oneDNN.
    post_ops pad_too_big;
    EXPECT_THROW(pad_too_big.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 3),
            error);
    post_ops two;
    two.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 1);
    two.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 1);
    EXPECT_THROW(make(two, prop_kind::forward_inference), error);
    post_ops bad;
    EXPECT_THROW(bad.append_dw(dt::f32, dt::undef, dt::f32, 0, 1, 0), error);

    // A missing depthwise weights argument is an error, not a crash.
    post_ops po;
    po.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 1);
    auto pd = make(po, prop_kind::forward_inference);
    memory s(pd.src_desc(), eng()), w(pd.weights_desc(), eng()),
            d(pd.dst_desc(), eng());
    EXPECT_THROW(convolution_forward(pd).execute(strm(),
                         {{DNNL_ARG_SRC, s}, {DNNL_ARG_WEIGHTS, w},
                                 {DNNL_ARG_DST, d}}),
            error);
    // Depthwise scales without a depthwise post-op: refused, not ignored.
    primitive_attr dw_scales;
    dw_scales.set_scales_mask(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, 3);
    memory::desc s8({1, 4, 5, 5}, dt::u8, tag::nchw),
            w8({8, 4, 1, 1}, dt::s8, tag::oihw), d8({1, 8, 5, 5}, dt::s8, tag::nchw);
    EXPECT_THROW(convolution_forward::primitive_desc(eng(),
                         prop_kind::forward_inference,
                         algorithm::convolution_direct, s8, w8, d8, {1, 1},
                         {0, 0}, {0, 0}, dw_scales),
            error);
}

TEST(ConvolutionFusedDw, GpuEngineNestsGpuConvolutions) {
    // The gpu engine lists the same implementation over gpu convolutions
    // (results checked against the CPU's in tests/ocl/test_ocl_cache_blob);
    // a user scratchpad cannot be carved for device buffers.
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP();
    engine g(engine::kind::gpu, 0);
    memory::desc src({1, 4, 6, 6}, dt::f32, tag::nchw);
    memory::desc wei({8, 4, 1, 1}, dt::f32, tag::oihw);
    memory::desc dst({1, 8, 6, 6}, dt::f32, tag::nchw);
    post_ops po;
    po.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 1);
    primitive_attr attr;
    attr.set_post_ops(po);
    auto pd = convolution_forward::primitive_desc(g,
            prop_kind::forward_inference, algorithm::convolution_direct, src,
            wei, memory::desc(), dst, {1, 1}, {0, 0}, {0, 0}, attr);
    EXPECT_STREQ(pd.impl_info_str(), "fused:dw");
    attr.set_scratchpad_mode(scratchpad_mode::user);
    try {
        convolution_forward::primitive_desc(g, prop_kind::forward_inference,
                algorithm::convolution_direct, src, wei, memory::desc(), dst,
                {1, 1}, {0, 0}, {0, 0}, attr);
        FAIL() << "expected unimplemented";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
}
