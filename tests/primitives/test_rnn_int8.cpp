// int8 LSTM (with and without projection) and GRU inference against an
// integer reference written here: u8 (or, LSTM, s8) data = saturate(
// round(f * scale + shift)), s8
// weights with common or per gate-and-channel scales, s32 accumulation
// with the shift compensated, f32 cells, states requantized after every
// step (and GRU's r * h and LSTMP's cell output before their GEMMs).
// Also: u8 or f32 destinations, f32 iteration states, the attribute's
// setters and getters, qparams that do not fit the problem, RNN qparams
// refused by other primitives, and the reorders that quantize data and
// weights with them (the flow of oneDNN's int8 RNN example). The
// primitive's cases and refusals run on every engine present (the gpu
// engine's int8 runs on f32 GEMMs: src/gpu/ocl/rnn/rnn_int8.hpp); the
// reorders are the CPU's.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

struct prob_t {
    bool gru = false;
    int L = 1, D = 1, T = 3, N = 2, SLC = 8, DHC = 8, DIC = 8; // SIC = DIC
    rnn_direction dir = rnn_direction::unidirectional_left2right;
    bool per_channel = true; // weights scales per gate and channel
    bool dst_f32 = false; // dst_layer f32
    bool iter_f32 = false; // src_iter / dst_iter f32
    bool s8 = false; // s8 data instead of u8 (LSTM only)
    bool wei_ldgoi = false; // layer and iteration weights given as ldgoi
    float scale = 64.f, shift = 128.f;
    int G() const { return gru ? 3 : 4; }
    // The data type's range.
    int lo() const { return s8 ? -128 : 0; }
    int hi() const { return s8 ? 127 : 255; }
    bool proj() const { return !gru && DIC != DHC; }
};

float sigm(float x) { return 1.f / (1.f + std::exp(-x)); }

struct ref_t {
    const prob_t &p;
    std::vector<int> src_layer; // [T][N][SLC], values of the data type
    std::vector<float> src_iter; // [L][D][N][DIC] as f32 (quantized by the test when u8)
    std::vector<float> src_iter_c; // [L][D][N][DHC]
    std::vector<int8_t> wl, wi, wp; // ldigo, ldigo, ldio
    std::vector<float> bias, wscales, pscales;
    // Outputs as the library should give them (dequantized f32 for u8).
    std::vector<float> dst_layer, dst_iter, dst_iter_c;

    explicit ref_t(const prob_t &p_) : p(p_) {}

    int q(float f) const {
        float v = std::nearbyint(f * p.scale + p.shift);
        return (int)std::fmin((float)p.hi(), std::fmax((float)p.lo(), v));
    }
    float deq(int v) const { return ((float)v - p.shift) / p.scale; }
    float ws(int g, int o) const { return p.per_channel ? wscales[g * p.DHC + o] : wscales[0]; }

    // (acc - shift * sum of the weights) / (scale * weight scale)
    float gate(long acc, long wsum, float wscale) const {
        return ((float)acc - p.shift * (float)wsum) / (p.scale * wscale);
    }

