// Stochastic rounding (rounding_mode::stochastic on DST): the rounding
// function against values oneDNN 3.13.2 produced; matmul and forward
// convolution against a naive reference on inputs whose f32 results are
// exact (so any accumulation order gives the same pre-rounding value), on
// every engine present; the primitives oneDNN 3.13 does not round for
// refuse the attribute; a missing or too short seed is refused at
// execution.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "common/math/stochastic_round.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "tensor_glue.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
namespace m = dnnl::impl::math;
using tensor_glue::host_bytes;

engine &cpu() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// The engines present: cpu, and gpu where there is one.
std::vector<engine> engines() {
    std::vector<engine> v = {cpu()};
    if (engine::get_count(engine::kind::gpu) > 0)
        v.emplace_back(engine::kind::gpu, 0);
    return v;
}

const char *name_of(const engine &e) {
    return e.get_kind() == engine::kind::cpu ? "cpu" : "gpu";
}


float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

m::sround_params_t params(dnnl_data_type_t t) {
    m::sround_params_t p;
    EXPECT_TRUE(m::sround_params(t, p));
    return p;
}

// oneDNN 3.13.2, matmul f32 3x5 by 5x7, seed 0: the f32 results and what
// its stochastic rounding stored for bf16 (upper halves) and f8_e5m2
// destinations (expressed here as the f32 value the byte encodes).
const uint32_t recorded_f32[] = {0x3ec944cc, 0x3ec332ac, 0xbedeaca6, 0xbd36c15a,
        0xbeead0e5, 0x3eaaea32, 0x3ea4d812, 0xbf5d8783, 0x3e64c578, 0x3f0203a3,
        0xbf388156, 0xbd0bbc3e, 0xbf5c4d70, 0x3e69adc9, 0x3cbab440, 0xbf01e0b5,
        0x3f60b382, 0x3f3ff078, 0xbe3ae4b2, 0x3dbbb8bc, 0xbee07e7c};
const uint16_t recorded_bf16[] = {0x3ec9, 0x3ec3, 0xbede, 0xbd36, 0xbeea, 0x3eaa,
        0x3ea4, 0xbf5d, 0x3e64, 0x3f02, 0xbf38, 0xbd0b, 0xbf5c, 0x3e69, 0x3cba,
        0xbf01, 0x3f60, 0x3f3f, 0xbe3a, 0x3dbb, 0xbee0};
const uint8_t recorded_e5m2[] = {0x36, 0x36, 0xb6, 0xa9, 0xb7, 0x35, 0x35, 0xba,
        0x33, 0x38, 0xb9, 0xa8, 0xba, 0x33, 0x25, 0xb8, 0x3b, 0x3a, 0xb1, 0x2d,
        0xb7};

// A normal f8_e5m2 value: sign, 5 exponent bits (bias 15), 2 mantissa bits.
float e5m2_value(uint8_t b) {
    const float mag = std::ldexp(1.f + (b & 3) / 4.f, ((b >> 2) & 31) - 15);
    return (b & 0x80) ? -mag : mag;
}

TEST(StochasticRounding, MatchesOneDnnRecordedValues) {
    const auto pb = params(dnnl_bf16), p8 = params(dnnl_f8_e5m2);
    for (uint32_t i = 0; i < 21; ++i) {
        const float v = from_bits(recorded_f32[i]);
        EXPECT_EQ(bits(m::stochastic_round(v, i, 0, pb)) >> 16, recorded_bf16[i])
                << "bf16, element " << i;
        EXPECT_EQ(m::stochastic_round(v, i, 0, p8), e5m2_value(recorded_e5m2[i]))
                << "f8_e5m2, element " << i;
    }
}

