// Sum on the gpu engine against the naive reference
// (tests/reference/sum_ref.*): 1 to 19 sources (batches of 8 through the
// accumulator), scales, mixed layouts with padding, data types, in-place,
// tails, both implementations, and bad inputs answered with a status.

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
#include "primitives/tensor_glue.hpp"
#include "reference/sum_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

class ocl_sum_test : public gpu_primitive_test {
protected:
    // Runs every implementation of the sum of `srcs` (dst null: inferred)
    // and compares with the reference; returns the implementation names.
    std::vector<std::string> check(const std::vector<memory::desc> &srcs,
            const std::vector<float> &scales, const memory::desc *dst,
            bool in_place = false, unsigned seed = 1) {
        std::string trace;
        for (const auto &s : srcs) trace += describe(s) + " | ";
        SCOPED_TRACE(trace);
        std::mt19937 gen(seed);
        std::vector<std::vector<double>> vals;
        for (const auto &s : srcs)
            vals.push_back(
                    random_values(count(dims_of(s)), s.get_data_type(), gen));
        sum::primitive_desc pd =
                dst ? sum::primitive_desc(eng, *dst, scales, srcs)
                    : sum::primitive_desc(eng, scales, srcs);
        const auto dmd = pd.dst_desc();
        const dt ddt = dmd.get_data_type();
        const auto expected = sum_ref::compute(
                vals, std::vector<double>(scales.begin(), scales.end()));
        std::vector<std::string> names;
        for_each_impl(pd, [&](const sum::primitive_desc &ipd) {
            names.push_back(ipd.impl_info_str());
            std::unordered_map<int, memory> args;
            std::vector<memory> ms;
            for (size_t i = 0; i < srcs.size(); ++i) {
                ms.push_back(to_memory(eng, srcs[i], vals[i]));
                args[DNNL_ARG_MULTIPLE_SRC + (int)i] = ms.back();
            }
            memory md = in_place ? ms[0]
                                 : to_memory(eng, dmd,
                                         random_values(
                                                 count(dims_of(dmd)), ddt, gen),
                                         0x55);
            if (!in_place) fill_padding(md, 3);
            args[DNNL_ARG_DST] = md;
            sum(ipd).execute(strm, args);
            strm.wait();
            EXPECT_TRUE(matches(
                    from_memory(md), expected, ddt, tol_for(ddt, 1e-5)));
            EXPECT_TRUE(padding_is_zero(md));
        });
        return names;
    }
};

std::vector<float> scales_for(int n) {
    std::vector<float> s;
    for (int i = 0; i < n; ++i)
        s.push_back((i % 2 ? -0.5f : 1.25f) * (1 + i % 3));
    return s;
}

} // namespace

TEST_F(ocl_sum_test, source_counts_and_both_implementations) {
    const memory::desc md({2, 16, 3, 5}, dt::f32, tag::nchw);
    for (int n : {1, 2, 3, 8, 9, 19}) {
        const std::vector<memory::desc> srcs(n, md);
        const auto names = check(srcs, scales_for(n), &md);
        ASSERT_EQ(names.size(), 2u);
        EXPECT_NE(names[0].find("ocl:sum:vec"), std::string::npos);
        EXPECT_NE(names[1].find("ocl:sum:any"), std::string::npos);
    }
}

// More dims than the offset tables hold: the nest merges them, and the
// table implementation declines.
TEST_F(ocl_sum_test, more_than_six_dims) {
    const memory::desc md({2, 3, 2, 2, 3, 5, 2}, dt::f32, tag::abcdefg);
    const auto names = check({md, md, md}, scales_for(3), &md);
    ASSERT_EQ(names.size(), 1u);
    EXPECT_NE(names[0].find("ocl:sum:vec"), std::string::npos);
}

