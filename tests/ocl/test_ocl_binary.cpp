// Binary on the gpu engine against the naive reference
// (tests/reference/binary_ref.*): every algorithm, broadcasts of either
// source, plain / channels-last / blocked layouts with padding, mixed data
// types, scales, post-op chains, select, in-place, tails, both
// implementations (vectorised nest and offset tables), and bad inputs
// answered with a status.

// Built only when the library has the OpenCL runtime (else the binary
// holds no tests).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_primitive_fixture.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "primitives/post_op_glue.hpp"
#include "primitives/tensor_glue.hpp"
#include "reference/binary_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;
namespace br = binary_ref;

using ocl_binary_test = gpu_primitive_test;

struct alg_pair_t {
    algorithm lib;
    br::alg_t ref;
};
const alg_pair_t algs[] = {{algorithm::binary_add, br::alg_t::add},
        {algorithm::binary_mul, br::alg_t::mul},
        {algorithm::binary_max, br::alg_t::max},
        {algorithm::binary_min, br::alg_t::min},
        {algorithm::binary_div, br::alg_t::div},
        {algorithm::binary_sub, br::alg_t::sub},
        {algorithm::binary_ge, br::alg_t::ge},
        {algorithm::binary_gt, br::alg_t::gt},
        {algorithm::binary_le, br::alg_t::le},
        {algorithm::binary_lt, br::alg_t::lt},
        {algorithm::binary_eq, br::alg_t::eq},
        {algorithm::binary_ne, br::alg_t::ne},
        {algorithm::binary_select, br::alg_t::select}};

br::alg_t ref_alg(algorithm a) {
    for (const auto &p : algs)
        if (p.lib == a) return p.ref;
    return br::alg_t::add;
}
algorithm lib_alg(br::alg_t a) {
    for (const auto &p : algs)
        if (p.ref == a) return p.lib;
    return algorithm::binary_add;
}

struct problem_t {
    algorithm alg = algorithm::binary_add;
    memory::desc s0, s1, s2, dst;
    float scale0 = 0, scale1 = 0; // 0: none
    std::vector<po_ref::entry_t> po;
    bool in_place = false;
    double rel = 1e-6;
};

post_ops make_post_ops(const std::vector<po_ref::entry_t> &chain) {
    post_ops po;
    for (const auto &e : chain) {
        if (e.kind == po_ref::kind_t::eltwise)
            po.append_eltwise(elt_alg(e.elt), (float)e.alpha, (float)e.beta);
        else if (e.kind == po_ref::kind_t::sum)
            po.append_sum((float)e.scale, e.zero_point);
        else
            po.append_binary(lib_alg(e.alg), plain_f32(e.dims));
    }
    return po;
}

// Runs every implementation of `p` on `eng` and compares with the
// reference; returns the implementation names seen.
std::vector<std::string> check(
        const engine &eng, stream &strm, problem_t p, unsigned seed = 1) {
    SCOPED_TRACE("s0 " + describe(p.s0) + " s1 " + describe(p.s1) + " dst "
                 + describe(p.dst));
    std::mt19937 gen(seed);
    const bool ternary = p.alg == algorithm::binary_select;
    const auto d0 = dims_of(p.s0), d1 = dims_of(p.s1), dd = dims_of(p.dst);
    const auto v0 = random_values(count(d0), p.s0.get_data_type(), gen);
    auto v1 = random_values(count(d1), p.s1.get_data_type(), gen);
    if (p.alg == algorithm::binary_div)
        for (auto &x : v1)
            if (x == 0) x = 1;
    std::vector<double> v2;
    std::vector<int64_t> d2;
    if (ternary) {
        d2 = dims_of(p.s2);
        v2 = random_values(count(d2), dt::s8, gen, -1, 1);
    }
    for (auto &e : p.po)
        if (e.kind == po_ref::kind_t::binary) {
            e.src = random_values(count(e.dims), dt::f32, gen, -2, 2);
            for (auto &x : e.src)
                if (e.alg == br::alg_t::div && x == 0) x = 1;
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
    auto expected = br::compute(ref_alg(p.alg), dd, v0, d0, v1, d1,
            ternary ? &v2 : nullptr, ternary ? &d2 : nullptr,
            p.scale0 ? p.scale0 : 1, p.scale1 ? p.scale1 : 1);
    const std::vector<double> &old = p.in_place ? v0 : dinit;
    int64_t i = 0;
    br::for_each(dd, [&](const int64_t *pos) {
        expected[i] = po_ref::apply(p.po, pos, expected[i], old[i]);
        ++i;
    });

    std::vector<std::string> names;
    for_each_impl(pd, [&](const binary::primitive_desc &ipd) {
        names.push_back(ipd.impl_info_str());
        memory m0 = to_memory(eng, p.s0, v0), m1 = to_memory(eng, p.s1, v1);
        memory md = p.in_place ? m0 : to_memory(eng, dst_md, dinit);
        if (!p.in_place) fill_padding(md, 7);
        std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, md}};
        if (ternary) args[DNNL_ARG_SRC_2] = to_memory(eng, p.s2, v2);
        const memory::desc sc_md({1}, dt::f32, tag::x);
        if (p.scale0)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_0] =
                    to_memory(eng, sc_md, {p.scale0});
        if (p.scale1)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_1] =
                    to_memory(eng, sc_md, {p.scale1});
        add_binary_post_op_args(args, p.po, eng);
        binary(ipd).execute(strm, args);
        strm.wait();
        EXPECT_TRUE(
                matches(from_memory(md), expected, ddt, tol_for(ddt, p.rel)));
        EXPECT_TRUE(padding_is_zero(md));
    });
    return names;
}

