// LRN primitive tests: across / within channels, forward (training with a
// workspace, inference without) and backward (with and without a training
// hint), 0D-3D spatial, odd and even window sizes, f32/bf16/f16, plain,
// channels-last and channel-blocked layouts, the power shortcuts and the
// general power, queries, bad parameters and the gpu engine; compared with
// tests/reference/lrn_ref.*. Data moves between layouts through reorders.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/lrn_ref.hpp"
#include "tensor_glue.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

double tolerance(dt t) {
    return t == dt::f32 ? 2e-5 : t == dt::f16 ? 4e-3 : 2e-2;
}

struct lcase_t {
    algorithm alg;
    memory::dims dims;
    int64_t size = 5;
    float alpha = 1e-1f, beta = 0.75f, k = 1.f;
    dt type = dt::f32;
    tag layout = tag::undef; // undef: plain
};

void run_case(const lcase_t &lc) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const size_t n = count(lc.dims);
    const tag t =
            lc.layout == tag::undef ? plain_tag(lc.dims.size()) : lc.layout;
    const memory::desc md(lc.dims, lc.type, t);
    // Values the primitive sees exactly (rounded to the data type).
    memory src = to_mem(random_f32(n, 3, -3.f, 3.f), md, eng, s);
    const auto x = from_mem(src, eng, s);
    lrn_ref::desc_t rd;
    rd.alg = (dnnl_alg_kind_t)lc.alg;
    rd.mb = lc.dims[0];
    rd.c = lc.dims[1];
    rd.nsp = (int)lc.dims.size() - 2;
    for (int i = 0; i < rd.nsp; ++i) rd.sp[i] = lc.dims[2 + i];
    rd.size = lc.size, rd.alpha = lc.alpha, rd.beta = lc.beta, rd.k = lc.k;

    const memory::desc any(lc.dims, lc.type, tag::any);
    auto fpd = lrn_forward::primitive_desc(eng, prop_kind::forward_training,
            lc.alg, md, any, lc.size, lc.alpha, lc.beta, lc.k);
    ASSERT_EQ(fpd.dst_desc(), md);
    ASSERT_NE(fpd.workspace_desc().get_size(), 0u);
    memory dst(fpd.dst_desc(), eng), ws(fpd.workspace_desc(), eng);
    lrn_forward(fpd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                                        {DNNL_ARG_WORKSPACE, ws}});
    s.wait();
    std::vector<double> ref(n);
    lrn_ref::forward(rd, x.data(), ref.data());
    expect_near(from_mem(dst, eng, s), ref, tolerance(lc.type), "fwd");

    auto ipd = lrn_forward::primitive_desc(eng, prop_kind::forward_inference,
            lc.alg, md, md, lc.size, lc.alpha, lc.beta, lc.k);
    ASSERT_EQ(ipd.workspace_desc().get_size(), 0u);
    memory dst2(md, eng);
    lrn_forward(ipd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst2}});
    s.wait();
    expect_near(from_mem(dst2, eng, s), ref, tolerance(lc.type), "inference");

    // Backward with the training hint (workspace) and without one.
    memory dd = to_mem(random_f32(n, 5, -2.f, 2.f), md, eng, s);
    const auto ddv = from_mem(dd, eng, s);
    std::vector<double> bref(n);
    lrn_ref::backward(rd, x.data(), ddv.data(), bref.data());
    auto bpd = lrn_backward::primitive_desc(
            eng, lc.alg, any, any, md, lc.size, lc.alpha, lc.beta, lc.k, fpd);
    ASSERT_EQ(bpd.workspace_desc(), fpd.workspace_desc());
    ASSERT_EQ(bpd.diff_src_desc(), md);
    memory ds(bpd.diff_src_desc(), eng);
    lrn_backward(bpd).execute(
            s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, dd},
                       {DNNL_ARG_WORKSPACE, ws}, {DNNL_ARG_DIFF_SRC, ds}});
    s.wait();
    expect_near(from_mem(ds, eng, s), bref, tolerance(lc.type), "bwd");

    dnnl_primitive_desc_t raw = nullptr;
    ASSERT_EQ(dnnl_lrn_backward_primitive_desc_create(&raw, eng.get(),
                      (dnnl_alg_kind_t)lc.alg, md.get(), md.get(), md.get(),
                      lc.size, lc.alpha, lc.beta, lc.k, nullptr, nullptr),
            dnnl_success);
    lrn_backward::primitive_desc npd(raw);
    dnnl_primitive_desc_destroy(raw); // the C++ object holds a clone
    ASSERT_EQ(npd.workspace_desc().get_size(), 0u);
    memory ds2(md, eng);
    lrn_backward(npd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, dd},
                                         {DNNL_ARG_DIFF_SRC, ds2}});
    s.wait();
    expect_near(from_mem(ds2, eng, s), bref, tolerance(lc.type),
            "bwd without workspace");
}

