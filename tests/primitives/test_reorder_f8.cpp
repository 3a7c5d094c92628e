// Reorders to and from f8 (e5m2, e4m3) on every engine present: f32
// narrowed to the bytes oneDNN 3.13.2 writes (ties, subnormals, overflow,
// NaN, signed zeros: values recorded from it), every f8 code widened
// against a naive decoder, layouts, a scale, f8 to f8 and to the 16-bit
// types, and across engines.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "tensor_glue.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

std::vector<engine> engines() {
    std::vector<engine> e = {engine(engine::kind::cpu, 0)};
    if (engine::get_count(engine::kind::gpu) > 0)
        e.emplace_back(engine::kind::gpu, 0);
    return e;
}

const dt f8_types[] = {dt::f8_e5m2, dt::f8_e4m3};

// The value of an f8 code, decoded from the format's definition.
double decode(dt t, uint8_t v) {
    const bool e5 = t == dt::f8_e5m2;
    const int mbits = e5 ? 2 : 3, bias = e5 ? 15 : 7;
    const int e = (v & 0x7f) >> mbits, m = v & ((1 << mbits) - 1);
    const double sign = (v & 0x80) ? -1.0 : 1.0;
    if (e5 && e == 31) return m ? NAN : sign * INFINITY;
    if (!e5 && (v & 0x7f) == 0x7f) return NAN;
    if (e == 0) return sign * std::ldexp(m, 1 - bias - mbits);
    return sign * std::ldexp(double((1 << mbits) + m), e - bias - mbits);
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}

memory bytes_memory(
        const engine &eng, const memory::desc &md, const void *data) {
    memory m(md, eng);
    mapped_t map(m);
    std::memcpy(map.ptr, data, md.get_size());
    return m;
}

std::vector<uint8_t> bytes_of(const memory &m) {
    mapped_t map(m);
    const size_t n = m.get_desc().get_size();
    return std::vector<uint8_t>(map.ptr, map.ptr + n);
}

void run(const engine &eng, memory &src, memory &dst,
        const primitive_attr &attr = primitive_attr()) {
    stream s(eng);
    reorder::primitive_desc pd(eng, src.get_desc(), eng, dst.get_desc(), attr);
    reorder(pd).execute(s, src, dst);
    s.wait();
}

} // namespace

// f32 inputs around every rounding decision, and what oneDNN 3.13.2's
// reorder writes for them (f32 -> f16 -> f8, each rounding to nearest
// even, so 2^-17 + ulp ties in e5m2; zeros of either sign become +0).
TEST(ReorderF8, NarrowsAsOneDnn) {
    const uint32_t in[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u,
            0x37800000u, 0x37000000u, 0x37000001u, 0x36ffffffu, 0x3a800000u,
            0x3a800001u, 0x3a801000u, 0x3b000000u, 0x3f800000u, 0x3fa00000u,
            0x3f900000u, 0x3f900001u, 0x3f880000u, 0x3f880001u, 0x3f8fffffu,
            0x43e00000u, 0x43e80000u, 0x43e80001u, 0x43f00000u, 0x47600000u,
            0x47700000u, 0x476fffffu, 0x477fe000u, 0x7f800000u, 0xff800000u,
            0x7fc00000u, 0x7fa00000u, 0xffc00001u, 0xc2f70000u, 0x3e4ccccdu,
            0xbdcccccdu};
    const uint8_t e5m2[] = {0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00,
            0x14, 0x14, 0x14, 0x18, 0x3c, 0x3d, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c,
            0x5f, 0x5f, 0x5f, 0x60, 0x7b, 0x7c, 0x7c, 0x7c, 0x7c, 0xfc, 0x7e,
            0x7f, 0xfe, 0xd8, 0x32, 0xae};
    const uint8_t e4m3[] = {0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x01, 0x38, 0x3a, 0x39, 0x39, 0x38, 0x38, 0x39,
            0x7e, 0x7e, 0x7e, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0xff, 0x7f,
            0x7f, 0xff, 0xef, 0x25, 0x9d};
    const int n = sizeof(in) / sizeof(in[0]);
    for (const engine &eng : engines())
        for (dt t : f8_types) {
            memory src = bytes_memory(
                    eng, memory::desc({n}, dt::f32, tag::a), in);
            memory dst(memory::desc({n}, t, tag::a), eng);
            run(eng, src, dst);
            const std::vector<uint8_t> got = bytes_of(dst);
            const uint8_t *want = t == dt::f8_e5m2 ? e5m2 : e4m3;
            for (int i = 0; i < n; ++i)
                EXPECT_EQ(got[i], want[i])
                        << "input 0x" << std::hex << in[i] << " type "
                        << dt_name(t) << " engine " << (int)eng.get_kind();
        }
}

