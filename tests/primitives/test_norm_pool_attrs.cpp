// Attributes of the normalizations and pooling as oneDNN 3.13 takes them:
// layer normalization with eltwise / binary post-ops and int8 data with
// src / dst scales; batch normalization with eltwise post-ops and s8 data
// (given statistics); pooling forward with eltwise / binary post-ops; the
// statistics descriptors of group (and layer, batch) normalization in every
// propagation kind; and what oneDNN refuses. Expected values are computed
// here with plain loops.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
using nf = normalization_flags;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

memory f32_mem(const memory::desc &md, const std::vector<float> &v) {
    memory m(md, eng());
    std::copy(v.begin(), v.end(), static_cast<float *>(m.get_data_handle()));
    return m;
}

std::vector<float> ramp(size_t n, float a, float b) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = a + b * (float)((i * 7) % 23) - 0.3f * (float)(i % 5);
    return v;
}

float round_sat_s8(float x) {
    x = std::nearbyint(x);
    return std::min(127.f, std::max(-128.f, x));
}

template <typename F>
dnnl_status_t status_of(F f) {
    try {
        f();
    } catch (const dnnl::error &e) { return e.status; }
    return dnnl_success;
}

// dst = s8(relu(src_scale * lnorm(x)) + bias[c]) / dst_scale), rows of C.
TEST(NormPoolAttrs, LayerNormPostOpsAndInt8Scales) {
    const memory::dim R0 = 3, R1 = 2, C = 20;
    memory::desc src_md({R0, R1, C}, dt::f32, tag::abc);
    memory::desc dst_md({R0, R1, C}, dt::s8, tag::abc);
    memory::desc bin_md({1, 1, C}, dt::f32, tag::abc);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_binary(algorithm::binary_add, bin_md);
    primitive_attr attr;
    attr.set_post_ops(po);
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    attr.set_scales_mask(DNNL_ARG_DST, 0);
    layer_normalization_forward::primitive_desc pd(eng(),
            prop_kind::forward_inference, src_md, dst_md, 1e-5f, nf::none, attr);
    EXPECT_EQ(pd.mean_desc().get_ndims(), 0); // computed, not returned
    EXPECT_EQ(pd.query_md(query::exec_arg_md, DNNL_ARG_MEAN).get_ndims(), 0);

    const std::vector<float> x = ramp((size_t)(R0 * R1 * C), -1.f, 0.25f);
    const std::vector<float> bias = ramp((size_t)C, -2.f, 0.5f);
    const float ss = 4.f, ds = 0.5f;
    memory src = f32_mem(src_md, x), bin = f32_mem(bin_md, bias);
    memory dst(dst_md, eng());
    memory ssm = f32_mem(memory::desc({1}, dt::f32, tag::a), {ss});
    memory dsm = f32_mem(memory::desc({1}, dt::f32, tag::a), {ds});
    stream s(eng());
    layer_normalization_forward(pd).execute(s,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ssm},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, dsm},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, bin}});
    s.wait();
    const int8_t *y = static_cast<const int8_t *>(dst.get_data_handle());
    for (memory::dim r = 0; r < R0 * R1; ++r) {
        double m = 0, v = 0;
        for (memory::dim c = 0; c < C; ++c)
            m += x[r * C + c];
        m /= C;
        for (memory::dim c = 0; c < C; ++c)
            v += (x[r * C + c] - m) * (x[r * C + c] - m);
        v /= C;
        for (memory::dim c = 0; c < C; ++c) {
            float e = (float)((x[r * C + c] - m) / std::sqrt(v + 1e-5)) * ss;
            e = std::max(e, 0.f) + bias[c];
            const float want = round_sat_s8(e / ds);
            // One step of rounding either way near .5 boundaries.
            EXPECT_NEAR((float)y[r * C + c], want, 1.f) << r << "," << c;
        }
    }
}

