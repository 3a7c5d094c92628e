// Answers oneDNN 3.13 gives (and its own test programs check) to requests
// outside what its implementations take, and edge cases it executes:
// mixed types or layouts in eltwise, batch and local response
// normalization; a pooling source of layout `any`; empty tensors; pooling
// windows ending before the source does; integer pooling; inner product
// weights without elements; sum zero points on floating-point GEMMs;
// runtime recurrent quantization parameters; layer normalization
// statistics laid out like the source; a descriptor as large as a dim_t
// counts, which no memory can back.
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

template <typename F>
dnnl_status_t status_of(F f) {
    try {
        f();
    } catch (const dnnl::error &e) {
        return e.status;
    }
    return dnnl_success;
}

// A user scratchpad changes where temporary memory lives, not what is
// computed: the primitives that take no other attribute take it (they
// had refused it with the other attributes: batch normalization and the
// backward layer and group normalizations on the gpu engine, backward
// group normalization on both). Each descriptor is made on every engine
// present, and group normalization's backward runs with the scratchpad
// given and matches the library-mode result.
TEST(ConformanceChecks, UserScratchpadIsNoReasonToRefuse) {
    std::vector<engine> engines {eng()};
    if (engine::get_count(engine::kind::gpu) > 0)
        engines.emplace_back(engine::kind::gpu, 0);
    using nf = normalization_flags;
    for (const engine &e : engines) {
        SCOPED_TRACE(e.get_kind() == engine::kind::cpu ? "cpu" : "gpu");
        primitive_attr user;
        user.set_scratchpad_mode(scratchpad_mode::user);
        const memory::desc md({2, 8, 4, 4}, dt::f32, tag::nchw),
                rows({8, 64}, dt::f32, tag::ab);
        const auto pk = prop_kind::forward_training;
        batch_normalization_forward::primitive_desc bh(
                e, pk, md, md, 1e-3f, nf::use_scale);
        layer_normalization_forward::primitive_desc lh(
                e, pk, rows, rows, 1e-3f, nf::use_scale);
        group_normalization_forward::primitive_desc gh(
                e, pk, md, md, 2, 1e-3f, nf::use_scale);
        EXPECT_EQ(status_of([&] {
            batch_normalization_forward::primitive_desc(
                    e, pk, md, md, 1e-3f, nf::use_scale, user);
            batch_normalization_backward::primitive_desc(e,
                    prop_kind::backward, md, md, md, 1e-3f, nf::use_scale,
                    bh, user);
            layer_normalization_backward::primitive_desc(e,
                    prop_kind::backward, rows, rows, rows, 1e-3f,
                    nf::use_scale, lh, user);
            shuffle_forward::primitive_desc(e, pk, md, md, 1, 2, user);
        }),
                dnnl_success);
        // Group normalization backward, run both ways.
        std::vector<float> out[2];
        for (int mode = 0; mode < 2; ++mode) {
            primitive_attr a;
            if (mode) a.set_scratchpad_mode(scratchpad_mode::user);
            group_normalization_backward::primitive_desc pd(e,
                    prop_kind::backward, md, md, md, 2, 1e-3f,
                    nf::use_scale, gh, a);
            const memory::desc cmd({8}, dt::f32, tag::a),
                    smd({2, 2}, dt::f32, tag::ab);
            auto filled = [&](const memory::desc &d, float base) {
                memory m(d, e);
                float *p = m.map_data<float>();
                for (size_t i = 0; i < d.get_size() / sizeof(float); ++i)
                    p[i] = base + 0.25f * (float)(i % 7);
                m.unmap_data(p);
                return m;
            };
            memory ds(md, e), dsc(cmd, e);
            std::unordered_map<int, memory> args {
                    {DNNL_ARG_SRC, filled(md, -0.5f)},
                    {DNNL_ARG_DIFF_DST, filled(md, -1.f)},
                    {DNNL_ARG_SCALE, filled(cmd, 1.f)},
                    {DNNL_ARG_MEAN, filled(smd, 0.f)},
                    {DNNL_ARG_VARIANCE, filled(smd, 1.f)},
                    {DNNL_ARG_DIFF_SRC, ds}, {DNNL_ARG_DIFF_SCALE, dsc},
                    {DNNL_ARG_DIFF_SHIFT, memory(cmd, e)}};
            if (mode)
                args[DNNL_ARG_SCRATCHPAD]
                        = memory(pd.scratchpad_desc(), e);
            stream s(e);
            group_normalization_backward(pd).execute(s, args);
            s.wait();
            const float *p = ds.map_data<float>();
            out[mode].assign(p, p + md.get_size() / sizeof(float));
            ds.unmap_data((void *)p);
        }
        EXPECT_EQ(out[0], out[1]);
    }
}