    void run() {
        const int L = p.L, D = p.D, T = p.T, N = p.N, H = p.DHC, O = p.DIC, G = p.G();
        // Outputs (quantized) of each layer per direction, [T][N][O].
        std::vector<std::vector<int>> out(D, std::vector<int>((size_t)T * N * O));
        dst_iter.assign((size_t)L * D * N * O, 0.f);
        dst_iter_c.assign((size_t)L * D * N * H, 0.f);
        for (int d = 0; d < D; ++d) {
            const bool r2l = p.dir == rnn_direction::unidirectional_right2left || d == 1;
            std::vector<int> in((size_t)T * N * p.SLC);
            for (size_t i = 0; i < in.size(); ++i) in[i] = src_layer[i];
            int K = p.SLC;
            for (int l = 0; l < L; ++l) {
                std::vector<int> h((size_t)N * O);
                std::vector<float> c((size_t)N * H);
                for (int n = 0; n < N; ++n) {
                    for (int j = 0; j < O; ++j)
                        h[n * O + j] = q(src_iter[((size_t)(l * D + d) * N + n) * O + j]);
                    for (int j = 0; j < H; ++j)
                        c[n * H + j] = src_iter_c[((size_t)(l * D + d) * N + n) * H + j];
                }
                auto WL = [&](int k, int g, int o) {
                    return (long)wl[((((size_t)l * D + d) * K + k) * G + g) * H + o];
                };
                auto WI = [&](int k, int g, int o) {
                    return (long)wi[((((size_t)l * D + d) * O + k) * G + g) * H + o];
                };
                std::vector<int> lay_out((size_t)T * N * O);
                for (int s = 0; s < T; ++s) {
                    const int t = r2l ? T - 1 - s : s;
                    std::vector<int> hn((size_t)N * O);
                    for (int n = 0; n < N; ++n) {
                        const int *x = &in[((size_t)t * N + n) * K];
                        const int *hp = &h[(size_t)n * O];
                        auto lay = [&](int g, int o) {
                            long acc = 0, sum = 0;
                            for (int k = 0; k < K; ++k) acc += x[k] * WL(k, g, o), sum += WL(k, g, o);
                            return gate(acc, sum, ws(g, o)) + bias[(((size_t)l * D + d) * G + g) * H + o];
                        };
                        auto rec = [&](const int *v, int g, int o) {
                            long acc = 0, sum = 0;
                            for (int k = 0; k < O; ++k) acc += v[k] * WI(k, g, o), sum += WI(k, g, o);
                            return gate(acc, sum, ws(g, o));
                        };
                        if (!p.gru) {
                            std::vector<int> hq((size_t)H);
                            for (int o = 0; o < H; ++o) {
                                const float gi = sigm(lay(0, o) + rec(hp, 0, o));
                                const float gf = sigm(lay(1, o) + rec(hp, 1, o));
                                const float gc = std::tanh(lay(2, o) + rec(hp, 2, o));
                                const float go = sigm(lay(3, o) + rec(hp, 3, o));
                                float &cc = c[(size_t)n * H + o];
                                cc = gf * cc + gi * gc;
                                hq[o] = q(go * std::tanh(cc));
                            }
                            for (int o = 0; o < O; ++o) {
                                if (!p.proj()) {
                                    hn[(size_t)n * O + o] = hq[o];
                                    continue;
                                }
                                long acc = 0, sum = 0;
                                for (int k = 0; k < H; ++k) {
                                    const long w = wp[(((size_t)l * D + d) * H + k) * O + o];
                                    acc += hq[k] * w, sum += w;
                                }
                                const float psc = pscales.size() == 1 ? pscales[0] : pscales[o];
                                hn[(size_t)n * O + o] = q(gate(acc, sum, psc));
                            }
                        } else {
                            std::vector<float> u((size_t)H), r((size_t)H);
                            std::vector<int> rh((size_t)H);
                            for (int o = 0; o < H; ++o) {
                                u[o] = sigm(lay(0, o) + rec(hp, 0, o));
                                r[o] = sigm(lay(1, o) + rec(hp, 1, o));
                                rh[o] = q(r[o] * deq(hp[o]));
                            }
                            for (int o = 0; o < H; ++o) {
                                const float go = std::tanh(lay(2, o) + rec(rh.data(), 2, o));
                                hn[(size_t)n * O + o] = q(u[o] * deq(hp[o]) + (1.f - u[o]) * go);
                            }
                        }
                    }
                    h = hn;
                    for (size_t i = 0; i < hn.size(); ++i) lay_out[(size_t)t * N * O + i] = hn[i];
                }
                for (int i = 0; i < N * O; ++i)
                    dst_iter[((size_t)(l * D + d) * N) * O + i] = deq(h[i]);
                for (int i = 0; i < N * H; ++i)
                    dst_iter_c[((size_t)(l * D + d) * N) * H + i] = c[i];
                in = lay_out;
                K = O;
            }
            out[d] = in;
        }
        const bool concat = p.dir == rnn_direction::bidirectional_concat;
        const bool sum = p.dir == rnn_direction::bidirectional_sum;
        const int OW = concat ? 2 * O : O;
        dst_layer.assign((size_t)T * N * OW, 0.f);
        for (int t = 0; t < T; ++t)
            for (int n = 0; n < N; ++n)
                for (int j = 0; j < O; ++j) {
                    const size_t i = ((size_t)t * N + n) * O + j;
                    const size_t o = ((size_t)t * N + n) * OW + j;
                    if (sum)
                        dst_layer[o] = deq(q(deq(out[0][i]) + deq(out[1][i])));
                    else
                        dst_layer[o] = deq(out[0][i]);
                    if (concat) dst_layer[o + O] = deq(out[1][i]);
                }
    }
};

// The engines the primitive's tests run on: the CPU, and the gpu engine
// when one is present.
std::vector<engine::kind> engine_kinds() {
    std::vector<engine::kind> k = {engine::kind::cpu};
    if (engine::get_count(engine::kind::gpu) > 0) k.push_back(engine::kind::gpu);
    return k;
}

const char *kind_name(engine::kind k) {
    return k == engine::kind::gpu ? "gpu engine" : "cpu engine";
}

// Memory of `d` on any engine holding the bytes at `data` (through a map:
// gpu memory has no host pointer).
memory mem_with(const memory::desc &d, const engine &eng, const void *data) {
    memory m(d, eng);
    void *p = m.map_data();
    std::memcpy(p, data, d.get_size());
    m.unmap_data(p);
    return m;
}

std::vector<float> read_as_f32(const memory &m, const ref_t &r) {
    const auto d = m.get_desc();
    const size_t n = d.get_size() / memory::data_type_size(d.get_data_type());
    std::vector<float> v(n);
    void *map = m.map_data();
    if (d.get_data_type() == dt::f32) {
        const float *p = (const float *)map;
        v.assign(p, p + n);
    } else {
        const uint8_t *u = (const uint8_t *)map;
        const int8_t *s = (const int8_t *)map;
        for (size_t i = 0; i < n; ++i) v[i] = r.deq(r.p.s8 ? s[i] : u[i]);
    }
    m.unmap_data(map);
    return v;
}

// Elements may differ by one quantization step (a rounding tie broken
// differently by the f32 GEMM or the library's exp/tanh), rarely.
void expect_close(const std::vector<float> &got, const std::vector<float> &want, float step,
        const char *what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    size_t off_by_one = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const float e = std::fabs(got[i] - want[i]);
        ASSERT_LE(e, step * 1.01f + 1e-4f) << what << " element " << i;
        if (e > 1e-4f) ++off_by_one;
    }
    EXPECT_LE(off_by_one, got.size() / 20 + 1) << what;
}

