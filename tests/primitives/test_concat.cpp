// Concat primitive tests: every axis, 1 to 4 sources of different sizes,
// mixed layouts (plain, channels-last, blocked with and without padding,
// sources not starting on a block boundary), data type conversion,
// per-source scales, destinations given, null or `any`, queries, bad
// parameters and the gpu engine; compared with tests/reference/concat_ref.*.
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

#include "reference/concat_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

void check(const std::vector<memory::desc> &srcs, int axis,
        const memory::desc *dst, const std::vector<float> &scales = {},
        unsigned seed = 1) {
    std::string trace = "axis " + std::to_string(axis) + ": ";
    for (const auto &s : srcs) trace += describe(s) + " | ";
    SCOPED_TRACE(trace);
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
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
    for_each_impl(pd, [&](const concat::primitive_desc &ipd) {
        std::unordered_map<int, memory> args;
        std::vector<float> scale_vals(srcs.size());
        for (size_t i = 0; i < srcs.size(); ++i) {
            args[DNNL_ARG_MULTIPLE_SRC + (int)i] =
                    to_memory(eng, srcs[i], vals[i]);
            if (sc[i] != 1.0) {
                scale_vals[i] = (float)sc[i];
                args[DNNL_ARG_ATTR_SCALES | (DNNL_ARG_MULTIPLE_SRC + (int)i)] =
                        memory({{1}, dt::f32, tag::x}, eng, &scale_vals[i]);
            }
        }
        memory md(dmd, eng);
        std::memset(md.get_data_handle(), 0x55, dmd.get_size());
        fill_padding(md, 3);
        args[DNNL_ARG_DST] = md;
        concat(ipd).execute(strm, args);
        strm.wait();
        EXPECT_TRUE(
                matches(from_memory(md), expected, ddt, tol_for(ddt, 1e-6)));
        EXPECT_TRUE(padding_is_zero(md));
    });
}

memory::desc with_axis(memory::dims d, int axis, memory::dim n, dt t, tag tg) {
    d[axis] = n;
    return memory::desc(d, t, tg);
}

} // namespace

TEST(Concat, AxesLayoutsAndSizes) {
    const memory::dims base = {2, 16, 3, 5};
    const tag tags[] = {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c};
    for (int axis = 0; axis < 4; ++axis)
        for (const std::vector<memory::dim> &sizes :
                {std::vector<memory::dim>{16, 16},
                        std::vector<memory::dim>{3, 8, 5},
                        std::vector<memory::dim>{1, 2, 17, 6}})
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

TEST(Concat, InferredAndAnyDestination) {
    engine eng(engine::kind::cpu, 0);
    // Sources not on 8-blocks: the first plain source's layout.
    {
        std::vector<memory::desc> srcs{
                memory::desc({2, 3, 3, 5}, dt::f32, tag::nhwc),
                memory::desc({2, 5, 3, 5}, dt::f32, tag::nChw8c)};
        concat::primitive_desc pd(eng, 1, srcs);
        EXPECT_EQ(
                pd.dst_desc(), memory::desc({2, 8, 3, 5}, dt::f32, tag::nhwc));
        check(srcs, 1, nullptr);
    }
    // Block-aligned sources: the first blocked source's layout.
    {
        std::vector<memory::desc> srcs{
                memory::desc({2, 16, 3, 5}, dt::bf16, tag::nhwc),
                memory::desc({2, 8, 3, 5}, dt::bf16, tag::nChw8c)};
        concat::primitive_desc pd(eng, 1, srcs);
        // The blocked source's outer dims N and C/8 have equal strides; as
        // in oneDNN the one with more blocks in dst (C/8 = 3) goes outside.
        EXPECT_EQ(pd.dst_desc().get_inner_blks(), memory::dims{8});
        EXPECT_EQ(pd.dst_desc().get_strides(), (memory::dims{120, 240, 40, 8}));
        EXPECT_EQ(pd.dst_desc().get_data_type(), dt::bf16);
        memory::desc any({2, 24, 3, 5}, dt::f32, tag::any);
        concat::primitive_desc pd2(eng, any, 1, srcs);
        EXPECT_EQ(
                pd2.dst_desc().get_strides(), (memory::dims{120, 240, 40, 8}));
        EXPECT_EQ(pd2.dst_desc().get_data_type(), dt::f32);
        check(srcs, 1, &any);
        EXPECT_EQ(query_s32(pd, query::num_of_inputs_s32), 2);
        EXPECT_EQ(pd.src_desc(1), srcs[1]);
    }
}

TEST(Concat, DataTypesAndScales) {
    const memory::dims base = {2, 8, 3, 5};
    for (dt s : {dt::f32, dt::bf16, dt::f16, dt::s8, dt::u8})
        for (dt d : {dt::f32, dt::bf16, dt::s8})
            for (tag t : {tag::nchw, tag::nChw8c}) {
                std::vector<memory::desc> srcs{memory::desc(base, s, t),
                        memory::desc(base, s, tag::nhwc)};
                const memory::desc dst({2, 16, 3, 5}, d, t);
                check(srcs, 1, &dst);
                check(srcs, 1, &dst, {0.5f, -2.f}, 3);
                check(srcs, 1, &dst, {0.f, 4.f}, 5);
            }
}

TEST(Concat, OtherRanks) {
    check({memory::desc({5}, dt::f32, tag::a),
                  memory::desc({7}, dt::f32, tag::a)},
            0, nullptr);
    check({memory::desc({3, 1000}, dt::f32, tag::ab),
                  memory::desc({3, 24}, dt::f32, tag::ba)},
            1, nullptr);
    check({memory::desc({2, 3, 4, 5, 6}, dt::f32, tag::abcde),
                  memory::desc({2, 3, 1, 5, 6}, dt::f32, tag::acdeb)},
            2, nullptr);
    // A zero-sized source takes no room.
    check({memory::desc({2, 3, 4}, dt::f32, tag::abc),
                  memory::desc({2, 0, 4}, dt::f32, tag::abc),
                  memory::desc({2, 5, 4}, dt::f32, tag::abc)},
            1, nullptr);
}

// An empty destination's strides are free (it reaches no element): huge
// ones must not overflow offset arithmetic at creation (found by
// fuzz_primitive_desc under UBSan), and execution is a no-op.
TEST(Concat, EmptyDestinationWithHugeStrides) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const memory::desc s({1, 0, 3}, dt::f32, memory::dims {3, 3, 1});
    const memory::desc d({4, 0, 3}, dt::f32,
            memory::dims {(memory::dim)1 << 61, 3, 1});
    concat::primitive_desc pd(eng, d, 0, {s, s, s, s});
    memory sm(s, eng, nullptr), dm(d, eng, nullptr);
    concat(pd).execute(strm,
            {{DNNL_ARG_MULTIPLE_SRC, sm}, {DNNL_ARG_MULTIPLE_SRC + 1, sm},
                    {DNNL_ARG_MULTIPLE_SRC + 2, sm},
                    {DNNL_ARG_MULTIPLE_SRC + 3, sm}, {DNNL_ARG_DST, dm}});
    strm.wait();
}