TEST(ConformanceChecks, EltwiseDstFollowsSrcTypeAndLayout) {
    const memory::dims d = {2, 3, 4, 5};
    auto fwd = [&](dt sd, tag st, dt dd, tag dtg) {
        return status_of([&] {
            eltwise_forward::primitive_desc(eng(), prop_kind::forward_training,
                    algorithm::eltwise_relu, memory::desc(d, sd, st),
                    memory::desc(d, dd, dtg), 0.f, 0.f);
        });
    };
    EXPECT_EQ(fwd(dt::f32, tag::nchw, dt::f32, tag::nchw), dnnl_success);
    EXPECT_EQ(fwd(dt::f32, tag::nchw, dt::bf16, tag::nchw), dnnl_unimplemented);
    EXPECT_EQ(fwd(dt::f32, tag::nchw, dt::f32, tag::nhwc), dnnl_unimplemented);
    EXPECT_EQ(fwd(dt::f32, tag::nchw, dt::f32, tag::any), dnnl_success);

    memory::desc src(d, dt::f32, tag::nchw);
    eltwise_forward::primitive_desc hint(eng(), prop_kind::forward_training,
            algorithm::eltwise_relu, src, src, 0.f, 0.f);
    auto bwd = [&](dt gd, tag gt) {
        return status_of([&] {
            eltwise_backward::primitive_desc(eng(), algorithm::eltwise_relu,
                    memory::desc(d, gd, gt), memory::desc(d, gd, gt), src, 0.f,
                    0.f, hint);
        });
    };
    EXPECT_EQ(bwd(dt::f32, tag::nchw), dnnl_success);
    EXPECT_EQ(bwd(dt::f32, tag::nhwc), dnnl_success); // slower, not refused
    EXPECT_EQ(bwd(dt::bf16, tag::nchw), dnnl_unimplemented);
}

TEST(ConformanceChecks, BatchNormTensorsShareTypeAndLayout) {
    const memory::dims d = {2, 4, 3, 3};
    const auto flags = normalization_flags::use_scale;
    auto fwd = [&](dt dd, tag dtg) {
        return status_of([&] {
            batch_normalization_forward::primitive_desc(eng(),
                    prop_kind::forward_training,
                    memory::desc(d, dt::f32, tag::nchw),
                    memory::desc(d, dd, dtg), 1e-4f, flags);
        });
    };
    EXPECT_EQ(fwd(dt::f32, tag::nchw), dnnl_success);
    EXPECT_EQ(fwd(dt::bf16, tag::nchw), dnnl_unimplemented);
    EXPECT_EQ(fwd(dt::f32, tag::nhwc), dnnl_unimplemented);

    memory::desc src(d, dt::f32, tag::nchw);
    batch_normalization_forward::primitive_desc hint(
            eng(), prop_kind::forward_training, src, src, 1e-4f, flags);
    auto bwd = [&](dt sd, tag st, dt dd, tag dtg) {
        return status_of([&] {
            batch_normalization_backward::primitive_desc(eng(),
                    prop_kind::backward, memory::desc(d, sd, st),
                    memory::desc(d, dd, dtg), src, 1e-4f, flags, hint);
        });
    };
    EXPECT_EQ(bwd(dt::f32, tag::nchw, dt::f32, tag::nchw), dnnl_success);
    EXPECT_EQ(bwd(dt::f32, tag::nhwc, dt::f32, tag::nchw), dnnl_unimplemented);
    EXPECT_EQ(bwd(dt::f32, tag::nchw, dt::bf16, tag::nchw), dnnl_unimplemented);
}

