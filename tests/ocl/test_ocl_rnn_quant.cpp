// The int8 RNN quantizing reorders on the gpu engine (ocl:rnn_quant:*)
// against the CPU's (rnn_quant:*), byte for byte, over whole buffers (so
// writes into the gaps of strided tensors show up): data f32 -> u8 / s8
// with scale and shift (3-D, 4-D, permuted and strided plain layouts,
// offsets), weights f32 / bf16 -> s8 (ldigo, ldgoi, common and per
// (gate, channel) scales, none), projection weights, empty tensors, and
// the same from cpu to gpu memory and back. Values include rounding ties,
// both saturations, infinities, NaN and -0. Then: every refusal with the
// CPU's status (and its create:check line), a new shape building no
// program, and the flow of oneDNN's int8 RNN example (f32 user tensors
// quantized on the gpu into the int8 LSTM's descriptors) against the
// same flow on the CPU engine.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "gpu_primitive_fixture.hpp"
#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;

namespace {

using dt = memory::data_type;
using tag = memory::format_tag;
using dims_t = memory::dims;

engine &cpu() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// A plain tensor: its dims with the given strides, placed at `offsets`
// inside a parent tensor of the same strides (offset0 != 0), and the
// bytes of a buffer holding the parent.
struct tensor_t {
    memory::desc md, parent;
};

tensor_t make(const dims_t &dims, dt t, const dims_t &strides,
        const dims_t &offsets = {}) {
    dims_t pdims = dims;
    for (size_t i = 0; i < offsets.size(); ++i) pdims[i] += offsets[i];
    memory::desc parent(pdims, t, strides);
    if (offsets.empty()) return {parent, parent};
    return {parent.submemory_desc(dims, offsets), parent};
}

// Dense strides of `dims` ordered by `order` (outermost first).
dims_t dense(const dims_t &dims, const std::vector<int> &order) {
    dims_t s(dims.size());
    if (order.size() != dims.size()) {
        ADD_FAILURE() << "an order of " << order.size() << " for "
                      << dims.size() << " dims";
        return s;
    }
    memory::dim step = 1;
    for (size_t k = order.size(); k-- > 0;) {
        s[order[k]] = step;
        step *= dims[order[k]];
    }
    return s;
}

// Dense row-major strides.
dims_t row_major(const dims_t &dims) {
    std::vector<int> order(dims.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = (int)i;
    return dense(dims, order);
}

std::vector<uint8_t> read_bytes(const memory &m, size_t bytes) {
    std::vector<uint8_t> v(bytes);
    if (!bytes) return v;
    void *p = m.map_data();
    std::memcpy(v.data(), p, bytes);
    m.unmap_data(p);
    return v;
}

void write_bytes(const memory &m, const std::vector<uint8_t> &v) {
    if (v.empty()) return;
    void *p = m.map_data();
    std::memcpy(p, v.data(), v.size());
    m.unmap_data(p);
}

float bits_f32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}

// Source bytes: element values for quantization `scale`, `shift` (shift
// 0 for weights) that hit rounding ties, both ends of the range and
// beyond, plus ordinary values and specials. Gaps hold the same kinds.
std::vector<uint8_t> source_bytes(
        const memory::desc &parent, float scale, float shift, int seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> half_steps(-700, 700), pick(0, 9);
    std::uniform_real_distribution<float> any(-300.f, 300.f);
    const float specials[] = {INFINITY, -INFINITY, NAN, -0.f, 0.f, 1e30f,
            -1e30f, bits_f32(1u), 127.5f, -128.5f};
    const bool bf16 = parent.get_data_type() == dt::bf16;
    const size_t n = parent.get_size() / (bf16 ? 2 : 4);
    std::vector<uint8_t> out(parent.get_size());
    for (size_t i = 0; i < n; ++i) {
        float q; // the value before quantization
        const int k = pick(gen);
        if (k < 5)
            q = 0.5f * (float)half_steps(gen); // ties at odd k
        else if (k < 9)
            q = any(gen);
        else
            q = specials[gen() % 10];
        // f = (q - shift) / scale, so that f * scale + shift is near q.
        const float f = (q - shift) / scale;
        uint32_t u;
        std::memcpy(&u, &f, sizeof(u));
        if (bf16) {
            const uint16_t h = (uint16_t)(u >> 16); // truncated: any bf16
            std::memcpy(&out[i * 2], &h, 2);
        } else {
            std::memcpy(&out[i * 4], &u, 4);
        }
    }
    return out;
}

struct run_t {
    dnnl_status_t status = dnnl_success;
    std::string impl;
    std::vector<uint8_t> dst; // the destination's parent buffer
};

// The reorder src -> dst with `attr`, source on `se`, destination on
// `de`, from `src` bytes into a destination filled with 0xa5.
run_t run(engine &se, engine &de, const tensor_t &s, const tensor_t &d,
        const primitive_attr &attr, const std::vector<uint8_t> &src) {
    run_t r;
    dnnl_primitive_desc_t cpd = nullptr;
    r.status = dnnl_reorder_primitive_desc_create(
            &cpd, s.md.get(), se.get(), d.md.get(), de.get(), attr.get());
    if (r.status != dnnl_success) return r;
    // The wrapper keeps a clone (as oneDNN's does); the C handle is ours.
    reorder::primitive_desc pd(cpd);
    dnnl_primitive_desc_destroy(cpd);
    r.impl = pd.impl_info_str();
    engine &run_on = se.get_kind() == engine::kind::gpu ? se : de;
    stream strm(run_on);
    memory sp(s.parent, se), dp(d.parent, de);
    write_bytes(sp, src);
    write_bytes(dp, std::vector<uint8_t>(d.parent.get_size(), 0xa5));
    memory sm(s.md, se, sp.get_data_handle()),
            dm(d.md, de, dp.get_data_handle());
    reorder(pd).execute(strm, sm, dm);
    strm.wait();
    r.dst = read_bytes(dp, d.parent.get_size());
    return r;
}

// The gpu reorder (gpu -> gpu, cpu -> gpu, gpu -> cpu) gives the CPU's
// bytes; `kind` is "data" or "weights". Returns the CPU's bytes.
std::vector<uint8_t> expect_as_cpu(const tensor_t &s, const tensor_t &d,
        const primitive_attr &attr, const std::vector<uint8_t> &src,
        const char *kind) {
    engine gpu(engine::kind::gpu, 0);
    const run_t want = run(cpu(), cpu(), s, d, attr, src);
    EXPECT_EQ(want.status, dnnl_success);
    EXPECT_EQ(want.impl, std::string("rnn_quant:") + kind);
    const struct {
        engine *se, *de;
        const char *impl;
    } sides[] = {{&gpu, &gpu, "ocl:rnn_quant:"},
            {&cpu(), &gpu, "ocl:cross_engine:rnn_quant:"},
            {&gpu, &cpu(), "ocl:cross_engine:rnn_quant:"}};
    for (const auto &x : sides) {
        SCOPED_TRACE(std::string(x.impl)
                     + (x.se == &gpu ? " from gpu" : " from cpu"));
        const run_t got = run(*x.se, *x.de, s, d, attr, src);
        EXPECT_EQ(got.status, dnnl_success);
        EXPECT_EQ(got.impl, std::string(x.impl) + kind);
        EXPECT_EQ(got.dst.size(), want.dst.size());
        size_t i = 0;
        while (i < want.dst.size() && i < got.dst.size()
                && got.dst[i] == want.dst[i])
            ++i;
        if (i < want.dst.size() && i < got.dst.size())
            ADD_FAILURE() << "byte " << i << ": " << (int)got.dst[i]
                          << " instead of " << (int)want.dst[i];
    }
    return want.dst;
}

// The CPU's result is not degenerate: many distinct values, both ends of
// the range reached (so saturation and rounding were exercised).
void expect_varied(const std::vector<uint8_t> &q, dt t) {
    std::set<int> seen;
    for (uint8_t b : q) seen.insert(t == dt::s8 ? (int)(int8_t)b : (int)b);
    EXPECT_GT(seen.size(), 40u);
    EXPECT_TRUE(seen.count(t == dt::s8 ? -128 : 0));
    EXPECT_TRUE(seen.count(t == dt::s8 ? 127 : 255));
}

class ocl_rnn_quant : public gpu_primitive_test {};

TEST_F(ocl_rnn_quant, data_matches_cpu) {
    // Power-of-two scale with an integral shift (exact ties), and a scale
    // and shift whose products round.
    const float qp[][2] = {{4.f, 128.f}, {63.7f, 64.3f}, {0.37f, -3.f}};
    const dims_t d3 = {3, 4, 37}, d4 = {2, 2, 3, 29};
    int seed = 1;
    for (const auto &q : qp)
        for (dt ddt : {dt::u8, dt::s8}) {
            SCOPED_TRACE("scale " + std::to_string(q[0]) + " shift "
                         + std::to_string(q[1])
                         + (ddt == dt::u8 ? " u8" : " s8"));
            primitive_attr attr;
            attr.set_rnn_data_qparams(q[0], q[1]);
            const std::vector<std::pair<tensor_t, tensor_t>> cases = {
                    // tnc -> tnc, tnc -> ntc, ntc -> tnc
                    {make(d3, dt::f32, dense(d3, {0, 1, 2})),
                            make(d3, ddt, dense(d3, {0, 1, 2}))},
                    {make(d3, dt::f32, dense(d3, {0, 1, 2})),
                            make(d3, ddt, dense(d3, {1, 0, 2}))},
                    {make(d3, dt::f32, dense(d3, {1, 0, 2})),
                            make(d3, ddt, dense(d3, {0, 1, 2}))},
                    // channels outermost, and gaps with offsets
                    {make(d3, dt::f32, dense(d3, {2, 0, 1})),
                            make(d3, ddt, {4 * 40 + 3, 40, 1}, {1, 0, 2})},
                    {make(d3, dt::f32, {1, 3 * 50, 3}, {0, 1, 0}),
                            make(d3, ddt, dense(d3, {2, 1, 0}))},
                    // ldnc, and permuted / strided 4-D
                    {make(d4, dt::f32, dense(d4, {0, 1, 2, 3})),
                            make(d4, ddt, dense(d4, {0, 1, 2, 3}))},
                    {make(d4, dt::f32, dense(d4, {1, 0, 3, 2})),
                            make(d4, ddt, {3 * 4 * 32 + 5, 4 * 32, 32, 1},
                                    {0, 1, 1, 2})},
            };
            for (size_t c = 0; c < cases.size(); ++c) {
                SCOPED_TRACE("case " + std::to_string(c));
                const tensor_t &s = cases[c].first, &d = cases[c].second;
                const auto src = source_bytes(s.parent, q[0], q[1], seed++);
                const auto got = expect_as_cpu(s, d, attr, src, "data");
                if (c == 0) expect_varied(got, ddt);
            }
        }
}

TEST_F(ocl_rnn_quant, weights_match_cpu) {
    const int L = 2, D = 1, I = 3, G = 4, O = 11;
    const dims_t w = {L, D, I, G, O};
    const dims_t ldigo = dense(w, {0, 1, 2, 3, 4}),
                 ldgoi = dense(w, {0, 1, 3, 4, 2});
    int seed = 100;
    for (int mask : {-1, 0, (1 << 3) | (1 << 4)}) // -1: no weights scales
        for (dt sdt : {dt::f32, dt::bf16}) {
            SCOPED_TRACE("mask " + std::to_string(mask)
                         + (sdt == dt::f32 ? " f32" : " bf16"));
            primitive_attr attr;
            attr.set_rnn_data_qparams(64.f, 128.f); // the RNN's attribute
            std::vector<float> scales(mask > 0 ? G * O : 1);
            for (size_t i = 0; i < scales.size(); ++i)
                // powers of two (exact ties) and others
                scales[i] = i % 3 == 0 ? 32.f : 20.3f + 7.1f * (float)i;
            if (mask >= 0) attr.set_rnn_weights_qparams(mask, scales);
            const std::vector<std::pair<tensor_t, tensor_t>> cases = {
                    {make(w, sdt, ldigo), make(w, dt::s8, ldigo)},
                    {make(w, sdt, ldgoi), make(w, dt::s8, ldigo)},
                    {make(w, sdt, ldigo), make(w, dt::s8, ldgoi)},
                    {make(w, sdt, ldgoi),
                            make(w, dt::s8,
                                    {D * I * G * 16, I * G * 16, G * 16, 16, 1},
                                    {0, 0, 0, 0, 2})},
            };
            for (size_t c = 0; c < cases.size(); ++c) {
                SCOPED_TRACE("case " + std::to_string(c));
                const tensor_t &s = cases[c].first, &d = cases[c].second;
                const float sc = mask >= 0 ? 32.f : 1.f;
                const auto src = source_bytes(s.parent, sc, 0.f, seed++);
                const auto got = expect_as_cpu(s, d, attr, src, "weights");
                if (c == 0) expect_varied(got, dt::s8);
            }
        }
}

TEST_F(ocl_rnn_quant, projection_weights_match_cpu) {
    const int L = 1, D = 2, H = 7, P = 13; // ldio: (l, d, H, P)
    const dims_t w = {L, D, H, P};
    int seed = 200;
    for (int mask : {0, 1 << 3})
        for (dt sdt : {dt::f32, dt::bf16}) {
            SCOPED_TRACE("mask " + std::to_string(mask)
                         + (sdt == dt::f32 ? " f32" : " bf16"));
            std::vector<float> scales(mask ? P : 1);
            for (size_t i = 0; i < scales.size(); ++i)
                scales[i] = i % 2 ? 16.f : 10.f + 3.3f * (float)i;
            primitive_attr attr;
            attr.set_rnn_data_qparams(64.f, 128.f);
            attr.set_rnn_weights_projection_qparams(mask, scales);
            const std::vector<std::pair<tensor_t, tensor_t>> cases = {
                    {make(w, sdt, dense(w, {0, 1, 2, 3})),
                            make(w, dt::s8, dense(w, {0, 1, 2, 3}))},
                    {make(w, sdt, dense(w, {0, 1, 3, 2})), // ldoi
                            make(w, dt::s8, dense(w, {0, 1, 2, 3}))},
            };
            for (size_t c = 0; c < cases.size(); ++c) {
                SCOPED_TRACE("case " + std::to_string(c));
                const tensor_t &s = cases[c].first, &d = cases[c].second;
                const auto src = source_bytes(s.parent, 16.f, 0.f, seed++);
                expect_as_cpu(s, d, attr, src, "weights");
            }
        }
}

TEST_F(ocl_rnn_quant, empty_tensors) {
    primitive_attr attr;
    attr.set_rnn_data_qparams(4.f, 1.f);
    const dims_t d = {0, 2, 3};
    const tensor_t s = make(d, dt::f32, dense(d, {0, 1, 2})),
                   q = make(d, dt::u8, dense(d, {0, 1, 2}));
    const run_t r = run(eng, eng, s, q, attr, {});
    EXPECT_EQ(r.status, dnnl_success);
    EXPECT_EQ(r.impl, "ocl:rnn_quant:data");
}

// One request each engine refuses, with the status the CPU gives.
struct refusal_t {
    const char *what;
    memory::desc s, d;
    primitive_attr attr;
    dnnl_status_t want;
};

std::vector<refusal_t> refusals() {
    // A fresh attribute each (copies of a primitive_attr share one).
    auto with_data = [] {
        primitive_attr a;
        a.set_rnn_data_qparams(64.f, 128.f);
        return a;
    };
    const primitive_attr data = with_data();
    const memory::desc f3({2, 2, 3}, dt::f32, tag::tnc),
            u3({2, 2, 3}, dt::u8, tag::tnc), s3({2, 2, 3}, dt::s8, tag::tnc),
            i3({2, 2, 3}, dt::s32, tag::tnc), b3({2, 2, 3}, dt::bf16, tag::tnc);
    const memory::desc f4b({2, 16, 3, 3}, dt::f32, tag::nChw16c),
            u4({2, 16, 3, 3}, dt::u8, tag::nchw),
            f4({2, 16, 3, 3}, dt::f32, tag::nchw),
            u4b({2, 16, 3, 3}, dt::u8, tag::nChw16c);
    const memory::desc f2({4, 3}, dt::f32, tag::ab),
            u2({4, 3}, dt::u8, tag::ab);
    const dims_t wd = {1, 1, 2, 2, 4};
    const memory::desc wf(wd, dt::f32, tag::ldigo), ws(wd, dt::s8, tag::ldigo),
            wu(wd, dt::u8, tag::ldigo), wh(wd, dt::f16, tag::ldigo);
    const memory::desc pf({1, 1, 4, 3}, dt::f32, tag::ldio),
            ph({1, 1, 4, 3}, dt::f16, tag::ldio),
            ps({1, 1, 4, 3}, dt::s8, tag::ldio);

    primitive_attr with_scales = with_data(), with_sum = with_data(),
                   with_zp = with_data();
    with_scales.set_scales_mask(DNNL_ARG_SRC, 0);
    post_ops po;
    po.append_sum(1.f);
    with_sum.set_post_ops(po);
    with_zp.set_zero_points_mask(DNNL_ARG_DST, 0);
    primitive_attr wrong_count, two_common, other_mask, wrong_proj, proj;
    wrong_count.set_rnn_weights_qparams((1 << 3) | (1 << 4), {1.f, 2.f, 3.f});
    two_common.set_rnn_weights_qparams(0, {1.f, 2.f});
    other_mask.set_rnn_weights_qparams(1 << 2, {1.f, 2.f});
    wrong_proj.set_rnn_weights_projection_qparams(1 << 3, {1.f, 2.f});
    proj.set_rnn_weights_projection_qparams(0, {2.f});
    const auto U = dnnl_unimplemented, A = dnnl_invalid_arguments;
    return {
            {"f32 to f32", f3, f3, data, U},
            {"with src scales", f3, u3, with_scales, U},
            {"with a sum", f3, u3, with_sum, U},
            {"with zero points", f3, u3, with_zp, U},
            {"blocked source", f4b, u4, data, U},
            {"blocked destination", f4, u4b, data, U},
            {"2-D data", f2, u2, data, U},
            {"data to s32", f3, i3, data, U},
            {"bf16 data", b3, u3, data, U},
            {"data from s8", s3, u3, data, U},
            {"weights to u8", wf, wu, data, U},
            {"f16 weights", wh, ws, data, U},
            {"weights scales over other dims", wf, ws, other_mask, U},
            {"3 scales for 8 channels", wf, ws, wrong_count, A},
            {"2 common scales", wf, ws, two_common, A},
            {"2 projection scales for 3 channels", pf, ps, wrong_proj, A},
            {"f16 projection weights", ph, ps, proj, U},
    };
}

dnnl_status_t status_of(engine &se, engine &de, const refusal_t &r) {
    dnnl_primitive_desc_t pd = nullptr;
    const dnnl_status_t st = dnnl_reorder_primitive_desc_create(
            &pd, r.s.get(), se.get(), r.d.get(), de.get(), r.attr.get());
    if (pd) dnnl_primitive_desc_destroy(pd);
    return st;
}

TEST_F(ocl_rnn_quant, refusals_have_the_cpu_statuses) {
    for (const refusal_t &r : refusals()) {
        SCOPED_TRACE(r.what);
        EXPECT_EQ(status_of(cpu(), cpu(), r), r.want);
        EXPECT_EQ(status_of(eng, eng, r), r.want);
        EXPECT_EQ(status_of(cpu(), eng, r), r.want);
        EXPECT_EQ(status_of(eng, cpu(), r), r.want);
    }
    // Without RNN parameters the plain gpu reorder serves f32 -> u8.
    const memory::desc f3({2, 2, 3}, dt::f32, tag::tnc),
            u3({2, 2, 3}, dt::u8, tag::tnc);
    reorder::primitive_desc pd(eng, f3, eng, u3);
    EXPECT_EQ(std::string(pd.impl_info_str()).find("rnn_quant"),
            std::string::npos);
}

// Runs in a child process with ONEDNN_VERBOSE=check (see
// refusals_print_check_lines); disabled so that ordinary runs skip it.
TEST(ocl_rnn_quant_verbose, DISABLED_child) {
    engine gpu(engine::kind::gpu, 0);
    for (const refusal_t &r : refusals())
        EXPECT_EQ(status_of(gpu, gpu, r), r.want) << r.what;
}

TEST_F(ocl_rnn_quant, refusals_print_check_lines) {
    char self[PATH_MAX] = {};
    const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) GTEST_SKIP() << "cannot find this test binary to re-run it";
    const std::string cmd =
            std::string("ONEDNN_VERBOSE=check '") + self
            + "' --gtest_also_run_disabled_tests"
            + " --gtest_filter=ocl_rnn_quant_verbose.DISABLED_child 2>&1";
    FILE *f = popen(cmd.c_str(), "r");
    ASSERT_NE(f, nullptr);
    std::string out;
    char buf[4096];
    while (size_t k = fread(buf, 1, sizeof(buf), f)) out.append(buf, k);
    const int rc = pclose(f);
    EXPECT_EQ(rc, 0) << out;
    const std::string pre = "primitive,create:check,reorder,rnn_quant: ";
    for (const char *why :
            {"RNN quantization parameters combine with no other attribute",
                    "plain layouts of fixed shape only",
                    "data tensors are 3-D (tnc) or 4-D (ldnc)",
                    "data quantizes from f32 to u8 or s8",
                    "weights quantize from f32 or bf16 to s8",
                    "weights scales common or per gate and channel only",
                    "3 weights scales for 8 values",
                    "2 weights scales for 1 values",
                    "2 weights scales for 3 values"})
        EXPECT_NE(out.find(pre + why), std::string::npos) << why << "\n" << out;
}

