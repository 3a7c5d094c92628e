// Binary primitive tests: every algorithm, every broadcast kind (scalar,
// per channel, across channels, src0 broadcast), plain / channels-last /
// blocked layouts with padding, mixed data types, scales, post-op chains
// (eltwise, sum, binary), select, in-place, `any` layouts, queries, bad
// parameters and the gpu engine. Every implementation the library offers
// for a problem is run (next_impl) and compared with the naive reference
// in tests/reference/binary_ref.*.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "post_op_glue.hpp"
#include "tensor_glue.hpp"
#include <unordered_map>

#include "reference/binary_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

namespace br = binary_ref;

br::alg_t ref_alg(algorithm a) {
    switch (a) {
    case algorithm::binary_add:
        return br::alg_t::add;
    case algorithm::binary_mul:
        return br::alg_t::mul;
    case algorithm::binary_max:
        return br::alg_t::max;
    case algorithm::binary_min:
        return br::alg_t::min;
    case algorithm::binary_div:
        return br::alg_t::div;
    case algorithm::binary_sub:
        return br::alg_t::sub;
    case algorithm::binary_ge:
        return br::alg_t::ge;
    case algorithm::binary_gt:
        return br::alg_t::gt;
    case algorithm::binary_le:
        return br::alg_t::le;
    case algorithm::binary_lt:
        return br::alg_t::lt;
    case algorithm::binary_eq:
        return br::alg_t::eq;
    case algorithm::binary_ne:
        return br::alg_t::ne;
    default:
        return br::alg_t::select;
    }
}

const algorithm all_algs[] = {algorithm::binary_add, algorithm::binary_mul,
        algorithm::binary_max, algorithm::binary_min, algorithm::binary_div,
        algorithm::binary_sub, algorithm::binary_ge, algorithm::binary_gt,
        algorithm::binary_le, algorithm::binary_lt, algorithm::binary_eq,
        algorithm::binary_ne};

algorithm lib_alg(br::alg_t a) {
    for (algorithm x : all_algs)
        if (ref_alg(x) == a) return x;
    return algorithm::binary_select;
}

// Post-op chain entries describe both the reference and the attribute.
post_ops make_post_ops(const std::vector<po_ref::entry_t> &chain) {
    post_ops po;
    for (const auto &e : chain) {
        switch (e.kind) {
        case po_ref::kind_t::eltwise:
            po.append_eltwise(elt_alg(e.elt), (float)e.alpha, (float)e.beta);
            break;
        case po_ref::kind_t::sum:
            po.append_sum((float)e.scale, e.zero_point);
            break;
        case po_ref::kind_t::binary:
            po.append_binary(lib_alg(e.alg), plain_f32(e.dims));
            break;
        }
    }
    return po;
}

struct problem_t {
    algorithm alg = algorithm::binary_add;
    memory::desc s0, s1, s2, dst;
    float scale0 = 0, scale1 = 0; // 0: no scale
    std::vector<po_ref::entry_t> po;
    bool in_place = false;
    double rel = 1e-6;
};

// Overloads the glue's describe(memory::desc), which this one calls.
using tensor_glue::describe;
std::string describe(const problem_t &p) {
    return "s0 " + describe(p.s0) + " s1 " + describe(p.s1) + " dst "
           + describe(p.dst);
}