TEST(ConformanceChecks, LrnDstAndGradientsInSrcLayout) {
    const memory::dims d = {2, 8, 4, 4};
    memory::desc src(d, dt::f32, tag::nchw);
    auto fwd = [&](tag t) {
        return status_of([&] {
            lrn_forward::primitive_desc(eng(), prop_kind::forward_training,
                    algorithm::lrn_across_channels, src,
                    memory::desc(d, dt::f32, t), 5, 1e-4f, 0.75f, 1.f);
        });
    };
    EXPECT_EQ(fwd(tag::nchw), dnnl_success);
    EXPECT_EQ(fwd(tag::nhwc), dnnl_unimplemented);
}

TEST(ConformanceChecks, PreluAndShuffleDstFollowSrc) {
    const memory::dims d = {2, 4, 3, 3};
    memory::desc src(d, dt::f32, tag::nchw), wei(d, dt::f32, tag::nchw);
    auto prelu = [&](dt dd, tag t) {
        return status_of([&] {
            prelu_forward::primitive_desc(eng(), prop_kind::forward_training,
                    src, wei, memory::desc(d, dd, t));
        });
    };
    EXPECT_EQ(prelu(dt::f32, tag::nchw), dnnl_success);
    EXPECT_EQ(prelu(dt::bf16, tag::nchw), dnnl_unimplemented);
    EXPECT_EQ(prelu(dt::f32, tag::nhwc), dnnl_unimplemented);
    auto shuffle = [&](dt dd, tag t) {
        return status_of([&] {
            shuffle_forward::primitive_desc(eng(), prop_kind::forward_training,
                    src, memory::desc(d, dd, t), 1, 2);
        });
    };
    EXPECT_EQ(shuffle(dt::f32, tag::nchw), dnnl_success);
    EXPECT_EQ(shuffle(dt::bf16, tag::nchw), dnnl_unimplemented);
    EXPECT_EQ(shuffle(dt::f32, tag::nhwc), dnnl_unimplemented);
}

// An output in a blocked layout keeps its padding zero, also where the
// memory held other values before (resampling over nChw16c, 5 channels).
TEST(ConformanceChecks, BlockedOutputPaddingIsZero) {
    memory::desc src({2, 5, 4, 4}, dt::f32, tag::nChw16c);
    memory::desc dst({2, 5, 8, 8}, dt::f32, tag::nChw16c);
    resampling_forward::primitive_desc pd(eng(), prop_kind::forward_training,
            algorithm::resampling_nearest, src, dst);
    memory ms(src, eng()), md(dst, eng());
    float *s = static_cast<float *>(ms.get_data_handle());
    float *d = static_cast<float *>(md.get_data_handle());
    for (size_t i = 0; i < src.get_size() / sizeof(float); ++i)
        s[i] = (i % 16) < 5 ? 1.f + (float)i : 0.f;
    for (size_t i = 0; i < dst.get_size() / sizeof(float); ++i)
        d[i] = 7.f;
    stream st(eng());
    resampling_forward(pd).execute(st, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
    st.wait();
    for (size_t i = 0; i < dst.get_size() / sizeof(float); ++i)
        if (i % 16 >= 5) ASSERT_EQ(d[i], 0.f) << i;
}

TEST(ConformanceChecks, PoolingForwardSourceNeedsALayout) {
    memory::desc any({1, 4, 8, 8}, dt::f32, tag::any);
    memory::desc dst({1, 4, 4, 4}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        pooling_forward::primitive_desc(eng(), prop_kind::forward_inference,
                algorithm::pooling_max, any, dst, {2, 2}, {2, 2}, {0, 0},
                {0, 0}, {0, 0});
    }),
            dnnl_invalid_arguments);
}

