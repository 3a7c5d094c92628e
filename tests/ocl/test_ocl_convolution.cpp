// Convolution on the gpu engine against the naive reference: a shape
// sweep (tails, strides, dilation, asymmetric padding, groups, depthwise,
// 1x1, 1D, 3D) for each propagation kind in plain, channels-last and
// `any` layouts, blocked layouts, post-op chains, bf16 / f16, int8 with
// scales and zero points, zero batch, queries, errors, and the kernel
// cache serving a convolution that differs only in spatial size.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <utility>

#include "ocl_conv_glue.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

namespace {

using namespace ocl_conv_glue;
using dt = memory::data_type;

std::vector<shape_t> sweep() {
    return {
            shp("2d_tails", 2, 1, 3, 5, {7, 6}, {3, 3}, {}, {}, {1, 1}),
            shp("2d_1x1", 2, 1, 20, 19, {5, 5}, {1, 1}),
            shp("2d_stride_asym_pad", 1, 1, 4, 6, {9, 8}, {3, 3}, {2, 2}, {},
                    {1, 0}, {0, 1}),
            shp("2d_dilated", 1, 1, 3, 4, {9, 9}, {3, 3}, {1, 1}, {1, 2},
                    {2, 2}),
            shp("2d_groups", 2, 2, 6, 10, {6, 5}, {3, 2}, {1, 1}, {}, {1, 0}),
            shp("2d_depthwise_s2", 1, 5, 5, 5, {8, 9}, {3, 3}, {2, 2}, {},
                    {1, 1}, {0, 1}),
            shp("1d", 2, 1, 5, 3, {11}, {3}, {2}, {1}, {1}),
            shp("3d", 1, 1, 3, 4, {4, 5, 5}, {2, 3, 3}, {1, 2, 1}, {},
                    {0, 1, 1}),
            // More than one tile of rows and of columns (of the largest
            // tiles), a K loop of many steps.
            shp("2d_tiles", 2, 1, 70, 136, {9, 10}, {3, 3}, {1, 1}, {}, {1, 1}),
    };
}

// Plain layouts skip the largest tiles (one program less per pass: the
// channels-last passes, those of `any`, cover them).
void sweep_kind(kind_t kind, fmt_t act, fmt_t wei) {
    for (const shape_t &s : sweep()) {
        if (act == fmt_t::plain && s.oc > 64) continue;
        case_t c;
        c.sh = s;
        c.kind = kind;
        c.act = act;
        c.wei = wei;
        run_case(c);
    }
}

TEST(OclConvolution, ForwardPlain) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::fwd, fmt_t::plain, fmt_t::plain);
}

TEST(OclConvolution, ForwardChannelsLast) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::fwd, fmt_t::cl, fmt_t::cl);
}

TEST(OclConvolution, ForwardAny) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::fwd, fmt_t::any, fmt_t::any);
}

TEST(OclConvolution, BackwardDataPlain) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::bwd_d, fmt_t::plain, fmt_t::plain);
}

TEST(OclConvolution, BackwardDataChannelsLast) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::bwd_d, fmt_t::cl, fmt_t::cl);
}

TEST(OclConvolution, BackwardWeightsPlain) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::bwd_w, fmt_t::plain, fmt_t::plain);
}

TEST(OclConvolution, BackwardWeightsChannelsLast) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::bwd_w, fmt_t::cl, fmt_t::cl);
}

// Blocked activations and weights go through the generic layout form;
// outputs get zeros in their padding.
TEST(OclConvolution, BlockedLayouts) {
    SKIP_WITHOUT_GPU();
    for (kind_t kind : {kind_t::fwd, kind_t::bwd_d, kind_t::bwd_w}) {
        case_t c;
        c.sh = sweep()[4]; // 6 and 10 channels: padded blocks of 8
        c.kind = kind;
        c.act = c.wei = fmt_t::blocked;
        run_case(c);
    }
}

TEST(OclConvolution, MixedLayouts) {
    SKIP_WITHOUT_GPU();
    case_t c;
    c.sh = sweep()[0];
    c.act = fmt_t::plain;
    c.wei = fmt_t::cl;
    run_case(c);
    c.act = fmt_t::cl;
    c.wei = fmt_t::plain;
    c.kind = kind_t::bwd_d;
    run_case(c);
}