TEST(Concat, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw),
            b({2, 5, 4, 5}, dt::f32, tag::nchw);
    auto create = [&](int axis, std::vector<memory::desc> srcs,
                          const memory::desc *dst,
                          const primitive_attr &attr = primitive_attr()) {
        return status_of([&] {
            if (dst)
                concat::primitive_desc(eng, *dst, axis, srcs, attr);
            else
                concat::primitive_desc(eng, axis, srcs, attr);
        });
    };
    const memory::desc good({2, 8, 4, 5}, dt::f32, tag::nchw),
            bad({2, 9, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(create(1, {a, b}, &good), dnnl_success);
    EXPECT_EQ(create(1, {a, b}, &bad), dnnl_invalid_arguments);
    EXPECT_EQ(create(4, {a, b}, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(create(-1, {a, b}, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(create(2, {a, b}, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(create(1, {a, memory::desc({2, 5, 4, 5}, dt::bf16, tag::nchw)},
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(1, {a, memory::desc({2, 5, 4, 5}, dt::f32, tag::any)},
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            create(1, {a, memory::desc({2, 5, 4}, dt::f32, tag::abc)}, nullptr),
            dnnl_invalid_arguments);
    primitive_attr mask2;
    mask2.set_scales_mask(DNNL_ARG_MULTIPLE_SRC + 1, 2);
    EXPECT_EQ(create(1, {a, b}, nullptr, mask2), dnnl_unimplemented);
    primitive_attr po_attr;
    post_ops po;
    po.append_sum(1.f);
    po_attr.set_post_ops(po);
    EXPECT_EQ(create(1, {a, b}, nullptr, po_attr), dnnl_unimplemented);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_concat_primitive_desc_create(
                      &pd, eng.get(), nullptr, 2, 1, nullptr, nullptr),
            dnnl_invalid_arguments);
    const_dnnl_memory_desc_t srcs[] = {a.get(), b.get()};
    EXPECT_EQ(dnnl_concat_primitive_desc_create(
                      &pd, eng.get(), nullptr, 0, 1, srcs, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(
                      nullptr, eng.get(), nullptr, 2, 1, srcs, nullptr),
            dnnl_invalid_arguments);
}

// The gpu engine's implementations are tested in tests/ocl/.
TEST(Concat, GpuEngineCreates) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        concat::primitive_desc(eng, 1, {a, a});
    }),
            dnnl_success);
}