const algorithm across = algorithm::lrn_across_channels;
const algorithm within = algorithm::lrn_within_channel;

TEST(Lrn, Across2D) {
    run_case({across, {2, 13, 5, 7}});
}
TEST(Lrn, AcrossEvenSize) {
    run_case({across, {2, 9, 3, 5}, 4});
}
TEST(Lrn, AcrossSize1AndHuge) {
    run_case({across, {1, 6, 4, 3}, 1});
    run_case({across, {1, 6, 4, 3}, 31});
}
TEST(Lrn, AcrossNoSpatial) {
    run_case({across, {3, 17}, 5});
}
TEST(Lrn, Across1D3D) {
    run_case({across, {2, 10, 9}, 3});
    run_case({across, {1, 7, 3, 4, 5}, 5});
}
TEST(Lrn, AcrossBetas) {
    run_case({across, {2, 8, 4, 5}, 5, 0.3f, 1.f, 2.f});
    run_case({across, {2, 8, 4, 5}, 5, 0.3f, 0.5f, 1.5f});
    run_case({across, {2, 8, 4, 5}, 3, 0.7f, 0.6f, 1.f});
}
TEST(Lrn, AcrossChannelsLast) {
    run_case({across, {2, 19, 4, 5}, 5, 0.1f, 0.75f, 1.f, dt::f32, tag::nhwc});
}
TEST(Lrn, AcrossBlocked) {
    run_case(
            {across, {2, 19, 4, 5}, 5, 0.1f, 0.75f, 1.f, dt::f32, tag::nChw8c});
    run_case({across, {1, 35, 3, 3}, 7, 0.1f, 0.75f, 1.f, dt::f32,
            tag::nChw16c});
}
// Enough points per image that the point-row kernels run several chunks
// (and a short last one), with channel counts that fill whole 16-channel
// segments or end in a short one, for every window shape (3 and 5 fused,
// even, wide).
TEST(Lrn, AcrossPointChunks) {
    for (tag t : {tag::nhwc, tag::nChw16c, tag::nChw8c})
        for (int64_t ls : {3, 4, 5, 9}) {
            run_case(
                    {across, {2, 32, 9, 11}, ls, 0.1f, 0.75f, 1.f, dt::f32, t});
            run_case({across, {1, 37, 7, 9}, ls, 0.2f, 0.6f, 2.f, dt::f32, t});
        }
}