TEST(NormPoolAttrs, LayerNormRefusals) {
    memory::desc md({4, 8}, dt::f32, tag::ab);
    // Scales need int8 data (oneDNN).
    primitive_attr sc;
    sc.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(status_of([&] {
        layer_normalization_forward::primitive_desc(eng(),
                prop_kind::forward_inference, md, md, 1e-5f, nf::none, sc);
    }),
            dnnl_unimplemented);
    // Per-channel scales are not oneDNN's either.
    memory::desc s8({4, 8}, dt::s8, tag::ab);
    primitive_attr sc1;
    sc1.set_scales_mask(DNNL_ARG_DST, 2);
    EXPECT_EQ(status_of([&] {
        layer_normalization_forward::primitive_desc(eng(),
                prop_kind::forward_inference, md, s8, 1e-5f, nf::none, sc1);
    }),
            dnnl_unimplemented);
    // Sum post-op.
    post_ops po;
    po.append_sum(1.f);
    primitive_attr ps;
    ps.set_post_ops(po);
    EXPECT_EQ(status_of([&] {
        layer_normalization_forward::primitive_desc(eng(),
                prop_kind::forward_inference, md, md, 1e-5f, nf::none, ps);
    }),
            dnnl_unimplemented);
}

// Batch normalization: one relu post-op after the normalization (any
// negative slope in inference, zero when training; other eltwise
// algorithms and longer chains refused, as oneDNN 3.13's CPU
// implementations); s8 data with given statistics; binary post-ops and
// scales refused.
TEST(NormPoolAttrs, BatchNormEltwisePostOpAndS8) {
    const memory::dim N = 2, C = 3, SP = 5;
    memory::desc md({N, C, SP}, dt::f32, tag::abc);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.25f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    batch_normalization_forward::primitive_desc pd(eng(),
            prop_kind::forward_inference, md, md, 1e-5f,
            nf::use_global_stats, attr);
    const std::vector<float> x = ramp((size_t)(N * C * SP), -1.f, 0.2f);
    const std::vector<float> mean = {0.1f, -0.2f, 0.5f};
    const std::vector<float> var = {1.f, 4.f, 0.25f};
    memory::desc cmd({C}, dt::f32, tag::a);
    memory src = f32_mem(md, x), dst(md, eng());
    memory mm = f32_mem(cmd, mean), vm = f32_mem(cmd, var);
    stream s(eng());
    batch_normalization_forward(pd).execute(s,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mm},
                    {DNNL_ARG_VARIANCE, vm}});
    s.wait();
    const float *y = static_cast<const float *>(dst.get_data_handle());
    for (memory::dim n = 0; n < N; ++n)
        for (memory::dim c = 0; c < C; ++c)
            for (memory::dim i = 0; i < SP; ++i) {
                const size_t o = (size_t)((n * C + c) * SP + i);
                const float e = (x[o] - mean[c]) / std::sqrt(var[c] + 1e-5f);
                EXPECT_NEAR(y[o], e > 0.f ? e : 0.25f * e, 1e-5f);
            }

    memory::desc s8({N, C, SP}, dt::s8, tag::abc);
    batch_normalization_forward::primitive_desc pd8(eng(),
            prop_kind::forward_inference, s8, s8, 1e-5f, nf::use_global_stats);
    memory src8(s8, eng()), dst8(s8, eng());
    int8_t *xi = static_cast<int8_t *>(src8.get_data_handle());
    for (size_t i = 0; i < (size_t)(N * C * SP); ++i)
        xi[i] = (int8_t)((int)(i * 13 % 200) - 100);
    batch_normalization_forward(pd8).execute(s,
            {{DNNL_ARG_SRC, src8}, {DNNL_ARG_DST, dst8}, {DNNL_ARG_MEAN, mm},
                    {DNNL_ARG_VARIANCE, vm}});
    s.wait();
    const int8_t *yi = static_cast<const int8_t *>(dst8.get_data_handle());
    for (memory::dim n = 0; n < N; ++n)
        for (memory::dim c = 0; c < C; ++c)
            for (memory::dim i = 0; i < SP; ++i) {
                const size_t o = (size_t)((n * C + c) * SP + i);
                const float e = (xi[o] - mean[c]) / std::sqrt(var[c] + 1e-5f);
                EXPECT_NEAR((float)yi[o], round_sat_s8(e), 1.f);
            }

    post_ops pb;
    pb.append_binary(algorithm::binary_add, memory::desc({1, C, 1}, dt::f32, tag::abc));
    primitive_attr ab;
    ab.set_post_ops(pb);
    EXPECT_EQ(status_of([&] {
        batch_normalization_forward::primitive_desc(eng(),
                prop_kind::forward_inference, md, md, 1e-5f, nf::none, ab);
    }),
            dnnl_unimplemented);
    const auto bn_status = [&](const post_ops &p, prop_kind pk) {
        primitive_attr a;
        a.set_post_ops(p);
        return status_of([&] {
            batch_normalization_forward::primitive_desc(
                    eng(), pk, md, md, 1e-5f, nf::use_global_stats, a);
        });
    };
    post_ops linear, two, leaky;
    linear.append_eltwise(algorithm::eltwise_linear, 2.f, -1.f);
    two.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    two.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    leaky.append_eltwise(algorithm::eltwise_relu, 0.25f, 0.f);
    EXPECT_EQ(bn_status(linear, prop_kind::forward_inference), dnnl_unimplemented);
    EXPECT_EQ(bn_status(two, prop_kind::forward_inference), dnnl_unimplemented);
    EXPECT_EQ(bn_status(leaky, prop_kind::forward_training), dnnl_unimplemented);
    EXPECT_EQ(bn_status(leaky, prop_kind::forward_inference), dnnl_success);
    // s8 needs given statistics.
    EXPECT_EQ(status_of([&] {
        batch_normalization_forward::primitive_desc(
                eng(), prop_kind::forward_inference, s8, s8, 1e-5f, nf::none);
    }),
            dnnl_unimplemented);
}