TEST_F(ocl_rnn_quant, new_shape_builds_no_program) {
    primitive_attr a1, a2;
    a1.set_rnn_data_qparams(4.f, 128.f);
    a2.set_rnn_data_qparams(10.5f, 7.f);
    const dims_t d1 = {3, 2, 5}, d2 = {2, 3, 6, 17};
    auto data = [&](const dims_t &d, const primitive_attr &a, dt t) {
        const tensor_t s = make(d, dt::f32, row_major(d)),
                       q = make(d, t, row_major(d));
        const run_t r = run(eng, eng, s, q, a, source_bytes(s.parent, 4, 0, 5));
        EXPECT_EQ(r.status, dnnl_success);
    };
    auto weights = [&](const dims_t &d, int mask) {
        const int per = (int)(d[3] * d[4]);
        primitive_attr a;
        a.set_rnn_weights_qparams(mask, std::vector<float>(mask ? per : 1, 8));
        const tensor_t s = make(d, dt::f32, row_major(d)),
                       q = make(d, dt::s8, dense(d, {0, 1, 3, 4, 2}));
        const run_t r = run(eng, eng, s, q, a, source_bytes(s.parent, 8, 0, 6));
        EXPECT_EQ(r.status, dnnl_success);
    };
    const dims_t w1 = {1, 1, 2, 4, 3}, w2 = {2, 2, 5, 3, 7};
    data(d1, a1, dt::u8);
    weights(w1, 0);
    const int64_t built = programs_built();
    const int64_t hits = ext::get_kernel_cache_stats().hits;
    data({4, 7, 9}, a2, dt::u8);
    data(d2, a2, dt::u8);
    weights(w2, (1 << 3) | (1 << 4));
    EXPECT_EQ(programs_built(), built);
    EXPECT_GE(ext::get_kernel_cache_stats().hits, hits + 3);
}

