// Matmul over blocked layouts on every engine present: weights, source,
// destination and bias with inner blocks (tails included), batched, with
// attributes (scales, bias, sum and binary post-ops) and int8 data, against
// a double-precision loop over the logical values; the user scratchpad
// mode; a missing argument is refused.
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "tensor_glue.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;
using tag = memory::format_tag;

std::vector<engine::kind> engine_kinds() {
    std::vector<engine::kind> k = {engine::kind::cpu};
    if (engine::get_count(engine::kind::gpu) > 0) k.push_back(engine::kind::gpu);
    return k;
}

struct case_t {
    memory::dims sd, wd, dd; // batch dims broadcast (weights may have 1)
    tag st, wt, dtag;
    dt sdt = dt::f32, wdt = dt::f32, ddt = dt::f32;
    bool bias = false;
    float src_scale = 0.f; // 0: none
    bool sum = false, binary = false;
    bool user_scratchpad = false;
};

// dst = (src . wei) * src_scale + bias, then + 0.5 * old dst, then + src1.
std::vector<double> reference(const case_t &c, const std::vector<double> &s,
        const std::vector<double> &w, const std::vector<double> &b,
        const std::vector<double> &old, const std::vector<double> &src1) {
    const size_t nd = c.dd.size();
    const int64_t M = c.dd[nd - 2], N = c.dd[nd - 1], K = c.sd[nd - 1];
    const int64_t B = count(c.dd) / (M * N);
    const bool wb = count(c.wd) / (K * N) > 1; // weights batched
    std::vector<double> d((size_t)count(c.dd));
    for (int64_t bb = 0; bb < B; ++bb)
        for (int64_t m = 0; m < M; ++m)
            for (int64_t n = 0; n < N; ++n) {
                double acc = 0;
                for (int64_t k = 0; k < K; ++k)
                    acc += s[(size_t)((bb * M + m) * K + k)]
                            * w[(size_t)(((wb ? bb : 0) * K + k) * N + n)];
                if (c.src_scale != 0.f) acc *= c.src_scale;
                if (c.bias) acc += b[(size_t)n];
                const size_t i = (size_t)((bb * M + m) * N + n);
                if (c.sum) acc += 0.5 * old[i];
                if (c.binary) acc += src1[(size_t)n];
                d[i] = acc;
            }
    return d;
}

std::string run_case(engine &eng, const case_t &c, unsigned seed) {
    std::mt19937 gen(seed);
    const memory::desc smd(c.sd, c.sdt, c.st), wmd(c.wd, c.wdt, c.wt),
            dmd(c.dd, c.ddt, c.dtag);
    const size_t nd = c.dd.size();
    const memory::dim N = c.dd[nd - 1];
    memory::dims bdims(nd, 1);
    bdims[nd - 1] = N;
    const memory::desc bmd(bdims, dt::f32, nd == 2 ? tag::ab : tag::abc);
    const memory::desc src1_md(bdims, dt::f32, nd == 2 ? tag::ab : tag::abc);
    primitive_attr attr;
    if (c.src_scale != 0.f) attr.set_scales_mask(DNNL_ARG_SRC, 0);
    post_ops po;
    if (c.sum) po.append_sum(0.5f);
    if (c.binary) po.append_binary(algorithm::binary_add, src1_md);
    attr.set_post_ops(po);
    if (c.user_scratchpad) attr.set_scratchpad_mode(scratchpad_mode::user);
    matmul::primitive_desc pd = c.bias
            ? matmul::primitive_desc(eng, smd, wmd, bmd, dmd, attr)
            : matmul::primitive_desc(eng, smd, wmd, dmd, attr);

    const auto sv = random_values(count(c.sd), c.sdt, gen, -4, 4);
    const auto wv = random_values(count(c.wd), c.wdt, gen, -4, 4);
    const auto bv = random_values(N, dt::f32, gen, -4, 4);
    const auto ov = random_values(count(c.dd), c.ddt, gen, -4, 4);
    const auto s1 = random_values(N, dt::f32, gen, -4, 4);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, to_memory(eng, smd, sv)},
            {DNNL_ARG_WEIGHTS, to_memory(eng, wmd, wv)},
            {DNNL_ARG_DST, to_memory(eng, dmd, ov)}};
    if (c.bias) args[DNNL_ARG_BIAS] = to_memory(eng, bmd, bv);
    if (c.binary)
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(c.sum ? 1 : 0) | DNNL_ARG_SRC_1]
                = to_memory(eng, src1_md, s1);
    if (c.src_scale != 0.f)
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC]
                = to_memory(eng, {{1}, dt::f32, tag::a}, {c.src_scale});
    if (c.user_scratchpad)
        args[DNNL_ARG_SCRATCHPAD] = memory(pd.scratchpad_desc(), eng);
    stream s(eng);
    matmul(pd).execute(s, args);
    s.wait();
    const auto expected = reference(c, sv, wv, bv, ov, s1);
    EXPECT_TRUE(matches(from_memory(args[DNNL_ARG_DST]), expected, c.ddt,
            tol_for(c.ddt, 1e-6, 1e-5)))
            << pd.impl_info_str() << " src " << describe(smd) << " wei "
            << describe(wmd) << " dst " << describe(dmd);
    EXPECT_TRUE(padding_is_zero(args[DNNL_ARG_DST]));
    return pd.impl_info_str();
}