// dst in another layout than src, and in-place forward and backward
// (dst = src, diff_src = diff_dst) on the layouts walked point by point.
TEST(Lrn, AcrossMixedRefusedAndInPlace) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::dims dims = {2, 40, 6, 7};
    const size_t n = count(dims);
    lrn_ref::desc_t rd;
    rd.alg = dnnl_lrn_across_channels;
    rd.mb = 2, rd.c = 40, rd.nsp = 2, rd.sp[0] = 6, rd.sp[1] = 7;
    rd.size = 5, rd.alpha = 0.1f, rd.beta = 0.75f, rd.k = 1.f;
    const auto xv = random_f32(n, 11, -3.f, 3.f),
               dv = random_f32(n, 12, -2.f, 2.f);
    std::vector<double> ref(n), bref(n);
    lrn_ref::forward(rd, xv.data(), ref.data());
    lrn_ref::backward(rd, xv.data(), dv.data(), bref.data());
    // dst in another layout than src: refused, as oneDNN's
    // implementations refuse it.
    const std::pair<tag, tag> mixes[] = {{tag::nChw16c, tag::nhwc},
            {tag::nhwc, tag::nChw16c}, {tag::nChw8c, tag::nChw16c}};
    for (const auto &m : mixes) {
        const memory::desc smd(dims, dt::f32, m.first),
                dmd(dims, dt::f32, m.second);
        EXPECT_THROW(lrn_forward::primitive_desc(eng,
                             prop_kind::forward_inference, across, smd, dmd,
                             rd.size, rd.alpha, rd.beta, rd.k),
                dnnl::error);
    }
    for (tag t : {tag::nhwc, tag::nChw16c, tag::nchw}) {
        const memory::desc md(dims, dt::f32, t);
        auto pd = lrn_forward::primitive_desc(eng, prop_kind::forward_training,
                across, md, md, rd.size, rd.alpha, rd.beta, rd.k);
        memory x = to_mem(xv, md, eng, s), ws(pd.workspace_desc(), eng);
        memory y = to_mem(xv, md, eng, s);
        lrn_forward(pd).execute(s, {{DNNL_ARG_SRC, y}, {DNNL_ARG_DST, y},
                                           {DNNL_ARG_WORKSPACE, ws}});
        s.wait();
        expect_near(
                from_mem(y, eng, s), ref, tolerance(dt::f32), "in-place fwd");
        auto bpd = lrn_backward::primitive_desc(
                eng, across, md, md, md, rd.size, rd.alpha, rd.beta, rd.k, pd);
        memory d = to_mem(dv, md, eng, s);
        lrn_backward(bpd).execute(
                s, {{DNNL_ARG_SRC, x}, {DNNL_ARG_DIFF_DST, d},
                           {DNNL_ARG_WORKSPACE, ws}, {DNNL_ARG_DIFF_SRC, d}});
        s.wait();
        expect_near(
                from_mem(d, eng, s), bref, tolerance(dt::f32), "in-place bwd");
    }
}

TEST(Lrn, AcrossLowPrecision) {
    run_case({across, {2, 11, 4, 5}, 5, 0.1f, 0.75f, 1.f, dt::bf16});
    run_case({across, {2, 11, 4, 5}, 5, 0.1f, 0.75f, 1.f, dt::f16, tag::nhwc});
    run_case({across, {2, 21, 3, 3}, 5, 0.1f, 0.75f, 1.f, dt::bf16,
            tag::nChw16c});
}
TEST(Lrn, Within2D) {
    run_case({within, {2, 3, 7, 6}, 3});
    run_case({within, {1, 2, 5, 8}, 4, 0.2f, 0.6f, 1.f});
}
TEST(Lrn, Within1D3D) {
    run_case({within, {2, 3, 11}, 5});
    run_case({within, {1, 2, 4, 5, 6}, 3});
}
TEST(Lrn, WithinOtherLayouts) {
    run_case(
            {within, {1, 19, 5, 6}, 3, 0.1f, 0.75f, 1.f, dt::f32, tag::nChw8c});
    run_case({within, {1, 5, 5, 6}, 3, 0.1f, 0.75f, 1.f, dt::bf16, tag::nhwc});
    run_case({within, {1, 4, 5, 6}, 5, 0.1f, 0.75f, 1.f, dt::f16});
}

TEST(Lrn, Queries) {
    engine eng(engine::kind::cpu, 0);
    memory::desc md({1, 8, 3, 3}, dt::f32, tag::nchw);
    auto pd = lrn_forward::primitive_desc(eng, prop_kind::forward_training,
            across, md, md, 7, 0.25f, 0.5f, 3.f);
    EXPECT_EQ(pd.get_local_size(), 7);
    EXPECT_EQ(pd.get_alpha(), 0.25f);
    EXPECT_EQ(pd.get_beta(), 0.5f);
    EXPECT_EQ(pd.get_k(), 3.f);
    EXPECT_EQ(pd.get_algorithm(), across);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    EXPECT_EQ(pd.src_desc(), md);
    EXPECT_EQ(pd.workspace_desc().get_dims(), md.get_dims());
    auto bpd = lrn_backward::primitive_desc(
            eng, across, md, md, md, 7, 0.25f, 0.5f, 3.f, pd);
    EXPECT_EQ(bpd.diff_dst_desc(), md);
    EXPECT_EQ(bpd.get_prop_kind(), prop_kind::backward_data);
    EXPECT_EQ(bpd.query_md(query::exec_arg_md, DNNL_ARG_WORKSPACE),
            pd.workspace_desc());
}

