// Shuffle primitive tests: forward and backward, every axis and group size
// dividing it, plain / channels-last / blocked layouts with padding, data
// types of every size, the backward descriptor's use of the forward hint
// (layout, and its place in the primitive cache key), queries, bad
// parameters and the gpu engine; compared with tests/reference/shuffle_ref.*.
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

#include "reference/shuffle_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

// Forward then backward of one problem: dst = shuffle(src, G) and
// diff_src = shuffle(diff_dst, C / G).
void check(const memory::desc &src, const memory::desc &dst, int axis,
        memory::dim group, unsigned seed = 1) {
    SCOPED_TRACE("axis " + std::to_string(axis) + " group "
                 + std::to_string(group) + " src " + describe(src) + " dst "
                 + describe(dst));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const auto dims = dims_of(src);
    const dt d = src.get_data_type();
    const auto sv = random_values(count(dims), d, gen);
    shuffle_forward::primitive_desc fwd(
            eng, prop_kind::forward_training, src, dst, axis, group);
    EXPECT_EQ(fwd.get_axis(), axis);
    EXPECT_EQ(fwd.get_group_size(), group);
    const auto expected = shuffle_ref::compute(sv, dims, axis, group);
    for_each_impl(fwd, [&](const shuffle_forward::primitive_desc &ipd) {
        memory ms = to_memory(eng, src, sv), md(ipd.dst_desc(), eng);
        fill_padding(md, 3);
        shuffle_forward(ipd).execute(
                strm, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(md), expected, d,
                ref::exact_tolerance((dnnl_data_type_t)d)));
        EXPECT_TRUE(padding_is_zero(md));
    });
    const memory::desc any(src.get_dims(), d, tag::any);
    shuffle_backward::primitive_desc bwd(eng, any, any, axis, group, fwd);
    // diff_src follows the hint's dst, diff_dst follows diff_src.
    EXPECT_EQ(bwd.diff_src_desc(), fwd.dst_desc());
    EXPECT_EQ(bwd.diff_dst_desc(), fwd.dst_desc());
    const auto ddv = random_values(count(dims), d, gen);
    const auto bexp = shuffle_ref::compute(ddv, dims, axis, dims[axis] / group);
    for_each_impl(bwd, [&](const shuffle_backward::primitive_desc &ipd) {
        memory mdd = to_memory(eng, ipd.diff_dst_desc(), ddv),
               mds(ipd.diff_src_desc(), eng);
        fill_padding(mds, 3);
        shuffle_backward(ipd).execute(
                strm, {{DNNL_ARG_DIFF_DST, mdd}, {DNNL_ARG_DIFF_SRC, mds}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(mds), bexp, d,
                ref::exact_tolerance((dnnl_data_type_t)d)));
        EXPECT_TRUE(padding_is_zero(mds));
    });
}

} // namespace

TEST(Shuffle, AxesGroupsAndLayouts) {
    const memory::dims d = {2, 12, 6, 4};
    for (int axis = 0; axis < 4; ++axis)
        for (memory::dim g = 1; g <= d[axis]; ++g) {
            if (d[axis] % g) continue;
            for (tag t : {tag::nchw, tag::nhwc, tag::nChw8c})
                check(memory::desc(d, dt::f32, t),
                        memory::desc(d, dt::f32, tag::any), axis, g);
        }
}

TEST(Shuffle, PaddedBlockedLayouts) {
    const memory::dims d = {3, 18, 5, 7};
    for (int axis : {1, 2, 3})
        for (memory::dim g : {3, 6}) {
            if (d[axis] % g) continue;
            check(memory::desc(d, dt::f32, tag::nChw16c),
                    memory::desc(d, dt::f32, tag::nChw16c), axis, g, 3);
            check(memory::desc(d, dt::f32, tag::nChw8c),
                    memory::desc(d, dt::f32, tag::nChw8c), axis, g, 3);
        }
    // dst in another layout or type than src: refused, as oneDNN does.
    engine eng(engine::kind::cpu, 0);
    EXPECT_THROW(shuffle_forward::primitive_desc(eng,
                         prop_kind::forward_training,
                         memory::desc(d, dt::f32, tag::nchw),
                         memory::desc(d, dt::f32, tag::nhwc), 1, 3),
            dnnl::error);
    EXPECT_THROW(shuffle_forward::primitive_desc(eng,
                         prop_kind::forward_training,
                         memory::desc(d, dt::f32, tag::nchw),
                         memory::desc(d, dt::bf16, tag::nchw), 1, 3),
            dnnl::error);
}