// Every code widens to its value; negative zero to +0; NaN stays NaN
// (e5m2's quiet).
TEST(ReorderF8, WidensEveryCode) {
    uint8_t codes[256];
    for (int i = 0; i < 256; ++i) codes[i] = (uint8_t)i;
    for (const engine &eng : engines())
        for (dt t : f8_types) {
            memory src = bytes_memory(eng, memory::desc({256}, t, tag::a), codes);
            memory dst(memory::desc({256}, dt::f32, tag::a), eng);
            run(eng, src, dst);
            const std::vector<uint8_t> b = bytes_of(dst);
            for (int i = 0; i < 256; ++i) {
                float f;
                std::memcpy(&f, b.data() + 4 * i, 4);
                const double want = decode(t, (uint8_t)i);
                if (std::isnan(want)) {
                    EXPECT_TRUE(std::isnan(f)) << i;
                    if (t == dt::f8_e5m2)
                        EXPECT_NE(bits_of(f) & 0x00400000u, 0u) << i;
                } else {
                    EXPECT_EQ((double)f, want) << "code " << i;
                }
                if (i == 0x80) EXPECT_EQ(bits_of(f), 0u);
            }
        }
}

// Values an f8 type holds exactly go through layouts and back unchanged:
// f32 nchw -> f8 nhwc (bytes checked at nhwc offsets) -> f8 nChw16c ->
// f32 nchw, a power-of-two source scale, and f8 -> bf16 / f16.
TEST(ReorderF8, LayoutsScaleAndOtherTypes) {
    const memory::dims d = {2, 19, 3, 5};
    const int64_t n = 2 * 19 * 3 * 5;
    for (const engine &eng : engines())
        for (dt t : f8_types) {
            std::mt19937 gen(7);
            // Codes of finite values, and their values.
            std::vector<uint8_t> code(n);
            std::vector<float> val(n);
            for (int64_t i = 0; i < n; ++i) {
                uint8_t c;
                do {
                    c = (uint8_t)std::uniform_int_distribution<int>(0, 255)(gen);
                } while (!std::isfinite(decode(t, c)) || c == 0x80);
                code[i] = c;
                val[i] = (float)decode(t, c);
            }
            memory f32_nchw = bytes_memory(
                    eng, memory::desc(d, dt::f32, tag::nchw), val.data());
            memory f8_nhwc(memory::desc(d, t, tag::nhwc), eng);
            run(eng, f32_nchw, f8_nhwc);
            const std::vector<uint8_t> nhwc = bytes_of(f8_nhwc);
            for (int64_t i = 0; i < n; ++i) {
                const int64_t w = i % 5, h = i / 5 % 3, c = i / 15 % 19,
                              b = i / 285;
                ASSERT_EQ(nhwc[((b * 3 + h) * 5 + w) * 19 + c], code[i]) << i;
            }
            memory f8_blocked(memory::desc(d, t, tag::nChw16c), eng);
            run(eng, f8_nhwc, f8_blocked);
            memory back(memory::desc(d, dt::f32, tag::nchw), eng);
            run(eng, f8_blocked, back);
            EXPECT_EQ(bytes_of(back), bytes_of(f32_nchw));

            // A source scale of 2: the f8 values are halves of the f32.
            std::vector<float> twice(val);
            for (float &v : twice) v *= 0.5f;
            memory half = bytes_memory(
                    eng, memory::desc(d, dt::f32, tag::nchw), twice.data());
            primitive_attr attr;
            attr.set_scales_mask(DNNL_ARG_SRC, 0);
            memory f8_scaled(memory::desc(d, t, tag::nchw), eng);
            {
                stream s(eng);
                reorder::primitive_desc pd(eng, half.get_desc(), eng,
                        f8_scaled.get_desc(), attr);
                const float two = 2.f;
                memory scale = bytes_memory(
                        eng, memory::desc({1}, dt::f32, tag::a), &two);
                reorder(pd).execute(s,
                        {{DNNL_ARG_SRC, half}, {DNNL_ARG_DST, f8_scaled},
                                {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scale}});
                s.wait();
            }
            EXPECT_EQ(bytes_of(f8_scaled), code);

            // f8 -> bf16 and f16 directly hold the same values.
            for (dt wide : {dt::bf16, dt::f16}) {
                memory w16(memory::desc(d, wide, tag::nchw), eng);
                run(eng, f8_scaled, w16);
                EXPECT_TRUE(matches(from_memory(w16),
                        std::vector<double>(val.begin(), val.end()), wide,
                        tol_for(wide, 0, 0)))
                        << dt_name(wide);
            }
        }
}

// cpu f32 -> gpu f8 and back.
TEST(ReorderF8, AcrossEngines) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
    const float v[] = {1.f, -0.375f, 448.f, 0.0078125f, 3.5f, -96.f};
    for (dt t : f8_types) {
        memory a = bytes_memory(cpu, memory::desc({6}, dt::f32, tag::a), v);
        memory g(memory::desc({6}, t, tag::a), gpu);
        memory b(memory::desc({6}, dt::f32, tag::a), cpu);
        stream gs(gpu);
        reorder(a, g).execute(gs, a, g);
        reorder(g, b).execute(gs, g, b);
        gs.wait();
        const std::vector<uint8_t> got = bytes_of(b);
        for (int i = 0; i < 6; ++i) {
            float f;
            std::memcpy(&f, got.data() + 4 * i, 4);
            EXPECT_EQ(f, v[i]) << dt_name(t); // each exact in both types
        }
    }
}