// ---- the flow of oneDNN's int8 RNN example ----

struct flow_out_t {
    std::string lstm_impl;
    std::vector<uint8_t> src_q, wl_q, wi_q; // the quantized inputs
    std::vector<uint8_t> dst_layer, dst_iter;
};

// f32 user tensors (on `user` memory) quantized by the RNN attribute's
// reorders into the descriptors of an int8 LSTM on `e`, then the LSTM.
flow_out_t run_flow(engine &e, engine &user) {
    const int T = 4, N = 3, C = 16, G = 4;
    const float scale = 63.f, shift = 64.f;
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> fd(-1.f, 1.f);
    std::vector<float> src((size_t)T * N * C), wl((size_t)C * G * C),
            wi((size_t)C * G * C), bias((size_t)G * C);
    for (auto &x : src) x = fd(gen);
    for (auto &x : wl) x = fd(gen) * 0.5f;
    for (auto &x : wi) x = fd(gen) * 0.5f;
    for (auto &x : bias) x = fd(gen) * 0.1f;
    std::vector<float> wscales((size_t)G * C);
    for (size_t i = 0; i < wscales.size(); ++i)
        wscales[i] = 100.f + (float)(i % 7);
    primitive_attr attr;
    attr.set_rnn_data_qparams(scale, shift);
    attr.set_rnn_weights_qparams((1 << 3) | (1 << 4), wscales);

    stream s(e);
    const auto fwd = prop_kind::forward_inference;
    const auto dir = rnn_direction::unidirectional_left2right;
    const memory::desc sl({T, N, C}, dt::u8, tag::any),
            w_any({1, 1, C, G, C}, dt::s8, tag::any),
            b({1, 1, G, C}, dt::f32, tag::ldgo),
            dl({T, N, C}, dt::u8, tag::tnc),
            di({1, 1, N, C}, dt::u8, tag::ldnc),
            dic({1, 1, N, C}, dt::f32, tag::ldnc);
    auto pd = lstm_forward::primitive_desc(e, fwd, dir, sl, memory::desc(),
            memory::desc(), w_any, w_any, b, dl, di, dic, attr);
    flow_out_t out;
    out.lstm_impl = pd.impl_info_str();

    const memory::desc usl({T, N, C}, dt::f32, tag::tnc),
            uw({1, 1, C, G, C}, dt::f32, tag::ldigo);
    auto user_mem = [&](const memory::desc &d, const std::vector<float> &v) {
        memory m(d, user);
        std::vector<uint8_t> bytes(v.size() * sizeof(float));
        std::memcpy(bytes.data(), v.data(), bytes.size());
        write_bytes(m, bytes);
        return m;
    };
    memory m_usl = user_mem(usl, src), m_uwl = user_mem(uw, wl),
           m_uwi = user_mem(uw, wi);
    memory m_sl(pd.src_layer_desc(), e), m_wl(pd.weights_layer_desc(), e),
            m_wi(pd.weights_iter_desc(), e), m_b(b, e), m_dl(dl, e),
            m_di(di, e), m_dic(dic, e);
    std::vector<uint8_t> bb(bias.size() * sizeof(float));
    std::memcpy(bb.data(), bias.data(), bb.size());
    write_bytes(m_b, bb);
    auto quantize = [&](memory &from, memory &to) {
        reorder::primitive_desc rpd(
                user, from.get_desc(), e, to.get_desc(), attr);
        EXPECT_NE(std::string(rpd.impl_info_str()).find("rnn_quant:"),
                std::string::npos)
                << rpd.impl_info_str();
        reorder(rpd).execute(s, from, to);
    };
    quantize(m_usl, m_sl);
    quantize(m_uwl, m_wl);
    quantize(m_uwi, m_wi);
    lstm_forward(pd).execute(
            s, {{DNNL_ARG_SRC_LAYER, m_sl}, {DNNL_ARG_WEIGHTS_LAYER, m_wl},
                       {DNNL_ARG_WEIGHTS_ITER, m_wi}, {DNNL_ARG_BIAS, m_b},
                       {DNNL_ARG_DST_LAYER, m_dl}, {DNNL_ARG_DST_ITER, m_di},
                       {DNNL_ARG_DST_ITER_C, m_dic}});
    s.wait();
    out.src_q = read_bytes(m_sl, pd.src_layer_desc().get_size());
    out.wl_q = read_bytes(m_wl, pd.weights_layer_desc().get_size());
    out.wi_q = read_bytes(m_wi, pd.weights_iter_desc().get_size());
    out.dst_layer = read_bytes(m_dl, dl.get_size());
    out.dst_iter = read_bytes(m_di, di.get_size());
    return out;
}

