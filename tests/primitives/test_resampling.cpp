// Resampling primitive tests: nearest and linear, 1D-3D, up, down and
// fractional factors, forward and backward, f32/bf16/f16/s8/u8, plain,
// channels-last, channel-blocked and mixed layouts, post-ops (eltwise,
// binary, sum), destinations sized from factors, queries, bad parameters
// and the gpu engine; compared with tests/reference/resampling_ref.*.
// Data moves between layouts and types through reorders.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/resampling_ref.hpp"
#include "tensor_glue.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

// Small integers: exact in every data type.
std::vector<float> rnd(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> u(0, 60);
    std::vector<float> v(n);
    for (auto &x : v) x = (float)u(g);
    return v;
}

bool is_int(dt t) {
    return t == dt::s8 || t == dt::u8;
}

// The reference value as stored in `t`.
double as_stored(double v, dt t) {
    if (t == dt::s8)
        return std::min(127.0, std::max(-128.0, std::nearbyint(v)));
    if (t == dt::u8) return std::min(255.0, std::max(0.0, std::nearbyint(v)));
    return v;
}

void check(const std::vector<float> &got, const std::vector<double> &ref, dt t,
        const char *what) {
    for (size_t i = 0; i < ref.size(); ++i) {
        const double e = as_stored(ref[i], t);
        const double tol = is_int(t)      ? 1.0
                           : t == dt::f32 ? 1e-5 * (1 + std::fabs(e))
                           : t == dt::f16 ? 2e-3 * (1 + std::fabs(e))
                                          : 1e-2 * (1 + std::fabs(e));
        ASSERT_NEAR(got[i], e, tol) << what << " at " << i;
    }
}

struct rcase_t {
    algorithm alg;
    memory::dims src, dst;
    dt sdt = dt::f32, ddt = dt::f32;
    tag stag = tag::undef, dtag = tag::undef; // undef: plain
};

resampling_ref::desc_t ref_desc(const rcase_t &rc) {
    resampling_ref::desc_t r;
    r.alg = (dnnl_alg_kind_t)rc.alg;
    r.mb = rc.src[0];
    r.c = rc.src[1];
    r.nsp = (int)rc.src.size() - 2;
    for (int i = 0; i < r.nsp; ++i)
        r.in[i] = rc.src[2 + i], r.out[i] = rc.dst[2 + i];
    return r;
}

void run_case(const rcase_t &rc, bool bwd = true) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const size_t ns = count(rc.src), nd = count(rc.dst);
    const tag st = rc.stag == tag::undef ? plain_tag(rc.src.size()) : rc.stag;
    const tag dtg = rc.dtag == tag::undef ? st : rc.dtag;
    const memory::desc smd(rc.src, rc.sdt, st), dmd(rc.dst, rc.ddt, dtg);
    const auto r = ref_desc(rc);
    auto fpd = resampling_forward::primitive_desc(
            eng, prop_kind::forward_training, rc.alg, smd, dmd);
    memory src = to_mem(rnd(ns, 3), smd, eng, s), dst(dmd, eng);
    const auto x = from_mem(src, eng, s);
    resampling_forward(fpd).execute(
            s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    std::vector<double> ref(nd);
    resampling_ref::forward(r, x.data(), ref.data());
    check(from_mem(dst, eng, s), ref, rc.ddt, "fwd");
    if (!bwd) return;
    const memory::desc dsmd(rc.src, rc.sdt, tag::any),
            ddmd(rc.dst, rc.ddt, tag::any);
    auto bpd =
            resampling_backward::primitive_desc(eng, rc.alg, dsmd, ddmd, fpd);
    ASSERT_EQ(bpd.diff_src_desc(), smd);
    memory dd = to_mem(rnd(nd, 5), bpd.diff_dst_desc(), eng, s),
           ds(bpd.diff_src_desc(), eng);
    const auto ddv = from_mem(dd, eng, s);
    resampling_backward(bpd).execute(
            s, {{DNNL_ARG_DIFF_DST, dd}, {DNNL_ARG_DIFF_SRC, ds}});
    s.wait();
    std::vector<double> bref(ns);
    resampling_ref::backward(r, ddv.data(), bref.data());
    check(from_mem(ds, eng, s), bref, rc.sdt, "bwd");
}