void run_case_on(const prob_t &p, engine::kind ek) {
    SCOPED_TRACE(kind_name(ek));
    engine eng(ek, 0);
    stream s(eng);
    std::mt19937 gen(7);
    std::uniform_int_distribution<int> qd(p.lo(), p.hi()), s8d(-60, 60);
    std::uniform_real_distribution<float> fd(-1.f, 1.f);
    const int G = p.G(), L = p.L, D = p.D, O = p.DIC, H = p.DHC;
    ref_t r(p);
    r.src_layer.resize((size_t)p.T * p.N * p.SLC);
    for (auto &x : r.src_layer) x = qd(gen);
    r.src_iter.resize((size_t)L * D * p.N * O);
    // f32 states off the grid by up to 0.45 steps (rounded onto it first).
    for (auto &x : r.src_iter) x = r.deq(qd(gen)) + (p.iter_f32 ? fd(gen) * 0.45f / p.scale : 0.f);
    r.src_iter_c.resize((size_t)L * D * p.N * H);
    for (auto &x : r.src_iter_c) x = fd(gen);
    auto fill_s8 = [&](std::vector<int8_t> &w, size_t n) {
        w.resize(n);
        for (auto &x : w) x = (int8_t)s8d(gen);
    };
    fill_s8(r.wl, (size_t)L * D * p.SLC * G * H);
    fill_s8(r.wi, (size_t)L * D * O * G * H);
    if (p.proj()) fill_s8(r.wp, (size_t)L * D * H * O);
    r.bias.resize((size_t)L * D * G * H);
    for (auto &x : r.bias) x = fd(gen) * 0.5f;
    r.wscales.resize(p.per_channel ? (size_t)G * H : 1);
    for (size_t i = 0; i < r.wscales.size(); ++i) r.wscales[i] = 32.f + 8.f * (float)(i % 5);
    r.pscales = {40.f};
    r.run();

    const bool concat = p.dir == rnn_direction::bidirectional_concat;
    const dt qdt = p.s8 ? dt::s8 : dt::u8;
    const dt ldt = p.dst_f32 ? dt::f32 : qdt, idt = p.iter_f32 ? dt::f32 : qdt;
    memory::desc sl({p.T, p.N, p.SLC}, qdt, tag::tnc),
            si({L, D, p.N, O}, idt, tag::ldnc), sic({L, D, p.N, H}, dt::f32, tag::ldnc),
            wl({L, D, p.SLC, G, H}, dt::s8, p.wei_ldgoi ? tag::ldgoi : tag::ldigo),
            wi({L, D, O, G, H}, dt::s8, p.wei_ldgoi ? tag::ldgoi : tag::ldigo),
            wp({L, D, H, O}, dt::s8, tag::ldio), b({L, D, G, H}, dt::f32, tag::ldgo),
            dl({p.T, p.N, concat ? 2 * O : O}, ldt, tag::tnc),
            di({L, D, p.N, O}, idt, tag::ldnc),
            dic({L, D, p.N, H}, dt::f32, tag::ldnc);
    primitive_attr attr;
    attr.set_rnn_data_qparams(p.scale, p.shift);
    attr.set_rnn_weights_qparams(p.per_channel ? (1 << 3) | (1 << 4) : 0, r.wscales);
    if (p.proj()) attr.set_rnn_weights_projection_qparams(0, r.pscales);
    const auto fwd = prop_kind::forward_inference;
    primitive prim;
    primitive_desc_base pd;
    if (p.gru) {
        auto g = gru_forward::primitive_desc(eng, fwd, p.dir, sl, si, wl, wi, b, dl, di, attr);
        prim = gru_forward(g);
        pd = g;
    } else if (p.proj()) {
        auto g = lstm_forward::primitive_desc(eng, fwd, p.dir, sl, si, sic, wl, wi, memory::desc(),
                wp, b, dl, di, dic, attr);
        prim = lstm_forward(g);
        pd = g;
    } else {
        auto g = lstm_forward::primitive_desc(eng, fwd, p.dir, sl, si, sic, wl, wi, b, dl, di, dic,
                attr);
        prim = lstm_forward(g);
        pd = g;
    }
    // On the CPU an integral shift is the integer GEMM's zero point;
    // others, and every problem on the gpu engine, run in f32 on
    // dequantized values.
    const std::string impl = pd.impl_info_str();
    const bool integral = std::nearbyint(p.shift) == p.shift;
    const bool on_ints = integral && ek == engine::kind::cpu;
    EXPECT_NE(impl.find(on_ints ? "int8:" : "int8_on_f32:"), std::string::npos) << impl;
    // Bytes of int8 data (the two's complement byte for s8).
    std::vector<uint8_t> sl_q, si_q;
    for (int x : r.src_layer) sl_q.push_back((uint8_t)x);
    memory m_sl = mem_with(sl, eng, sl_q.data());
    memory m_si;
    if (p.iter_f32) {
        m_si = mem_with(si, eng, r.src_iter.data());
    } else {
        for (float x : r.src_iter) si_q.push_back((uint8_t)r.q(x));
        m_si = mem_with(si, eng, si_q.data());
    }
    // The reference's weights are ldigo; other layouts through a reorder.
    auto weights = [&](const memory::desc &d, const std::vector<int8_t> &v) {
        memory plain = mem_with(memory::desc(d.get_dims(), dt::s8, tag::ldigo), eng, v.data());
        if (!p.wei_ldgoi) return plain;
        memory m(d, eng);
        stream s(eng);
        reorder(plain, m).execute(s, plain, m);
        s.wait();
        return m;
    };
    memory m_sic = mem_with(sic, eng, r.src_iter_c.data()), m_wl = weights(wl, r.wl),
           m_wi = weights(wi, r.wi),
           m_b = mem_with(b, eng, r.bias.data()), m_dl(dl, eng), m_di(di, eng),
           m_dic(dic, eng);
    std::unordered_map<int, memory> args {{DNNL_ARG_SRC_LAYER, m_sl}, {DNNL_ARG_SRC_ITER, m_si},
            {DNNL_ARG_WEIGHTS_LAYER, m_wl}, {DNNL_ARG_WEIGHTS_ITER, m_wi}, {DNNL_ARG_BIAS, m_b},
            {DNNL_ARG_DST_LAYER, m_dl}, {DNNL_ARG_DST_ITER, m_di}};
    memory m_wp;
    if (!p.gru) {
        args[DNNL_ARG_SRC_ITER_C] = m_sic;
        args[DNNL_ARG_DST_ITER_C] = m_dic;
    }
    if (p.proj()) {
        m_wp = mem_with(wp, eng, r.wp.data());
        args[DNNL_ARG_WEIGHTS_PROJECTION] = m_wp;
    }
    prim.execute(s, args);
    s.wait();
    const float step = 1.f / p.scale;
    expect_close(read_as_f32(m_dl, r), r.dst_layer, step, "dst_layer");
    expect_close(read_as_f32(m_di, r), r.dst_iter, step, "dst_iter");
    if (!p.gru) {
        float *map = (float *)m_dic.map_data();
        const std::vector<float> c(map, map + r.dst_iter_c.size());
        m_dic.unmap_data(map);
        for (size_t i = 0; i < c.size(); ++i)
            ASSERT_NEAR(c[i], r.dst_iter_c[i], 0.05f) << "dst_iter_c " << i;
    }
}

