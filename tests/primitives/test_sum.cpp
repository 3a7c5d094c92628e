// Sum primitive tests: 1 to 5 sources with scales, mixed layouts (plain,
// channels-last, blocked with padding) and data types, destinations given
// or inferred (null / `any`), in-place, queries, bad parameters and the gpu
// engine; every implementation is compared with tests/reference/sum_ref.*.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "tensor_glue.hpp"
#include <unordered_map>

#include "reference/sum_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

// Runs a sum of `srcs` (dst null: inferred) with every implementation.
void check(const std::vector<memory::desc> &srcs,
        const std::vector<float> &scales, const memory::desc *dst,
        bool in_place = false, unsigned seed = 1) {
    std::string trace;
    for (const auto &s : srcs) trace += describe(s) + " | ";
    SCOPED_TRACE(trace);
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    std::vector<std::vector<double>> vals;
    for (const auto &s : srcs)
        vals.push_back(
                random_values(count(dims_of(s)), s.get_data_type(), gen));
    sum::primitive_desc pd = dst ? sum::primitive_desc(eng, *dst, scales, srcs)
                                 : sum::primitive_desc(eng, scales, srcs);
    const auto dmd = pd.dst_desc();
    const dt ddt = dmd.get_data_type();
    std::vector<double> sc(scales.begin(), scales.end());
    const auto expected = sum_ref::compute(vals, sc);
    EXPECT_EQ(query_s32(pd, query::num_of_inputs_s32), (int)srcs.size());
    for (size_t i = 0; i < srcs.size(); ++i)
        EXPECT_EQ(pd.src_desc((int)i), srcs[i]);
    for_each_impl(pd, [&](const sum::primitive_desc &ipd) {
        std::unordered_map<int, memory> args;
        std::vector<memory> ms;
        for (size_t i = 0; i < srcs.size(); ++i) {
            ms.push_back(to_memory(eng, srcs[i], vals[i]));
            args[DNNL_ARG_MULTIPLE_SRC + (int)i] = ms.back();
        }
        memory md = in_place ? ms[0] : memory(dmd, eng);
        if (!in_place) {
            std::memset(md.get_data_handle(), 0x55, dmd.get_size());
            fill_padding(md, 3);
        }
        args[DNNL_ARG_DST] = md;
        sum(ipd).execute(strm, args);
        strm.wait();
        EXPECT_TRUE(
                matches(from_memory(md), expected, ddt, tol_for(ddt, 1e-6)));
        EXPECT_TRUE(padding_is_zero(md));
    });
}

} // namespace

TEST(Sum, LayoutsAndSourceCounts) {
    const memory::dims d = {2, 19, 3, 5};
    const tag tags[] = {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c};
    const std::vector<float> scales = {0.5f, -2.f, 1.25f, 3.f, -0.75f};
    for (int n : {1, 2, 3, 5})
        for (tag t0 : tags)
            for (tag t1 : tags)
                for (tag td : {t0, tag::nhwc, tag::nChw16c}) {
                    std::vector<memory::desc> srcs;
                    for (int i = 0; i < n; ++i)
                        srcs.emplace_back(d, dt::f32, i % 2 ? t1 : t0);
                    memory::desc dst(d, dt::f32, td);
                    check(srcs,
                            std::vector<float>(
                                    scales.begin(), scales.begin() + n),
                            &dst);
                }
}

TEST(Sum, DataTypes) {
    const memory::dims d = {3, 17, 4, 7};
    struct c_t {
        dt a, b, d;
    };
    for (const c_t &c : {c_t{dt::bf16, dt::bf16, dt::bf16},
                 c_t{dt::f16, dt::f16, dt::f16}, c_t{dt::s8, dt::u8, dt::f32},
                 c_t{dt::f32, dt::bf16, dt::s8},
                 c_t{dt::bf16, dt::f32, dt::f32}, c_t{dt::u8, dt::u8, dt::u8},
                 c_t{dt::s32, dt::s8, dt::s32}})
        for (tag t : {tag::nchw, tag::nChw16c}) {
            memory::desc dst(d, c.d, t);
            check({memory::desc(d, c.a, t), memory::desc(d, c.b, tag::nhwc)},
                    {1.f, 0.5f}, &dst, false, 3);
        }
}