const algorithm nearest = algorithm::resampling_nearest;
const algorithm linear = algorithm::resampling_linear;

TEST(Resampling, Shapes) {
    for (auto alg : {nearest, linear}) {
        run_case({alg, {2, 3, 5}, {2, 3, 10}});
        run_case({alg, {1, 5, 7}, {1, 5, 3}});
        run_case({alg, {1, 3, 8, 9}, {1, 3, 4, 13}});
        run_case({alg, {2, 2, 5, 5}, {2, 2, 5, 5}});
        run_case({alg, {1, 2, 5, 7, 9}, {1, 2, 7, 3, 13}});
        run_case({alg, {1, 2, 1, 3}, {1, 2, 4, 1}});
    }
}
TEST(Resampling, Layouts) {
    for (auto alg : {nearest, linear}) {
        run_case({alg, {2, 19, 5, 6}, {2, 19, 9, 4}, dt::f32, dt::f32,
                tag::nhwc});
        run_case({alg, {1, 19, 5, 6}, {1, 19, 9, 4}, dt::f32, dt::f32,
                tag::nChw8c});
        run_case({alg, {1, 35, 3, 4, 5}, {1, 35, 5, 3, 7}, dt::f32, dt::f32,
                tag::nCdhw16c});
        run_case({alg, {1, 6, 5, 6}, {1, 6, 9, 4}, dt::f32, dt::f32, tag::nchw,
                         tag::nhwc},
                false);
        run_case(
                {alg, {1, 6, 5, 6}, {1, 6, 9, 4}, dt::f32, dt::f32, tag::acbd});
    }
}
// The channel-vector row kernels: whole 16- and 8-channel blocks (written
// in place), wide channels-last rows, 2x up and down, and 3D (four source
// rows per output row), with converted (bf16) sources too.
TEST(Resampling, RowKernels) {
    for (auto alg : {nearest, linear}) {
        for (tag t : {tag::nhwc, tag::nChw16c, tag::nChw8c}) {
            run_case(
                    {alg, {2, 32, 6, 7}, {2, 32, 12, 14}, dt::f32, dt::f32, t});
            run_case(
                    {alg, {1, 48, 10, 12}, {1, 48, 5, 6}, dt::f32, dt::f32, t});
        }
        for (tag t : {tag::ndhwc, tag::nCdhw16c}) {
            run_case({alg, {1, 16, 3, 4, 5}, {1, 16, 6, 8, 10}, dt::f32,
                    dt::f32, t});
            run_case({alg, {1, 20, 3, 4, 5}, {1, 20, 5, 7, 9}, dt::bf16,
                    dt::f32, t});
        }
    }
}

TEST(Resampling, DataTypes) {
    for (auto alg : {nearest, linear}) {
        for (dt sdt : {dt::f32, dt::bf16, dt::f16, dt::s8, dt::u8})
            for (dt ddt : {dt::f32, dt::bf16, dt::f16, dt::s8, dt::u8})
                run_case({alg, {1, 3, 5, 6}, {1, 3, 7, 4}, sdt, ddt}, false);
        run_case({alg, {1, 17, 5, 6}, {1, 17, 7, 4}, dt::u8, dt::bf16,
                         tag::nhwc},
                false);
        run_case({alg, {1, 17, 5, 6}, {1, 17, 7, 4}, dt::bf16, dt::s8,
                         tag::nChw16c},
                false);
        run_case({alg, {1, 3, 5, 6}, {1, 3, 7, 4}, dt::bf16, dt::bf16});
        run_case({alg, {1, 17, 5, 6}, {1, 17, 7, 4}, dt::f16, dt::f16,
                tag::nChw8c});
        run_case({alg, {1, 17, 5, 6}, {1, 17, 7, 4}, dt::bf16, dt::f32,
                tag::nhwc});
    }
}

