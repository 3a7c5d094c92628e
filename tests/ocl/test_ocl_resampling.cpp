// Resampling on the gpu engine against the naive reference: nearest and
// linear, 1D to 3D, up- and down-sampling with integer and fractional
// ratios, forward and backward, plain / channels-last / blocked (padded) /
// doubly blocked layouts, f32 / bf16 / f16 and integer forward, fused
// post-ops, kernel-cache reuse across shapes and rejected configurations.
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
#include "reference/resampling_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

const algorithm nearest = algorithm::resampling_nearest;
const algorithm linear = algorithm::resampling_linear;

struct rcase_t {
    algorithm alg = nearest;
    int64_t mb = 2, c = 3;
    std::vector<int64_t> in, out; // spatial dims
    tag t = tag::undef;           // undef: plain
    dt sdt = dt::f32, ddt = dt::f32;
    bool bwd = true;
};

rcase_t make(algorithm alg, int64_t mb, int64_t c, std::vector<int64_t> in,
        std::vector<int64_t> out, tag t = tag::undef) {
    rcase_t r;
    r.alg = alg;
    r.mb = mb;
    r.c = c;
    r.in = in;
    r.out = out;
    r.t = t;
    return r;
}

resampling_ref::desc_t ref_desc(const rcase_t &r) {
    resampling_ref::desc_t d;
    d.alg = (dnnl_alg_kind_t)r.alg;
    d.mb = r.mb;
    d.c = r.c;
    d.nsp = (int)r.in.size();
    for (int i = 0; i < d.nsp; ++i) {
        d.in[i] = r.in[i];
        d.out[i] = r.out[i];
    }
    return d;
}

ref::tolerance_t tol_of(dt d) {
    ref::tolerance_t t;
    t.rel = d == dt::f32 ? 1e-5 : d == dt::bf16 ? 1.0 / 64 : 1.0 / 512;
    t.abs = d == dt::f32 ? 1e-5 : t.rel;
    t.ulps = 1;
    if (d == dt::s8 || d == dt::u8) t.abs = 1;
    return t;
}

std::vector<double> stored(const memory &m) {
    return from_memory(m);
}

std::string run_case(const rcase_t &r, unsigned seed,
        const primitive_attr &attr = primitive_attr()) {
    stream strm(gpu());
    memory::dims sd = {r.mb, r.c}, dd = {r.mb, r.c};
    sd.insert(sd.end(), r.in.begin(), r.in.end());
    dd.insert(dd.end(), r.out.begin(), r.out.end());
    const tag t = r.t == tag::undef ? plain_tag(sd.size()) : r.t;
    const memory::desc smd(sd, r.sdt, t), dmd(dd, r.ddt, tag::any);
    resampling_forward::primitive_desc fpd(
            gpu(), prop_kind::forward_training, r.alg, smd, dmd, attr);
    std::mt19937 gen(seed);
    const int64_t ns = count(std::vector<int64_t>(sd.begin(), sd.end())),
                  nd = count(std::vector<int64_t>(dd.begin(), dd.end()));
    const double lo = r.sdt == dt::u8 ? 0 : -8;
    memory src =
            to_memory(gpu(), smd, random_values(ns, r.sdt, gen, lo, 8), 0x7f);
    memory dst = to_memory(gpu(), fpd.dst_desc(), std::vector<double>(nd, 5));
    fill_padding(dst, 3.0);
    resampling_forward(fpd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    const resampling_ref::desc_t rd = ref_desc(r);
    const auto sv = stored(src);
    const std::vector<float> sf(sv.begin(), sv.end());
    std::vector<double> exp((size_t)nd);
    resampling_ref::forward(rd, sf.data(), exp.data());
    const std::string what = std::string(fpd.impl_info_str()) + " "
                             + describe(fpd.src_desc()) + " -> "
                             + describe(fpd.dst_desc());
    EXPECT_TRUE(matches(from_memory(dst), exp, r.ddt, tol_of(r.ddt)))
            << "fwd " << what;
    EXPECT_TRUE(padding_is_zero(dst)) << "dst padding " << what;
    if (!r.bwd) return fpd.impl_info_str();

    const memory::desc dsmd(sd, r.sdt, tag::any), ddmd(dd, r.ddt, tag::any);
    resampling_backward::primitive_desc bpd(gpu(), r.alg, dsmd, ddmd, fpd);
    EXPECT_EQ(bpd.diff_src_desc(), fpd.src_desc());
    memory ddst = to_memory(gpu(), bpd.diff_dst_desc(),
            random_values(nd, r.ddt, gen, -4, 4), 0x7f);
    memory dsrc =
            to_memory(gpu(), bpd.diff_src_desc(), std::vector<double>(ns, 9));
    fill_padding(dsrc, 3.0);
    resampling_backward(bpd).execute(
            strm, {{DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc}});
    strm.wait();
    const auto dv = stored(ddst);
    const std::vector<float> df(dv.begin(), dv.end());
    std::vector<double> bexp((size_t)ns);
    resampling_ref::backward(rd, df.data(), bexp.data());
    EXPECT_TRUE(matches(from_memory(dsrc), bexp, r.sdt, tol_of(r.sdt)))
            << "bwd " << bpd.impl_info_str() << " "
            << describe(bpd.diff_src_desc());
    EXPECT_TRUE(padding_is_zero(dsrc)) << "diff_src padding";
    return fpd.impl_info_str();
}

class ocl_resampling : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

} // namespace

