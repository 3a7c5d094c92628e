// Matmul with weight decompression (oneDNN's weight-only quantization) on
// every engine present: f32 / bf16 / f16 activations, s8 / u8 / s4 / u4
// weights (row-major or transposed, batched with broadcast) with scales
// and zero points per tensor, per N, or grouped along K (and N), the
// other attributes kept (source scale, a post-op), fpmath_mode(...,
// apply_to_int = true); without apply_to_int the request is
// unimplemented, as in oneDNN. Expected values are computed here from the
// logical weights.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

std::vector<engine::kind> engine_kinds() {
    std::vector<engine::kind> k = {engine::kind::cpu};
    if (engine::get_count(engine::kind::gpu) > 0) k.push_back(engine::kind::gpu);
    return k;
}

// Stores integer `v` as element `i` of a tensor of type `t` (4-bit values
// two to a byte, the lower index in the low nibble).
void store_int(dt t, void *base, size_t i, int v) {
    if (t == dt::s8) static_cast<int8_t *>(base)[i] = (int8_t)v;
    else if (t == dt::u8) static_cast<uint8_t *>(base)[i] = (uint8_t)v;
    else if (t == dt::s32) static_cast<int32_t *>(base)[i] = v;
    else {
        uint8_t &b = static_cast<uint8_t *>(base)[i / 2];
        const uint8_t nib = (uint8_t)(v & 0xf);
        b = (i % 2) ? (uint8_t)((b & 0x0f) | (nib << 4))
                    : (uint8_t)((b & 0xf0) | nib);
    }
}

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16); // the test's values are exact in bf16
}

// Floating-point value `v` (exact in the type) as element `i`.
void store_fp(dt t, void *base, size_t i, float v) {
    if (t == dt::f32) static_cast<float *>(base)[i] = v;
    else if (t == dt::bf16) static_cast<uint16_t *>(base)[i] = to_bf16(v);
    else { // f16: the test's values are small multiples of 1/4
        const float a = std::fabs(v);
        uint16_t h = 0;
        if (a != 0) {
            int e = 0;
            const float m = std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
            h = (uint16_t)(((e - 1 + 15) << 10) | (uint16_t)((m * 2 - 1) * 1024));
        }
        if (v < 0) h |= 0x8000;
        static_cast<uint16_t *>(base)[i] = h;
    }
}

struct cfg_t {
    dt sdt = dt::f32, wdt = dt::s8;
    int lo = -100, hi = 100; // weight value range
    memory::dim B = 1, M = 3, K = 8, N = 6;
    bool wei_batch = false; // weights with batch dim B (else broadcast)
    bool transposed = false; // weights stored k-contiguous
    int scale_mask = 2; // over the weights' last two dims: 1 = K, 2 = N
    memory::dim gk = 1, gn = 1; // groups (1, 1: no groups)
    bool with_zp = false;
    dt zdt = dt::s32;
    int zp_mask = 2;
    dt scale_dt = dt::f32;
    bool extra = false; // a source scale and a ReLU post-op as well
};