// Creates, runs (every implementation) and checks one problem.
void check(problem_t p, unsigned seed = 1) {
    SCOPED_TRACE(describe(p));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const bool ternary = p.alg == algorithm::binary_select;
    const auto d0 = dims_of(p.s0), d1 = dims_of(p.s1), dd = dims_of(p.dst);
    const auto v0 = random_values(count(d0), p.s0.get_data_type(), gen);
    auto v1 = random_values(count(d1), p.s1.get_data_type(), gen);
    if (p.alg == algorithm::binary_div)
        for (auto &x : v1)
            if (x == 0) x = 1;
    std::vector<double> v2;
    if (ternary) v2 = random_values(count(dims_of(p.s2)), dt::s8, gen, -1, 1);
    for (auto &e : p.po)
        if (e.kind == po_ref::kind_t::binary) {
            e.src = random_values(count(e.dims), dt::f32, gen, -2, 2);
            if (e.alg == br::alg_t::div)
                for (auto &x : e.src)
                    if (x == 0) x = 1;
        }

    primitive_attr attr;
    if (p.scale0) attr.set_scales_mask(DNNL_ARG_SRC_0, 0);
    if (p.scale1) attr.set_scales_mask(DNNL_ARG_SRC_1, 0);
    if (!p.po.empty()) attr.set_post_ops(make_post_ops(p.po));
    binary::primitive_desc pd = ternary ? binary::primitive_desc(eng, p.alg,
                                        p.s0, p.s1, p.s2, p.dst, attr)
                                        : binary::primitive_desc(eng, p.alg,
                                                p.s0, p.s1, p.dst, attr);

    const auto dst_md = pd.dst_desc();
    const dt ddt = dst_md.get_data_type();
    const auto dinit = random_values(count(dd), ddt, gen);
    // Expected values.
    const auto s2d = ternary ? dims_of(p.s2) : std::vector<int64_t>();
    auto expected = br::compute(ref_alg(p.alg), dd, v0, d0, v1, d1,
            ternary ? &v2 : nullptr, ternary ? &s2d : nullptr,
            p.scale0 ? p.scale0 : 1, p.scale1 ? p.scale1 : 1);
    // Old destination values as the library sees them (rounded to dst).
    std::vector<double> old = p.in_place ? v0 : dinit;
    {
        int64_t i = 0;
        br::for_each(dd, [&](const int64_t *pos) {
            expected[i] = po_ref::apply(p.po, pos, expected[i], old[i]);
            ++i;
        });
    }

    const int n = for_each_impl(pd, [&](const binary::primitive_desc &ipd) {
        memory m0 = to_memory(eng, p.s0, v0), m1 = to_memory(eng, p.s1, v1);
        memory md = p.in_place ? m0 : to_memory(eng, dst_md, dinit);
        if (!p.in_place) fill_padding(md, 7);
        std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, md}};
        if (ternary) args[DNNL_ARG_SRC_2] = to_memory(eng, p.s2, v2);
        float sc0 = p.scale0, sc1 = p.scale1;
        if (p.scale0)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_0] =
                    memory({{1}, dt::f32, tag::x}, eng, &sc0);
        if (p.scale1)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_1] =
                    memory({{1}, dt::f32, tag::x}, eng, &sc1);
        add_binary_post_op_args(args, p.po, eng);
        binary(ipd).execute(strm, args);
        strm.wait();
        EXPECT_TRUE(
                matches(from_memory(md), expected, ddt, tol_for(ddt, p.rel)));
        EXPECT_TRUE(padding_is_zero(md));
    });
    EXPECT_GE(n, 1);
}

memory::desc md4(memory::dims d, dt t, tag tg) {
    return memory::desc(d, t, tg);
}

// Broadcast configurations against dst 2x19x3x5: {src0 dims, src1 dims}.
struct bcast_t {
    memory::dims d0, d1;
};
const memory::dims dst_dims = {2, 19, 3, 5};
const bcast_t bcasts[] = {
        {{2, 19, 3, 5}, {2, 19, 3, 5}}, // tensor op
        {{2, 19, 3, 5}, {1, 19, 1, 1}}, // per channel
        {{2, 19, 3, 5}, {1, 1, 1, 1}},  // scalar
        {{2, 19, 3, 5}, {2, 1, 3, 5}},  // across channels
        {{2, 19, 3, 5}, {1, 1, 3, 1}},  // one spatial dim
        {{1, 19, 3, 5}, {2, 19, 3, 5}}, // src0 broadcast
        {{2, 1, 3, 5}, {1, 19, 3, 5}},  // both broadcast, different dims
};

} // namespace

TEST(Binary, EveryAlgorithmAndBroadcast) {
    for (algorithm alg : all_algs)
        for (const auto &b : bcasts)
            for (tag t : {tag::nchw, tag::nChw16c}) {
                problem_t p;
                p.alg = alg;
                p.s0 = md4(b.d0, dt::f32, t);
                p.s1 = md4(b.d1, dt::f32, tag::nchw);
                p.dst = md4(dst_dims, dt::f32, t);
                check(p);
            }
}

TEST(Binary, Layouts) {
    const tag tags[] = {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c};
    for (algorithm alg : {algorithm::binary_add, algorithm::binary_div,
                 algorithm::binary_ge})
        for (const auto &b : bcasts)
            for (tag t0 : tags)
                for (tag t1 : {tag::nchw, tag::nhwc, tag::nChw8c})
                    for (tag td : {t0, tag::nhwc}) {
                        problem_t p;
                        p.alg = alg;
                        p.s0 = md4(b.d0, dt::f32, t0);
                        p.s1 = md4(b.d1, dt::f32, t1);
                        p.dst = md4(dst_dims, dt::f32, td);
                        check(p, 3);
                    }
}