TEST_F(ocl_resampling, nearest_and_linear_1d_to_3d) {
    unsigned seed = 1;
    for (algorithm a : {nearest, linear}) {
        run_case(make(a, 2, 3, {4, 5}, {8, 10}), seed++); // x2
        run_case(make(a, 2, 3, {7, 9}, {3, 4}), seed++);  // down, fractional
        run_case(make(a, 1, 2, {5, 3}, {7, 11}), seed++); // up, fractional
        run_case(make(a, 2, 2, {6}, {13}), seed++);
        run_case(make(a, 1, 2, {3, 4, 5}, {5, 2, 7}), seed++);
        run_case(make(a, 1, 1, {1, 1}, {3, 2}), seed++); // from one point
    }
}

TEST_F(ocl_resampling, layouts_and_data_types) {
    unsigned seed = 20;
    for (algorithm a : {nearest, linear}) {
        run_case(make(a, 2, 19, {3, 4}, {5, 7}, tag::nhwc), seed++);
        run_case(make(a, 2, 16, {3, 4}, {5, 7}, tag::nhwc), seed++);
        run_case(make(a, 2, 19, {3, 4}, {6, 3}, tag::nChw16c), seed++);
    }
    EXPECT_EQ(run_case(make(linear, 2, 19, {3, 4}, {5, 7}, tag::ABcd8b16a2b),
                      seed++),
            "ocl:resampling:any");
    rcase_t b = make(linear, 2, 8, {3, 5}, {6, 4}, tag::nhwc);
    b.sdt = b.ddt = dt::bf16;
    run_case(b, seed++);
    rcase_t h = make(nearest, 2, 3, {3, 5}, {6, 4});
    h.sdt = h.ddt = dt::f16;
    run_case(h, seed++);
    // Integer forward.
    rcase_t i = make(linear, 2, 16, {3, 5}, {6, 4}, tag::nhwc);
    i.sdt = dt::s8;
    i.bwd = false;
    run_case(i, seed++);
    rcase_t u = make(nearest, 2, 3, {3, 5}, {6, 4});
    u.sdt = u.ddt = dt::u8;
    u.bwd = false;
    run_case(u, seed++);
}

TEST_F(ocl_resampling, post_ops) {
    stream strm(gpu());
    const memory::desc smd({2, 4, 3, 3}, dt::f32, tag::nchw),
            dmd({2, 4, 5, 6}, dt::f32, tag::nchw),
            per_c({1, 4, 1, 1}, dt::f32, tag::nchw);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_binary(algorithm::binary_mul, per_c);
    po.append_sum(1.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    resampling_forward::primitive_desc pd(
            gpu(), prop_kind::forward_inference, linear, smd, dmd, attr);
    std::mt19937 gen(5);
    const auto sv = random_values(2 * 4 * 9, dt::f32, gen);
    const auto cv = random_values(4, dt::f32, gen);
    const auto pv = random_values(2 * 4 * 30, dt::f32, gen);
    memory src = to_memory(gpu(), smd, sv), dst = to_memory(gpu(), dmd, pv),
           c_m = to_memory(gpu(), per_c, cv);
    resampling_forward(pd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, c_m}});
    strm.wait();
    resampling_ref::desc_t rd;
    rd.alg = dnnl_resampling_linear;
    rd.mb = 2;
    rd.c = 4;
    rd.nsp = 2;
    rd.in[0] = rd.in[1] = 3;
    rd.out[0] = 5;
    rd.out[1] = 6;
    const std::vector<float> sf(sv.begin(), sv.end());
    std::vector<double> exp(pv.size());
    resampling_ref::forward(rd, sf.data(), exp.data());
    for (size_t i = 0; i < exp.size(); ++i)
        exp[i] = std::max(exp[i], 0.0) * cv[(i / 30) % 4] + pv[i];
    EXPECT_TRUE(matches(from_memory(dst), exp, dt::f32, tol_of(dt::f32)));
}

TEST_F(ocl_resampling, new_shape_builds_no_program) {
    run_case(make(linear, 2, 3, {4, 5}, {8, 10}), 41);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    run_case(make(linear, 3, 5, {9, 2}, {4, 7}), 42);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_GT(after.hits, before.hits);
}

TEST_F(ocl_resampling, rejects_unsupported_and_bad_arguments) {
    const memory::desc s({1, 3, 4, 4}, dt::f32, tag::nchw),
            d({1, 3, 8, 8}, dt::f32, tag::nchw);
    resampling_forward::primitive_desc hint(
            gpu(), prop_kind::forward_training, nearest, s, d);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr pa;
    pa.set_post_ops(po);
    EXPECT_EQ(status_of([&] {
        resampling_backward::primitive_desc(gpu(), nearest, s, d, hint, pa);
    }),
            dnnl_unimplemented);
    const memory::desc s8s({1, 3, 4, 4}, dt::s8, tag::nchw),
            s8d({1, 3, 8, 8}, dt::s8, tag::nchw);
    EXPECT_EQ(status_of([&] {
        resampling_backward::primitive_desc(gpu(), nearest, s8s, s8d, hint);
    }),
            dnnl_unimplemented);
    const memory::desc s32({1, 3, 4, 4}, dt::s32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        resampling_forward::primitive_desc(
                gpu(), prop_kind::forward_inference, nearest, s32, d);
    }),
            dnnl_unimplemented);
    const memory::desc bad({1, 4, 8, 8}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        resampling_forward::primitive_desc(
                gpu(), prop_kind::forward_inference, nearest, s, bad);
    }),
            dnnl_invalid_arguments);
}

#endif
