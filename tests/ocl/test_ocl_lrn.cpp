// LRN on the gpu engine against the naive reference: across and within
// channels, odd and even sizes, 0 to 3 spatial dims, forward (training
// with workspace, inference) and backward (with the workspace, or
// recomputing without it), plain / channels-last / blocked (padded) /
// doubly blocked layouts, f32 / bf16 / f16, kernel-cache reuse across
// shapes and rejected configurations.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "ocl_unit_geometry.hpp"
#include "reference/lrn_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

struct lcase_t {
    algorithm alg = algorithm::lrn_across_channels;
    memory::dims dims;
    int64_t size = 5;
    float alpha = 0.5f, beta = 0.75f, k = 2.f;
    tag t = tag::undef; // undef: plain
    dt d = dt::f32;
    // Backward: with the training hint's workspace, or from an inference
    // hint (window terms recomputed); none: forward only.
    enum { with_ws, recompute, none } bwd = with_ws;
};

ref::tolerance_t tol_of(dt d, bool bwd) {
    ref::tolerance_t t;
    t.rel = d == dt::f32    ? (bwd ? 1e-4 : 1e-5)
            : d == dt::bf16 ? 1.0 / 64
                            : 1.0 / 256;
    t.abs = d == dt::f32 ? (bwd ? 1e-4 : 1e-6) : t.rel;
    t.ulps = 1;
    return t;
}

lrn_ref::desc_t ref_desc(const lcase_t &c) {
    lrn_ref::desc_t r;
    r.alg = (dnnl_alg_kind_t)c.alg;
    r.mb = c.dims[0];
    r.c = c.dims[1];
    r.nsp = (int)c.dims.size() - 2;
    for (int i = 0; i < r.nsp; ++i) r.sp[i] = c.dims[2 + i];
    r.size = c.size;
    r.alpha = c.alpha;
    r.beta = c.beta;
    r.k = c.k;
    return r;
}