TEST(OclConvolution, PostOpChains) {
    SKIP_WITHOUT_GPU();
    po_t relu, sum, bin_c, bin_full, tanh_;
    relu.alpha = 0.25f;
    sum.what = po_t::sum;
    sum.scale = 0.5f;
    bin_c.what = bin_full.what = po_t::binary;
    bin_c.alg = algorithm::binary_mul;
    bin_c.mask = 2; // per channel
    bin_full.alg = algorithm::binary_add;
    bin_full.mask = -1; // the whole destination
    tanh_.alg = algorithm::eltwise_tanh;
    case_t c;
    c.sh = sweep()[2];
    c.po = {relu, sum, bin_c, bin_full, tanh_};
    run_case(c);
    c.sh = sweep()[7]; // 3D
    c.act = c.wei = fmt_t::cl;
    c.po = {sum, bin_full, relu};
    run_case(c);
}

// 16-bit data in and out, and into f32 outputs (backward data of f16,
// f32 diff weights and bias from bf16).
TEST(OclConvolution, LowPrecision) {
    SKIP_WITHOUT_GPU();
    const std::pair<dt, kind_t> cases[] = {{dt::bf16, kind_t::fwd},
            {dt::f16, kind_t::fwd}, {dt::f16, kind_t::bwd_d},
            {dt::bf16, kind_t::bwd_w}};
    for (const auto &dk : cases) {
        case_t c;
        c.sh = sweep()[4];
        c.kind = dk.second;
        c.act = c.wei = fmt_t::cl;
        c.src = c.weights = c.dst = c.bias_dt = dk.first;
        if (c.kind == kind_t::bwd_d) c.src = dt::f32;
        if (c.kind == kind_t::bwd_w) c.weights = c.bias_dt = dt::f32;
        run_case(c);
    }
}

// f64 (devices with cl_khr_fp64): shapes with tails, strides, dilation,
// groups, depthwise and 3D (run_f64_sweep).
TEST(OclConvolution, F64) {
    SKIP_WITHOUT_GPU();
    if (!device_has_fp64(gpu())) GTEST_SKIP() << "no cl_khr_fp64";
    const std::vector<shape_t> all = sweep();
    std::vector<shape_t> shapes;
    for (int i : {0, 2, 3, 4, 5, 7})
        shapes.push_back(all[(size_t)i]);
    run_f64_sweep(shapes, false);
}

TEST(OclConvolution, Int8) {
    SKIP_WITHOUT_GPU();
    const std::pair<dt, dt> types[] = {
            {dt::u8, dt::s8}, {dt::s8, dt::s32}, {dt::s8, dt::f32}};
    for (const auto &sd : types) {
        case_t c;
        c.sh = sweep()[0];
        c.src = sd.first;
        c.weights = dt::s8;
        c.dst = sd.second;
        c.act = fmt_t::cl;
        c.wei = fmt_t::any;
        c.q.src_scale = 0.5f;
        c.q.wei_scale = {0.25f};
        c.q.dst_scale = {2.f};
        run_case(c);
    }
}

// Per-channel weights scales, destination scales and zero points, per
// channel source zero points (grouped, plain layouts); then common ones, a
// source zero point the source type cannot hold and a sum with a zero
// point (depthwise, channels-last).
TEST(OclConvolution, Int8ScalesZeroPointsAndSum) {
    SKIP_WITHOUT_GPU();
    {
        const shape_t s = sweep()[4];
        case_t c;
        c.sh = s;
        c.src = dt::u8;
        c.weights = dt::s8;
        c.dst = dt::s8;
        c.bias_dt = dt::s32;
        c.act = c.wei = fmt_t::plain;
        c.q.src_scale = 1.5f;
        for (int64_t o = 0; o < s.oc; ++o)
            c.q.wei_scale.push_back(0.125f * (1 + o % 3));
        for (int64_t i = 0; i < s.ic; ++i)
            c.q.src_zp.push_back((int32_t)(i % 4));
        for (int64_t o = 0; o < s.oc; ++o) {
            c.q.dst_zp.push_back((int32_t)(o % 3) - 1);
            c.q.dst_scale.push_back(0.5f + 0.25f * (o % 2));
        }
        run_case(c);
    }
    {
        case_t c;
        c.sh = sweep()[5];
        c.src = dt::u8;
        c.weights = dt::s8;
        c.bias_dt = dt::s32;
        c.act = c.wei = fmt_t::cl;
        c.q.src_scale = 1.5f;
        c.q.wei_scale = {0.25f};
        c.q.src_zp = {300};
        c.q.dst_zp = {2};
        c.q.dst_scale = {2.f};
        po_t sum;
        sum.what = po_t::sum;
        sum.scale = 0.5f;
        sum.zp = 1;
        c.po = {sum};
        c.dst = dt::u8;
        run_case(c);
    }
}