TEST(StochasticRounding, SaturatesFlushesAndKeepsNan) {
    const auto ph = params(dnnl_f16), p4 = params(dnnl_f8_e4m3);
    EXPECT_EQ(m::stochastic_round(1e6f, 3, 9, ph), 65504.f);
    EXPECT_EQ(m::stochastic_round(-1e6f, 3, 9, ph), -65504.f);
    EXPECT_EQ(m::stochastic_round(1000.f, 3, 9, p4), 448.f);
    EXPECT_EQ(bits(m::stochastic_round(1e-6f, 3, 9, ph)), 0u); // +0
    EXPECT_EQ(bits(m::stochastic_round(-1e-3f, 3, 9, p4)), 0u); // +0
    EXPECT_EQ(bits(m::stochastic_round(-0.f, 3, 9, ph)), 0x80000000u);
    EXPECT_TRUE(std::isnan(m::stochastic_round(NAN, 3, 9, ph)));
    // f32: nothing truncated, denormals flushed.
    const auto pf = params(dnnl_f32);
    EXPECT_EQ(m::stochastic_round(1.2345678f, 5, 1, pf), 1.2345678f);
    EXPECT_EQ(m::stochastic_round(1e-40f, 5, 1, pf), 0.f);
    // Types the rounding does not define.
    m::sround_params_t p;
    EXPECT_FALSE(m::sround_params(dnnl_f64, p));
    EXPECT_FALSE(m::sround_params(dnnl_s4, p));
}

// The random bias carries into the kept bits for some elements and not
// for others.
TEST(StochasticRounding, SeedAndOffsetChooseTheBias) {
    const auto p8 = params(dnnl_f8_e4m3);
    // 1.0 plus half of e4m3's step: carries when the bias has its top bit.
    const float v = from_bits(0x3f8f8000);
    int up = 0;
    for (uint32_t idx = 0; idx < 4096; ++idx)
        if (m::stochastic_round(v, idx, 12345, p8) > 1.f) ++up;
    EXPECT_GT(up, 0);
    EXPECT_LT(up, 4096);
}

// Products of these and their sums are exact in f32.
float exact_value(size_t i, int mul) { return float(int((i * mul) % 29) - 14) / 8.f; }

memory f32_mem(const engine &e, const memory::desc &md, int mul) {
    memory mem(md, e);
    float *p = static_cast<float *>(mem.map_data());
    for (size_t i = 0; i < md.get_size() / 4; ++i) p[i] = exact_value(i, mul);
    mem.unmap_data(p);
    return mem;
}

memory seed_mem(const engine &e, int32_t seed) {
    memory m({{1}, dt::s32, tag::x}, e);
    void *p = m.map_data();
    std::memcpy(p, &seed, 4);
    m.unmap_data(p);
    return m;
}

float load(dt t, const void *p, size_t i) {
    switch (t) {
    case dt::f32: return static_cast<const float *>(p)[i];
    case dt::bf16:
        return from_bits(uint32_t(static_cast<const uint16_t *>(p)[i]) << 16);
    case dt::s8: return static_cast<const int8_t *>(p)[i];
    default: return NAN;
    }
}

// Stored as the destination type stores a value already rounded to its
// precision: exactly (bf16), or as the nearest integer (s8).
float stored(dt t, float v) {
    if (t == dt::s8) return std::nearbyint(std::fmax(-128.f, std::fmin(127.f, v)));
    return v;
}