// Max pooling 2x2 then relu-free linear and a per-channel binary multiply.
TEST(NormPoolAttrs, PoolingPostOps) {
    const memory::dim N = 2, C = 3, H = 4, W = 6;
    memory::desc src_md({N, C, H, W}, dt::f32, tag::nchw);
    memory::desc dst_md({N, C, H / 2, W / 2}, dt::f32, tag::nchw);
    memory::desc bin_md({1, C, 1, 1}, dt::f32, tag::nchw);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 0.5f, 1.f);
    po.append_binary(algorithm::binary_mul, bin_md);
    primitive_attr attr;
    attr.set_post_ops(po);
    for (prop_kind pk : {prop_kind::forward_inference, prop_kind::forward_training}) {
        pooling_forward::primitive_desc pd(eng(), pk, algorithm::pooling_max,
                src_md, dst_md, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}, attr);
        const std::vector<float> x = ramp((size_t)(N * C * H * W), -3.f, 0.3f);
        const std::vector<float> mul = {1.f, -2.f, 3.f};
        memory src = f32_mem(src_md, x), bin = f32_mem(bin_md, mul);
        memory dst(dst_md, eng());
        std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src},
                {DNNL_ARG_DST, dst},
                {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, bin}};
        memory ws;
        if (pk == prop_kind::forward_training) {
            ws = memory(pd.workspace_desc(), eng());
            args[DNNL_ARG_WORKSPACE] = ws;
        }
        stream s(eng());
        pooling_forward(pd).execute(s, args);
        s.wait();
        const float *y = static_cast<const float *>(dst.get_data_handle());
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim c = 0; c < C; ++c)
                for (memory::dim oh = 0; oh < H / 2; ++oh)
                    for (memory::dim ow = 0; ow < W / 2; ++ow) {
                        float m = -1e30f;
                        for (int kh = 0; kh < 2; ++kh)
                            for (int kw = 0; kw < 2; ++kw)
                                m = std::max(m,
                                        x[(size_t)(((n * C + c) * H + 2 * oh + kh) * W
                                                + 2 * ow + kw)]);
                        const size_t o = (size_t)(((n * C + c) * (H / 2) + oh) * (W / 2) + ow);
                        EXPECT_NEAR(y[o], (0.5f * m + 1.f) * mul[c], 1e-5f);
                    }
    }
    // A sum post-op is not oneDNN's for pooling on CPU.
    post_ops ps;
    ps.append_sum(1.f);
    primitive_attr as;
    as.set_post_ops(ps);
    EXPECT_EQ(status_of([&] {
        pooling_forward::primitive_desc(eng(), prop_kind::forward_inference,
                algorithm::pooling_max, src_md, dst_md, {2, 2}, {2, 2}, {0, 0},
                {0, 0}, {0, 0}, as);
    }),
            dnnl_unimplemented);
}