void run(engine::kind kind, const cfg_t &c) {
    SCOPED_TRACE(testing::Message()
            << "engine " << (kind == engine::kind::cpu ? "cpu" : "gpu") << " sdt "
            << (int)c.sdt << " wdt " << (int)c.wdt << " B " << c.B << " trans "
            << c.transposed << " mask " << c.scale_mask << " groups " << c.gk
            << "x" << c.gn << " zp " << c.with_zp << " zdt " << (int)c.zdt);
    engine eng(kind, 0);
    const memory::dim B = c.B, M = c.M, K = c.K, N = c.N;
    const memory::dim WB = c.wei_batch ? B : 1;
    const bool grouped = c.gk > 1 || c.gn > 1;
    memory::desc a({B, M, K}, c.sdt, tag::abc),
            b({WB, K, N}, c.wdt, c.transposed ? tag::acb : tag::abc),
            d({B, M, N}, dt::f32, tag::abc);
    primitive_attr attr;
    attr.set_fpmath_mode(fpmath_mode::strict, true);
    // Masks over the three weights dims: the batch bit when weights have
    // their own batch.
    auto full_mask = [&](int m) { return (m << 1) | (c.wei_batch ? 1 : 0); };
    const memory::dims groups = grouped ? memory::dims {c.gk, c.gn} : memory::dims {};
    attr.set_scales(DNNL_ARG_WEIGHTS, full_mask(c.scale_mask), groups, c.scale_dt);
    if (c.with_zp)
        attr.set_zero_points(DNNL_ARG_WEIGHTS, full_mask(c.zp_mask), groups, c.zdt);
    const float src_scale = 0.5f;
    if (c.extra) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(po);
    }
    matmul::primitive_desc pd(eng, a, b, d, attr);
    // On the gpu engine: decompressed as the GEMV kernel loads the weights
    // (few rows on a GPU) or into f32 first.
    if (kind == engine::kind::gpu) {
        const std::string impl = pd.impl_info_str();
        EXPECT_TRUE(impl.find("decompress") != std::string::npos
                || impl.find("_gemv") != std::string::npos)
                << impl;
    }

    // Logical values, row-major over (batch, k, n) for the weights.
    std::vector<float> x(B * M * K);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = (float)((int)(i % 7) - 3) * 0.5f;
    std::vector<int> q(WB * K * N);
    for (size_t i = 0; i < q.size(); ++i)
        q[i] = c.lo + (int)((i * 5) % (size_t)(c.hi - c.lo + 1));
    // A quantization tensor's shape over (batch, k, n) and the index of
    // weights position (wb, k, n) in it.
    struct qshape_t {
        memory::dim b, k, n, gk, gn;
        size_t at(memory::dim wb, memory::dim kk, memory::dim nn) const {
            return (size_t)(((b > 1 ? wb : 0) * k + (k > 1 ? kk / gk : 0)) * n
                    + (n > 1 ? nn / gn : 0));
        }
        size_t size() const { return (size_t)(b * k * n); }
    };
    auto shape_of = [&](int m) {
        qshape_t s;
        s.b = c.wei_batch ? WB : 1;
        s.gk = (m & 1) ? (grouped ? c.gk : 1) : K;
        s.gn = (m & 2) ? (grouped ? c.gn : 1) : N;
        s.k = (m & 1) ? K / s.gk : 1;
        s.n = (m & 2) ? N / s.gn : 1;
        return s;
    };
    const qshape_t ss = shape_of(c.scale_mask), zs = shape_of(c.zp_mask);
    std::vector<float> sc(ss.size());
    for (size_t i = 0; i < sc.size(); ++i)
        sc[i] = 0.25f * (float)(1 + i % 3);
    std::vector<int> zpv(zs.size(), 0);
    if (c.with_zp)
        for (size_t i = 0; i < zpv.size(); ++i)
            zpv[i] = (int)(i % 3);

    memory ma(a, eng), mb(b, eng), md(d, eng);
    {
        void *p = ma.map_data();
        for (size_t i = 0; i < x.size(); ++i)
            store_fp(c.sdt, p, i, x[i]);
        ma.unmap_data(p);
        p = mb.map_data();
        std::memset(p, 0, b.get_size());
        for (memory::dim wb = 0; wb < WB; ++wb)
            for (memory::dim k = 0; k < K; ++k)
                for (memory::dim n = 0; n < N; ++n) {
                    const size_t phys = (size_t)(wb * K * N
                            + (c.transposed ? n * K + k : k * N + n));
                    store_int(c.wdt, p, phys, q[(wb * K + k) * N + n]);
                }
        mb.unmap_data(p);
    }
    auto qmem = [&](const qshape_t &s, dt t) {
        memory::desc qd({s.b, s.k, s.n}, t, tag::abc);
        return memory(qd, eng);
    };
    memory ms = qmem(ss, c.scale_dt);
    {
        void *p = ms.map_data();
        for (size_t i = 0; i < sc.size(); ++i)
            store_fp(c.scale_dt, p, i, sc[i]);
        ms.unmap_data(p);
    }
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, ma},
            {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, md},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ms}};
    if (c.with_zp) {
        memory mz = qmem(zs, c.zdt);
        void *p = mz.map_data();
        std::memset(p, 0, mz.get_desc().get_size());
        for (size_t i = 0; i < zpv.size(); ++i)
            store_int(c.zdt, p, i, zpv[i]);
        mz.unmap_data(p);
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS] = mz;
    }
    if (c.extra) {
        memory m({{1}, dt::f32, tag::a}, eng);
        void *p = m.map_data();
        *static_cast<float *>(p) = src_scale;
        m.unmap_data(p);
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = m;
    }
    stream s(eng);
    matmul(pd).execute(s, args);
    s.wait();
    const float *y = static_cast<const float *>(md.map_data());
    for (memory::dim bi = 0; bi < B; ++bi)
        for (memory::dim i = 0; i < M; ++i)
            for (memory::dim j = 0; j < N; ++j) {
                const memory::dim wb = c.wei_batch ? bi : 0;
                double want = 0;
                for (memory::dim k = 0; k < K; ++k)
                    want += x[(bi * M + i) * K + k]
                            * (q[(wb * K + k) * N + j] - zpv[zs.at(wb, k, j)])
                            * sc[ss.at(wb, k, j)];
                if (c.extra) want = std::max(0.0, want * src_scale);
                EXPECT_NEAR(y[(bi * M + i) * N + j], want, 1e-3 * (1 + std::fabs(want)))
                        << bi << "," << i << "," << j;
            }
    md.unmap_data(const_cast<float *>(y));
}