// u8 outputs one quantization step apart at most, and that rarely (a
// rounding tie broken differently by the gpu's f32 GEMMs): the int8
// tests' tolerance (tests/primitives/test_rnn_int8.cpp).
void expect_close_u8(const std::vector<uint8_t> &got,
        const std::vector<uint8_t> &want, const char *what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    size_t off_by_one = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const int e = std::abs((int)got[i] - (int)want[i]);
        ASSERT_LE(e, 1) << what << " element " << i;
        off_by_one += e != 0;
    }
    EXPECT_LE(off_by_one, got.size() / 20 + 1) << what;
}

TEST_F(ocl_rnn_quant, int8_lstm_flow_matches_cpu) {
    const flow_out_t want = run_flow(cpu(), cpu());
    // The states carry information: not every output at the shift.
    int moved = 0;
    for (uint8_t v : want.dst_layer) moved += v != 64;
    EXPECT_GT(moved, (int)want.dst_layer.size() / 2);
    for (bool user_on_cpu : {false, true}) {
        SCOPED_TRACE(user_on_cpu ? "f32 user tensors in cpu memory"
                                 : "f32 user tensors in gpu memory");
        const flow_out_t got = run_flow(eng, user_on_cpu ? cpu() : eng);
        EXPECT_NE(got.lstm_impl.find("ocl:rnn:int8_on_f32"), std::string::npos)
                << got.lstm_impl;
        // The quantizing reorders: bit for bit the CPU's.
        EXPECT_EQ(got.src_q, want.src_q);
        EXPECT_EQ(got.wl_q, want.wl_q);
        EXPECT_EQ(got.wi_q, want.wi_q);
        expect_close_u8(got.dst_layer, want.dst_layer, "dst_layer");
        expect_close_u8(got.dst_iter, want.dst_iter, "dst_iter");
    }
}

} // namespace

#endif