void run_case(const prob_t &p) {
    for (engine::kind ek : engine_kinds()) run_case_on(p, ek);
}

} // namespace

TEST(RnnInt8, LstmPerChannelScalesU8Destinations) {
    prob_t p;
    p.SLC = 5;
    run_case(p);
    p.T = 1; // one step: the recurrent weights are not packed
    run_case(p);
    p.T = 6; // wider than a packed panel, with a tail
    p.N = 3;
    p.DHC = p.DIC = 40;
    p.SLC = 40;
    run_case(p);
}

// ldgoi weights: the column sums of the integer path walk down each
// column, not along rows as for ldigo.
TEST(RnnInt8, LstmAndGruLdgoiWeights) {
    prob_t p;
    p.wei_ldgoi = true;
    p.L = 2;
    run_case(p);
    p.gru = true;
    p.T = 1;
    run_case(p);
}

TEST(RnnInt8, LstmCommonScaleF32DestinationsTwoLayers) {
    prob_t p;
    p.per_channel = false;
    p.dst_f32 = true;
    p.L = 2;
    p.T = 4;
    run_case(p);
}

TEST(RnnInt8, LstmBidirectionalConcatAndSum) {
    prob_t p;
    p.D = 2;
    p.dir = rnn_direction::bidirectional_concat;
    run_case(p);
    p.dir = rnn_direction::bidirectional_sum;
    run_case(p);
}

TEST(RnnInt8, LstmF32IterationStatesRightToLeft) {
    prob_t p;
    p.iter_f32 = true;
    p.dir = rnn_direction::unidirectional_right2left;
    p.scale = 50.f;
    p.shift = 100.f;
    run_case(p);
}

// One GRU step passes u h' straight to h: an f32 initial state that is
// not put on the grid first shows in many outputs.
TEST(RnnInt8, GruF32InitialStateGoesOnTheGrid) {
    prob_t p;
    p.gru = true;
    p.iter_f32 = true;
    p.T = 1;
    p.N = 4;
    p.DHC = p.DIC = 16;
    p.scale = 50.f;
    p.shift = 100.f;
    run_case(p);
}

// s8 data (LSTM only), with a shift, s8 states and destinations; the
// bidirectional sum adds dequantized values and quantizes once.
TEST(RnnInt8, LstmS8Data) {
    prob_t p;
    p.s8 = true;
    p.shift = 10.f;
    run_case(p);
    p.L = 2;
    p.D = 2;
    p.dir = rnn_direction::bidirectional_sum;
    run_case(p);
}

TEST(RnnInt8, LstmWithProjection) {
    prob_t p;
    p.DHC = 12;
    p.DIC = 6;
    p.SLC = 6; // stacked layers take DIC channels
    p.L = 2;
    run_case(p);
}

TEST(RnnInt8, GruOneAndTwoLayers) {
    prob_t p;
    p.gru = true;
    run_case(p);
    p.L = 2;
    p.T = 5;
    p.dst_f32 = true;
    p.per_channel = false;
    run_case(p);
}

TEST(RnnInt8, NonIntegralShiftOnTheF32Path) {
    prob_t p;
    p.shift = 127.5f;
    p.scale = 60.f;
    p.L = 2;
    run_case(p);
    p.gru = true;
    run_case(p);
    p.gru = false;
    p.DHC = 12;
    p.DIC = 6;
    p.SLC = 6;
    run_case(p);
}