// Max and average pooling of s8 data against the plain formula (average
// rounded to nearest even).
TEST(ConformanceChecks, IntegerPooling) {
    const memory::dim C = 3, IH = 6, OH = 3;
    memory::desc src({1, C, IH, IH}, dt::s8, tag::nchw);
    memory::desc dst({1, C, OH, OH}, dt::s8, tag::nchw);
    memory ms(src, eng());
    int8_t *s = static_cast<int8_t *>(ms.get_data_handle());
    for (int i = 0; i < C * IH * IH; ++i)
        s[i] = (int8_t)((i * 37) % 255 - 127);
    stream st(eng());
    for (auto alg : {algorithm::pooling_max,
                 algorithm::pooling_avg_exclude_padding}) {
        pooling_forward::primitive_desc pd(eng(), prop_kind::forward_inference,
                alg, src, dst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0});
        memory md(pd.dst_desc(), eng());
        pooling_forward(pd).execute(
                st, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
        st.wait();
        const int8_t *d = static_cast<const int8_t *>(md.get_data_handle());
        for (int c = 0; c < C; ++c)
            for (int oh = 0; oh < OH; ++oh)
                for (int ow = 0; ow < OH; ++ow) {
                    int mx = -128, sum = 0;
                    for (int kh = 0; kh < 2; ++kh)
                        for (int kw = 0; kw < 2; ++kw) {
                            const int v = s[(c * IH + oh * 2 + kh) * IH + ow * 2
                                    + kw];
                            mx = std::max(mx, v);
                            sum += v;
                        }
                    const int want = alg == algorithm::pooling_max
                            ? mx
                            : (int)std::nearbyint(sum / 4.f);
                    EXPECT_EQ(d[(c * OH + oh) * OH + ow], want)
                            << c << " " << oh << " " << ow;
                }
    }
}