// A binary post-op that varies along h and w (and d) and a sum on nchw-like
// destinations, whose rows the kernel takes a block at a time: every row
// of a block must see its own positions.
TEST(Resampling, PostOpsAlongRows) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const rcase_t cases[] = {{nearest, {2, 3, 4, 5}, {2, 3, 9, 6}},
            {linear, {1, 2, 3, 4, 5}, {1, 2, 5, 6, 7}},
            {linear, {2, 3, 7}, {2, 3, 12}}};
    for (const rcase_t &rc : cases) {
        const int nd = (int)rc.dst.size();
        const tag t = nd == 3 ? tag::ncw : nd == 4 ? tag::nchw : tag::ncdhw;
        const memory::desc smd(rc.src, dt::f32, t), dmd(rc.dst, dt::f32, t);
        memory::dims sp_dims = rc.dst;
        sp_dims[0] = sp_dims[1] = 1;
        const memory::desc bmd(sp_dims, dt::f32, t);
        post_ops po;
        po.append_binary(algorithm::binary_mul, bmd);
        po.append_sum(1.5f);
        primitive_attr at;
        at.set_post_ops(po);
        auto pd = resampling_forward::primitive_desc(
                eng, prop_kind::forward_inference, rc.alg, smd, dmd, at);
        const size_t ns = count(rc.src), ndst = count(rc.dst),
                     nsp = count(sp_dims);
        memory src = to_mem(rnd(ns, 11), smd, eng, s);
        std::vector<float> sp = rnd(nsp, 12), old = rnd(ndst, 13);
        memory b = to_mem(sp, bmd, eng, s), dst = to_mem(old, dmd, eng, s);
        resampling_forward(pd).execute(
                s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                           {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                                   b}});
        s.wait();
        std::vector<double> ref(ndst);
        const auto x = from_mem(src, eng, s);
        resampling_ref::forward(ref_desc(rc), x.data(), ref.data());
        for (size_t i = 0; i < ndst; ++i)
            ref[i] = ref[i] * sp[i % nsp] + 1.5 * old[i];
        check(from_mem(dst, eng, s), ref, dt::f32, "post-ops along rows");
    }
}

// eltwise, per-channel binary and sum, on plain and blocked destinations.
TEST(Resampling, PostOps) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    for (tag t : {tag::nchw, tag::nhwc, tag::nChw8c, tag::acbd})
        for (dt ddt : {dt::f32, dt::u8}) {
            const rcase_t rc{linear, {1, 10, 4, 5}, {1, 10, 7, 3}};
            const memory::desc smd(rc.src, dt::f32, t), dmd(rc.dst, ddt, t);
            const memory::desc bmd({1, 10, 1, 1}, dt::f32, tag::nchw);
            post_ops po;
            po.append_eltwise(algorithm::eltwise_linear, 0.5f, 3.f);
            po.append_binary(algorithm::binary_add, bmd);
            po.append_sum(2.f);
            po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
            primitive_attr at;
            at.set_post_ops(po);
            auto pd = resampling_forward::primitive_desc(
                    eng, prop_kind::forward_inference, rc.alg, smd, dmd, at);
            const size_t ns = count(rc.src), nd = count(rc.dst);
            memory src = to_mem(rnd(ns, 7), smd, eng, s);
            std::vector<float> bias(10), old = rnd(nd, 9);
            for (int c = 0; c < 10; ++c) bias[c] = (float)(c * 3 - 20);
            memory b = to_mem(bias, bmd, eng, s),
                   dst = to_mem(old, dmd, eng, s);
            resampling_forward(pd).execute(s,
                    {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                            {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1,
                                    b}});
            s.wait();
            std::vector<double> ref(nd);
            const auto x = from_mem(src, eng, s);
            resampling_ref::forward(ref_desc(rc), x.data(), ref.data());
            for (size_t i = 0; i < nd; ++i) {
                const size_t c = (i / 21) % 10;
                const double v = 0.5 * ref[i] + 3 + bias[c] + 2.0 * old[i];
                ref[i] = v > 0 ? v : 0;
            }
            check(from_mem(dst, eng, s), ref, ddt, "post-ops");
        }
}