TEST(MatmulDecompress, IntegerWeights) {
    for (engine::kind k : engine_kinds()) {
        cfg_t c;
        run(k, c);
        c.scale_mask = 3, c.gk = 4, c.with_zp = true, c.zdt = dt::s8, c.zp_mask = 3;
        run(k, c);
        c = cfg_t();
        c.wdt = dt::u8, c.lo = 0, c.hi = 200, c.with_zp = true, c.zdt = dt::u8;
        run(k, c);
        c = cfg_t();
        c.wdt = dt::s4, c.lo = -8, c.hi = 7, c.scale_mask = 3, c.gk = 4;
        run(k, c);
        c = cfg_t();
        c.wdt = dt::u4, c.lo = 0, c.hi = 15, c.scale_mask = 3, c.gk = 4, c.with_zp = true,
        c.zdt = dt::u4, c.zp_mask = 3;
        run(k, c);
    }
}

TEST(MatmulDecompress, LayoutsGroupsAndTypes) {
    for (engine::kind k : engine_kinds()) {
        cfg_t c; // per-tensor scale, s32 zero point per tensor
        c.scale_mask = 0, c.with_zp = true, c.zp_mask = 0;
        run(k, c);
        c = cfg_t(); // transposed s4 weights, groups along K and N
        c.wdt = dt::s4, c.lo = -8, c.hi = 7, c.transposed = true, c.scale_mask = 3,
        c.gk = 4, c.gn = 2, c.with_zp = true, c.zdt = dt::s4, c.zp_mask = 3;
        c.K = 16, c.N = 12; // even counts of s4 zero points a row
        run(k, c);
        c = cfg_t(); // batched weights, bf16 source and scales
        c.sdt = dt::bf16, c.B = 3, c.wei_batch = true, c.scale_dt = dt::bf16,
        c.scale_mask = 3, c.gk = 2, c.with_zp = true, c.zdt = dt::u8, c.zp_mask = 2;
        c.wdt = dt::u8, c.lo = 0, c.hi = 255;
        run(k, c);
        c = cfg_t(); // broadcast weights, f16 source and scales, the
                     // other attributes kept
        c.sdt = dt::f16, c.B = 2, c.scale_dt = dt::f16, c.extra = true;
        c.M = 17, c.K = 32, c.N = 20, c.scale_mask = 3, c.gk = 8;
        run(k, c);
    }
}