TEST(Binary, DataTypes) {
    struct dts_t {
        dt a, b, d;
    };
    const dts_t dts[] = {{dt::bf16, dt::bf16, dt::bf16},
            {dt::f16, dt::f16, dt::f16}, {dt::s8, dt::u8, dt::s8},
            {dt::u8, dt::f32, dt::u8}, {dt::f32, dt::bf16, dt::s8},
            {dt::s8, dt::s8, dt::f32}, {dt::f16, dt::s8, dt::bf16},
            {dt::s32, dt::f32, dt::s32}};
    for (const auto &x : dts)
        for (algorithm alg : {algorithm::binary_add, algorithm::binary_mul,
                     algorithm::binary_max, algorithm::binary_div,
                     algorithm::binary_lt})
            for (int bi : {0, 1, 5})
                for (tag t : {tag::nchw, tag::nChw16c}) {
                    problem_t p;
                    p.alg = alg;
                    p.s0 = md4(bcasts[bi].d0, x.a, t);
                    p.s1 = md4(bcasts[bi].d1, x.b, tag::nchw);
                    p.dst = md4(dst_dims, x.d, t);
                    p.rel = 4e-3; // bf16/f16 sources of a division
                    check(p, 5);
                }
}

TEST(Binary, ShapesOfOtherRanks) {
    const std::vector<std::pair<memory::dims, memory::dims>> shapes = {
            {{37}, {37}}, {{37}, {1}}, {{7, 300}, {1, 300}}, {{7, 300}, {7, 1}},
            {{3, 4, 70}, {3, 1, 70}}, {{2, 3, 4, 5, 6}, {1, 3, 1, 1, 1}},
            {{2, 3, 4, 5, 6}, {2, 3, 4, 5, 6}}, {{1, 1, 5000}, {1, 1, 5000}},
            {{3, 8192}, {1, 8192}}};
    for (const auto &s : shapes)
        for (algorithm alg : {algorithm::binary_sub, algorithm::binary_min}) {
            problem_t p;
            p.alg = alg;
            const tag t = plain_tag(s.first.size());
            p.s0 = md4(s.first, dt::f32, t);
            p.s1 = md4(s.second, dt::f32, t);
            p.dst = md4(s.first, dt::f32, t);
            check(p, 7);
        }
}

TEST(Binary, ScalesAndPostOps) {
    using po_ref::elt_t;
    using po_ref::entry_t;
    using po_ref::kind_t;
    auto elt = [](elt_t e, double a = 0, double b = 0) {
        entry_t x;
        x.kind = kind_t::eltwise;
        x.elt = e;
        x.alpha = a;
        x.beta = b;
        return x;
    };
    auto sum = [](double s, int zp = 0) {
        entry_t x;
        x.kind = kind_t::sum;
        x.scale = s;
        x.zero_point = zp;
        return x;
    };
    auto bin = [](br::alg_t a, std::vector<int64_t> d) {
        entry_t x;
        x.kind = kind_t::binary;
        x.alg = a;
        x.dims = d;
        return x;
    };
    const std::vector<std::vector<entry_t>> chains = {
            {},
            {elt(elt_t::relu, 0.25)},
            {sum(0.5)},
            {elt(elt_t::linear, 2, -1), sum(1.5, 1)},
            {bin(br::alg_t::mul, {1, 19, 1, 1})},
            {bin(br::alg_t::add, {2, 19, 3, 5}), elt(elt_t::tanh), sum(-1)},
            {sum(1), bin(br::alg_t::max, {1, 1, 3, 5}), elt(elt_t::logistic)},
            {elt(elt_t::clip, -1, 2), bin(br::alg_t::div, {2, 1, 1, 1}),
                    elt(elt_t::square), elt(elt_t::abs)},
    };
    for (const auto &chain : chains)
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
            for (dt d : {dt::f32, dt::bf16, dt::s8})
                for (int sc : {0, 1, 2, 3}) {
                    problem_t p;
                    p.alg = algorithm::binary_mul;
                    p.s0 = md4(dst_dims, dt::f32, t);
                    p.s1 = md4({1, 19, 1, 1}, dt::f32, tag::nchw);
                    p.dst = md4(dst_dims, d, t);
                    p.scale0 = sc & 1 ? 0.5f : 0.f;
                    p.scale1 = sc & 2 ? -3.f : 0.f;
                    p.po = chain;
                    p.rel = 1e-5;
                    check(p, 11);
                }
}