// Parameters that change the result are part of the cache key.
TEST(Lrn, CacheKeyHasParameters) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc md({1, 4, 2, 2}, dt::f32, tag::nchw);
    memory src = to_mem(std::vector<float>(16, 1.f), md, eng, s);
    float first = 0;
    for (float alpha : {0.5f, 4.f}) {
        auto pd = lrn_forward::primitive_desc(eng, prop_kind::forward_inference,
                across, md, md, 3, alpha, 1.f, 1.f);
        memory dst(md, eng);
        lrn_forward(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        s.wait();
        const float v = static_cast<float *>(dst.get_data_handle())[0];
        if (alpha == 0.5f)
            first = v;
        else
            EXPECT_NE(v, first);
    }
}

TEST(Lrn, BadParameters) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc md({1, 4, 3, 3}, dt::f32, tag::nchw);
    const memory::desc other({1, 5, 3, 3}, dt::f32, tag::nchw);
    const memory::desc any({1, 4, 3, 3}, dt::f32, tag::any);
    const memory::desc b16({1, 4, 3, 3}, dt::bf16, tag::nchw);
    const memory::desc s8({1, 4, 3, 3}, dt::s8, tag::nchw);
    auto fwd = [&](const memory::desc &a, const memory::desc &b, int64_t ls,
                       const primitive_attr &at = primitive_attr()) {
        return status_of([&] {
            lrn_forward::primitive_desc(eng, prop_kind::forward_training,
                    across, a, b, ls, 1e-4f, 0.75f, 1.f, at);
        });
    };
    EXPECT_EQ(fwd(md, md, 5), dnnl_success);
    EXPECT_EQ(fwd(md, other, 5), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(md, md, -1), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(any, any, 5), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(md, b16, 5), dnnl_unimplemented);
    EXPECT_EQ(fwd(s8, s8, 5), dnnl_unimplemented);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr at;
    at.set_post_ops(po);
    EXPECT_EQ(fwd(md, md, 5, at), dnnl_unimplemented);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_backward_data, dnnl_lrn_across_channels, md.get(),
                      md.get(), 5, 1.f, 1.f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_eltwise_relu, md.get(),
                      md.get(), 5, 1.f, 1.f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_lrn_across_channels, nullptr,
                      md.get(), 5, 1.f, 1.f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_backward_primitive_desc_create(&pd, eng.get(),
                      dnnl_lrn_within_channel, md.get(), other.get(), md.get(),
                      5, 1.f, 1.f, 1.f, nullptr, nullptr),
            dnnl_invalid_arguments);
    // A hint of another primitive kind.
    auto epd = eltwise_forward::primitive_desc(eng, prop_kind::forward_training,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
    EXPECT_EQ(dnnl_lrn_backward_primitive_desc_create(&pd, eng.get(),
                      dnnl_lrn_within_channel, md.get(), md.get(), md.get(), 5,
                      1.f, 1.f, 1.f, epd.get(), nullptr),
            dnnl_invalid_arguments);
    // Missing workspace at execution.
    stream s(eng);
    auto tpd = lrn_forward::primitive_desc(eng, prop_kind::forward_training,
            across, md, md, 5, 1e-4f, 0.75f, 1.f);
    memory a(md, eng), b(md, eng);
    EXPECT_NE(status_of([&] {
        lrn_forward(tpd).execute(s, {{DNNL_ARG_SRC, a}, {DNNL_ARG_DST, b}});
    }),
            dnnl_success);
}

// The gpu engine has its own implementation (tests/ocl/test_ocl_lrn.cpp
// checks its results).
TEST(Lrn, GpuEngineHasAnImplementation) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc md({1, 4, 3, 3}, dt::f32, tag::nchw);
    lrn_forward::primitive_desc pd(eng, prop_kind::forward_training, across, md,
            md, 5, 1e-4f, 0.75f, 1.f);
    EXPECT_EQ(std::string(pd.impl_info_str()).rfind("ocl:", 0), 0u);
    dnnl_primitive_desc_t bpd = nullptr;
    EXPECT_EQ(dnnl_lrn_backward_primitive_desc_create(&bpd, eng.get(),
                      dnnl_lrn_within_channel, md.get(), md.get(), md.get(), 5,
                      1.f, 1.f, 1.f, nullptr, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(bpd);
}

} // namespace