TEST(RnnInt8, AttributeSettersAndGetters) {
    primitive_attr a;
    float scale = 0, shift = 0;
    a.get_rnn_data_qparams(scale, shift);
    EXPECT_EQ(scale, 1.f);
    EXPECT_EQ(shift, 0.f);
    a.set_rnn_data_qparams(63.f, 64.f);
    a.get_rnn_data_qparams(scale, shift);
    EXPECT_EQ(scale, 63.f);
    EXPECT_EQ(shift, 64.f);
    int mask = -1;
    std::vector<float> sc;
    a.get_rnn_weights_qparams(mask, sc);
    EXPECT_EQ(mask, 0);
    EXPECT_EQ(sc, std::vector<float>({1.f}));
    a.set_rnn_weights_qparams(24, {1.f, 2.f, 3.f});
    a.get_rnn_weights_qparams(mask, sc);
    EXPECT_EQ(mask, 24);
    EXPECT_EQ(sc, std::vector<float>({1.f, 2.f, 3.f}));
    a.set_rnn_weights_projection_qparams(8, {5.f});
    a.get_rnn_weights_projection_qparams(mask, sc);
    EXPECT_EQ(mask, 8);
    EXPECT_EQ(sc, std::vector<float>({5.f}));
    // Bad values through the C API.
    const float one = 1.f;
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(a.get(), 0, 0, &one),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(a.get(), 1, -1, &one),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(a.get(), 1, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(nullptr, 1.f, 0.f),
            dnnl_invalid_arguments);
}

// The status a primitive descriptor's creation ends with.
template <typename F>
dnnl_status_t status_of(F f) {
    try {
        f();
    } catch (const error &e) {
        return e.status;
    }
    return dnnl_success;
}

TEST(RnnInt8, QparamsThatDoNotFitAreRefused) {
    for (engine::kind ek : engine_kinds()) {
        SCOPED_TRACE(kind_name(ek));
        engine eng(ek, 0);
        memory::desc sl({2, 1, 4}, dt::u8, tag::tnc), si({1, 1, 1, 4}, dt::u8, tag::ldnc),
                sic({1, 1, 1, 4}, dt::f32, tag::ldnc), wl({1, 1, 4, 4, 4}, dt::s8, tag::ldigo),
                wi({1, 1, 4, 4, 4}, dt::s8, tag::ldigo), b({1, 1, 4, 4}, dt::f32, tag::ldgo),
                dl({2, 1, 4}, dt::u8, tag::tnc);
        // LSTM with projection: 4 hidden channels to 2 outputs.
        memory::desc psi({1, 1, 1, 2}, dt::u8, tag::ldnc),
                pwi({1, 1, 2, 4, 4}, dt::s8, tag::ldigo), pw({1, 1, 4, 2}, dt::s8, tag::ldio),
                pdl({2, 1, 2}, dt::u8, tag::tnc);
        const auto fwd = prop_kind::forward_inference;
        const auto dir = rnn_direction::unidirectional_left2right;
        auto lstm = [&](const primitive_attr &a, prop_kind prop = prop_kind::forward_inference) {
            return status_of([&] {
                lstm_forward::primitive_desc(eng, prop, dir, sl, si, sic, wl, wi, b, dl, si, sic, a);
            });
        };
        auto lstmp = [&](const primitive_attr &a) {
            return status_of([&] {
                lstm_forward::primitive_desc(eng, fwd, dir, sl, psi, sic, wl, pwi, memory::desc(),
                        pw, b, pdl, psi, sic, a);
            });
        };
        primitive_attr attr;
        attr.set_rnn_data_qparams(64.f, 128.f);
        attr.set_rnn_weights_qparams((1 << 3) | (1 << 4), std::vector<float>(15, 2.f)); // 16 needed
        EXPECT_EQ(lstm(attr), dnnl_invalid_arguments);
        attr.set_rnn_weights_qparams((1 << 3) | (1 << 4), std::vector<float>(16, 2.f));
        EXPECT_EQ(lstm(attr), dnnl_success);
        attr.set_rnn_weights_qparams((1 << 3) | (1 << 4), std::vector<float>(16, 0.f)); // zeros
        EXPECT_EQ(lstm(attr), dnnl_invalid_arguments);
        attr.set_rnn_weights_qparams(0, {2.f});
        attr.set_rnn_data_qparams(0.f, 128.f);
        EXPECT_EQ(lstm(attr), dnnl_invalid_arguments);
        attr.set_rnn_data_qparams(64.f, INFINITY);
        EXPECT_EQ(lstm(attr), dnnl_invalid_arguments);
        // Projection scales: one, or one per output channel (2 here).
        attr.set_rnn_data_qparams(64.f, 128.f);
        attr.set_rnn_weights_projection_qparams(1 << 3, {3.f, 4.f});
        EXPECT_EQ(lstmp(attr), dnnl_success);
        attr.set_rnn_weights_projection_qparams(1 << 3, {3.f, 4.f, 5.f});
        EXPECT_EQ(lstmp(attr), dnnl_invalid_arguments);
        // int8 is inference only.
        attr.set_rnn_weights_projection_qparams(0, {3.f});
        EXPECT_EQ(lstm(attr, prop_kind::forward_training), dnnl_unimplemented);
    }
}