TEST(StochasticRounding, MatmulAgainstReference) {
    const memory::dim B = 2, M = 5, K = 7, N = 6;
    for (const engine &eng : engines())
    for (dt d : {dt::bf16, dt::f32, dt::s8})
        for (tag dtag : {tag::abc, tag::acb})
            for (int32_t seed : {0, 4242}) {
                memory::desc am({B, M, K}, dt::f32, tag::abc),
                        bm({B, K, N}, dt::f32, tag::abc), cm({B, M, N}, d, dtag);
                primitive_attr attr;
                attr.set_rounding_mode(DNNL_ARG_DST, rounding_mode::stochastic);
                post_ops po;
                po.append_eltwise(algorithm::eltwise_linear, 3.f, 0.125f);
                attr.set_post_ops(po);
                matmul::primitive_desc pd(eng, am, bm, cm, attr);
                memory a = f32_mem(eng, am, 7), b = f32_mem(eng, bm, 11), c(cm, eng);
                stream s(eng);
                matmul(pd).execute(s,
                        {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b},
                                {DNNL_ARG_DST, c},
                                {DNNL_ARG_ATTR_ROUNDING_SEED, seed_mem(eng, seed)}});
                s.wait();
                const auto strides = cm.get_strides();
                const auto p = params((dnnl_data_type_t)d);
                const std::vector<uint8_t> ab = host_bytes(a), bb = host_bytes(b),
                                           cb = host_bytes(c);
                const float *av = (const float *)ab.data();
                const float *bv = (const float *)bb.data();
                for (memory::dim bt = 0; bt < B; ++bt)
                    for (memory::dim i = 0; i < M; ++i)
                        for (memory::dim j = 0; j < N; ++j) {
                            float acc = 0.f;
                            for (memory::dim k = 0; k < K; ++k)
                                acc += av[(bt * M + i) * K + k] * bv[(bt * K + k) * N + j];
                            acc = 3.f * acc + 0.125f;
                            const memory::dim off = bt * strides[0]
                                    + i * strides[1] + j * strides[2];
                            const float want = stored(d,
                                    m::stochastic_round(acc, (uint32_t)off, (uint32_t)seed, p));
                            ASSERT_EQ(load(d, cb.data(), off), want)
                                    << name_of(eng) << " dt " << int(d) << " tag "
                                    << int(dtag) << " seed " << seed << " at " << bt
                                    << "," << i << "," << j;
                        }
            }
}

TEST(StochasticRounding, ConvolutionForwardAgainstReference) {
    const memory::dim N = 2, IC = 3, OC = 4, IH = 6, IW = 5, KH = 3, KW = 2;
    const memory::dim OH = IH - KH + 1, OW = IW - KW + 1;
    for (const engine &eng : engines())
    for (tag t : {tag::nchw, tag::nhwc}) {
        memory::desc src({N, IC, IH, IW}, dt::f32, t),
                wei({OC, IC, KH, KW}, dt::f32, tag::oihw),
                dst({N, OC, OH, OW}, dt::bf16, t);
        primitive_attr attr;
        attr.set_rounding_mode(DNNL_ARG_DST, rounding_mode::stochastic);
        // bf16 activations and weights: the f32 inputs below are exact in
        // bf16, so reorders lose nothing.
        memory::desc src16({N, IC, IH, IW}, dt::bf16, t),
                wei16({OC, IC, KH, KW}, dt::bf16, tag::oihw);
        convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                algorithm::convolution_direct, src16, wei16, dst, {1, 1}, {0, 0},
                {0, 0}, attr);
        stream s(eng);
        memory sf = f32_mem(eng, src, 5), wf = f32_mem(eng, wei, 3);
        memory s16(src16, eng), w16(wei16, eng), d(dst, eng);
        reorder(sf, s16).execute(s, sf, s16);
        reorder(wf, w16).execute(s, wf, w16);
        convolution_forward(pd).execute(s,
                {{DNNL_ARG_SRC, s16}, {DNNL_ARG_WEIGHTS, w16}, {DNNL_ARG_DST, d},
                        {DNNL_ARG_ATTR_ROUNDING_SEED, seed_mem(eng, 99)}});
        s.wait();
        const auto ss = src.get_strides(), ds = dst.get_strides();
        const std::vector<uint8_t> xb = host_bytes(sf), wb = host_bytes(wf), db = host_bytes(d);
        const float *x = (const float *)xb.data();
        const float *w = (const float *)wb.data();
        const auto p = params(dnnl_bf16);
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim oc = 0; oc < OC; ++oc)
                for (memory::dim oh = 0; oh < OH; ++oh)
                    for (memory::dim ow = 0; ow < OW; ++ow) {
                        float acc = 0.f;
                        for (memory::dim ic = 0; ic < IC; ++ic)
                            for (memory::dim kh = 0; kh < KH; ++kh)
                                for (memory::dim kw = 0; kw < KW; ++kw)
                                    acc += x[n * ss[0] + ic * ss[1] + (oh + kh) * ss[2]
                                                   + (ow + kw) * ss[3]]
                                            * w[((oc * IC + ic) * KH + kh) * KW + kw];
                        const memory::dim off = n * ds[0] + oc * ds[1] + oh * ds[2]
                                + ow * ds[3];
                        ASSERT_EQ(load(dt::bf16, db.data(), off),
                                m::stochastic_round(acc, (uint32_t)off, 99, p))
                                << name_of(eng) << " tag " << int(t) << " at " << n
                                << "," << oc << "," << oh << "," << ow;
                    }
    }
}

