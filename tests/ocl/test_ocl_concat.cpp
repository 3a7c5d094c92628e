// Concat on the gpu engine against the naive reference
// (tests/reference/concat_ref.*): every axis, several sources of different
// sizes and layouts (plain, channels-last, blocked with padding, slices off
// block boundaries), zero-sized sources, data type conversion, per-source
// scales, both implementations, and bad inputs answered with a status.

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
#include "reference/concat_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

class ocl_concat_test : public gpu_primitive_test {
protected:
    // Runs every implementation (dst null: inferred); scales 0: none.
    std::vector<std::string> check(const std::vector<memory::desc> &srcs,
            int axis, const memory::desc *dst,
            const std::vector<float> &scales = {}, unsigned seed = 1) {
        std::string trace = "axis " + std::to_string(axis) + ": ";
        for (const auto &s : srcs) trace += describe(s) + " | ";
        SCOPED_TRACE(trace);
        std::mt19937 gen(seed);
        std::vector<std::vector<double>> vals;
        std::vector<std::vector<int64_t>> dims;
        for (const auto &s : srcs) {
            dims.push_back(dims_of(s));
            vals.push_back(
                    random_values(count(dims.back()), s.get_data_type(), gen));
        }
        primitive_attr attr;
        std::vector<double> sc(srcs.size(), 1.0);
        for (size_t i = 0; i < scales.size(); ++i)
            if (scales[i] != 0.f) {
                attr.set_scales_mask(DNNL_ARG_MULTIPLE_SRC + (int)i, 0);
                sc[i] = scales[i];
            }
        concat::primitive_desc pd =
                dst ? concat::primitive_desc(eng, *dst, axis, srcs, attr)
                    : concat::primitive_desc(eng, axis, srcs, attr);
        const auto dmd = pd.dst_desc();
        const dt ddt = dmd.get_data_type();
        const auto expected = concat_ref::compute(vals, dims, axis, sc);
        std::vector<std::string> names;
        for_each_impl(pd, [&](const concat::primitive_desc &ipd) {
            names.push_back(ipd.impl_info_str());
            std::unordered_map<int, memory> args;
            for (size_t i = 0; i < srcs.size(); ++i) {
                args[DNNL_ARG_MULTIPLE_SRC + (int)i] =
                        to_memory(eng, srcs[i], vals[i]);
                if (sc[i] != 1.0)
                    args[DNNL_ARG_ATTR_SCALES
                            | (DNNL_ARG_MULTIPLE_SRC + (int)i)] =
                            to_memory(eng, {{1}, dt::f32, tag::x}, {sc[i]});
            }
            memory md = to_memory(eng, dmd,
                    random_values(count(dims_of(dmd)), ddt, gen), 0x55);
            fill_padding(md, 3);
            args[DNNL_ARG_DST] = md;
            concat(ipd).execute(strm, args);
            strm.wait();
            EXPECT_TRUE(matches(
                    from_memory(md), expected, ddt, tol_for(ddt, 1e-6)));
            EXPECT_TRUE(padding_is_zero(md));
        });
        return names;
    }
};

memory::desc with_axis(memory::dims d, int axis, memory::dim n, dt t, tag g) {
    d[axis] = n;
    return memory::desc(d, t, g);
}

} // namespace

TEST_F(ocl_concat_test, axes_layouts_and_sizes) {
    const memory::dims base = {2, 16, 3, 5};
    const tag tags[] = {tag::nchw, tag::nhwc, tag::nChw16c};
    for (int axis = 0; axis < 4; ++axis)
        for (const std::vector<memory::dim> &sizes :
                {std::vector<memory::dim>{16, 16},
                        std::vector<memory::dim>{3, 8, 5}})
            for (tag ts : tags)
                for (tag td : tags) {
                    std::vector<memory::desc> srcs;
                    memory::dim total = 0;
                    for (size_t i = 0; i < sizes.size(); ++i) {
                        srcs.push_back(with_axis(base, axis, sizes[i], dt::f32,
                                i % 2 ? tag::nchw : ts));
                        total += sizes[i];
                    }
                    const memory::desc dst =
                            with_axis(base, axis, total, dt::f32, td);
                    check(srcs, axis, &dst);
                }
}

TEST_F(ocl_concat_test, both_implementations_on_a_dense_problem) {
    const memory::desc a({4, 32, 8, 8}, dt::f32, tag::nchw);
    const memory::desc b({4, 64, 8, 8}, dt::f32, tag::nchw);
    const auto names = check({a, b}, 1, nullptr);
    ASSERT_EQ(names.size(), 2u);
    EXPECT_NE(names[0].find("ocl:concat:vec"), std::string::npos);
    EXPECT_NE(names[1].find("ocl:concat:any"), std::string::npos);
}