// A common weights zero point (the gpu engine's, as oneDNN's; the cpu
// engine refuses it) with and without a source one, on the GEMM kernels
// (grouped, padded) and the direct depthwise kernel; f32 convolution,
// per-channel weights zero points and deconvolution refuse it.
TEST(OclConvolution, Int8WeightsZeroPoint) {
    SKIP_WITHOUT_GPU();
    using namespace dnnl;
    for (int variant = 0; variant < 3; ++variant) {
        case_t c;
        c.sh = sweep()[variant == 2 ? 5 : 4];
        c.src = variant == 1 ? dt::s8 : dt::u8;
        c.weights = dt::s8;
        c.dst = dt::f32;
        c.act = c.wei = variant == 0 ? fmt_t::plain : fmt_t::cl;
        c.q.wei_zp = {variant == 1 ? -3 : 5};
        if (variant != 1) c.q.src_zp = {7};
        c.q.src_scale = 0.5f;
        run_case(c);
    }
    const memory::desc s({1, 4, 5, 5}, dt::u8, memory::format_tag::nchw),
            w({8, 4, 3, 3}, dt::s8, memory::format_tag::oihw),
            d({1, 8, 5, 5}, dt::s32, memory::format_tag::nchw),
            f({1, 4, 5, 5}, dt::f32, memory::format_tag::nchw),
            fw({8, 4, 3, 3}, dt::f32, memory::format_tag::oihw),
            fd({1, 8, 5, 5}, dt::f32, memory::format_tag::nchw);
    auto status = [&](const memory::desc &a, const memory::desc &b,
                          const memory::desc &o, int mask) {
        primitive_attr attr;
        attr.set_zero_points_mask(DNNL_ARG_WEIGHTS, mask);
        try {
            convolution_forward::primitive_desc(gpu(),
                    prop_kind::forward_inference,
                    algorithm::convolution_direct, a, b, o, {1, 1}, {1, 1},
                    {1, 1}, attr);
        } catch (const dnnl::error &e) { return e.status; }
        return dnnl_success;
    };
    EXPECT_EQ(status(s, w, d, 0), dnnl_success);
    EXPECT_EQ(status(s, w, d, 1), dnnl_unimplemented);
    EXPECT_EQ(status(f, fw, fd, 0), dnnl_unimplemented);
    // The cpu engine's implementations take no weights zero point.
    {
        engine cpu(engine::kind::cpu, 0);
        primitive_attr attr;
        attr.set_zero_points_mask(DNNL_ARG_WEIGHTS, 0);
        EXPECT_THROW(convolution_forward::primitive_desc(cpu,
                             prop_kind::forward_inference,
                             algorithm::convolution_direct, s, w, d, {1, 1},
                             {1, 1}, {1, 1}, attr),
                dnnl::error);
        const memory::desc ds({1, 8, 5, 5}, dt::u8, memory::format_tag::nchw),
                dw({4, 8, 3, 3}, dt::s8, memory::format_tag::oihw),
                dd({1, 4, 5, 5}, dt::s32, memory::format_tag::nchw);
        EXPECT_THROW(deconvolution_forward::primitive_desc(gpu(),
                             prop_kind::forward_inference,
                             algorithm::deconvolution_direct, ds,
                             dw, dd, {1, 1},
                             {1, 1}, {1, 1}, attr),
                dnnl::error);
    }
}