// Dropout with decompressed weights: the mask is the one a plain f32
// matmul of the same shape and seed draws (it depends on dst offsets
// only), kept values the decompressed product over 1 - p.
TEST(MatmulDecompress, WithDropout) {
    const memory::dim M = 5, K = 16, N = 12;
    const float p = 0.5f;
    const int32_t seed = 4242;
    auto run_one = [&](const engine &eng, dt wdt, std::vector<float> &y,
                           std::vector<uint8_t> &mask) {
        memory::desc a({M, K}, dt::f32, tag::ab), b({K, N}, wdt, tag::ab),
                d({M, N}, dt::f32, tag::ab), mk({M, N}, dt::u8, tag::ab);
        primitive_attr attr;
        attr.set_dropout(mk, dt::s32, false, false);
        if (wdt != dt::f32) {
            attr.set_fpmath_mode(fpmath_mode::strict, true);
            attr.set_scales(DNNL_ARG_WEIGHTS, 2, {}, dt::f32);
        }
        matmul::primitive_desc pd(eng, a, b, d, attr);
        memory ma(a, eng), mb(b, eng), md(d, eng), mm(mk, eng),
                mp({{1}, dt::f32, tag::a}, eng), ms({{1}, dt::s32, tag::a}, eng),
                msc({{N}, dt::f32, tag::a}, eng);
        auto fill = [](const memory &m, const std::function<void(void *)> &f) {
            void *h = m.map_data();
            f(h);
            m.unmap_data(h);
        };
        fill(ma, [&](void *h) {
            for (int i = 0; i < M * K; ++i)
                static_cast<float *>(h)[i] = (float)(i % 5) - 2.f;
        });
        fill(mb, [&](void *h) {
            for (int i = 0; i < K * N; ++i) {
                const int q = (i % 7) - 3;
                if (wdt == dt::f32) static_cast<float *>(h)[i] = 0.5f * (float)q;
                else store_int(wdt, h, (size_t)i, q);
            }
        });
        fill(msc, [&](void *h) {
            for (int i = 0; i < N; ++i)
                static_cast<float *>(h)[i] = 0.5f;
        });
        fill(mp, [&](void *h) { *static_cast<float *>(h) = p; });
        fill(ms, [&](void *h) { *static_cast<int32_t *>(h) = seed; });
        std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, ma},
                {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, md},
                {DNNL_ARG_ATTR_DROPOUT_MASK, mm},
                {DNNL_ARG_ATTR_DROPOUT_PROBABILITY, mp},
                {DNNL_ARG_ATTR_DROPOUT_SEED, ms}};
        if (wdt != dt::f32) args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] = msc;
        stream s(eng);
        matmul(pd).execute(s, args);
        s.wait();
        y.resize(M * N);
        mask.resize(M * N);
        fill(md, [&](void *h) { std::memcpy(y.data(), h, y.size() * 4); });
        fill(mm, [&](void *h) { std::memcpy(mask.data(), h, mask.size()); });
    };
    std::vector<float> want;
    std::vector<uint8_t> want_mask;
    run_one(engine(engine::kind::cpu, 0), dt::f32, want, want_mask);
    for (engine::kind k : engine_kinds()) {
        SCOPED_TRACE(k == engine::kind::cpu ? "cpu" : "gpu");
        std::vector<float> y;
        std::vector<uint8_t> mask;
        run_one(engine(k, 0), dt::s8, y, mask);
        EXPECT_EQ(mask, want_mask);
        for (int i = 0; i < M * N; ++i)
            EXPECT_NEAR(y[i], want[i], 1e-4) << i;
    }
}

TEST(MatmulDecompress, NeedsApplyToInt) {
    for (engine::kind k : engine_kinds()) {
        engine eng(k, 0);
        memory::desc a({2, 4}, dt::f32, tag::ab), b({4, 3}, dt::s8, tag::ab),
                d({2, 3}, dt::f32, tag::ab);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_matmul_primitive_desc_create(
                          &pd, eng.get(), a.get(), b.get(), nullptr, d.get(), nullptr),
                dnnl_unimplemented);
    }
}

TEST(MatmulDecompress, MissingScalesRefused) {
    for (engine::kind k : engine_kinds()) {
        engine eng(k, 0);
        memory::desc a({2, 4}, dt::f32, tag::ab), b({4, 6}, dt::s4, tag::ab),
                d({2, 6}, dt::f32, tag::ab);
        primitive_attr attr;
        attr.set_fpmath_mode(fpmath_mode::strict, true);
        attr.set_scales(DNNL_ARG_WEIGHTS, 2, {}, dt::f32);
        matmul::primitive_desc pd(eng, a, b, d, attr);
        memory ma(a, eng), mb(b, eng), md(d, eng);
        stream s(eng);
        EXPECT_THROW(matmul(pd).execute(s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb},
                                                   {DNNL_ARG_DST, md}}),
                error);
    }
}

// On the gpu engine a scale buffer smaller than the scales the attribute
// describes is refused (host memory cannot be checked: the cpu engine
// trusts it, as oneDNN does), on both of its paths.
TEST(MatmulDecompress, ShortScaleBufferRefusedOnGpu) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    for (const char *kernel : {"", "gemv"}) {
        SCOPED_TRACE(kernel);
        set_primitive_cache_capacity(0);
        setenv("ONEDNN_OCL_GEMM_KERNEL", kernel, 1);
        memory::desc a({2, 4}, dt::f32, tag::ab), b({4, 6}, dt::s4, tag::ab),
                d({2, 6}, dt::f32, tag::ab);
        primitive_attr attr;
        attr.set_fpmath_mode(fpmath_mode::strict, true);
        attr.set_scales(DNNL_ARG_WEIGHTS, 2, {}, dt::f32); // six, per N
        matmul::primitive_desc pd(eng, a, b, d, attr);
        memory ma(a, eng), mb(b, eng), md(d, eng);
        memory one({{1}, dt::f32, tag::a}, eng);
        stream s(eng);
        EXPECT_THROW(matmul(pd).execute(s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb},
                                                   {DNNL_ARG_DST, md},
                                                   {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, one}}),
                error);
        unsetenv("ONEDNN_OCL_GEMM_KERNEL");
        set_primitive_cache_capacity(1024);
    }
}

} // namespace