const memory::dims dst_dims = {2, 19, 3, 5};
struct bcast_t {
    memory::dims d0, d1;
};
const bcast_t bcasts[] = {
        {{2, 19, 3, 5}, {2, 19, 3, 5}}, // tensor op
        {{2, 19, 3, 5}, {1, 19, 1, 1}}, // per channel
        {{2, 19, 3, 5}, {1, 1, 1, 1}},  // scalar
        {{2, 19, 3, 5}, {2, 1, 3, 5}},  // across channels
        {{2, 19, 3, 5}, {1, 1, 3, 1}},  // one spatial dim
        {{1, 19, 3, 5}, {2, 19, 3, 5}}, // src0 broadcast
        {{2, 1, 3, 5}, {1, 19, 3, 5}},  // both broadcast, different dims
};

problem_t make(algorithm alg, const memory::dims &d0, dt t0, tag g0,
        const memory::dims &d1, dt t1, tag g1, const memory::dims &dd, dt td,
        tag gd) {
    problem_t p;
    p.alg = alg;
    p.s0 = memory::desc(d0, t0, g0);
    p.s1 = memory::desc(d1, t1, g1);
    p.dst = memory::desc(dd, td, gd);
    return p;
}

} // namespace

TEST_F(ocl_binary_test, every_algorithm_both_implementations) {
    for (const auto &a : algs) {
        if (a.lib == algorithm::binary_select) continue;
        check(eng, strm,
                make(a.lib, bcasts[1].d0, dt::f32, tag::nchw, bcasts[1].d1,
                        dt::f32, tag::nchw, dst_dims, dt::f32, tag::nchw));
    }
    // A dense problem offers the vectorised path first, tables second.
    problem_t p = make(algorithm::binary_add, {4, 16, 8, 8}, dt::f32, tag::nchw,
            {1, 16, 1, 1}, dt::f32, tag::nchw, {4, 16, 8, 8}, dt::f32,
            tag::nchw);
    const auto names = check(eng, strm, p);
    ASSERT_EQ(names.size(), 2u);
    EXPECT_NE(names[0].find("ocl:binary:vec"), std::string::npos);
    EXPECT_NE(names[1].find("ocl:binary:any"), std::string::npos);
}

TEST_F(ocl_binary_test, broadcasts_and_layouts) {
    for (const auto &b : bcasts)
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
            for (tag t1 : {tag::nchw, tag::nhwc}) {
                check(eng, strm,
                        make(algorithm::binary_sub, b.d0, dt::f32, t, b.d1,
                                dt::f32, t1, dst_dims, dt::f32, t),
                        3);
            }
    // Mixed layouts per tensor, blocked with padding.
    check(eng, strm,
            make(algorithm::binary_div, dst_dims, dt::f32, tag::nChw8c,
                    dst_dims, dt::f32, tag::nhwc, dst_dims, dt::f32,
                    tag::nChw16c));
    check(eng, strm,
            make(algorithm::binary_max, {1, 19, 3, 5}, dt::f32, tag::nChw16c,
                    dst_dims, dt::f32, tag::nChw8c, dst_dims, dt::f32,
                    tag::nchw));
}