// Winograd F(2x2, 3x3) (convolution_winograd, as oneDNN's gpu engine
// takes it): paddings 0 to 2, odd and even output sizes, asymmetric
// padding, nchw and nhwc, f32 and f16, bias and a post-op chain, against
// the naive reference; other kernels, strides, int8 and backward refuse
// it.
TEST(OclConvolution, Winograd) {
    SKIP_WITHOUT_GPU();
    using namespace dnnl;
    const shape_t shapes[] = {
            shp("wino_pad1", 2, 1, 5, 7, {7, 9}, {3, 3}, {}, {}, {1, 1}),
            shp("wino_pad0", 1, 1, 4, 3, {8, 7}, {3, 3}),
            shp("wino_pad2", 1, 1, 16, 32, {7, 7}, {3, 3}, {}, {}, {2, 2}),
            shp("wino_asym", 2, 1, 3, 4, {6, 5}, {3, 3}, {}, {}, {0, 1},
                    {1, 0}),
    };
    for (const shape_t &sh : shapes)
        for (fmt_t f : {fmt_t::plain, fmt_t::cl}) {
            case_t c;
            c.sh = sh;
            c.winograd = true;
            c.act = f;
            run_case(c);
        }
    {
        case_t c;
        c.sh = shapes[0];
        c.winograd = true;
        c.src = c.weights = c.dst = c.bias_dt = dt::f16;
        run_case(c);
        c.src = c.weights = c.bias_dt = dt::f32;
        po_t relu, sum;
        sum.what = po_t::sum;
        sum.scale = 0.5f;
        c.po = {relu, sum};
        run_case(c);
    }
    const memory::desc s({1, 16, 7, 7}, dt::f32, memory::format_tag::any),
            w3({32, 16, 3, 3}, dt::f32, memory::format_tag::any),
            w2({32, 16, 2, 2}, dt::f32, memory::format_tag::any),
            d7({1, 32, 7, 7}, dt::f32, memory::format_tag::any),
            d6({1, 32, 6, 6}, dt::f32, memory::format_tag::any),
            d4({1, 32, 4, 4}, dt::f32, memory::format_tag::any),
            s8({1, 16, 7, 7}, dt::u8, memory::format_tag::any),
            w8({32, 16, 3, 3}, dt::s8, memory::format_tag::any),
            d8({1, 32, 7, 7}, dt::s32, memory::format_tag::any);
    auto make = [&](const memory::desc &a, const memory::desc &b,
                        const memory::desc &o, memory::dims st,
                        memory::dims pad) {
        return convolution_forward::primitive_desc(gpu(),
                prop_kind::forward_inference, algorithm::convolution_winograd,
                a, b, o, st, pad, pad);
    };
    const auto pd = make(s, w3, d7, {1, 1}, {1, 1});
    EXPECT_EQ(std::string(pd.impl_info_str()), "ocl:wino:f2x2_3x3");
    EXPECT_THROW(make(s, w2, d6, {1, 1}, {0, 0}), dnnl::error);
    EXPECT_THROW(make(s, w3, d4, {2, 2}, {1, 1}), dnnl::error);
    EXPECT_THROW(make(s8, w8, d8, {1, 1}, {1, 1}), dnnl::error);
    EXPECT_THROW(convolution_backward_data::primitive_desc(gpu(),
                         algorithm::convolution_winograd, s, w3, d7, {1, 1},
                         {1, 1}, {1, 1}, pd),
            dnnl::error);
}

// The split-K workspace of backward weights in the user's scratchpad (in
// library mode the primitive keeps one per queue).
TEST(OclConvolution, BackwardWeightsUserScratchpad) {
    SKIP_WITHOUT_GPU();
    case_t c;
    c.sh = sweep()[8];
    c.kind = kind_t::bwd_w;
    c.user_scratchpad = true;
    run_case(c);
}

