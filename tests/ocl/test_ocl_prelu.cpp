// PReLU on the gpu engine against the naive reference: weights broadcast
// as a scalar, per channel, over any subset of dims or not at all,
// forward and backward (diff_weights reduced serially for small
// reductions, by one work-group per weight, or by several work-groups and
// a second pass), plain / channels-last / blocked (padded) / doubly blocked
// layouts, 1D to 6D, f32 / bf16 / f16 and integer forward, an empty batch,
// kernel-cache reuse across shapes and rejected configurations.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "reference/prelu_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

struct case_t {
    memory::dims dims, wdims, dwdims; // dwdims empty: wdims
    tag t = tag::undef;               // undef: plain
    tag wt = tag::any;
    dt d = dt::f32, wd = dt::f32;
    bool bwd = true;
};

ref::tolerance_t tol_of(dt d) {
    ref::tolerance_t t;
    t.rel = d == dt::f32 ? 1e-6 : d == dt::bf16 ? 1.0 / 128 : 1.0 / 1024;
    t.abs = d == dt::f32 ? 1e-6 : t.rel;
    t.ulps = 1;
    return t;
}

std::vector<int64_t> v64(const memory::dims &d) {
    return std::vector<int64_t>(d.begin(), d.end());
}

std::string run_case(const case_t &c, unsigned seed) {
    stream strm(gpu());
    const tag t = c.t == tag::undef ? plain_tag(c.dims.size()) : c.t;
    const memory::desc smd(c.dims, c.d, t), wmd(c.wdims, c.wd, c.wt),
            dmd(c.dims, c.d, tag::any);
    prelu_forward::primitive_desc fpd(
            gpu(), prop_kind::forward_training, smd, wmd, dmd);
    EXPECT_EQ(fpd.dst_desc(), smd);
    std::mt19937 gen(seed);
    const int64_t n = count(v64(c.dims)), nw = count(v64(c.wdims));
    const double lo = c.d == dt::u8 ? 0 : -8;
    memory src = to_memory(gpu(), smd, random_values(n, c.d, gen, lo, 8), 0x7f);
    memory wei = to_memory(gpu(), fpd.weights_desc(),
            random_values(nw, c.wd, gen, -2, 2), 0x7f);
    memory dst = to_memory(gpu(), fpd.dst_desc(), std::vector<double>(n, 5));
    fill_padding(dst, 3.0);
    prelu_forward(fpd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                          {DNNL_ARG_DST, dst}});
    strm.wait();
    const auto sv = from_memory(src), wv = from_memory(wei);
    const std::string what = std::string(fpd.impl_info_str()) + " "
                             + describe(smd) + " w "
                             + describe(fpd.weights_desc());
    EXPECT_TRUE(matches(from_memory(dst),
            prelu_ref::forward(sv, v64(c.dims), wv, v64(c.wdims)), c.d,
            tol_of(c.d)))
            << "fwd " << what;
    EXPECT_TRUE(padding_is_zero(dst)) << "dst padding " << what;
    if (!c.bwd) return fpd.impl_info_str();

    const memory::dims dwdims = c.dwdims.empty() ? c.wdims : c.dwdims;
    const memory::desc any(c.dims, c.d, tag::any), dwmd(dwdims, c.wd, tag::any);
    prelu_backward::primitive_desc bpd(
            gpu(), smd, fpd.weights_desc(), any, dwmd, any, fpd);
    memory ddst = to_memory(gpu(), bpd.diff_dst_desc(),
            random_values(n, c.d, gen, -4, 4), 0x7f);
    memory dsrc =
            to_memory(gpu(), bpd.diff_src_desc(), std::vector<double>(n, 9));
    memory dw = to_memory(gpu(), bpd.diff_weights_desc(),
            std::vector<double>(count(v64(dwdims)), 9));
    fill_padding(dsrc, 3.0);
    fill_padding(dw, 3.0);
    prelu_backward(bpd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                          {DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc},
                          {DNNL_ARG_DIFF_WEIGHTS, dw}});
    strm.wait();
    std::vector<double> ds_exp, dw_exp;
    prelu_ref::backward(sv, v64(c.dims), wv, v64(c.wdims), from_memory(ddst),
            v64(dwdims), ds_exp, dw_exp);
    EXPECT_TRUE(matches(from_memory(dsrc), ds_exp, c.d, tol_of(c.d)))
            << "diff_src " << what;
    EXPECT_TRUE(matches(from_memory(dw), dw_exp, c.wd, tol_of(c.wd)))
            << "diff_weights " << what << " dw " << describe(dw.get_desc());
    EXPECT_TRUE(padding_is_zero(dsrc)) << "diff_src padding";
    EXPECT_TRUE(padding_is_zero(dw)) << "diff_weights padding";
    return fpd.impl_info_str();
}

case_t make(memory::dims d, memory::dims w, tag t = tag::undef) {
    case_t c;
    c.dims = d;
    c.wdims = w;
    c.t = t;
    return c;
}

class ocl_prelu : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

} // namespace