// A right padding of -1 (the last window ends a point before the source):
// oneDNN takes it down to -stride.
TEST(ConformanceChecks, PoolingWindowsEndingBeforeTheSource) {
    memory::desc src({1, 1, 1, 5}, dt::f32, tag::nchw);
    memory::desc dst({1, 1, 1, 2}, dt::f32, tag::nchw);
    pooling_forward::primitive_desc pd(eng(), prop_kind::forward_inference,
            algorithm::pooling_max, src, dst, {1, 2}, {1, 2}, {0, 0}, {0, 0},
            {0, -1});
    memory ms(src, eng()), md(dst, eng());
    float *s = static_cast<float *>(ms.get_data_handle());
    for (int i = 0; i < 5; ++i)
        s[i] = (float)(10 - i * i);
    stream st(eng());
    pooling_forward(pd).execute(st, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
    st.wait();
    const float *d = static_cast<const float *>(md.get_data_handle());
    EXPECT_EQ(d[0], 10.f); // max(10, 9)
    EXPECT_EQ(d[1], 6.f); // max(6, 1): the last point is outside every window
    EXPECT_EQ(status_of([&] {
        pooling_forward::primitive_desc(eng(), prop_kind::forward_inference,
                algorithm::pooling_max, src, dst, {1, 2}, {1, 2}, {0, 0},
                {0, 0}, {0, -3});
    }),
            dnnl_invalid_arguments);
}

// Empty sources execute: pooling over a zero-height source writes its
// windows' empty values, its backward has nothing to write.
TEST(ConformanceChecks, PoolingOverAnEmptySource) {
    memory::desc src({2, 4, 0, 4}, dt::f32, tag::nchw);
    memory::desc dst({2, 4, 2, 4}, dt::f32, tag::nchw);
    pooling_forward::primitive_desc pd(eng(), prop_kind::forward_training,
            algorithm::pooling_avg_include_padding, src, dst, {1, 1}, {3, 3},
            {0, 0}, {1, 1}, {3, 1});
    memory ms(src, eng()), md(dst, eng());
    stream st(eng());
    pooling_forward(pd).execute(st, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
    st.wait();
    const float *d = static_cast<const float *>(md.get_data_handle());
    for (int i = 0; i < 2 * 4 * 2 * 4; ++i)
        EXPECT_EQ(d[i], 0.f);
    pooling_backward::primitive_desc bpd(eng(),
            algorithm::pooling_avg_include_padding, src, dst, {1, 1}, {3, 3},
            {0, 0}, {1, 1}, {3, 1}, pd);
    memory dsrc(src, eng());
    pooling_backward(bpd).execute(
            st, {{DNNL_ARG_DIFF_DST, md}, {DNNL_ARG_DIFF_SRC, dsrc}});
    st.wait();
}

// Layer normalization of an empty tensor: statistics of the rows that
// exist are zero; the scale gradient of zero rows is zero.
TEST(ConformanceChecks, LayerNormOverEmptyRows) {
    memory::desc src({6, 3, 0}, dt::f32, tag::abc);
    layer_normalization_forward::primitive_desc pd(eng(),
            prop_kind::forward_training, src, src, 1e-5f,
            normalization_flags::use_scale);
    memory ms(src, eng()), mean(pd.mean_desc(), eng()),
            var(pd.variance_desc(), eng()), sc(pd.weights_desc(), eng());
    float *m = static_cast<float *>(mean.get_data_handle());
    float *v = static_cast<float *>(var.get_data_handle());
    for (int i = 0; i < 18; ++i)
        m[i] = v[i] = 5.f;
    stream st(eng());
    layer_normalization_forward(pd).execute(st,
            {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, ms}, {DNNL_ARG_MEAN, mean},
                    {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, sc}});
    st.wait();
    for (int i = 0; i < 18; ++i) {
        EXPECT_EQ(m[i], 0.f);
        EXPECT_EQ(v[i], 0.f);
    }
}

// Statistics of `any` layout follow the source's order of the other dims.
TEST(ConformanceChecks, LayerNormStatisticsFollowTheSource) {
    memory::desc src({4, 3, 8}, dt::f32, tag::bac);
    layer_normalization_forward::primitive_desc pd(eng(),
            prop_kind::forward_training, src, src, 1e-5f,
            normalization_flags::none);
    EXPECT_EQ(pd.mean_desc(), memory::desc({4, 3}, dt::f32, tag::ba));
}

TEST(ConformanceChecks, InnerProductWeightsWithoutElements) {
    memory::desc src({2, 0}, dt::f32, tag::ab), wei({4, 0}, dt::f32, tag::ab);
    memory::desc dst({2, 4}, dt::f32, tag::ab);
    EXPECT_EQ(status_of([&] {
        inner_product_forward::primitive_desc(
                eng(), prop_kind::forward_inference, src, wei, dst);
    }),
            dnnl_invalid_arguments);
}

TEST(ConformanceChecks, SumZeroPointNeedsInt8) {
    primitive_attr attr;
    post_ops ops;
    ops.append_sum(1.f, 1, dt::f32);
    attr.set_post_ops(ops);
    memory::desc a({2, 8}, dt::f32, tag::ab), b({8, 8}, dt::f32, tag::ab);
    EXPECT_EQ(status_of([&] { matmul::primitive_desc(eng(), a, b, a, attr); }),
            dnnl_unimplemented);
    EXPECT_EQ(status_of([&] {
        inner_product_forward::primitive_desc(
                eng(), prop_kind::forward_inference, a, b, a, attr);
    }),
            dnnl_unimplemented);
}

TEST(ConformanceChecks, RuntimeRnnQuantizationIsUnimplemented) {
    const memory::dim n = 1, t = 1, l = 1, c = 8, g = 4, d = 1;
    memory::desc sl({t, n, c}, dt::u8, tag::tnc);
    memory::desc si({l, d, n, c}, dt::u8, tag::ldnc);
    memory::desc sc({l, d, n, c}, dt::f32, tag::ldnc);
    memory::desc wl({l, d, c, g, c}, dt::s8, tag::any);
    memory::desc wi({l, d, c, g, c}, dt::s8, tag::any);
    memory::desc bi({l, d, g, c}, dt::f32, tag::ldgo);
    for (bool rt : {false, true}) {
        primitive_attr attr;
        attr.set_rnn_data_qparams(rt ? DNNL_RUNTIME_F32_VAL : 2.f, 2.f);
        attr.set_rnn_weights_qparams(0, {2.f});
        EXPECT_EQ(status_of([&] {
            lstm_forward::primitive_desc(eng(), prop_kind::forward_inference,
                    rnn_direction::unidirectional_left2right, sl, si, sc, wl,
                    wi, bi, sl, si, sc, attr);
        }),
                rt ? dnnl_unimplemented : dnnl_success);
    }
}

TEST(ConformanceChecks, LargestDescriptorIsValidButCannotBeAllocated) {
    const memory::dim n = INT64_MAX;
    memory::desc md({n}, dt::u8, tag::x);
    EXPECT_EQ(md.get_size(), (size_t)n);
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_memory_create(&m, md.get(), eng().get(), DNNL_MEMORY_ALLOCATE),
            dnnl_out_of_memory);
    // One element more than a dim_t counts in bytes: refused.
    EXPECT_THROW(memory::desc({n / 2 + 1}, dt::f16, tag::x), dnnl::error);
}

} // namespace