TEST(OclConvolution, ZeroBatch) {
    SKIP_WITHOUT_GPU();
    for (kind_t kind : {kind_t::fwd, kind_t::bwd_d, kind_t::bwd_w}) {
        case_t c;
        c.sh = sweep()[0];
        c.sh.mb = 0;
        c.kind = kind;
        run_case(c); // bwd_w: zero diff weights and bias
    }
}

TEST(OclConvolution, AnyResolvesToChannelsLast) {
    SKIP_WITHOUT_GPU();
    const memory::dims s = {2, 4, 7, 7}, w = {8, 4, 3, 3}, d = {2, 8, 7, 7};
    dnnl::convolution_forward::primitive_desc pd(gpu(),
            prop_kind::forward_inference, algorithm::convolution_auto,
            memory::desc(s, dt::f32, tag::any),
            memory::desc(w, dt::f32, tag::any),
            memory::desc({8}, dt::f32, tag::any),
            memory::desc(d, dt::f32, tag::any), {1, 1}, {1, 1}, {1, 1});
    EXPECT_EQ(pd.src_desc(), memory::desc(s, dt::f32, tag::nhwc));
    EXPECT_EQ(pd.dst_desc(), memory::desc(d, dt::f32, tag::nhwc));
    EXPECT_EQ(pd.weights_desc(), memory::desc(w, dt::f32, tag::hwio));
    EXPECT_EQ(pd.bias_desc(), memory::desc({8}, dt::f32, tag::a));
    EXPECT_EQ(pd.get_algorithm(), algorithm::convolution_direct);
    EXPECT_EQ(std::string(pd.impl_info_str()), "ocl:igemm");
    // A plain source keeps `any` weights and destination plain.
    dnnl::convolution_forward::primitive_desc pd2(gpu(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            memory::desc(s, dt::f32, tag::nchw),
            memory::desc(w, dt::f32, tag::any),
            memory::desc(d, dt::f32, tag::any), {1, 1}, {1, 1}, {1, 1});
    EXPECT_EQ(pd2.dst_desc(), memory::desc(d, dt::f32, tag::nchw));
    EXPECT_EQ(pd2.weights_desc(), memory::desc(w, dt::f32, tag::oihw));
}

// Forward depthwise runs the direct kernel; backward passes the GEMMs.
TEST(OclConvolution, DepthwiseForwardIsDirect) {
    SKIP_WITHOUT_GPU();
    const memory::dims s = {1, 8, 6, 6}, w = {8, 1, 1, 3, 3}, d = {1, 8, 6, 6};
    dnnl::convolution_forward::primitive_desc pd(gpu(),
            prop_kind::forward_training, algorithm::convolution_direct,
            memory::desc(s, dt::f32, tag::any),
            memory::desc(w, dt::f32, tag::any),
            memory::desc(d, dt::f32, tag::any), {1, 1}, {1, 1}, {1, 1});
    EXPECT_EQ(std::string(pd.impl_info_str()), "ocl:dw:direct");
    dnnl::convolution_backward_data::primitive_desc bd(gpu(),
            algorithm::convolution_direct, pd.src_desc(), pd.weights_desc(),
            pd.dst_desc(), {1, 1}, {1, 1}, {1, 1}, pd);
    EXPECT_EQ(std::string(bd.impl_info_str()), "ocl:igemm");
}

TEST(OclConvolution, UnsupportedRequestsAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    const memory::dims s = {1, 4, 5, 5}, w = {6, 4, 3, 3}, d = {1, 6, 5, 5};
    auto status = [&](algorithm alg, const dnnl::primitive_attr &attr) {
        return status_of([&] {
            dnnl::convolution_forward::primitive_desc(gpu(),
                    prop_kind::forward_inference, alg,
                    memory::desc(s, dt::f32, tag::nchw),
                    memory::desc(w, dt::f32, tag::any),
                    memory::desc(d, dt::f32, tag::nchw), {1, 1}, {1, 1}, {1, 1},
                    attr);
        });
    };
    // Winograd where it applies (3x3, unit stride; OclConvolution.Winograd
    // has the refusals).
    EXPECT_EQ(status(algorithm::convolution_winograd, {}), dnnl_success);
    // A PReLU post-op is fused (the shared chain; values in ocl_eltwise).
    dnnl::primitive_attr prelu;
    dnnl::post_ops po;
    po.append_prelu(1 << 1);
    prelu.set_post_ops(po);
    EXPECT_EQ(status(algorithm::convolution_direct, prelu), dnnl_success);
    // f32 weights with a bf16 source: no such CPU combination either.
    case_t c;
    c.sh = sweep()[0];
    c.src = dt::bf16;
    EXPECT_EQ(create_status(c), dnnl_unimplemented);
}

TEST(OclConvolution, MissingArgumentsRejected) {
    SKIP_WITHOUT_GPU();
    const memory::dims s = {1, 4, 5, 5}, w = {6, 4, 3, 3}, d = {1, 6, 5, 5};
    dnnl::convolution_forward::primitive_desc pd(gpu(),
            prop_kind::forward_inference, algorithm::convolution_direct,
            memory::desc(s, dt::f32, tag::nchw),
            memory::desc(w, dt::f32, tag::oihw),
            memory::desc({6}, dt::f32, tag::a),
            memory::desc(d, dt::f32, tag::nchw), {1, 1}, {1, 1}, {1, 1});
    dnnl::convolution_forward prim(pd);
    memory src(pd.src_desc(), gpu()), wei(pd.weights_desc(), gpu()),
            dst(pd.dst_desc(), gpu());
    // No bias.
    EXPECT_EQ(status_of([&] {
        prim.execute(
                gpu_stream(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                                      {DNNL_ARG_DST, dst}});
    }),
            dnnl_invalid_arguments);
    // A post-op's own tensor missing: a binary operand, a select
    // condition, PReLU weights (each refused before any kernel runs).
    for (int which = 0; which < 3; ++which) {
        SCOPED_TRACE("post-op " + std::to_string(which));
        dnnl::post_ops po;
        const memory::desc per_c({1, 6, 1, 1}, dt::f32, tag::nchw);
        if (which == 0) po.append_binary(algorithm::binary_add, per_c);
        if (which == 1)
            po.append_binary(algorithm::binary_select, per_c,
                    memory::desc({1, 6, 1, 1}, dt::s8, tag::nchw));
        if (which == 2) po.append_prelu(1 << 1);
        dnnl::primitive_attr attr;
        attr.set_post_ops(po);
        dnnl::convolution_forward::primitive_desc ppd(gpu(),
                prop_kind::forward_inference, algorithm::convolution_direct,
                memory::desc(s, dt::f32, tag::nchw),
                memory::desc(w, dt::f32, tag::oihw),
                memory::desc(d, dt::f32, tag::nchw), {1, 1}, {1, 1}, {1, 1},
                attr);
        memory operand(per_c, gpu());
        std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src},
                {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}};
        // Select: the operand given, its condition not.
        if (which == 1)
            args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = operand;
        EXPECT_EQ(status_of([&] {
            dnnl::convolution_forward(ppd).execute(gpu_stream(), args);
        }),
                dnnl_invalid_arguments);
    }
    // A source buffer smaller than the descriptor's.
    memory bias(pd.bias_desc(), gpu());
    memory small(memory::desc({1, 4, 2, 2}, dt::f32, tag::nchw), gpu());
    EXPECT_EQ(status_of([&] {
        prim.execute(gpu_stream(),
                {{DNNL_ARG_SRC, small}, {DNNL_ARG_WEIGHTS, wei},
                        {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}});
    }),
            dnnl_invalid_arguments);
}

// Shapes travel as kernel arguments: a convolution that differs only in
// spatial size reuses the built programs (kernel cache hits, no misses).
TEST(OclConvolution, NewSpatialSizeBuildsNoProgram) {
    SKIP_WITHOUT_GPU();
    case_t c;
    c.sh = shp("first", 1, 1, 3, 8, {7, 6}, {3, 3}, {}, {}, {1, 1});
    c.act = c.wei = fmt_t::cl;
    run_case(c);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    c.sh = shp("second", 1, 1, 3, 8, {12, 9}, {3, 3}, {}, {}, {1, 1});
    run_case(c);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_GT(after.hits, before.hits);
}

} // namespace

#endif