TEST_F(ocl_sum_test, layouts_with_padding) {
    const memory::dims d = {2, 19, 3, 5};
    const tag tags[] = {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c};
    for (tag t0 : tags)
        for (tag td : {t0, tag::nChw16c}) {
            std::vector<memory::desc> srcs = {memory::desc(d, dt::f32, t0),
                    memory::desc(d, dt::f32, tag::nhwc),
                    memory::desc(d, dt::f32, t0)};
            const memory::desc dst(d, dt::f32, td);
            check(srcs, {0.5f, -2.f, 1.25f}, &dst, false, 3);
        }
    // Inferred destination, and more than one batch of mixed layouts.
    std::vector<memory::desc> srcs;
    for (int i = 0; i < 10; ++i)
        srcs.push_back(memory::desc(d, dt::f32, tags[i % 4]));
    check(srcs, scales_for(10), nullptr, false, 5);
}

TEST_F(ocl_sum_test, data_types_and_tails) {
    struct dts_t {
        dt a, b, d;
    };
    const dts_t dts[] = {{dt::bf16, dt::bf16, dt::bf16},
            {dt::f16, dt::f16, dt::f16}, {dt::s8, dt::u8, dt::s32},
            {dt::f32, dt::bf16, dt::s8}, {dt::s32, dt::f16, dt::f32},
            {dt::f8_e5m2, dt::f8_e4m3, dt::f8_e5m2}, {dt::f32, dt::f8_e4m3, dt::f8_e4m3}};
    for (const auto &x : dts) {
        // Vectors of every type, and a tail that takes single elements.
        const memory::dims d =
                x.a == dt::f32 ? memory::dims{7, 37} : memory::dims{64, 48};
        std::vector<memory::desc> srcs = {
                memory::desc(d, x.a, tag::ab), memory::desc(d, x.b, tag::ab)};
        const memory::desc dst(d, x.d, tag::ab);
        check(srcs, {1.f, 2.f}, &dst, false, 7);
    }
}

TEST_F(ocl_sum_test, in_place) {
    for (int n : {2, 9}) {
        const memory::desc md({3, 8, 5, 5}, dt::f32, tag::nChw8c);
        const std::vector<memory::desc> srcs(n, md);
        check(srcs, scales_for(n), &md, true, 9);
    }
}

TEST_F(ocl_sum_test, new_shapes_reuse_the_programs) {
    auto run = [&](const memory::dims &d) {
        const memory::desc md(d, dt::f32, tag::abcd);
        check({md, md, md}, {1.f, -1.f, 0.5f}, &md);
    };
    run({2, 4, 4, 4});
    const int64_t built = programs_built();
    run({3, 8, 2, 6});
    EXPECT_EQ(programs_built(), built);
}

TEST_F(ocl_sum_test, bad_inputs_give_a_status) {
    const memory::desc md({2, 3, 4, 5}, dt::f32, tag::nchw);
    sum::primitive_desc pd(eng, {1.f, 1.f}, {md, md});
    sum prim(pd);
    memory a(md, eng), b(md, eng), d(md, eng);
    auto run = [&](std::unordered_map<int, memory> args) {
        return status_of([&] {
            prim.execute(strm, args);
            strm.wait();
        });
    };
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, a}, {DNNL_ARG_MULTIPLE_SRC + 1, b},
                      {DNNL_ARG_DST, d}}),
            dnnl_success);
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, a}, {DNNL_ARG_DST, d}}),
            dnnl_invalid_arguments);
    engine cpu(engine::kind::cpu, 0);
    memory host(md, cpu);
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, a},
                      {DNNL_ARG_MULTIPLE_SRC + 1, host}, {DNNL_ARG_DST, d}}),
            dnnl_invalid_arguments);
    memory small(memory::desc({2, 3, 4, 4}, dt::f32, tag::nchw), eng);
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, a}, {DNNL_ARG_MULTIPLE_SRC + 1, b},
                      {DNNL_ARG_DST, small}}),
            dnnl_invalid_arguments);
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