TEST(MatmulBlocked, EveryTensorBlockedOnEveryEngine) {
    const case_t cases[] = {
            // Weights blocked both ways, K and N with tails.
            {{19, 70}, {70, 50}, {19, 50}, tag::ab, tag::BA16a64b, tag::ab},
            {{19, 70}, {70, 50}, {19, 50}, tag::ab, tag::AB16b64a, tag::ab},
            // Blocked source and destination.
            {{37, 20}, {20, 12}, {37, 12}, tag::Ab32a, tag::ab, tag::Ab32a},
            // Batched, weights broadcast, blocked along K and N.
            {{3, 9, 40}, {1, 40, 33}, {3, 9, 33}, tag::abc, tag::aCB16b64c,
                    tag::abc},
    };
    for (engine::kind k : engine_kinds()) {
        engine eng(k, 0);
        unsigned seed = 1;
        for (case_t c : cases) {
            EXPECT_EQ(run_case(eng, c, ++seed).rfind("blocked:", 0), 0u);
            // Attributes go to the plain matmul; the sum reads the blocked
            // dst first.
            c.bias = c.sum = c.binary = true;
            c.src_scale = 0.5f;
            run_case(eng, c, ++seed);
            c.user_scratchpad = true;
            run_case(eng, c, ++seed);
        }
    }
}

TEST(MatmulBlocked, LowPrecisionAndInt8) {
    for (engine::kind k : engine_kinds()) {
        engine eng(k, 0);
        case_t bf;
        bf.sd = {8, 64}, bf.wd = {64, 40}, bf.dd = {8, 40};
        bf.st = tag::ab, bf.wt = tag::BA16a64b, bf.dtag = tag::ab;
        bf.sdt = bf.wdt = dt::bf16;
        run_case(eng, bf, 3);
        case_t i8 = bf;
        i8.sdt = dt::u8, i8.wdt = dt::s8, i8.ddt = dt::s32;
        i8.wt = tag::AB16b64a;
        run_case(eng, i8, 4);
    }
}

TEST(MatmulBlocked, MissingArgumentIsRefused) {
    for (engine::kind k : engine_kinds()) {
        engine eng(k, 0);
        const memory::desc s({4, 32}, dt::f32, tag::ab),
                w({32, 16}, dt::f32, tag::BA16a64b), d({4, 16}, dt::f32, tag::ab);
        matmul::primitive_desc pd(eng, s, w, d);
        stream st(eng);
        EXPECT_THROW(matmul(pd).execute(st,
                             {{DNNL_ARG_SRC, memory(s, eng)},
                                     {DNNL_ARG_DST, memory(d, eng)}}),
                dnnl::error);
    }
}

} // namespace