TEST(Shuffle, DataTypesAndRanks) {
    for (dt t : {dt::bf16, dt::f16, dt::s8, dt::u8, dt::s32})
        check(memory::desc({2, 12, 6, 4}, t, tag::nchw),
                memory::desc({2, 12, 6, 4}, t, tag::any), 1, 4, 5);
    check(memory::desc({24}, dt::f32, tag::a),
            memory::desc({24}, dt::f32, tag::a), 0, 6, 7);
    check(memory::desc({10, 24}, dt::f32, tag::ab),
            memory::desc({10, 24}, dt::f32, tag::ab), 1, 2, 7);
    check(memory::desc({10, 24}, dt::f32, tag::ab),
            memory::desc({10, 24}, dt::f32, tag::ab), 0, 5, 7);
    check(memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::ncdhw),
            memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::any), 1, 3, 7);
    check(memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::ndhwc),
            memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::any), 2, 3, 7);
}

TEST(Shuffle, BackwardHintIsPartOfTheCacheKey) {
    engine eng(engine::kind::cpu, 0);
    const memory::dims d = {2, 6, 4, 5};
    const memory::desc any(d, dt::f32, tag::any);
    shuffle_forward::primitive_desc f1(eng, prop_kind::forward_training,
            memory::desc(d, dt::f32, tag::nchw), any, 1, 3);
    shuffle_forward::primitive_desc f2(eng, prop_kind::forward_training,
            memory::desc(d, dt::f32, tag::nhwc), any, 1, 3);
    shuffle_backward::primitive_desc b1(eng, any, any, 1, 3, f1);
    shuffle_backward::primitive_desc b2(eng, any, any, 1, 3, f2);
    EXPECT_EQ(b1.diff_src_desc(), memory::desc(d, dt::f32, tag::nchw));
    EXPECT_EQ(b2.diff_src_desc(), memory::desc(d, dt::f32, tag::nhwc));
    // Same operation descriptor, different hints: different primitives,
    // each with its descriptor's layouts.
    shuffle_backward p1(b1), p2(b2);
    auto diff_src_of = [](const shuffle_backward &p) {
        return dnnl_primitive_desc_query_md(
                p.get_primitive_desc(), dnnl_query_diff_src_md, 0);
    };
    EXPECT_EQ(dnnl_memory_desc_equal(diff_src_of(p1), b1.diff_src_desc().get()),
            1);
    EXPECT_EQ(dnnl_memory_desc_equal(diff_src_of(p2), b2.diff_src_desc().get()),
            1);
    // Without a hint an `any` diff_src is plain.
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_shuffle_backward_primitive_desc_create(&pd, eng.get(),
                      any.get(), any.get(), 1, 3, nullptr, nullptr),
            dnnl_success);
    shuffle_backward::primitive_desc b3(pd);
    dnnl_primitive_desc_destroy(pd); // the C++ object holds a clone
    EXPECT_EQ(b3.diff_src_desc(), memory::desc(d, dt::f32, tag::nchw));
    EXPECT_EQ(b3.get_prop_kind(), prop_kind::backward_data);
    // Repeated creation with the same hint gives equal descriptors.
    shuffle_backward::primitive_desc b4(eng, any, any, 1, 3, f2);
    EXPECT_EQ(b4.diff_dst_desc(), b2.diff_dst_desc());
}

TEST(Shuffle, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a({2, 6, 4, 5}, dt::f32, tag::nchw);
    auto fwd = [&](const memory::desc &s, const memory::desc &d, int axis,
                       memory::dim g,
                       prop_kind pk = prop_kind::forward_training) {
        return status_of([&] {
            shuffle_forward::primitive_desc(eng, pk, s, d, axis, g);
        });
    };
    EXPECT_EQ(fwd(a, a, 1, 3), dnnl_success);
    EXPECT_EQ(fwd(a, a, 1, 4), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 1, 0), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 1, -2), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 1, 12), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 4, 1), dnnl_invalid_arguments);
    EXPECT_EQ(
            fwd(a, a, 1, 3, prop_kind::backward_data), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({2, 6, 4, 6}, dt::f32, tag::nchw), 1, 3),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(memory::desc({2, 6, 4, 5}, dt::f32, tag::any), a, 1, 3),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({2, 6, 4, 5}, dt::bf16, tag::nchw), 1, 3),
            dnnl_unimplemented);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(status_of([&] {
        shuffle_forward::primitive_desc(
                eng, prop_kind::forward_training, a, a, 1, 3, attr);
    }),
            dnnl_unimplemented);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, nullptr, a.get(), 1, 3, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_shuffle_backward_primitive_desc_create(
                      &pd, eng.get(), a.get(), nullptr, 1, 3, nullptr, nullptr),
            dnnl_invalid_arguments);
}

// The gpu engine has its own implementation (tests/ocl/test_ocl_shuffle.cpp
// checks its results).
TEST(Shuffle, GpuEngineHasAnImplementation) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a({2, 6, 4, 5}, dt::f32, tag::nchw);
    shuffle_forward::primitive_desc pd(
            eng, prop_kind::forward_training, a, a, 1, 3);
    EXPECT_EQ(std::string(pd.impl_info_str()).rfind("ocl:", 0), 0u);
}