TEST_F(ocl_binary_test, data_types) {
    struct dts_t {
        dt a, b, d;
    };
    const dts_t dts[] = {{dt::bf16, dt::bf16, dt::bf16},
            {dt::f16, dt::f16, dt::f16}, {dt::s8, dt::u8, dt::s8},
            {dt::u8, dt::f32, dt::u8}, {dt::f32, dt::bf16, dt::s8},
            {dt::s8, dt::s8, dt::f32}, {dt::f16, dt::s8, dt::bf16},
            {dt::s32, dt::f32, dt::s32}, {dt::f8_e5m2, dt::f8_e4m3, dt::f8_e5m2},
            {dt::f32, dt::f8_e5m2, dt::f8_e4m3}, {dt::f8_e4m3, dt::s8, dt::f32}};
    // Per-channel src1 over channels-last: vectors of every type.
    for (const auto &x : dts) {
        problem_t p = make(algorithm::binary_mul, {2, 32, 3, 5}, x.a, tag::nhwc,
                {1, 32, 1, 1}, x.b, tag::nhwc, {2, 32, 3, 5}, x.d, tag::nhwc);
        p.rel = 4e-3;
        check(eng, strm, p, 5);
    }
}

TEST_F(ocl_binary_test, tails_and_other_ranks) {
    const std::vector<std::pair<memory::dims, memory::dims>> shapes = {
            {{37}, {37}}, {{37}, {1}}, {{4099}, {4099}}, {{7, 300}, {1, 300}},
            {{7, 301}, {7, 1}}, {{3, 4, 70}, {3, 1, 70}},
            {{2, 3, 4, 5, 6}, {1, 3, 1, 1, 1}},
            {{2, 3, 2, 2, 3, 5}, {2, 3, 2, 2, 3, 5}},
            // More dims than the offset tables hold: the nest merges them.
            {{2, 3, 2, 2, 3, 5, 2}, {1, 3, 1, 1, 1, 1, 1}},
            {{2, 3, 2, 2, 3, 1, 2, 2, 3, 2, 1, 2},
                    {2, 3, 2, 2, 3, 1, 2, 2, 3, 2, 1, 2}}};
    for (const auto &s : shapes) {
        const tag t = plain_tag(s.first.size());
        check(eng, strm,
                make(algorithm::binary_add, s.first, dt::f32, t, s.second,
                        dt::f32, t, s.first, dt::f32, t),
                7);
    }
}

TEST_F(ocl_binary_test, scales_and_post_ops) {
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
    const std::vector<std::vector<entry_t>> chains = {{},
            {elt(elt_t::relu, 0.25), sum(0.5)},
            {elt(elt_t::linear, 2, -1), sum(1.5, 1)},
            {bin(br::alg_t::mul, {1, 19, 1, 1}), elt(elt_t::tanh), sum(-1)},
            {sum(1), bin(br::alg_t::max, {1, 1, 3, 5}), elt(elt_t::logistic)}};
    struct cfg_t {
        tag t;
        dt d;
    };
    for (const auto &chain : chains)
        for (const cfg_t &c :
                {cfg_t{tag::nchw, dt::f32}, cfg_t{tag::nChw16c, dt::s8}}) {
            problem_t p = make(algorithm::binary_mul, dst_dims, dt::f32, c.t,
                    {1, 19, 1, 1}, dt::f32, tag::nchw, dst_dims, c.d, c.t);
            p.scale0 = 0.5f;
            p.scale1 = chain.empty() ? -3.f : 0.f;
            p.po = chain;
            p.rel = 1e-5;
            check(eng, strm, p, 11);
        }
}

TEST_F(ocl_binary_test, select) {
    for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
        for (const memory::dims &c : {memory::dims{2, 19, 3, 5},
                     memory::dims{1, 19, 1, 1}, memory::dims{2, 1, 3, 5}}) {
            problem_t p = make(algorithm::binary_select, dst_dims, dt::f32, t,
                    {1, 19, 1, 1}, dt::bf16, tag::nchw, dst_dims, dt::f32, t);
            p.s2 = memory::desc(c, dt::s8, tag::nchw);
            check(eng, strm, p, 13);
        }
}

TEST_F(ocl_binary_test, in_place) {
    for (tag t : {tag::nchw, tag::nChw8c})
        for (dt d : {dt::f32, dt::bf16}) {
            problem_t p = make(algorithm::binary_add, dst_dims, d, t,
                    {1, 19, 1, 1}, dt::f32, tag::nchw, dst_dims, d, t);
            p.in_place = true;
            po_ref::entry_t s;
            s.kind = po_ref::kind_t::sum;
            s.scale = 2;
            p.po = {s};
            check(eng, strm, p, 17);
        }
}

