// Integer matmul with grouped and multi-dimensional scales and zero
// points (oneDNN 3.13's quantization grid): every configuration against a
// naive dequantize-multiply-requantize loop in double, on the cpu engine
// and on the gpu engine when there is one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// The engines present: cpu, and gpu where OpenCL found a device.
std::vector<engine> engines() {
    std::vector<engine> v{eng()};
    if (engine::get_count(engine::kind::gpu) > 0)
        v.emplace_back(engine::kind::gpu, 0);
    return v;
}

// Writes host values into a memory of either engine.
template <typename T>
void write(memory &m, const std::vector<T> &v) {
    T *p = m.map_data<T>();
    std::copy(v.begin(), v.end(), p);
    m.unmap_data(p);
}

// One quantization tensor: mask over (B, M, K) / (B, K, N) / (B, M, N)
// and a group along the reduction dim (1 when none).
struct quant_t {
    int mask = -1; // -1: not set
    memory::dim kgroup = 1;
};

struct case_t {
    const char *name;
    quant_t src_scale, wei_scale, dst_scale, src_zp, wei_zp, dst_zp;
    dt ddt = dt::f32;
    bool bias = false, relu = false;
};

// Entries of a quantization tensor over dims `d` (3D) under `q`.
std::vector<float> make_values(const quant_t &q, const memory::dims &d,
        int kdim, float base, float step, bool integral) {
    memory::dim n = 1;
    for (int i = 0; i < 3; ++i)
        if (q.mask & (1 << i)) n *= d[i] / (i == kdim ? q.kgroup : 1);
    std::vector<float> v((size_t)n);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = integral ? std::round(base + step * (float)((i * 7) % 5))
                        : base + step * (float)((i * 7) % 5);
    return v;
}

float lookup(const quant_t &q, const std::vector<float> &v,
        const memory::dims &d, int kdim, const memory::dim *pos) {
    if (q.mask < 0) return 0.f;
    memory::dim idx = 0;
    for (int i = 0; i < 3; ++i)
        if (q.mask & (1 << i)) {
            const memory::dim g = i == kdim ? q.kgroup : 1;
            idx = idx * (d[i] / g) + pos[i] / g;
        }
    return v[(size_t)idx];
}