// int8 is LSTM and GRU only, s8 data LSTM only, as oneDNN's CPU engine:
// the other cells and s8 GRU are unimplemented on every engine.
TEST(RnnInt8, OtherCellsAreUnimplemented) {
    for (engine::kind ek : engine_kinds()) {
        SCOPED_TRACE(kind_name(ek));
        engine eng(ek, 0);
        const auto fwd = prop_kind::forward_inference;
        const auto dir = rnn_direction::unidirectional_left2right;
        primitive_attr attr;
        attr.set_rnn_data_qparams(64.f, 128.f);
        attr.set_rnn_weights_qparams(0, {2.f});
        for (dt ddt : {dt::u8, dt::s8}) {
            memory::desc sl({2, 1, 4}, ddt, tag::tnc), si({1, 1, 1, 4}, ddt, tag::ldnc),
                    w1({1, 1, 4, 1, 4}, dt::s8, tag::ldigo), b1({1, 1, 1, 4}, dt::f32, tag::ldgo),
                    w3({1, 1, 4, 3, 4}, dt::s8, tag::ldigo), b3({1, 1, 3, 4}, dt::f32, tag::ldgo),
                    b4({1, 1, 4, 4}, dt::f32, tag::ldgo), att({2, 1, 1}, ddt, tag::tnc);
            EXPECT_EQ(status_of([&] {
                vanilla_rnn_forward::primitive_desc(eng, fwd, algorithm::eltwise_tanh, dir, sl,
                        si, w1, w1, b1, sl, si, attr);
            }),
                    dnnl_unimplemented);
            EXPECT_EQ(status_of([&] {
                lbr_gru_forward::primitive_desc(eng, fwd, dir, sl, si, w3, w3, b4, sl, si, attr);
            }),
                    dnnl_unimplemented);
            EXPECT_EQ(status_of([&] {
                augru_forward::primitive_desc(eng, fwd, dir, sl, att, si, w3, w3, b3, sl, si,
                        attr);
            }),
                    dnnl_unimplemented);
            EXPECT_EQ(status_of([&] {
                gru_forward::primitive_desc(eng, fwd, dir, sl, si, w3, w3, b3, sl, si, attr);
            }),
                    ddt == dt::u8 ? dnnl_success : dnnl_unimplemented);
        }
    }
}

TEST(RnnInt8, OtherPrimitivesRefuseRnnQparams) {
    engine eng(engine::kind::cpu, 0);
    memory::desc d({4, 4}, dt::f32, tag::ab);
    primitive_attr attr;
    attr.set_rnn_data_qparams(64.f, 1.f);
    EXPECT_THROW(eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
                         algorithm::eltwise_relu, d, d, 0.f, 0.f, attr),
            error);
    primitive_attr plain;
    EXPECT_NO_THROW(eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, d, d, 0.f, 0.f, plain));
}

// ---- the reorders that quantize with the RNN attributes ----

// f32 -> u8 / s8 data with set_rnn_data_qparams: saturate(round(f * scale
// + shift)), ties to even; any plain layout on either side.
TEST(RnnInt8, DataReorderQuantizes) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const float scale = 4.f, shift = 128.f;
    primitive_attr attr;
    attr.set_rnn_data_qparams(scale, shift);
    // Values around ties (x.125 * 4 = .5), beyond both ends, and ordinary.
    std::vector<float> f = {0.125f, 0.375f, -0.125f, 100.f, -100.f, 1.f, -0.5f,
            2.2f, 31.9f, -32.1f, 0.f, 0.6f};
    const memory::dims dims = {2, 2, 3}; // t, n, c
    for (auto dst_tag : {tag::tnc, tag::ntc})
        for (auto ddt : {dt::u8, dt::s8}) {
            memory::desc sd(dims, dt::f32, tag::tnc), dd(dims, ddt, dst_tag);
            memory ms(sd, eng, f.data()), md(dd, eng);
            auto pd = reorder::primitive_desc(eng, sd, eng, dd, attr);
            EXPECT_EQ(std::string(pd.impl_info_str()), "rnn_quant:data");
            reorder(pd).execute(s, ms, md);
            s.wait();
            for (int t = 0; t < 2; ++t)
                for (int n = 0; n < 2; ++n)
                    for (int c = 0; c < 3; ++c) {
                        const float x = f[(t * 2 + n) * 3 + c] * scale + shift;
                        float q = std::nearbyint(x);
                        const float lo = ddt == dt::u8 ? 0.f : -128.f;
                        const float hi = ddt == dt::u8 ? 255.f : 127.f;
                        q = std::min(std::max(q, lo), hi);
                        const size_t o = dst_tag == tag::tnc ? (t * 2 + n) * 3 + c
                                                             : (n * 2 + t) * 3 + c;
                        const float got = ddt == dt::u8
                                ? (float)((const uint8_t *)md.get_data_handle())[o]
                                : (float)((const int8_t *)md.get_data_handle())[o];
                        EXPECT_EQ(got, q) << t << " " << n << " " << c;
                    }
        }
}