TEST_F(ocl_prelu, broadcasts) {
    const memory::dims d = {2, 19, 3, 5};
    unsigned seed = 1;
    run_case(make(d, {1, 1, 1, 1}), seed++);  // scalar
    run_case(make(d, {1, 19, 1, 1}), seed++); // per channel
    run_case(make(d, {1, 1, 3, 5}), seed++);  // spatial
    run_case(make(d, {2, 1, 3, 1}), seed++);  // a mixed subset
    run_case(make(d, d), seed++);             // full
    // diff_weights broadcast differently from the weights.
    case_t c = make(d, {1, 19, 1, 1});
    c.dwdims = {1, 1, 1, 1};
    run_case(c, seed++);
    run_case(make({70}, {1}), seed++);
    run_case(make({2, 3, 2, 4, 3, 5}, {1, 3, 1, 4, 1, 1}), seed++);
}

TEST_F(ocl_prelu, reductions) {
    unsigned seed = 11;
    // Per channel over 4 x 16 x 16: one work-group per channel; scalar:
    // several work-groups and the second pass; full weights: serial.
    run_case(make({4, 8, 16, 16}, {1, 8, 1, 1}), seed++);
    run_case(make({4, 8, 16, 16}, {1, 1, 1, 1}), seed++);
    run_case(make({4, 8, 16, 16}, {1, 8, 16, 1}), seed++);
    case_t ch = make({3, 32, 9, 7}, {1, 32, 1, 1}, tag::nhwc);
    run_case(ch, seed++);
    // The two-pass reduction keeps its partial sums in the scratchpad.
    const memory::desc s({4, 8, 16, 16}, dt::f32, tag::nchw),
            w({1, 1, 1, 1}, dt::f32, tag::nchw);
    prelu_forward::primitive_desc fpd(
            gpu(), prop_kind::forward_training, s, w, s);
    prelu_backward::primitive_desc bpd(gpu(), s, w, s, w, s, fpd);
    EXPECT_GT(bpd.scratchpad_desc().get_size(), 0u);
}

TEST_F(ocl_prelu, layouts_and_data_types) {
    unsigned seed = 21;
    run_case(make({2, 16, 3, 5}, {1, 16, 1, 1}, tag::nhwc), seed++);
    run_case(make({2, 16, 3, 5}, {2, 16, 3, 5}, tag::nhwc), seed++);
    run_case(make({2, 19, 3, 5}, {1, 19, 1, 1}, tag::nChw16c), seed++);
    case_t w = make({2, 19, 3, 5}, {1, 19, 1, 1}, tag::nChw16c);
    w.wt = tag::nchw; // weights in another layout than src
    run_case(w, seed++);
    EXPECT_EQ(run_case(make({2, 19, 3, 5}, {2, 19, 1, 1}, tag::ABcd8b16a2b),
                      seed++),
            "ocl:prelu:any");
    case_t b = make({2, 16, 3, 5}, {1, 16, 1, 1}, tag::nhwc);
    b.d = b.wd = dt::bf16;
    run_case(b, seed++);
    case_t h = make({2, 5, 3, 5}, {1, 5, 3, 5});
    h.d = dt::f16;
    run_case(h, seed++);
    case_t s = make({2, 16, 3, 5}, {1, 16, 1, 1}, tag::nhwc);
    s.d = dt::s8;
    s.bwd = false;
    run_case(s, seed++);
    case_t e5 = make({2, 16, 3, 5}, {1, 16, 1, 1}, tag::nhwc);
    e5.d = dt::f8_e5m2;
    run_case(e5, seed++);
    case_t e4 = make({2, 5, 3, 5}, {1, 5, 3, 5});
    e4.d = e4.wd = dt::f8_e4m3;
    run_case(e4, seed++);
    // More dims than layout_t holds: merged where the weights broadcast
    // alike.
    run_case(make({2, 3, 2, 3, 2, 3, 2}, {1, 3, 1, 1, 1, 1, 1}), seed++);
    run_case(make({2, 3, 2, 3, 2, 3, 2}, {2, 3, 2, 3, 2, 3, 2}), seed++);
    run_case(make({2, 3, 2, 3, 2, 3, 2, 2}, {1, 1, 2, 3, 1, 1, 1, 2}),
            seed++);
}