// Statistics descriptors: the mean/variance accessors and exec_arg_md agree
// in every propagation kind; zero where the statistics are not arguments.
TEST(NormPoolAttrs, GroupNormStatisticsDescriptors) {
    memory::desc md({2, 8, 3, 3}, dt::f32, tag::nchw);
    struct cfg_t {
        prop_kind pk;
        nf flags;
        bool stats;
    };
    for (cfg_t c : {cfg_t {prop_kind::forward_training, nf::none, true},
                 cfg_t {prop_kind::forward_training, nf::use_global_stats, true},
                 cfg_t {prop_kind::forward_inference, nf::none, false},
                 cfg_t {prop_kind::forward_inference, nf::use_global_stats, true}}) {
        group_normalization_forward::primitive_desc pd(
                eng(), c.pk, md, md, 4, 1e-5f, c.flags);
        const int want = c.stats ? 2 : 0;
        EXPECT_EQ(pd.mean_desc().get_ndims(), want);
        EXPECT_EQ(pd.variance_desc().get_ndims(), want);
        EXPECT_EQ(pd.query_md(query::exec_arg_md, DNNL_ARG_MEAN).get_ndims(), want);
        EXPECT_EQ(pd.query_md(query::exec_arg_md, DNNL_ARG_VARIANCE).get_ndims(),
                want);
        if (c.stats) {
            EXPECT_EQ(pd.mean_desc().get_dims(), memory::dims({2, 4}));
            EXPECT_TRUE(pd.query_md(query::exec_arg_md, DNNL_ARG_MEAN) == pd.mean_desc());
        }
        if (c.pk == prop_kind::forward_training && c.flags == nf::none)
            for (prop_kind bk : {prop_kind::backward, prop_kind::backward_data}) {
                group_normalization_backward::primitive_desc bpd(
                        eng(), bk, md, md, md, 4, 1e-5f, nf::none, pd);
                EXPECT_EQ(bpd.mean_desc().get_dims(), memory::dims({2, 4}));
                EXPECT_TRUE(bpd.query_md(query::exec_arg_md, DNNL_ARG_MEAN)
                        == bpd.mean_desc());
                EXPECT_TRUE(bpd.query_md(query::exec_arg_md, DNNL_ARG_VARIANCE)
                        == bpd.variance_desc());
            }
    }
    // The same rule for layer and batch normalization.
    layer_normalization_forward::primitive_desc lpd(eng(),
            prop_kind::forward_inference, md, md, 1e-5f, nf::none);
    EXPECT_EQ(lpd.query_md(query::exec_arg_md, DNNL_ARG_VARIANCE).get_ndims(), 0);
    batch_normalization_forward::primitive_desc bpd(eng(),
            prop_kind::forward_inference, md, md, 1e-5f, nf::none);
    EXPECT_EQ(bpd.query_md(query::exec_arg_md, DNNL_ARG_MEAN).get_ndims(), 0);
    batch_normalization_forward::primitive_desc bpd_t(eng(),
            prop_kind::forward_training, md, md, 1e-5f, nf::none);
    EXPECT_EQ(bpd_t.query_md(query::exec_arg_md, DNNL_ARG_MEAN).get_ndims(), 1);
}

// Pooling takes no rounding mode, as oneDNN 3.13.
TEST(NormPoolAttrs, PoolingRefusesRoundingModes) {
    memory::desc src_md({2, 3, 4, 6}, dt::f32, tag::nchw);
    memory::desc dst_md({2, 3, 2, 3}, dt::f32, tag::nchw);
    primitive_attr attr;
    attr.set_rounding_mode(DNNL_ARG_DST, rounding_mode::stochastic);
    EXPECT_EQ(status_of([&] {
        pooling_forward::primitive_desc(eng(), prop_kind::forward_inference,
                algorithm::pooling_max, src_md, dst_md, {2, 2}, {2, 2},
                {0, 0}, {0, 0}, {0, 0}, attr);
    }),
            dnnl_unimplemented);
}

} // namespace