TEST_F(ocl_binary_test, windows_of_a_larger_tensor) {
    // src0 and dst are 4x6 windows of 7x12 tensors (offset0 odd, then
    // even): vectors of the width the offsets allow, and nothing outside
    // the window written.
    const memory::desc parent({7, 12}, dt::f32, tag::ab);
    const memory::desc s1({1, 6}, dt::f32, tag::ab);
    std::mt19937 gen(19);
    for (const memory::dims &at : {memory::dims{2, 3}, memory::dims{2, 4}}) {
        const memory::desc win = parent.submemory_desc({4, 6}, at);
        binary::primitive_desc pd(eng, algorithm::binary_sub, win, s1, win);
        const auto v0 = random_values(84, dt::f32, gen);
        const auto v1 = random_values(6, dt::f32, gen);
        const auto vd = random_values(84, dt::f32, gen);
        auto expected = vd;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 6; ++c) {
                const int i = (int)((r + at[0]) * 12 + c + at[1]);
                expected[i] = v0[i] - v1[c];
            }
        for_each_impl(pd, [&](const binary::primitive_desc &ipd) {
            memory p0 = to_memory(eng, parent, v0);
            memory pdst = to_memory(eng, parent, vd);
            memory m0(win, eng, p0.get_data_handle());
            memory md(win, eng, pdst.get_data_handle());
            binary(ipd).execute(
                    strm, {{DNNL_ARG_SRC_0, m0},
                                  {DNNL_ARG_SRC_1, to_memory(eng, s1, v1)},
                                  {DNNL_ARG_DST, md}});
            strm.wait();
            EXPECT_TRUE(matches(
                    from_memory(pdst), expected, dt::f32, tol_for(dt::f32)));
        });
    }
}

TEST_F(ocl_binary_test, new_shapes_reuse_the_programs) {
    // Shapes travel as kernel arguments: a per-channel add of another
    // shape (same vector width and broadcast pattern) builds nothing new,
    // on either implementation.
    auto run = [&](const memory::dims &d) {
        memory::dims c = {1, d[1], 1, 1};
        check(eng, strm,
                make(algorithm::binary_add, d, dt::f32, tag::nchw, c, dt::f32,
                        tag::nchw, d, dt::f32, tag::nchw));
    };
    run({2, 16, 4, 4});
    const int64_t built = programs_built();
    run({3, 40, 8, 6});
    run({1, 5, 2, 10});
    EXPECT_EQ(programs_built(), built);
    // The counter does see builds: a configuration no test had.
    check(eng, strm,
            make(algorithm::binary_ne, {2, 3}, dt::s32, tag::ab, {2, 3},
                    dt::s32, tag::ab, {2, 3}, dt::s32, tag::ab));
    EXPECT_GT(programs_built(), built);
}

TEST_F(ocl_binary_test, zero_sized_tensors) {
    memory::desc md({0, 3, 4, 5}, dt::f32, tag::nchw);
    binary::primitive_desc pd(eng, algorithm::binary_add, md,
            memory::desc({1, 3, 1, 1}, dt::f32, tag::nchw), md);
    memory m0(md, eng), m1(pd.src_desc(1), eng), m2(md, eng);
    binary(pd).execute(strm,
            {{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, m2}});
    strm.wait();
}

TEST_F(ocl_binary_test, bad_inputs_give_a_status) {
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    const memory::desc b({1, 3, 1, 1}, dt::f32, tag::nchw);
    binary::primitive_desc pd(eng, algorithm::binary_add, a, b, a);
    binary prim(pd);
    memory m0(a, eng), m1(b, eng), md(a, eng);
    auto run = [&](std::unordered_map<int, memory> args) {
        return status_of([&] {
            prim.execute(strm, args);
            strm.wait();
        });
    };
    EXPECT_EQ(run({{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1},
                      {DNNL_ARG_DST, md}}),
            dnnl_success);
    // A CPU memory given to the gpu primitive.
    engine cpu(engine::kind::cpu, 0);
    memory host(a, cpu);
    EXPECT_EQ(run({{DNNL_ARG_SRC_0, host}, {DNNL_ARG_SRC_1, m1},
                      {DNNL_ARG_DST, md}}),
            dnnl_invalid_arguments);
    // A memory smaller than the descriptor needs.
    memory small(memory::desc({2, 3, 4, 4}, dt::f32, tag::nchw), eng);
    EXPECT_EQ(run({{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1},
                      {DNNL_ARG_DST, small}}),
            dnnl_invalid_arguments);
    // A missing source, a missing scale.
    EXPECT_EQ(run({{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_DST, md}}),
            dnnl_invalid_arguments);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC_1, 0);
    binary scaled(
            binary::primitive_desc(eng, algorithm::binary_add, a, b, a, attr));
    EXPECT_EQ(status_of([&] {
        scaled.execute(strm, {{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1},
                                     {DNNL_ARG_DST, md}});
    }),
            dnnl_invalid_arguments);
    // Types the kernels do not take are unimplemented on the gpu.
    EXPECT_EQ(status_of([&] {
        binary::primitive_desc(eng, algorithm::binary_add,
                memory::desc({2, 3, 4, 5}, dt::f64, tag::nchw), b, a);
    }),
            dnnl_unimplemented);
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