// Per-channel weights over contiguous planes of whole vectors: forward,
// and backward with diff_src and diff_weights in one pass, images in
// chunks (several chunks a channel: partial sums added by a second
// kernel; one chunk), 3D to 5D, bf16 data, weights in another data type,
// s8 forward.
TEST_F(ocl_prelu, per_channel_planes) {
    unsigned seed = 61;
    run_case(make({4, 8, 16, 16}, {1, 8, 1, 1}), seed++);
    run_case(make({2, 64, 2, 2}, {1, 64, 1, 1}), seed++);
    run_case(make({3, 4, 12}, {1, 4, 1}), seed++);
    run_case(make({2, 3, 2, 4, 4}, {1, 3, 1, 1, 1}), seed++);
    case_t b = make({5, 6, 4, 4}, {1, 6, 1, 1});
    b.d = dt::bf16;
    run_case(b, seed++);
    case_t h = make({5, 6, 4, 4}, {1, 6, 1, 1});
    h.d = dt::f16;
    h.wd = dt::bf16;
    run_case(h, seed++);
    const memory::desc md({2, 8, 4, 4}, dt::f32, tag::nchw),
            wmd({1, 8, 1, 1}, dt::f32, tag::nchw);
    prelu_forward::primitive_desc f(
            gpu(), prop_kind::forward_training, md, wmd, md);
    prelu_backward::primitive_desc b2(gpu(), md, wmd, md, wmd, md, f);
    EXPECT_EQ(std::string(b2.impl_info_str()), "ocl:prelu:planes");
    // The forward walks the same planes (integer data too).
    EXPECT_EQ(std::string(f.impl_info_str()), "ocl:prelu:planes");
    case_t i8 = make({3, 5, 2, 6}, {1, 5, 1, 1});
    i8.d = dt::s8;
    i8.bwd = false;
    EXPECT_EQ(run_case(i8, seed++), "ocl:prelu:planes");
    case_t e5 = make({5, 6, 4, 4}, {1, 6, 1, 1});
    e5.d = dt::f8_e5m2;
    e5.wd = dt::f8_e4m3;
    EXPECT_EQ(run_case(e5, seed++), "ocl:prelu:planes");
}

TEST_F(ocl_prelu, empty_batch_gives_zero_diff_weights) {
    stream strm(gpu());
    const memory::desc s({0, 4, 2, 2}, dt::f32, tag::nchw),
            w({1, 4, 1, 1}, dt::f32, tag::nchw);
    prelu_forward::primitive_desc fpd(
            gpu(), prop_kind::forward_training, s, w, s);
    prelu_backward::primitive_desc bpd(gpu(), s, w, s, w, s, fpd);
    memory sm(s, gpu()), dm(s, gpu()), gm(s, gpu());
    memory wm = to_memory(gpu(), w, {1, 2, 3, 4});
    memory dwm = to_memory(gpu(), w, {9, 9, 9, 9});
    prelu_backward(bpd).execute(
            strm, {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wm},
                          {DNNL_ARG_DIFF_DST, gm}, {DNNL_ARG_DIFF_SRC, dm},
                          {DNNL_ARG_DIFF_WEIGHTS, dwm}});
    strm.wait();
    EXPECT_EQ(from_memory(dwm), std::vector<double>(4, 0.0));
}

TEST_F(ocl_prelu, new_shape_builds_no_program) {
    // Planes that are not whole vectors (the generic kernels), then
    // contiguous planes of whole vectors (the planes kernel): a new shape
    // of either kind reuses its program.
    const std::pair<memory::dims, memory::dims> shapes[][2] = {
            {{{2, 7, 3, 5}, {1, 7, 1, 1}}, {{3, 5, 3, 7}, {1, 5, 1, 1}}},
            {{{2, 8, 4, 4}, {1, 8, 1, 1}}, {{3, 5, 4, 9}, {1, 5, 1, 1}}}};
    unsigned seed = 31;
    for (const auto &pair : shapes) {
        run_case(make(pair[0].first, pair[0].second), seed++);
        dnnl_ext_kernel_cache_stats_t before{}, after{};
        ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
        run_case(make(pair[1].first, pair[1].second), seed++);
        ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
        EXPECT_EQ(after.misses, before.misses);
        EXPECT_GT(after.hits, before.hits);
    }
}

TEST_F(ocl_prelu, rejects_unsupported_and_bad_arguments) {
    const memory::desc s({2, 4, 3, 3}, dt::f32, tag::nchw),
            w({1, 4, 1, 1}, dt::f32, tag::nchw);
    prelu_forward::primitive_desc hint(
            gpu(), prop_kind::forward_training, s, w, s);
    const memory::desc s8({2, 4, 3, 3}, dt::s8, tag::nchw);
    EXPECT_EQ(status_of([&] {
        prelu_backward::primitive_desc(gpu(), s8, w, s8, w, s8, hint);
    }),
            dnnl_unimplemented);
    // Seven dims that do not merge: dst's order reversed.
    const memory::desc seven({2, 2, 2, 2, 2, 2, 2}, dt::f32, tag::abcdefg),
            seven_r({2, 2, 2, 2, 2, 2, 2}, dt::f32,
                    memory::dims {1, 2, 4, 8, 16, 32, 64}),
            w7({1, 2, 1, 1, 1, 1, 1}, dt::f32, tag::abcdefg);
    EXPECT_EQ(status_of([&] {
        prelu_forward::primitive_desc(
                gpu(), prop_kind::forward_inference, seven, w7, seven_r);
    }),
            dnnl_unimplemented);
    const memory::desc bad_w({1, 3, 1, 1}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        prelu_forward::primitive_desc(
                gpu(), prop_kind::forward_inference, s, bad_w, s);
    }),
            dnnl_invalid_arguments);
}

#endif