TEST_F(ocl_concat_test, zero_sized_sources_and_tails) {
    const memory::dims base = {3, 7, 5};
    std::vector<memory::desc> srcs = {with_axis(base, 1, 0, dt::f32, tag::abc),
            with_axis(base, 1, 5, dt::f32, tag::acb),
            with_axis(base, 1, 0, dt::f32, tag::abc),
            with_axis(base, 1, 11, dt::f32, tag::abc)};
    const memory::desc dst = with_axis(base, 1, 16, dt::f32, tag::abc);
    check(srcs, 1, &dst);
    // Blocked dst with padding; sources off 16-blocks.
    srcs = {with_axis({2, 16, 3, 5}, 1, 5, dt::f32, tag::nChw8c),
            with_axis({2, 16, 3, 5}, 1, 14, dt::f32, tag::nchw)};
    const memory::desc bd =
            with_axis({2, 16, 3, 5}, 1, 19, dt::f32, tag::nChw16c);
    check(srcs, 1, &bd);
}

TEST_F(ocl_concat_test, data_types_and_scales) {
    struct dts_t {
        dt s, d;
    };
    // Bit copies (same type, no scale) and conversions (scaled source 0).
    for (const dts_t &x : {dts_t{dt::bf16, dt::f32}, dts_t{dt::f16, dt::f16},
                 dts_t{dt::s8, dt::s8}, dts_t{dt::f32, dt::u8},
                 dts_t{dt::f8_e5m2, dt::f8_e5m2}, dts_t{dt::f8_e4m3, dt::f32}}) {
        std::vector<memory::desc> srcs = {
                memory::desc({4, 24, 2, 2}, x.s, tag::nhwc),
                memory::desc({4, 8, 2, 2}, x.s, tag::nchw)};
        const memory::desc dst({4, 32, 2, 2}, x.d, tag::nhwc);
        check(srcs, 1, &dst, {x.s == x.d ? 0.f : 2.f, 0.f}, 3);
    }
}

TEST_F(ocl_concat_test, new_shapes_reuse_the_programs) {
    auto run = [&](const memory::dims &d) {
        check({with_axis(d, 1, 8, dt::f32, tag::nchw),
                      with_axis(d, 1, 4, dt::f32, tag::nchw)},
                1, nullptr);
    };
    run({2, 0, 4, 4});
    const int64_t built = programs_built();
    run({3, 0, 2, 6});
    EXPECT_EQ(programs_built(), built);
}

// More dims than the offset tables hold: both implementations, on the
// fold of the dims around the axis; a layout that does not merge is
// unimplemented.
TEST_F(ocl_concat_test, more_than_six_dims) {
    const memory::desc a({2, 3, 2, 3, 2, 3, 2}, dt::f32, tag::abcdefg),
            b({2, 3, 5, 3, 2, 3, 2}, dt::f32, tag::abcdefg);
    const memory::desc dst({2, 3, 7, 3, 2, 3, 2}, dt::bf16, tag::abcdefg);
    const auto names = check({a, b}, 2, &dst, {2.f, 0.f}, 5);
    EXPECT_EQ(names.size(), 2u);
    check({a, a, a}, 6, nullptr, {}, 6);
    const memory::desc reversed({2, 3, 2, 3, 2, 3, 4}, dt::f32,
            memory::dims {1, 2, 6, 12, 36, 72, 216});
    EXPECT_EQ(status_of([&] {
        concat::primitive_desc(eng, reversed, 6, {a, a});
    }),
            dnnl_unimplemented);
}

TEST_F(ocl_concat_test, bad_inputs_give_a_status) {
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    concat::primitive_desc pd(eng, 1, {a, a});
    concat prim(pd);
    memory m0(a, eng), m1(a, eng), d(pd.dst_desc(), eng);
    auto run = [&](std::unordered_map<int, memory> args) {
        return status_of([&] {
            prim.execute(strm, args);
            strm.wait();
        });
    };
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, m0}, {DNNL_ARG_MULTIPLE_SRC + 1, m1},
                      {DNNL_ARG_DST, d}}),
            dnnl_success);
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, m0}, {DNNL_ARG_DST, d}}),
            dnnl_invalid_arguments);
    engine cpu(engine::kind::cpu, 0);
    memory host(pd.dst_desc(), cpu);
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, m0}, {DNNL_ARG_MULTIPLE_SRC + 1, m1},
                      {DNNL_ARG_DST, host}}),
            dnnl_invalid_arguments);
    EXPECT_EQ(run({{DNNL_ARG_MULTIPLE_SRC, m0}, {DNNL_ARG_MULTIPLE_SRC + 1, m1},
                      {DNNL_ARG_DST, m0}}),
            dnnl_invalid_arguments);
    // A scaled source without its scale.
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_MULTIPLE_SRC + 1, 0);
    concat scaled(concat::primitive_desc(eng, 1, {a, a}, attr));
    EXPECT_EQ(status_of([&] {
        scaled.execute(strm,
                {{DNNL_ARG_MULTIPLE_SRC, m0}, {DNNL_ARG_MULTIPLE_SRC + 1, m1},
                        {DNNL_ARG_DST, d}});
    }),
            dnnl_invalid_arguments);
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