TEST(Resampling, DestinationFromFactors) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc smd({2, 3, 5, 4}, dt::bf16, tag::nhwc);
    auto pd = resampling_forward::primitive_desc(
            eng, prop_kind::forward_training, linear, {1.5f, 0.5f}, smd);
    EXPECT_EQ(pd.dst_desc().get_dims(), memory::dims({2, 3, 7, 2}));
    EXPECT_EQ(pd.dst_desc().get_data_type(), dt::bf16);
    EXPECT_EQ(pd.dst_desc().get_strides()[1], 1); // like src: channels last
    // The factors kept are the true ratios.
    EXPECT_EQ(pd.get_factors(), std::vector<float>({7.f / 5.f, 0.5f}));
    EXPECT_EQ(pd.get_algorithm(), linear);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    // Given factors are ignored when dst is given.
    const memory::desc dmd({2, 3, 10, 8}, dt::bf16, tag::nhwc);
    auto pd2 = resampling_forward::primitive_desc(
            eng, prop_kind::forward_training, linear, {3.f, 3.f}, smd, dmd);
    EXPECT_EQ(pd2.get_factors(), std::vector<float>({2.f, 2.f}));
    auto bpd = resampling_backward::primitive_desc(eng, linear, smd, dmd, pd2);
    EXPECT_EQ(bpd.get_factors(), std::vector<float>({2.f, 2.f}));
    EXPECT_EQ(bpd.diff_dst_desc(), dmd);
}

TEST(Resampling, BadParameters) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc smd({1, 3, 4, 4}, dt::f32, tag::nchw);
    const memory::desc dmd({1, 3, 8, 8}, dt::f32, tag::nchw);
    const memory::desc other_c({1, 4, 8, 8}, dt::f32, tag::nchw);
    const memory::desc any({1, 3, 4, 4}, dt::f32, tag::any);
    const memory::desc s2({1, 3}, dt::f32, tag::nc);
    const memory::desc s8d({1, 3, 8, 8}, dt::s8, tag::nchw),
            s8s({1, 3, 4, 4}, dt::s8, tag::nchw);
    auto fwd = [&](const memory::desc &a, const memory::desc &b,
                       const primitive_attr &at = primitive_attr()) {
        return status_of([&] {
            resampling_forward::primitive_desc(
                    eng, prop_kind::forward_training, nearest, a, b, at);
        });
    };
    EXPECT_EQ(fwd(smd, dmd), dnnl_success);
    EXPECT_EQ(fwd(smd, other_c), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(any, dmd), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(s2, s2), dnnl_invalid_arguments);
    primitive_attr sc;
    sc.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(fwd(smd, dmd, sc), dnnl_unimplemented);
    dnnl_primitive_desc_t pd = nullptr;
    const float neg[2] = {-1.f, 2.f};
    EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_resampling_linear, neg,
                      smd.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_resampling_linear, nullptr,
                      smd.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    // Factors whose destination dims leave dim_t's range: refused before
    // the float is converted (fuzz_primitive_desc under UBSan, seed
    // resampling_huge_factor).
    const float huge[2] = {3e38f, 2.f}, big[2] = {2.f, 2e18f};
    EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_resampling_linear, huge,
                      smd.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_resampling_nearest, big,
                      smd.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_pooling_max, nullptr,
                      smd.get(), dmd.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_backward_data, dnnl_resampling_linear, nullptr,
                      smd.get(), dmd.get(), nullptr),
            dnnl_invalid_arguments);
    // Backward: no int8, no post-ops.
    auto hint = resampling_forward::primitive_desc(
            eng, prop_kind::forward_training, nearest, smd, dmd);
    EXPECT_EQ(status_of([&] {
        resampling_backward::primitive_desc(eng, nearest, s8s, s8d, hint);
    }),
            dnnl_unimplemented);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr at;
    at.set_post_ops(po);
    EXPECT_EQ(status_of([&] {
        resampling_backward::primitive_desc(eng, nearest, smd, dmd, hint, at);
    }),
            dnnl_unimplemented);
}

// The gpu engine has its own implementation
// (tests/ocl/test_ocl_resampling.cpp checks its results).
TEST(Resampling, GpuEngineHasAnImplementation) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc smd({1, 3, 4, 4}, dt::f32, tag::nchw);
    const memory::desc dmd({1, 3, 8, 8}, dt::f32, tag::nchw);
    resampling_forward::primitive_desc pd(
            eng, prop_kind::forward_training, nearest, smd, dmd);
    EXPECT_EQ(std::string(pd.impl_info_str()).rfind("ocl:", 0), 0u);
    dnnl_primitive_desc_t bpd = nullptr;
    EXPECT_EQ(dnnl_resampling_backward_primitive_desc_create(&bpd, eng.get(),
                      dnnl_resampling_linear, nullptr, smd.get(), dmd.get(),
                      nullptr, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(bpd);
}

} // namespace