// oneDNN 3.13's CPU rounds only the matmul and forward convolution
// outputs; the rest refuse the attribute, as here.
TEST(StochasticRounding, OtherPrimitivesRefuse) {
    primitive_attr attr;
    attr.set_rounding_mode(DNNL_ARG_DST, rounding_mode::stochastic);
    memory::desc src({2, 3, 6, 5}, dt::bf16, tag::nchw),
            wei({4, 3, 3, 2}, dt::bf16, tag::oihw), dst({2, 4, 8, 6}, dt::bf16, tag::nchw);
    EXPECT_THROW(deconvolution_forward::primitive_desc(cpu(),
                         prop_kind::forward_inference, algorithm::deconvolution_direct,
                         src, wei, dst, {1, 1}, {0, 0}, {0, 0}, attr),
            error);
    memory::desc is({4, 8}, dt::bf16, tag::ab), iw({3, 8}, dt::bf16, tag::ab),
            id({4, 3}, dt::bf16, tag::ab);
    EXPECT_THROW(inner_product_forward::primitive_desc(
                         cpu(), prop_kind::forward_inference, is, iw, id, attr),
            error);
    primitive_attr bwd;
    bwd.set_rounding_mode(DNNL_ARG_DIFF_SRC, rounding_mode::stochastic);
    memory::desc cs({2, 3, 6, 5}, dt::f32, tag::nchw), cw({4, 3, 3, 2}, dt::f32, tag::oihw),
            cd({2, 4, 4, 4}, dt::f32, tag::nchw);
    convolution_forward::primitive_desc fwd(cpu(), prop_kind::forward_training,
            algorithm::convolution_direct, cs, cw, cd, {1, 1}, {0, 0}, {0, 0});
    EXPECT_THROW(convolution_backward_data::primitive_desc(cpu(),
                         algorithm::convolution_direct, cs, cw, cd, {1, 1}, {0, 0},
                         {0, 0}, fwd, bwd),
            error);
}

TEST(StochasticRounding, MissingSeedIsRefused) {
    for (const engine &eng : engines()) {
        SCOPED_TRACE(name_of(eng));
        primitive_attr attr;
        attr.set_rounding_mode(DNNL_ARG_DST, rounding_mode::stochastic);
        memory::desc am({4, 8}, dt::f32, tag::ab), bm({8, 3}, dt::f32, tag::ab),
                cm({4, 3}, dt::bf16, tag::ab);
        matmul::primitive_desc pd(eng, am, bm, cm, attr);
        memory a = f32_mem(eng, am, 3), b = f32_mem(eng, bm, 5), c(cm, eng);
        stream s(eng);
        try {
            matmul(pd).execute(s, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}});
            FAIL() << "executed without DNNL_ARG_ATTR_ROUNDING_SEED";
        } catch (const error &e) {
            EXPECT_EQ(e.status, dnnl_invalid_arguments);
        }
        // A seed of one byte is too short to hold the s32 value.
        memory short_seed({{1}, dt::u8, tag::x}, eng);
        try {
            matmul(pd).execute(s,
                    {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c},
                            {DNNL_ARG_ATTR_ROUNDING_SEED, short_seed}});
            FAIL() << "executed with a one-byte seed";
        } catch (const error &e) {
            EXPECT_EQ(e.status, dnnl_invalid_arguments);
        }
    }
}

} // namespace