// f32 (ldigo or ldgoi) or bf16 -> s8 weights with set_rnn_weights_qparams,
// one scale or one per gate and channel; projection weights with their own
// scales (per output channel).
TEST(RnnInt8, WeightsReorderQuantizes) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const int L = 1, D = 2, I = 3, G = 4, O = 5;
    std::mt19937 gen(3);
    std::uniform_real_distribution<float> fd(-2.f, 2.f);
    std::vector<float> w((size_t)L * D * I * G * O);
    for (auto &x : w) x = fd(gen);
    w[0] = 100.f; // saturates at 127
    for (int mask : {0, (1 << 3) | (1 << 4)})
        for (auto src_tag : {tag::ldigo, tag::ldgoi}) {
            std::vector<float> scales(mask ? G * O : 1);
            for (size_t i = 0; i < scales.size(); ++i) scales[i] = 20.f + (float)i;
            primitive_attr attr;
            attr.set_rnn_data_qparams(64.f, 128.f); // the same attr as the RNN's
            attr.set_rnn_weights_qparams(mask, scales);
            const memory::dims dims = {L, D, I, G, O};
            memory::desc sd(dims, dt::f32, src_tag), dd(dims, dt::s8, tag::ldigo);
            // The source in its own layout: element (l, d, i, g, o) of w.
            memory ms(sd, eng);
            memory::desc plain(dims, dt::f32, tag::ldigo);
            memory mw(plain, eng, w.data());
            reorder(mw, ms).execute(s, mw, ms);
            memory md(dd, eng);
            auto pd = reorder::primitive_desc(eng, sd, eng, dd, attr);
            EXPECT_EQ(std::string(pd.impl_info_str()), "rnn_quant:weights");
            reorder(pd).execute(s, ms, md);
            s.wait();
            const int8_t *q = (const int8_t *)md.get_data_handle();
            for (size_t e = 0; e < w.size(); ++e) {
                const size_t go = e % (size_t)(G * O);
                const float sc = mask ? scales[go] : scales[0];
                const float want = std::min(127.f, std::max(-128.f, std::nearbyint(w[e] * sc)));
                ASSERT_EQ((float)q[e], want) << "mask " << mask << " element " << e;
            }
        }
    // bf16 source, projection weights (ldio) with per-channel scales.
    const memory::dims pdims = {L, D, O, I};
    std::vector<float> pscales(I);
    for (int i = 0; i < I; ++i) pscales[i] = 10.f + 5.f * (float)i;
    primitive_attr pattr;
    pattr.set_rnn_weights_projection_qparams(1 << 3, pscales);
    memory::desc pf(pdims, dt::f32, tag::ldio), pb(pdims, dt::bf16, tag::ldio),
            pq(pdims, dt::s8, tag::ldio);
    std::vector<float> pw((size_t)L * D * O * I);
    for (auto &x : pw) x = fd(gen);
    memory mpf(pf, eng, pw.data()), mpb(pb, eng), mpq(pq, eng);
    reorder(mpf, mpb).execute(s, mpf, mpb);
    auto ppd = reorder::primitive_desc(eng, pb, eng, pq, pattr);
    EXPECT_EQ(std::string(ppd.impl_info_str()), "rnn_quant:weights");
    reorder(ppd).execute(s, mpb, mpq);
    s.wait();
    const uint16_t *bits = (const uint16_t *)mpb.get_data_handle();
    const int8_t *pqv = (const int8_t *)mpq.get_data_handle();
    for (size_t e = 0; e < pw.size(); ++e) {
        uint32_t u = (uint32_t)bits[e] << 16;
        float b;
        std::memcpy(&b, &u, sizeof(b));
        const float want = std::min(127.f, std::max(-128.f, std::nearbyint(b * pscales[e % I])));
        ASSERT_EQ((float)pqv[e], want) << "projection element " << e;
    }
}

// Requests these reorders cannot serve are refused, not served by a
// reorder that would ignore the quantization.
TEST(RnnInt8, QuantizingReorderRefusals) {
    engine eng(engine::kind::cpu, 0);
    auto status_of = [&](const memory::desc &sd, const memory::desc &dd,
                             const primitive_attr &a) {
        dnnl_primitive_desc_t pd = nullptr;
        dnnl_status_t st = dnnl_reorder_primitive_desc_create(&pd, sd.get(), eng.get(),
                dd.get(), eng.get(), a.get());
        if (pd) dnnl_primitive_desc_destroy(pd);
        return st;
    };
    primitive_attr data;
    data.set_rnn_data_qparams(64.f, 128.f);
    memory::desc f3({2, 2, 3}, dt::f32, tag::tnc), u3({2, 2, 3}, dt::u8, tag::tnc);
    // No quantization target: f32 to f32.
    EXPECT_EQ(status_of(f3, f3, data), dnnl_unimplemented);
    // Combined with ordinary scales.
    primitive_attr both = data;
    both.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(status_of(f3, u3, both), dnnl_unimplemented);
    // Blocked layout.
    memory::desc f4({2, 16, 3, 3}, dt::f32, tag::nChw16c), u4({2, 16, 3, 3}, dt::u8, tag::nchw);
    EXPECT_EQ(status_of(f4, u4, data), dnnl_unimplemented);
    // Weights scales that do not fit: 3 scales for mask 24 over G * O = 8.
    primitive_attr wrong;
    wrong.set_rnn_weights_qparams((1 << 3) | (1 << 4), {1.f, 2.f, 3.f});
    memory::desc wf({1, 1, 2, 2, 4}, dt::f32, tag::ldigo), ws({1, 1, 2, 2, 4}, dt::s8, tag::ldigo);
    EXPECT_EQ(status_of(wf, ws, wrong), dnnl_invalid_arguments);
    // A mask over other dims.
    primitive_attr other_mask;
    other_mask.set_rnn_weights_qparams(1 << 2, {1.f, 2.f});
    EXPECT_EQ(status_of(wf, ws, other_mask), dnnl_unimplemented);
    // Without RNN parameters the usual reorder still serves f32 -> u8.
    EXPECT_EQ(status_of(f3, u3, primitive_attr()), dnnl_success);
}