TEST(Binary, Select) {
    for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
        for (const memory::dims &c : {memory::dims{2, 19, 3, 5},
                     memory::dims{1, 19, 1, 1}, memory::dims{2, 1, 3, 5}}) {
            problem_t p;
            p.alg = algorithm::binary_select;
            p.s0 = md4(dst_dims, dt::f32, t);
            p.s1 = md4({1, 19, 1, 1}, dt::bf16, tag::nchw);
            p.s2 = md4(c, dt::s8, tag::nchw);
            p.dst = md4(dst_dims, dt::f32, t);
            check(p, 13);
        }
}

TEST(Binary, InPlace) {
    for (tag t : {tag::nchw, tag::nChw8c})
        for (dt d : {dt::f32, dt::bf16}) {
            problem_t p;
            p.alg = algorithm::binary_add;
            p.s0 = md4(dst_dims, d, t);
            p.s1 = md4({1, 19, 1, 1}, dt::f32, tag::nchw);
            p.dst = p.s0;
            p.in_place = true;
            po_ref::entry_t s;
            s.kind = po_ref::kind_t::sum;
            s.scale = 2;
            p.po = {s};
            check(p, 17);
        }
}

TEST(Binary, AnyLayoutsFollowSrc0) {
    engine eng(engine::kind::cpu, 0);
    for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c}) {
        memory::desc s0({2, 19, 3, 5}, dt::f32, t);
        memory::desc s1({1, 19, 1, 1}, dt::bf16, tag::any);
        memory::desc d({2, 19, 3, 5}, dt::s8, tag::any);
        binary::primitive_desc pd(eng, algorithm::binary_add, s0, s1, d);
        EXPECT_EQ(pd.dst_desc(), memory::desc({2, 19, 3, 5}, dt::s8, t));
        EXPECT_EQ(pd.src_desc(1), memory::desc({1, 19, 1, 1}, dt::bf16, t));
        EXPECT_EQ(pd.get_algorithm(), algorithm::binary_add);
        EXPECT_EQ(query_s32(pd, query::num_of_inputs_s32), 2);
        EXPECT_EQ(query_s32(pd, query::num_of_outputs_s32), 1);
    }
    // A broadcast src0 gives its layout to dst (outer dims ordered by
    // stride, then by size).
    binary::primitive_desc pd(eng, algorithm::binary_sub,
            memory::desc({1, 3, 1, 5}, dt::f32, tag::acdb),
            memory::desc({2, 3, 4, 5}, dt::f32, tag::abcd),
            memory::desc({2, 3, 4, 5}, dt::f32, tag::any));
    EXPECT_EQ(pd.dst_desc().get_strides(), (memory::dims{15, 1, 30, 3}));
    // Post-op sources count as inputs.
    primitive_attr attr;
    post_ops po;
    po.append_binary(algorithm::binary_mul,
            memory::desc({1, 3, 1, 1}, dt::f32, tag::abcd));
    po.append_sum(1.f);
    attr.set_post_ops(po);
    binary::primitive_desc pd2(eng, algorithm::binary_add,
            memory::desc({2, 3, 4, 5}, dt::f32, tag::abcd),
            memory::desc({2, 3, 4, 5}, dt::f32, tag::abcd),
            memory::desc({2, 3, 4, 5}, dt::f32, tag::any), attr);
    EXPECT_EQ(query_s32(pd2, query::num_of_inputs_s32), 3);
    EXPECT_EQ(pd2.query_md(query::exec_arg_md,
                      DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1),
            memory::desc({1, 3, 1, 1}, dt::f32, tag::abcd));
}

TEST(Binary, ExecuteTakesTheLayoutFromTheDescriptor) {
    // A memory object whose own descriptor differs (same size) is used
    // with the primitive descriptor's layout.
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc md({2, 3, 4, 5}, dt::f32, tag::nchw);
    binary::primitive_desc pd(eng, algorithm::binary_add, md, md, md);
    std::vector<float> a(120), b(120), c(120, 0.f);
    for (int i = 0; i < 120; ++i) {
        a[i] = (float)i;
        b[i] = 1000.f;
    }
    memory::desc flat({120}, dt::f32, tag::a);
    memory ma(flat, eng, a.data()), mb(md, eng, b.data()),
            mc(flat, eng, c.data());
    binary(pd).execute(strm,
            {{DNNL_ARG_SRC_0, ma}, {DNNL_ARG_SRC_1, mb}, {DNNL_ARG_DST, mc}});
    strm.wait();
    for (int i = 0; i < 120; ++i) EXPECT_EQ(c[i], 1000.f + i);
}

