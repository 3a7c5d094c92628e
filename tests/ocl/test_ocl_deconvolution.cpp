// Deconvolution on the gpu engine against the naive reference: a shape
// sweep (tails, strides, dilation, asymmetric padding, groups, depthwise,
// 1D, 3D) for each propagation kind in plain, channels-last and `any`
// layouts, blocked layouts, forward bias and post-ops, bf16 / f16 and int8
// with scales and zero points.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include "ocl_conv_glue.hpp"

namespace {

using namespace ocl_conv_glue;
using dt = memory::data_type;

// Sizes of the deconvolution's source (its destination is larger).
std::vector<shape_t> sweep() {
    return {
            shp("2d_tails", 2, 1, 3, 5, {5, 4}, {3, 3}, {}, {}, {1, 1}),
            shp("2d_stride_asym_pad", 1, 1, 4, 6, {4, 5}, {3, 3}, {2, 2}, {},
                    {1, 0}, {0, 1}),
            shp("2d_dilated_s2", 1, 1, 3, 4, {4, 4}, {3, 2}, {2, 3}, {1, 0},
                    {1, 0}),
            shp("2d_groups", 2, 2, 6, 4, {4, 5}, {3, 2}, {1, 1}, {}, {1, 0}),
            shp("2d_depthwise_s2", 1, 5, 5, 5, {4, 5}, {3, 3}, {2, 2}, {},
                    {1, 1}),
            shp("1d", 2, 1, 5, 3, {6}, {3}, {2}, {1}, {1}),
            shp("3d", 1, 1, 3, 4, {3, 3, 4}, {2, 3, 3}, {1, 2, 1}, {},
                    {0, 1, 1}),
    };
}

void sweep_kind(kind_t kind, fmt_t f) {
    for (const shape_t &s : sweep()) {
        case_t c;
        c.deconv = true;
        c.sh = s;
        c.kind = kind;
        c.act = c.wei = f;
        run_case(c);
    }
}

TEST(OclDeconvolution, ForwardPlain) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::fwd, fmt_t::plain);
}

TEST(OclDeconvolution, ForwardAny) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::fwd, fmt_t::any);
}

TEST(OclDeconvolution, BackwardDataChannelsLast) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::bwd_d, fmt_t::cl);
}

TEST(OclDeconvolution, BackwardWeightsPlain) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::bwd_w, fmt_t::plain);
}

TEST(OclDeconvolution, BackwardWeightsChannelsLast) {
    SKIP_WITHOUT_GPU();
    sweep_kind(kind_t::bwd_w, fmt_t::cl);
}

// Blocked weights seen with their channel axes swapped (the convolution
// tests cover the other passes on blocked layouts).
TEST(OclDeconvolution, BlockedLayouts) {
    SKIP_WITHOUT_GPU();
    case_t c;
    c.deconv = true;
    c.sh = sweep()[3];
    c.act = c.wei = fmt_t::blocked;
    run_case(c);
}

TEST(OclDeconvolution, ForwardPostOps) {
    SKIP_WITHOUT_GPU();
    po_t sum, bin, elu;
    sum.what = po_t::sum;
    sum.scale = 2.f;
    bin.what = po_t::binary;
    bin.alg = algorithm::binary_max;
    bin.mask = 2;
    elu.alg = algorithm::eltwise_elu;
    elu.alpha = 0.5f;
    case_t c;
    c.deconv = true;
    c.sh = sweep()[1];
    c.act = fmt_t::cl;
    c.wei = fmt_t::any;
    c.po = {sum, bin, elu};
    run_case(c);
}

TEST(OclDeconvolution, LowPrecision) {
    SKIP_WITHOUT_GPU();
    case_t c;
    c.deconv = true;
    c.sh = sweep()[3];
    c.act = c.wei = fmt_t::cl;
    c.src = c.weights = c.dst = c.bias_dt = dt::bf16;
    run_case(c);
}

// u8 source into s8 (plain), s8 into f32 (grouped), with per-channel
// weights scales and source zero points.
// f64 (devices with cl_khr_fp64): shapes with tails, strides, dilation,
// groups, depthwise and 3D (run_f64_sweep).
TEST(OclDeconvolution, F64) {
    SKIP_WITHOUT_GPU();
    if (!device_has_fp64(gpu())) GTEST_SKIP() << "no cl_khr_fp64";
    const std::vector<shape_t> all = sweep();
    std::vector<shape_t> shapes;
    for (int i : {0, 1, 2, 3, 4, 6})
        shapes.push_back(all[(size_t)i]);
    run_f64_sweep(shapes, true);
}

TEST(OclDeconvolution, Int8) {
    SKIP_WITHOUT_GPU();
    for (const shape_t &s : {sweep()[0], sweep()[3]}) {
        const bool grouped = s.g > 1;
        case_t c;
        c.deconv = true;
        c.sh = s;
        c.src = grouped ? dt::s8 : dt::u8;
        c.weights = dt::s8;
        c.dst = grouped ? dt::f32 : dt::s8;
        c.act = fmt_t::cl;
        c.wei = fmt_t::any;
        c.q.src_scale = 0.5f;
        for (int64_t o = 0; o < s.oc; ++o)
            c.q.wei_scale.push_back(0.25f * (1 + o % 2));
        c.q.dst_scale = {2.f};
        for (int64_t i = 0; i < s.ic; ++i)
            c.q.src_zp.push_back((int32_t)(i % 3));
        c.q.dst_zp = {1};
        run_case(c);
    }
}

TEST(OclDeconvolution, WinogradUnimplemented) {
    SKIP_WITHOUT_GPU();
    const memory::dims s = {1, 4, 5, 5}, w = {6, 4, 3, 3}, d = {1, 6, 7, 7};
    EXPECT_EQ(status_of([&] {
        dnnl::deconvolution_forward::primitive_desc(gpu(),
                prop_kind::forward_inference, algorithm::deconvolution_winograd,
                memory::desc(s, dt::f32, tag::any),
                memory::desc(w, dt::f32, tag::any),
                memory::desc(d, dt::f32, tag::any), {1, 1}, {0, 0}, {0, 0});
    }),
            dnnl_unimplemented);
}

} // namespace

#endif