// The flow of oneDNN's int8 RNN example: user f32 data and weights, the
// RNN's attribute on their reorders into the descriptors the primitive
// descriptor asks for (`any` weights), then the primitive; the same
// result as s8 weights and u8 data quantized by hand.
TEST(RnnInt8, ExampleFlowThroughQuantizingReorders) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const int T = 3, N = 2, C = 8, G = 4;
    const float scale = 63.f, shift = 64.f;
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> fd(-1.f, 1.f);
    std::vector<float> src((size_t)T * N * C), wl((size_t)C * G * C), wi((size_t)C * G * C),
            bias((size_t)G * C, 0.1f);
    for (auto &x : src) x = fd(gen);
    for (auto &x : wl) x = fd(gen) * 0.5f;
    for (auto &x : wi) x = fd(gen) * 0.5f;
    std::vector<float> wscales((size_t)G * C);
    for (size_t i = 0; i < wscales.size(); ++i) wscales[i] = 100.f + (float)(i % 7);
    primitive_attr attr;
    attr.set_rnn_data_qparams(scale, shift);
    attr.set_rnn_weights_qparams((1 << 3) | (1 << 4), wscales);

    const auto fwd = prop_kind::forward_inference;
    const auto dir = rnn_direction::unidirectional_left2right;
    memory::desc sl({T, N, C}, dt::u8, tag::any), wl_any({1, 1, C, G, C}, dt::s8, tag::any),
            wi_any({1, 1, C, G, C}, dt::s8, tag::any), b({1, 1, G, C}, dt::f32, tag::ldgo),
            dl({T, N, C}, dt::u8, tag::tnc);
    auto pd = lstm_forward::primitive_desc(eng, fwd, dir, sl, memory::desc(), memory::desc(),
            wl_any, wi_any, b, dl, memory::desc(), memory::desc(), attr);

    // Through the quantizing reorders.
    memory::desc usl({T, N, C}, dt::f32, tag::tnc), uw({1, 1, C, G, C}, dt::f32, tag::ldigo);
    memory m_usl(usl, eng, src.data()), m_uwl(uw, eng, wl.data()), m_uwi(uw, eng, wi.data());
    memory m_sl(pd.src_layer_desc(), eng), m_wl(pd.weights_layer_desc(), eng),
            m_wi(pd.weights_iter_desc(), eng), m_b(b, eng, bias.data()),
            m_dl(dl, eng), m_dl_ref(dl, eng);
    reorder(reorder::primitive_desc(eng, usl, eng, pd.src_layer_desc(), attr))
            .execute(s, m_usl, m_sl);
    reorder(reorder::primitive_desc(eng, uw, eng, pd.weights_layer_desc(), attr))
            .execute(s, m_uwl, m_wl);
    reorder(reorder::primitive_desc(eng, uw, eng, pd.weights_iter_desc(), attr))
            .execute(s, m_uwi, m_wi);
    lstm_forward(pd).execute(s, {{DNNL_ARG_SRC_LAYER, m_sl}, {DNNL_ARG_WEIGHTS_LAYER, m_wl},
            {DNNL_ARG_WEIGHTS_ITER, m_wi}, {DNNL_ARG_BIAS, m_b}, {DNNL_ARG_DST_LAYER, m_dl}});
    s.wait();

    // By hand, into plain u8 / s8 tensors.
    auto q8 = [](float x, float lo, float hi) {
        return std::min(hi, std::max(lo, std::nearbyint(x)));
    };
    std::vector<uint8_t> qs(src.size());
    for (size_t i = 0; i < src.size(); ++i) qs[i] = (uint8_t)q8(src[i] * scale + shift, 0, 255);
    std::vector<int8_t> qwl(wl.size()), qwi(wi.size());
    for (size_t i = 0; i < wl.size(); ++i) {
        qwl[i] = (int8_t)q8(wl[i] * wscales[i % (G * C)], -128, 127);
        qwi[i] = (int8_t)q8(wi[i] * wscales[i % (G * C)], -128, 127);
    }
    memory::desc psl({T, N, C}, dt::u8, tag::tnc), pw({1, 1, C, G, C}, dt::s8, tag::ldigo);
    auto ref_pd = lstm_forward::primitive_desc(eng, fwd, dir, psl, memory::desc(),
            memory::desc(), pw, pw, b, dl, memory::desc(), memory::desc(), attr);
    memory r_sl(psl, eng, qs.data()), r_wl(pw, eng, qwl.data()), r_wi(pw, eng, qwi.data());
    lstm_forward(ref_pd).execute(s, {{DNNL_ARG_SRC_LAYER, r_sl}, {DNNL_ARG_WEIGHTS_LAYER, r_wl},
            {DNNL_ARG_WEIGHTS_ITER, r_wi}, {DNNL_ARG_BIAS, m_b}, {DNNL_ARG_DST_LAYER, m_dl_ref}});
    s.wait();
    const uint8_t *got = (const uint8_t *)m_dl.get_data_handle();
    const uint8_t *want = (const uint8_t *)m_dl_ref.get_data_handle();
    for (size_t i = 0; i < (size_t)T * N * C; ++i) ASSERT_EQ(got[i], want[i]) << i;
    // The states carry information: not every output at the shift.
    int moved = 0;
    for (size_t i = 0; i < (size_t)T * N * C; ++i) moved += got[i] != (uint8_t)shift;
    EXPECT_GT(moved, T * N * C / 2);
}