TEST(Binary, ZeroSizedTensors) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc md({0, 3, 4, 5}, dt::f32, tag::nchw);
    binary::primitive_desc pd(eng, algorithm::binary_add, md,
            memory::desc({1, 3, 1, 1}, dt::f32, tag::nchw), md);
    memory m0(md, eng), m1(pd.src_desc(1), eng), m2(md, eng);
    binary(pd).execute(strm,
            {{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, m2}});
    strm.wait();
}

TEST(Binary, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    const memory::desc b({2, 3, 1, 1}, dt::f32, tag::nchw);
    auto create = [&](algorithm alg, const memory::desc &s0,
                          const memory::desc &s1, const memory::desc &d,
                          const primitive_attr &at = primitive_attr()) {
        return status_of(
                [&] { binary::primitive_desc(eng, alg, s0, s1, d, at); });
    };
    EXPECT_EQ(create(algorithm::binary_add, a, b, a), dnnl_success);
    EXPECT_EQ(create(algorithm::eltwise_relu, a, b, a), dnnl_invalid_arguments);
    EXPECT_EQ(
            create(algorithm::binary_select, a, b, a), dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::binary_add,
                      memory::desc({2, 3, 4, 5}, dt::f32, tag::any), b, a),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::binary_add, a,
                      memory::desc({2, 2, 1, 1}, dt::f32, tag::nchw), a),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::binary_add, a,
                      memory::desc({3, 1, 1}, dt::f32, tag::abc), a),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::binary_add, b, b, a), dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::binary_add, a, b,
                      memory::desc({2, 3, 4, 6}, dt::f32, tag::nchw)),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::binary_add,
                      memory::desc({2, 3, 4, 5}, dt::f64, tag::nchw), b, a),
            dnnl_unimplemented);
    primitive_attr mask1;
    mask1.set_scales_mask(DNNL_ARG_SRC_0, 1);
    EXPECT_EQ(
            create(algorithm::binary_add, a, b, a, mask1), dnnl_unimplemented);
    primitive_attr dst_scale;
    dst_scale.set_scales_mask(DNNL_ARG_DST, 0);
    EXPECT_EQ(create(algorithm::binary_add, a, b, a, dst_scale),
            dnnl_unimplemented);
    primitive_attr zp;
    zp.set_zero_points_mask(DNNL_ARG_SRC_0, 0);
    EXPECT_EQ(create(algorithm::binary_add, a, b, a, zp), dnnl_unimplemented);
    primitive_attr prelu_po;
    post_ops po;
    po.append_prelu(0);
    prelu_po.set_post_ops(po);
    EXPECT_EQ(create(algorithm::binary_add, a, b, a, prelu_po),
            dnnl_unimplemented);
    // Select needs an s8 condition.
    EXPECT_EQ(status_of([&] {
        binary::primitive_desc(eng, algorithm::binary_select, a, b, a, a);
    }),
            dnnl_invalid_arguments);
    EXPECT_EQ(status_of([&] {
        binary::primitive_desc(eng, algorithm::binary_select, a, b,
                memory::desc({2, 3, 4, 5}, dt::s8, tag::nchw), a);
    }),
            dnnl_success);
    // The C API rejects null pointers.
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, eng.get(), dnnl_binary_add,
                      a.get(), nullptr, a.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(nullptr, eng.get(),
                      dnnl_binary_add, a.get(), b.get(), a.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create_v2(&pd, eng.get(),
                      dnnl_binary_select, a.get(), b.get(), nullptr, a.get(),
                      nullptr),
            dnnl_invalid_arguments);
    // A missing argument at execution.
    stream strm(eng);
    binary::primitive_desc ok(eng, algorithm::binary_add, a, b, a);
    memory m(a, eng);
    EXPECT_EQ(status_of([&] {
        binary(ok).execute(strm, {{DNNL_ARG_SRC_0, m}, {DNNL_ARG_DST, m}});
    }),
            dnnl_invalid_arguments);
}

// The gpu engine's implementations are tested in tests/ocl/.
TEST(Binary, GpuEngineCreates) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        binary::primitive_desc(eng, algorithm::binary_add, a, a, a);
    }),
            dnnl_success);
}