std::string run_case(const lcase_t &c, unsigned seed) {
    stream strm(gpu());
    const tag t = c.t == tag::undef ? plain_tag(c.dims.size()) : c.t;
    const memory::desc md(c.dims, c.d, t), any(c.dims, c.d, tag::any);
    const bool training = c.bwd == lcase_t::with_ws;
    lrn_forward::primitive_desc fpd(gpu(),
            training ? prop_kind::forward_training
                     : prop_kind::forward_inference,
            c.alg, md, any, c.size, c.alpha, c.beta, c.k);
    EXPECT_EQ(fpd.dst_desc(), md);
    EXPECT_EQ(fpd.workspace_desc().get_size() != 0, training);
    std::mt19937 gen(seed);
    const int64_t n = count(c.dims);
    const auto sv = random_values(n, c.d, gen, -2, 2);
    const std::vector<float> sf(sv.begin(), sv.end());
    memory src = to_memory(gpu(), md, sv, 0x7f);
    memory dst = to_memory(gpu(), fpd.dst_desc(), std::vector<double>(n, 5.0));
    fill_padding(dst, 3.0);
    memory ws(fpd.workspace_desc(), gpu());
    lrn_forward(fpd).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                                           {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    const lrn_ref::desc_t rd = ref_desc(c);
    std::vector<double> exp(n);
    lrn_ref::forward(rd, sf.data(), exp.data());
    EXPECT_TRUE(matches(from_memory(dst), exp, c.d, tol_of(c.d, false)))
            << "fwd " << fpd.impl_info_str() << " " << describe(md);
    EXPECT_TRUE(padding_is_zero(dst)) << "dst padding";
    if (c.bwd == lcase_t::none) return fpd.impl_info_str();

    lrn_backward::primitive_desc bpd(
            gpu(), c.alg, any, any, md, c.size, c.alpha, c.beta, c.k, fpd);
    EXPECT_EQ(bpd.diff_src_desc(), md);
    EXPECT_EQ(bpd.workspace_desc().get_size() != 0, training);
    const auto dv = random_values(n, c.d, gen, -2, 2);
    const std::vector<float> df(dv.begin(), dv.end());
    memory ddst = to_memory(gpu(), bpd.diff_dst_desc(), dv, 0x7f);
    memory dsrc =
            to_memory(gpu(), bpd.diff_src_desc(), std::vector<double>(n, 9.0));
    fill_padding(dsrc, 3.0);
    lrn_backward(bpd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, ddst},
                          {DNNL_ARG_DIFF_SRC, dsrc}, {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    std::vector<double> bexp(n);
    lrn_ref::backward(rd, sf.data(), df.data(), bexp.data());
    EXPECT_TRUE(matches(from_memory(dsrc), bexp, c.d, tol_of(c.d, true)))
            << "bwd " << bpd.impl_info_str() << " " << describe(md);
    EXPECT_TRUE(padding_is_zero(dsrc)) << "diff_src padding";
    return fpd.impl_info_str();
}

lcase_t make(
        algorithm alg, memory::dims dims, int64_t size, tag t = tag::undef) {
    lcase_t c;
    c.alg = alg;
    c.dims = dims;
    c.size = size;
    c.t = t;
    return c;
}

class ocl_lrn : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

const algorithm across = algorithm::lrn_across_channels;
const algorithm within = algorithm::lrn_within_channel;

} // namespace

TEST_F(ocl_lrn, across_channels) {
    run_case(make(across, {2, 7, 3, 4}, 5), 1);
    run_case(make(across, {2, 6, 5}, 4), 2); // even size, 1D
    run_case(make(across, {3, 9}, 3), 3);    // no spatial dims
    run_case(make(across, {1, 19, 3, 2}, 5, tag::nhwc), 4);
    run_case(make(across, {2, 19, 3, 2}, 3, tag::nChw16c), 5);
    lcase_t r = make(across, {2, 5, 3, 3}, 5);
    r.bwd = lcase_t::recompute;
    run_case(r, 6);
}

// Forward across channels over contiguous planes: four-wide vectors or
// single points, channel blocks with halos (GPU geometry), every window
// size up to the largest the kernel compiles, bf16, and the workspace it
// writes read back by the backward pass, which walks the planes too.
TEST_F(ocl_lrn, across_channels_over_planes) {
    EXPECT_EQ(run_case(make(across, {2, 7, 3, 4}, 5), 41), "ocl:lrn:planes");
    EXPECT_EQ(run_case(make(across, {2, 6, 5}, 4), 42), "ocl:lrn:planes");
    EXPECT_EQ(run_case(make(across, {3, 9}, 3), 43), "ocl:lrn:planes");
    gpu_geometry_t g;
    for (int64_t size : {1, 2, 5, 7, 16}) {
        lcase_t c = make(across, {2, 40, 4, 4}, size);
        c.bwd = lcase_t::with_ws;
        EXPECT_EQ(run_case(c, 44 + (unsigned)size), "ocl:lrn:planes");
    }
    // Backward over the planes too (with the workspace; blocks of
    // channels with halos above, whole planes here, single points).
    run_case(make(across, {3, 21, 5, 3}, 5), 63);
    run_case(make(across, {2, 11, 6}, 3), 64);
    {
        const memory::desc md({2, 8, 4, 4}, dt::f32, tag::nchw);
        lrn_forward::primitive_desc f(gpu(), prop_kind::forward_training,
                across, md, md, 5, 1e-4f, 0.75f, 1.f);
        lrn_backward::primitive_desc b(
                gpu(), across, md, md, md, 5, 1e-4f, 0.75f, 1.f, f);
        EXPECT_EQ(std::string(b.impl_info_str()), "ocl:lrn:planes");
    }
    lcase_t h = make(across, {2, 37, 3, 5}, 5);
    h.d = dt::bf16;
    EXPECT_EQ(run_case(h, 61), "ocl:lrn:planes");
    // Wider than the kernel's window: the generic kernel.
    lcase_t w = make(across, {1, 40, 2, 2}, 17);
    w.bwd = lcase_t::none;
    EXPECT_EQ(run_case(w, 62), "ocl:lrn:blocked");
}

TEST_F(ocl_lrn, within_channel) {
    run_case(make(within, {2, 3, 5, 6}, 3), 11);
    run_case(make(within, {1, 2, 4, 5, 6}, 3, tag::ndhwc), 12);
    run_case(make(within, {2, 3, 9}, 4), 13); // even size, 1D
    lcase_t b = make(within, {2, 19, 4, 5}, 3, tag::nChw8c);
    b.bwd = lcase_t::recompute;
    run_case(b, 14);
}

TEST_F(ocl_lrn, layout_t_path_and_data_types) {
    EXPECT_EQ(run_case(make(across, {2, 19, 3, 2}, 5, tag::ABcd8b16a2b), 21),
            "ocl:lrn:any");
    lcase_t h = make(across, {2, 8, 3, 4}, 5, tag::nhwc);
    h.d = dt::bf16;
    run_case(h, 22);
    lcase_t f = make(within, {2, 3, 5, 4}, 3);
    f.d = dt::f16;
    run_case(f, 23);
}

TEST_F(ocl_lrn, new_shape_builds_no_program) {
    run_case(make(across, {2, 7, 3, 4}, 5), 31);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    // The window's size is compiled into the planes kernel; the factors
    // are not.
    lcase_t c = make(across, {3, 10, 6, 2}, 5);
    c.alpha = 0.25f;
    c.beta = 0.5f;
    c.k = 1.5f;
    run_case(c, 32);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_GT(after.hits, before.hits);
}

TEST_F(ocl_lrn, rejects_unsupported_and_bad_arguments) {
    const memory::desc md({2, 4, 3, 3}, dt::f32, tag::nchw);
    auto fwd = [&](const memory::desc &s, const memory::desc &d,
                       const primitive_attr &a) {
        return status_of([&] {
            lrn_forward::primitive_desc(gpu(), prop_kind::forward_inference,
                    across, s, d, 5, 1e-4f, 0.75f, 1.f, a);
        });
    };
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr pa;
    pa.set_post_ops(po);
    EXPECT_EQ(fwd(md, md, pa), dnnl_unimplemented);
    const memory::desc s8({2, 4, 3, 3}, dt::s8, tag::nchw);
    EXPECT_EQ(fwd(s8, s8, primitive_attr()), dnnl_unimplemented);
    const memory::desc bf({2, 4, 3, 3}, dt::bf16, tag::nchw);
    EXPECT_EQ(fwd(md, bf, primitive_attr()), dnnl_unimplemented);
    const memory::desc six({2, 4, 2, 2, 2, 2}, dt::f32, tag::abcdef);
    EXPECT_EQ(fwd(six, six, primitive_attr()), dnnl_unimplemented);
    const memory::desc other({2, 4, 3, 4}, dt::f32, tag::nchw);
    EXPECT_EQ(fwd(md, other, primitive_attr()), dnnl_invalid_arguments);
    // Backward without its workspace at execution: an error, no crash.
    lrn_forward::primitive_desc hint(gpu(), prop_kind::forward_training, across,
            md, md, 5, 1e-4f, 0.75f, 1.f);
    lrn_backward::primitive_desc bpd(
            gpu(), across, md, md, md, 5, 1e-4f, 0.75f, 1.f, hint);
    memory a(md, gpu()), b(md, gpu()), c(md, gpu());
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, a.get()},
            {DNNL_ARG_DIFF_DST, b.get()}, {DNNL_ARG_DIFF_SRC, c.get()}};
    stream strm(gpu());
    EXPECT_EQ(dnnl_primitive_execute(
                      lrn_backward(bpd).get(), strm.get(), 3, args),
            dnnl_invalid_arguments);
}

#endif