TEST(Sum, OtherRanksAndLargeRows) {
    for (const memory::dims &d :
            {memory::dims{1}, memory::dims{1000}, memory::dims{3, 5000},
                    memory::dims{2, 3, 4, 5, 6}, memory::dims{70000}}) {
        const tag t = d.size() == 1   ? tag::a
                      : d.size() == 2 ? tag::ab
                      : d.size() == 4 ? tag::abcd
                                      : tag::abcde;
        memory::desc s(d, dt::f32, t);
        check({s, s, s}, {1.f, 2.f, -1.f}, &s, false, 5);
    }
}

TEST(Sum, InferredDestination) {
    engine eng(engine::kind::cpu, 0);
    const memory::dims d = {2, 19, 3, 5};
    // Plain sources: the layout and data type of the first.
    {
        memory::desc a(d, dt::bf16, tag::nhwc), b(d, dt::f32, tag::nchw);
        sum::primitive_desc pd(eng, {1.f, 1.f}, {a, b});
        EXPECT_EQ(pd.dst_desc(), a);
        check({a, b}, {1.f, -1.f}, nullptr);
    }
    // The first blocked source gives the layout; dst keeps its own type.
    {
        memory::desc a(d, dt::f32, tag::nhwc), b(d, dt::bf16, tag::nChw8c);
        sum::primitive_desc pd(eng, {1.f, 1.f}, {a, b});
        EXPECT_EQ(pd.dst_desc(), memory::desc(d, dt::f32, tag::nChw8c));
        memory::desc any(d, dt::bf16, tag::any);
        sum::primitive_desc pd2(eng, any, {1.f, 1.f}, {a, b});
        EXPECT_EQ(pd2.dst_desc(), memory::desc(d, dt::bf16, tag::nChw8c));
        check({a, b}, {2.f, 0.5f}, &any);
    }
}

TEST(Sum, InPlace) {
    const memory::dims d = {2, 19, 3, 5};
    for (tag t : {tag::nchw, tag::nChw16c}) {
        memory::desc s(d, dt::f32, t);
        check({s, s, s}, {1.f, 2.f, 3.f}, &s, true, 7);
    }
}

TEST(Sum, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    const memory::desc b({2, 3, 4, 6}, dt::f32, tag::nchw);
    const float scales[] = {1.f, 1.f};
    dnnl_primitive_desc_t pd = nullptr;
    const_dnnl_memory_desc_t srcs[] = {a.get(), a.get()};
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 2, scales, srcs, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), nullptr, 2, scales, srcs, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 2, nullptr, srcs, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 0, scales, srcs, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 2, scales, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      nullptr, eng.get(), a.get(), 2, scales, srcs, nullptr),
            dnnl_invalid_arguments);
    const_dnnl_memory_desc_t mixed[] = {a.get(), b.get()};
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), nullptr, 2, scales, mixed, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), b.get(), 2, scales, srcs, nullptr),
            dnnl_invalid_arguments);
    const memory::desc any({2, 3, 4, 5}, dt::f32, tag::any);
    const_dnnl_memory_desc_t with_any[] = {a.get(), any.get()};
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), nullptr, 2, scales, with_any, nullptr),
            dnnl_invalid_arguments);
    primitive_attr sc;
    sc.set_scales_mask(DNNL_ARG_MULTIPLE_SRC, 0);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a}, sc);
    }),
            dnnl_unimplemented);
    primitive_attr po_attr;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po_attr.set_post_ops(po);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a}, po_attr);
    }),
            dnnl_unimplemented);
    primitive_attr user_scratch;
    user_scratch.set_scratchpad_mode(scratchpad_mode::user);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a}, user_scratch);
    }),
            dnnl_success);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f},
                {a, memory::desc({2, 3, 4, 5}, dt::f64, tag::nchw)});
    }),
            dnnl_unimplemented);
}

// The gpu engine's implementations are tested in tests/ocl/.
TEST(Sum, GpuEngineCreates) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a});
    }),
            dnnl_success);
}