void run(const case_t &c, const engine &e) {
    SCOPED_TRACE(std::string(c.name) + " on "
                 + (e.get_kind() == engine::kind::cpu ? "cpu" : "gpu"));
    const memory::dim B = 2, M = 3, K = 64, N = 5;
    const memory::dims sd = {B, M, K}, wd = {B, K, N}, dd = {B, M, N};
    memory::desc smd(sd, dt::u8, tag::abc), wmd(wd, dt::s8, tag::acb),
            dmd(dd, c.ddt, tag::abc), bmd({1, 1, N}, dt::f32, tag::abc);

    primitive_attr attr;
    auto set = [&](int arg, const quant_t &q, int kdim, bool zp) {
        if (q.mask < 0) return;
        memory::dims groups;
        if (q.kgroup > 1)
            groups = kdim == 2 ? memory::dims{1, q.kgroup}
                               : memory::dims{q.kgroup, 1};
        if (zp)
            attr.set_zero_points(arg, q.mask, groups, dt::s32);
        else
            attr.set_scales(arg, q.mask, groups, dt::f32);
    };
    set(DNNL_ARG_SRC, c.src_scale, 2, false);
    set(DNNL_ARG_WEIGHTS, c.wei_scale, 1, false);
    set(DNNL_ARG_DST, c.dst_scale, -1, false);
    set(DNNL_ARG_SRC, c.src_zp, 2, true);
    set(DNNL_ARG_WEIGHTS, c.wei_zp, 1, true);
    set(DNNL_ARG_DST, c.dst_zp, -1, true);
    if (c.relu) {
        post_ops ops;
        ops.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(ops);
    }
    matmul::primitive_desc pd =
            c.bias ? matmul::primitive_desc(e, smd, wmd, bmd, dmd, attr)
                   : matmul::primitive_desc(e, smd, wmd, dmd, attr);

    memory ms(smd, e), mw(wmd, e), md(dmd, e), mb(bmd, e);
    std::vector<uint8_t> s((size_t)(B * M * K));
    std::vector<int8_t> w((size_t)(B * K * N));
    std::vector<float> bias((size_t)N);
    for (memory::dim i = 0; i < B * M * K; ++i)
        s[(size_t)i] = (uint8_t)((i * 29) % 256);
    for (memory::dim i = 0; i < B * K * N; ++i)
        w[(size_t)i] = (int8_t)((i * 53) % 256 - 128);
    for (memory::dim n = 0; n < N; ++n) bias[(size_t)n] = 0.5f * (float)n - 1.f;
    write(ms, s);
    write(mw, w);
    write(mb, bias);

    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, ms},
            {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, md}, {DNNL_ARG_BIAS, mb}};
    std::vector<float> vss, vws, vds, vsz, vwz, vdz;
    auto add = [&](int arg, const quant_t &q, const memory::dims &d, int kdim,
                       float base, float step, bool zp, std::vector<float> &v) {
        if (q.mask < 0) return;
        v = make_values(q, d, kdim, base, step, zp);
        memory m(memory::desc({(memory::dim)v.size()}, zp ? dt::s32 : dt::f32,
                         tag::a),
                e);
        if (zp)
            write(m, std::vector<int32_t>(v.begin(), v.end()));
        else
            write(m, v);
        args[(zp ? DNNL_ARG_ATTR_ZERO_POINTS : DNNL_ARG_ATTR_SCALES) | arg] = m;
    };
    add(DNNL_ARG_SRC, c.src_scale, sd, 2, 0.01f, 0.005f, false, vss);
    add(DNNL_ARG_WEIGHTS, c.wei_scale, wd, 1, 0.02f, 0.01f, false, vws);
    add(DNNL_ARG_DST, c.dst_scale, dd, -1, 1.5f, 0.25f, false, vds);
    add(DNNL_ARG_SRC, c.src_zp, sd, 2, 100.f, 10.f, true, vsz);
    add(DNNL_ARG_WEIGHTS, c.wei_zp, wd, 1, -3.f, 2.f, true, vwz);
    add(DNNL_ARG_DST, c.dst_zp, dd, -1, 4.f, 3.f, true, vdz);

    stream st(e);
    matmul(pd).execute(st, args);
    st.wait();
    std::vector<float> got_f32;
    std::vector<uint8_t> got_u8;
    if (c.ddt == dt::f32) {
        const float *p = md.map_data<float>();
        got_f32.assign(p, p + B * M * N);
        md.unmap_data((void *)p);
    } else {
        const uint8_t *p = md.map_data<uint8_t>();
        got_u8.assign(p, p + B * M * N);
        md.unmap_data((void *)p);
    }

    for (memory::dim b = 0; b < B; ++b)
        for (memory::dim m = 0; m < M; ++m)
            for (memory::dim n = 0; n < N; ++n) {
                double acc = 0;
                for (memory::dim k = 0; k < K; ++k) {
                    const memory::dim sp[3] = {b, m, k}, wp[3] = {b, k, n};
                    double sv = s[(size_t)((b * M + m) * K + k)];
                    double wv = w[(size_t)((b * N + n) * K + k)]; // acb
                    sv -= lookup(c.src_zp, vsz, sd, 2, sp);
                    wv -= lookup(c.wei_zp, vwz, wd, 1, wp);
                    if (c.src_scale.mask >= 0)
                        sv *= lookup(c.src_scale, vss, sd, 2, sp);
                    if (c.wei_scale.mask >= 0)
                        wv *= lookup(c.wei_scale, vws, wd, 1, wp);
                    acc += sv * wv;
                }
                if (c.bias) acc += bias[(size_t)n];
                if (c.relu) acc = std::max(acc, 0.0);
                const memory::dim dp[3] = {b, m, n};
                if (c.dst_scale.mask >= 0)
                    acc /= lookup(c.dst_scale, vds, dd, -1, dp);
                acc += lookup(c.dst_zp, vdz, dd, -1, dp);
                const memory::dim o = (b * M + m) * N + n;
                if (c.ddt == dt::f32) {
                    const float got = got_f32[(size_t)o];
                    // f32 accumulation on the gpu engine, double here.
                    EXPECT_NEAR(got, acc, 1e-5 * std::max(1.0, std::fabs(acc)))
                            << b << " " << m << " " << n;
                } else {
                    const double want = std::min(255.0, std::max(0.0, acc));
                    const int got = got_u8[(size_t)o];
                    EXPECT_LE(std::fabs(got - want), 0.5 + 1e-3)
                            << b << " " << m << " " << n;
                }
            }
}

// Masks over (B, M, K) and friends: 1 << 2 is K for src, N for weights
// and dst; 1 << 1 is M for src and dst, K for weights.
TEST(MatmulQuantGrid, GroupedAndMultiDimensionalQuantization) {
    const int b = 1, m_src = 2, k_src = 4, k_wei = 2, n_wei = 4, n_dst = 4;
    const case_t cases[] = {
            {"src zp per K", {}, {}, {}, {k_src}, {}, {}},
            {"src zp per M and K in groups", {}, {}, {}, {m_src | k_src, 32},
                    {}, {}},
            {"weights zp per K and N in groups", {}, {}, {}, {},
                    {k_wei | n_wei, 32}, {}},
            {"src scales per M and K in groups", {m_src | k_src, 32}, {}, {},
                    {}, {}, {}},
            {"weights scales per batch, K and N in groups", {},
                    {b | k_wei | n_wei, 32}, {}, {}, {}, {}},
            {"dst scales per element and zp per N", {}, {}, {b | m_src | n_dst},
                    {}, {}, {n_dst}},
            {"everything, bias and relu", {m_src | k_src, 32},
                    {k_wei | n_wei, 32}, {0}, {k_src}, {n_wei}, {0}, dt::f32,
                    true, true},
            {"everything into u8", {0}, {k_wei | n_wei, 32}, {n_dst},
                    {m_src | k_src, 32}, {0}, {n_dst}, dt::u8, true, false},
    };
    for (const engine &e : engines())
        for (const auto &c : cases) run(c, e);
}

// What the grid leaves out is refused, as oneDNN refuses it.
TEST(MatmulQuantGrid, RefusedConfigurations) {
    memory::desc a({10, 64}, dt::u8, tag::ab), b({64, 20}, dt::s8, tag::ba);
    memory::desc c({10, 20}, dt::f32, tag::ab);
    for (const engine &eng : engines()) {
        auto status = [&](const primitive_attr &attr) {
            try {
                matmul::primitive_desc(eng, a, b, c, attr);
            } catch (const dnnl::error &e) {
                return e.status;
            }
            return dnnl_success;
        };
        primitive_attr groups3;
        groups3.set_scales(DNNL_ARG_WEIGHTS, 3, {3, 1}, dt::f32);
        EXPECT_EQ(status(groups3), dnnl_unimplemented);
        primitive_attr src_k;
        src_k.set_scales_mask(DNNL_ARG_SRC, 1 << 1);
        EXPECT_EQ(status(src_k), dnnl_unimplemented);
        primitive_attr dst_zp_full;
        dst_zp_full.set_zero_points_mask(DNNL_ARG_DST, 3);
        EXPECT_EQ(status(dst_zp_full), dnnl_unimplemented);
        primitive_attr pr;
        pr.set_zero_points(DNNL_ARG_WEIGHTS, 3, {32, 1}, dt::s32);
        pr.set_precomputed_reductions(DNNL_ARG_SRC, 3, {1, 32});
        EXPECT_EQ(status(pr), dnnl_success);
    }
}

} // namespace
