// Every primitive kind's verbose line against oneDNN 3.13.2: the memory
// descriptors with oneDNN's labels, the auxiliary and the problem fields
// (each expected string recorded from oneDNN 3.13.2 running the same
// creation). The auxiliary and problem fields come from the descriptors'
// field lists (src/common/verbose_layout.cpp). Layouts an implementation
// picks for `any` differ between the libraries; cases that leave any use
// "*" for the descriptors and compare the rest.
#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
using md = memory::desc;

template <typename P>
void mk(const typename P::primitive_desc &pd) {
    P p(pd);
}

// Fields 8 to 11 (0-based) of the last create line `f` prints: memory
// descriptors, attributes, auxiliary, problem.
std::string fields_of_create(const std::function<void()> &f) {
    set_verbose(2);
    testing::internal::CaptureStdout();
    f();
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    std::string last;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);)
        if (l.find(",create:cache") != std::string::npos) last = l;
    size_t pos = 0;
    for (int i = 0; i < 8 && pos != std::string::npos; ++i)
        pos = last.find(',', pos) + 1;
    const size_t end = last.rfind(','); // the time is last
    return pos == std::string::npos || end < pos ? ""
                                                 : last.substr(pos, end - pos);
}

struct case_t {
    std::string name, want;
    std::function<void()> make;
};

TEST(VerboseKinds, LinesMatchOneDnn) {
    engine eng(engine::kind::cpu, 0);
    std::vector<case_t> cases;
    auto add = [&](const char *name, const char *want,
                       std::function<void()> f) {
        cases.push_back({name, want, std::move(f)});
    };
    const auto f32 = dt::f32;
    md d2({4, 6}, f32, tag::ab), d4({2, 8, 5, 5}, f32, tag::abcd),
            d3({2, 8, 7}, f32, tag::abc), d5({2, 8, 3, 5, 5}, f32, tag::abcde);
    // eltwise
    add("eltwise_fwd",
            "data:f32::blocked:abcd::f0,,alg:eltwise_relu alpha:0.25 "
            "beta:0,2x8x5x5",
            [&] {
                mk<eltwise_forward>({eng, prop_kind::forward_training,
                        algorithm::eltwise_relu, d4, d4, 0.25f, 0.f});
            });
    add("eltwise_fwd_linear",
            "data:f32::blocked:ab::f0,,alg:eltwise_linear alpha:1.5 "
            "beta:-0.125,4x6",
            [&] {
                mk<eltwise_forward>({eng, prop_kind::forward_inference,
                        algorithm::eltwise_linear, d2, d2, 1.5f, -0.125f});
            });
    add("eltwise_bwd",
            "data:f32::blocked:ab::f0 "
            "diff:f32::blocked:ab::f0,,alg:eltwise_tanh alpha:0 beta:0,4x6",
            [&] {
                eltwise_forward::primitive_desc h(eng,
                        prop_kind::forward_training, algorithm::eltwise_tanh,
                        d2, d2);
                mk<eltwise_backward>({eng, algorithm::eltwise_tanh, d2, d2, d2,
                        0.f, 0.f, h});
            });
    add("eltwise_bwd_dst",
            "data:f32::blocked:ab::f0 "
            "diff:f32::blocked:ab::f0,,alg:eltwise_relu_use_dst_for_bwd "
            "alpha:0 beta:0,4x6",
            [&] {
                eltwise_forward::primitive_desc h(eng,
                        prop_kind::forward_training,
                        algorithm::eltwise_relu_use_dst_for_bwd, d2, d2);
                mk<eltwise_backward>(
                        {eng, algorithm::eltwise_relu_use_dst_for_bwd, d2, d2,
                                d2, 0.f, 0.f, h});
            });
    // softmax
    add("softmax_fwd",
            "src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,alg:softmax_log axis:1,2x8x5x5",
            [&] {
                mk<softmax_forward>({eng, prop_kind::forward_inference,
                        algorithm::softmax_log, d4, d4, 1});
            });
    add("softmax_bwd",
            "src:f32::blocked:ab::f0 dst:f32::blocked:ab::f0 "
            "diff_dst:f32::blocked:ab::f0,,alg:softmax_accurate axis:1,4x6",
            [&] {
                softmax_forward::primitive_desc h(eng,
                        prop_kind::forward_training,
                        algorithm::softmax_accurate, d2, d2, 1);
                mk<softmax_backward>(
                        {eng, algorithm::softmax_accurate, d2, d2, d2, 1, h});
            });
    // batch norm
    add("bnorm_fwd", "data:f32::blocked:abcd::f0,,flags:CHR,mb2ic8ih5iw5", [&] {
        mk<batch_normalization_forward>({eng, prop_kind::forward_training, d4,
                d4, 1e-3f,
                normalization_flags::use_scale | normalization_flags::use_shift
                        | normalization_flags::fuse_norm_relu});
    });
    add("bnorm_fwd_g", "data:f32::blocked:abcde::f0,,flags:G,mb2ic8id3ih5iw5",
            [&] {
                mk<batch_normalization_forward>(
                        {eng, prop_kind::forward_inference, d5, d5, 1e-3f,
                                normalization_flags::use_global_stats});
            });
    add("bnorm_bwd",
            "data:f32::blocked:abcd::f0 "
            "diff:f32::blocked:abcd::f0,,flags:C,mb2ic8ih5iw5",
            [&] {
                batch_normalization_forward::primitive_desc h(eng,
                        prop_kind::forward_training, d4, d4, 1e-3f,
                        normalization_flags::use_scale);
                mk<batch_normalization_backward>({eng, prop_kind::backward, d4,
                        d4, d4, 1e-3f, normalization_flags::use_scale, h});
            });
    add("bnorm_fwd_2d", "data:f32::blocked:ab::f0,,flags:,mb4ic6", [&] {
        mk<batch_normalization_forward>({eng, prop_kind::forward_inference, d2,
                d2, 1e-3f, normalization_flags::none});
    });
    add("bnorm_fwd_3d", "data:f32::blocked:abc::f0,,flags:,mb2ic8iw7", [&] {
        mk<batch_normalization_forward>({eng, prop_kind::forward_inference, d3,
                d3, 1e-3f, normalization_flags::none});
    });
    // layer norm
    add("lnorm_fwd",
            "src:f32::blocked:abc::f0 dst:f32::blocked:abc::f0 "
            "stats:f32::blocked:ab::f0 scale:f32::blocked:a::f0 "
            "shift:f32::blocked:a::f0,,flags:CH,2x8x7",
            [&] {
                mk<layer_normalization_forward>(
                        {eng, prop_kind::forward_training, d3, d3, 1e-3f,
                                normalization_flags::use_scale
                                        | normalization_flags::use_shift});
            });
    add("lnorm_fwd_inf",
            "src:f32::blocked:abc::f0 dst:f32::blocked:abc::f0 "
            "stats:undef::undef:::,,flags:,2x8x7",
            [&] {
                mk<layer_normalization_forward>(
                        {eng, prop_kind::forward_inference, d3, d3, 1e-3f,
                                normalization_flags::none});
            });
    add("lnorm_bwd",
            "src:f32::blocked:abc::f0 dst:f32::blocked:abc::f0 "
            "stats:f32::blocked:ab::f0 scale:f32::blocked:a::f0 "
            "shift:f32::blocked:a::f0 diff_src:f32::blocked:abc::f0 "
            "diff_scale:f32::blocked:a::f0 "
            "diff_shift:f32::blocked:a::f0,,flags:CH,2x8x7",
            [&] {
                layer_normalization_forward::primitive_desc h(eng,
                        prop_kind::forward_training, d3, d3, 1e-3f,
                        normalization_flags::use_scale
                                | normalization_flags::use_shift);
                mk<layer_normalization_backward>(
                        {eng, prop_kind::backward, d3, d3, d3, 1e-3f,
                                normalization_flags::use_scale
                                        | normalization_flags::use_shift,
                                h});
            });
    add("lnorm_bwd_g",
            "src:f32::blocked:abc::f0 dst:f32::blocked:abc::f0 "
            "stats:f32::blocked:ab::f0 "
            "diff_src:f32::blocked:abc::f0,,flags:G,2x8x7",
            [&] {
                layer_normalization_forward::primitive_desc h(eng,
                        prop_kind::forward_training, d3, d3, 1e-3f,
                        normalization_flags::use_global_stats);
                mk<layer_normalization_backward>(
                        {eng, prop_kind::backward_data, d3, d3, d3, 1e-3f,
                                normalization_flags::use_global_stats, h});
            });
    // group norm
    add("gnorm_fwd",
            "src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,flags:C,g2mb2ic8ih5iw5",
            [&] {
                mk<group_normalization_forward>(
                        {eng, prop_kind::forward_training, d4, d4, 2, 1e-3f,
                                normalization_flags::use_scale});
            });
    add("gnorm_bwd",
            "src:f32::blocked:abcd::f0 dst:f32::blocked:abcd::f0 "
            "diff_src:f32::blocked:abcd::f0,,flags:H,g4mb2ic8ih5iw5",
            [&] {
                group_normalization_forward::primitive_desc h(eng,
                        prop_kind::forward_training, d4, d4, 4, 1e-3f,
                        normalization_flags::use_shift);
                mk<group_normalization_backward>({eng, prop_kind::backward, d4,
                        d4, d4, 4, 1e-3f, normalization_flags::use_shift, h});
            });
    // lrn
    add("lrn_fwd",
            "data:f32::blocked:abcd::f0,,alg:lrn_across_channels,"
            "mb2ic8ih5iw5ls5beta0.75",
            [&] {
                mk<lrn_forward>({eng, prop_kind::forward_training,
                        algorithm::lrn_across_channels, d4, d4, 5, 1e-4f, 0.75f,
                        2.f});
            });
    add("lrn_bwd",
            "data:f32::blocked:abcd::f0 "
            "diff:f32::blocked:abcd::f0,,alg:lrn_within_channel,"
            "mb2ic8ih5iw5ls3beta0.5",
            [&] {
                lrn_forward::primitive_desc h(eng, prop_kind::forward_training,
                        algorithm::lrn_within_channel, d4, d4, 3, 1e-4f, 0.5f,
                        1.f);
                mk<lrn_backward>({eng, algorithm::lrn_within_channel, d4, d4,
                        d4, 3, 1e-4f, 0.5f, 1.f, h});
            });
    add("lrn_fwd_5d",
            "data:f32::blocked:abcde::f0,,alg:lrn_across_channels,"
            "mb2ic8id3ih5iw5ls5beta0.75",
            [&] {
                mk<lrn_forward>({eng, prop_kind::forward_inference,
                        algorithm::lrn_across_channels, d5, d5, 5, 1e-4f, 0.75f,
                        2.f});
            });
    // pooling
    md p_src({2, 8, 6, 6}, f32, tag::abcd), p_dst({2, 8, 3, 3}, f32, tag::abcd);
    add("pool_fwd",
            "src:f32::blocked:abcd::f0 dst:f32::blocked:abcd::f0 "
            "ws:u8::blocked:abcd::f0,,alg:pooling_max,mb2ic8_"
            "ih6oh3kh2sh2dh0ph0_iw6ow3kw2sw2dw0pw0",
            [&] {
                mk<pooling_forward>({eng, prop_kind::forward_training,
                        algorithm::pooling_max, p_src, p_dst, {2, 2}, {2, 2},
                        {0, 0}, {0, 0}, {0, 0}});
            });
    add("pool_bwd",
            "src:f32::blocked:abcd::f0 dst:f32::blocked:abcd::f0 "
            "ws:u8::blocked:abcd::f0,,alg:pooling_max,mb2ic8_"
            "ih6oh3kh2sh2dh0ph0_iw6ow3kw2sw2dw0pw0",
            [&] {
                pooling_forward::primitive_desc h(eng,
                        prop_kind::forward_training, algorithm::pooling_max,
                        p_src, p_dst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0});
                mk<pooling_backward>({eng, algorithm::pooling_max, p_src, p_dst,
                        {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}, h});
            });
    md p1s({2, 8, 9}, f32, tag::abc), p1d({2, 8, 5}, f32, tag::abc);
    add("pool_fwd_1d",
            "src:f32::blocked:abc::f0 "
            "dst:f32::blocked:abc::f0,,alg:pooling_avg_include_padding,mb2ic8_"
            "iw9ow5kw3sw2dw0pw1",
            [&] {
                mk<pooling_forward>({eng, prop_kind::forward_inference,
                        algorithm::pooling_avg_include_padding, p1s, p1d, {2},
                        {3}, {0}, {1}, {1}});
            });
    md p3s({2, 8, 4, 6, 6}, f32, tag::abcde),
            p3d({2, 8, 2, 3, 3}, f32, tag::abcde);
    add("pool_fwd_3d",
            "src:f32::blocked:abcde::f0 "
            "dst:f32::blocked:abcde::f0,,alg:pooling_avg_exclude_padding,"
            "mb2ic8_id4od2kd2sd2dd0pd0_ih6oh3kh2sh2dh0ph0_iw6ow3kw2sw2dw0pw0",
            [&] {
                mk<pooling_forward>({eng, prop_kind::forward_inference,
                        algorithm::pooling_avg_exclude_padding, p3s, p3d,
                        {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
            });
    // resampling
    md rs_dst({2, 8, 10, 10}, f32, tag::abcd);
    add("resampling_fwd",
            "src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,alg:resampling_linear,mb2ic8_ih5oh10_"
            "iw5ow10",
            [&] {
                mk<resampling_forward>({eng, prop_kind::forward_training,
                        algorithm::resampling_linear, d4, rs_dst});
            });
    add("resampling_bwd",
            "src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,alg:resampling_nearest,mb2ic8_ih5oh10_"
            "iw5ow10",
            [&] {
                resampling_forward::primitive_desc h(eng,
                        prop_kind::forward_training,
                        algorithm::resampling_nearest, d4, rs_dst);
                mk<resampling_backward>(
                        {eng, algorithm::resampling_nearest, d4, rs_dst, h});
            });
    md r1s({2, 8, 7}, f32, tag::abc), r1d({2, 8, 14}, f32, tag::abc);
    add("resampling_fwd_1d",
            "src:f32::blocked:abc::f0 "
            "dst:f32::blocked:abc::f0,,alg:resampling_nearest,mb2ic8_iw7ow14",
            [&] {
                mk<resampling_forward>({eng, prop_kind::forward_inference,
                        algorithm::resampling_nearest, r1s, r1d});
            });
    // convolution
    md c_src({2, 8, 7, 7}, f32, tag::abcd), c_wei({4, 8, 3, 3}, f32, tag::abcd),
            c_bia({4}, f32, tag::a), c_dst({2, 4, 4, 4}, f32, tag::abcd);
    md g_wei({2, 2, 4, 3, 3}, f32, tag::abcde);
    add("conv_fwd",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "bia:f32::blocked:a::f0 "
            "dst:f32::blocked:abcd::f0,,alg:convolution_direct,mb2_ic8oc4_"
            "ih7oh4kh3sh2dh0ph1_iw7ow4kw3sw2dw0pw1",
            [&] {
                mk<convolution_forward>({eng, prop_kind::forward_training,
                        algorithm::convolution_direct, c_src, c_wei, c_bia,
                        c_dst, {2, 2}, {0, 0}, {1, 1}, {1, 1}});
            });
    add("conv_fwd_auto",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "bia:undef::undef::: "
            "dst:f32::blocked:abcd::f0,,alg:convolution_direct,mb2_ic8oc4_"
            "ih7oh4kh3sh2dh0ph1_iw7ow4kw3sw2dw0pw1",
            [&] {
                mk<convolution_forward>({eng, prop_kind::forward_inference,
                        algorithm::convolution_auto, c_src, c_wei, c_dst,
                        {2, 2}, {0, 0}, {1, 1}, {1, 1}});
            });
    add("conv_fwd_g",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcde::f0 "
            "bia:undef::undef::: "
            "dst:f32::blocked:abcd::f0,,alg:convolution_direct,g2mb2_ic8oc4_"
            "ih7oh4kh3sh2dh0ph1_iw7ow4kw3sw2dw0pw1",
            [&] {
                mk<convolution_forward>({eng, prop_kind::forward_inference,
                        algorithm::convolution_direct, c_src, g_wei, c_dst,
                        {2, 2}, {1, 1}, {1, 1}});
            });
    add("conv_bwd_d",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "bia:undef::undef::: "
            "dst:f32::blocked:abcd::f0,,alg:convolution_direct,mb2_ic8oc4_"
            "ih7oh4kh3sh2dh0ph1_iw7ow4kw3sw2dw0pw1",
            [&] {
                convolution_forward::primitive_desc h(eng,
                        prop_kind::forward_training,
                        algorithm::convolution_direct, c_src, c_wei, c_bia,
                        c_dst, {2, 2}, {1, 1}, {1, 1});
                mk<convolution_backward_data>(
                        {eng, algorithm::convolution_direct, c_src, c_wei,
                                c_dst, {2, 2}, {1, 1}, {1, 1}, h});
            });
    add("conv_bwd_w",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "bia:f32::blocked:a::f0 "
            "dst:f32::blocked:abcd::f0,,alg:convolution_direct,mb2_ic8oc4_"
            "ih7oh4kh3sh2dh0ph1_iw7ow4kw3sw2dw0pw1",
            [&] {
                convolution_forward::primitive_desc h(eng,
                        prop_kind::forward_training,
                        algorithm::convolution_direct, c_src, c_wei, c_bia,
                        c_dst, {2, 2}, {1, 1}, {1, 1});
                mk<convolution_backward_weights>(
                        {eng, algorithm::convolution_direct, c_src, c_wei,
                                c_bia, c_dst, {2, 2}, {1, 1}, {1, 1}, h});
            });
    md c1s({2, 8, 9}, f32, tag::abc), c1w({4, 8, 3}, f32, tag::abc),
            c1d({2, 4, 7}, f32, tag::abc);
    add("conv_fwd_1d",
            "src:f32::blocked:abc::f0 wei:f32::blocked:abc::f0 "
            "bia:undef::undef::: "
            "dst:f32::blocked:abc::f0,,alg:convolution_direct,mb2_ic8oc4_"
            "iw9ow7kw3sw1dw0pw0",
            [&] {
                mk<convolution_forward>({eng, prop_kind::forward_inference,
                        algorithm::convolution_direct, c1s, c1w, c1d, {1}, {0},
                        {0}});
            });
    md c3s({2, 8, 5, 7, 7}, f32, tag::abcde),
            c3w({4, 8, 3, 3, 3}, f32, tag::abcde),
            c3d({2, 4, 3, 5, 5}, f32, tag::abcde);
    add("conv_fwd_3d",
            "src:f32::blocked:abcde::f0 wei:f32::blocked:abcde::f0 "
            "bia:undef::undef::: "
            "dst:f32::blocked:abcde::f0,,alg:convolution_direct,mb2_ic8oc4_"
            "id5od3kd3sd1dd0pd0_ih7oh5kh3sh1dh0ph0_iw7ow5kw3sw1dw0pw0",
            [&] {
                mk<convolution_forward>({eng, prop_kind::forward_inference,
                        algorithm::convolution_direct, c3s, c3w, c3d, {1, 1, 1},
                        {0, 0, 0}, {0, 0, 0}});
            });
    // deconvolution
    md dc_src({2, 4, 4, 4}, f32, tag::abcd),
            dc_wei({8, 4, 3, 3}, f32, tag::abcd),
            dc_dst({2, 8, 6, 6}, f32, tag::abcd), dc_bia({8}, f32, tag::a);
    add("deconv_fwd",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "bia:f32::blocked:a::f0 "
            "dst:f32::blocked:abcd::f0,,alg:deconvolution_direct,mb2_ic4oc8_"
            "ih4oh6kh3sh1dh0ph0_iw4ow6kw3sw1dw0pw0",
            [&] {
                mk<deconvolution_forward>({eng, prop_kind::forward_training,
                        algorithm::deconvolution_direct, dc_src, dc_wei, dc_bia,
                        dc_dst, {1, 1}, {0, 0}, {0, 0}});
            });
    add("deconv_bwd_d",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "bia:undef::undef::: "
            "dst:f32::blocked:abcd::f0,,alg:deconvolution_direct,mb2_ic4oc8_"
            "ih4oh6kh3sh1dh0ph0_iw4ow6kw3sw1dw0pw0",
            [&] {
                deconvolution_forward::primitive_desc h(eng,
                        prop_kind::forward_training,
                        algorithm::deconvolution_direct, dc_src, dc_wei, dc_bia,
                        dc_dst, {1, 1}, {0, 0}, {0, 0});
                mk<deconvolution_backward_data>(
                        {eng, algorithm::deconvolution_direct, dc_src, dc_wei,
                                dc_dst, {1, 1}, {0, 0}, {0, 0}, h});
            });
    // inner product
    md ip_w2({3, 6}, f32, tag::ab), ip_b({3}, f32, tag::a),
            ip_d({4, 3}, f32, tag::ab), ip_w4({3, 8, 5, 5}, f32, tag::abcd),
            ip_d4({2, 3}, f32, tag::ab);
    add("ip_fwd",
            "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 "
            "bia:f32::blocked:a::f0 dst:f32::blocked:ab::f0,,,mb4ic6oc3",
            [&] {
                mk<inner_product_forward>({eng, prop_kind::forward_training, d2,
                        ip_w2, ip_b, ip_d});
            });
    add("ip_fwd_4d",
            "src:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "bia:undef::undef::: dst:f32::blocked:ab::f0,,,mb2ic8ih5iw5oc3",
            [&] {
                mk<inner_product_forward>(
                        {eng, prop_kind::forward_inference, d4, ip_w4, ip_d4});
            });
    add("ip_bwd_d",
            "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 "
            "bia:undef::undef::: dst:f32::blocked:ab::f0,,,mb4ic6oc3",
            [&] {
                inner_product_forward::primitive_desc h(eng,
                        prop_kind::forward_training, d2, ip_w2, ip_b, ip_d);
                mk<inner_product_backward_data>({eng, d2, ip_w2, ip_d, h});
            });
    add("ip_bwd_w",
            "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 "
            "bia:f32::blocked:a::f0 dst:f32::blocked:ab::f0,,,mb4ic6oc3",
            [&] {
                inner_product_forward::primitive_desc h(eng,
                        prop_kind::forward_training, d2, ip_w2, ip_b, ip_d);
                mk<inner_product_backward_weights>(
                        {eng, d2, ip_w2, ip_b, ip_d, h});
            });
    // matmul
    md mm_w({6, 5}, f32, tag::ab), mm_b({1, 5}, f32, tag::ab),
            mm_d({4, 5}, f32, tag::ab);
    add("matmul",
            "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 "
            "dst:f32::blocked:ab::f0,,,4x6:6x5",
            [&] {
                mk<matmul>({eng, d2, mm_w, mm_d});
            });
    add("matmul_bias",
            "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 "
            "bia:f32::blocked:ab::f0_mask2 dst:f32::blocked:ab::f0,,,4x6:6x5",
            [&] {
                mk<matmul>({eng, d2, mm_w, mm_b, mm_d});
            });
    md mm_rs({DNNL_RUNTIME_DIM_VAL, 6}, f32, tag::ab),
            mm_rd({DNNL_RUNTIME_DIM_VAL, 5}, f32, tag::ab);
    add("matmul_rt",
            "src:f32::blocked:ab::f0 wei:f32::blocked:ab::f0 "
            "dst:f32::blocked:ab::f0,,runtime_dims_masks:1:0,*x6:6x5",
            [&] {
                mk<matmul>({eng, mm_rs, mm_w, mm_rd});
            });
    md mm_s3({3, 4, 6}, f32, tag::abc), mm_w3({1, 6, 5}, f32, tag::abc),
            mm_d3({3, 4, 5}, f32, tag::abc), mm_b3({1, 4, 1}, f32, tag::abc);
    add("matmul_3d",
            "src:f32::blocked:abc::f0 wei:f32::blocked:abc::f0 "
            "bia:f32::blocked:abc::f0_mask2 "
            "dst:f32::blocked:abc::f0,,,3x4x6:1x6x5",
            [&] {
                mk<matmul>({eng, mm_s3, mm_w3, mm_b3, mm_d3});
            });
    // reorder
    md d2t({4, 6}, f32, tag::ba);
    add("reorder", "src:f32::blocked:ab::f0 dst:f32::blocked:ba::f0,,,4x6",
            [&] {
                reorder::primitive_desc pd(eng, d2, eng, d2t);
                reorder r(pd);
            });
    md rr_s({DNNL_RUNTIME_DIM_VAL, 6}, f32, tag::ab),
            rr_d({DNNL_RUNTIME_DIM_VAL, 6}, f32, tag::ab);
    add("reorder_rt",
            "src:f32::blocked:ab::f0 "
            "dst:f32::blocked:ab::f0,,runtime-dim-mask:1,*x6",
            [&] {
                reorder::primitive_desc pd(eng, rr_s, eng, rr_d);
                reorder r(pd);
            });
    // sum, concat
    add("sum",
            "src:f32::blocked:abcd::f0 src:f32::blocked:abcd::f0 "
            "dst:f32:a:blocked:abcd::f0,,,2x8x5x5",
            [&] {
                mk<sum>({eng, {1.f, 2.f}, {d4, d4}});
            });
    add("sum_dst",
            "src:f32::blocked:abcd::f0 src:f32::blocked:abcd::f0 "
            "src:f32::blocked:abcd::f0 dst:f32::blocked:abcd::f0,,,2x8x5x5",
            [&] {
                mk<sum>({eng, d4, {1.f, 2.f, 0.5f}, {d4, d4, d4}});
            });
    md cc_d({2, 16, 5, 5}, f32, tag::abcd);
    add("concat",
            "src:f32::blocked:abcd::f0 src:f32::blocked:abcd::f0 "
            "dst:f32:a:blocked:abcd::f0,,axis:1,2x8x5x5:2x8x5x5",
            [&] {
                mk<concat>({eng, 1, {d4, d4}});
            });
    add("concat_dst",
            "src:f32::blocked:abcd::f0 src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,axis:1,2x8x5x5:2x8x5x5",
            [&] {
                mk<concat>({eng, cc_d, 1, {d4, d4}});
            });
    // binary
    md b_1({1, 8, 1, 1}, f32, tag::abcd);
    add("binary",
            "src:f32::blocked:abcd::f0 src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,alg:binary_add,2x8x5x5:1x8x1x1",
            [&] {
                mk<binary>({eng, algorithm::binary_add, d4, b_1, d4});
            });
    md b_c({2, 8, 5, 5}, dt::s8, tag::abcd);
    add("binary_select",
            "src:f32::blocked:abcd::f0 src:f32::blocked:abcd::f0 "
            "src:s8::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,alg:binary_select,2x8x5x5:2x8x5x5:"
            "2x8x5x5",
            [&] {
                mk<binary>({eng, algorithm::binary_select, d4, d4, b_c, d4});
            });
    // prelu
    md pr_w({1, 8, 1, 1}, f32, tag::abcd);
    add("prelu_fwd",
            "data:f32::blocked:abcd::f0 "
            "wei:f32::blocked:abcd::f0,,,2x8x5x5:1x8x1x1",
            [&] {
                mk<prelu_forward>(
                        {eng, prop_kind::forward_training, d4, pr_w, d4});
            });
    add("prelu_bwd",
            "data:f32::blocked:abcd::f0 wei:f32::blocked:abcd::f0 "
            "diff:f32::blocked:abcd::f0 "
            "diff_wei:f32::blocked:abcd::f0,,,2x8x5x5:1x8x1x1",
            [&] {
                prelu_forward::primitive_desc h(
                        eng, prop_kind::forward_training, d4, pr_w, d4);
                mk<prelu_backward>({eng, d4, pr_w, d4, pr_w, d4, h});
            });
    // reduction
    md rd_d({2, 1, 5, 5}, f32, tag::abcd);
    add("reduction",
            "src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,alg:reduction_norm_lp_sum p:2 "
            "eps:0.5,2x8x5x5:2x1x5x5",
            [&] {
                mk<reduction>({eng, algorithm::reduction_norm_lp_sum, d4, rd_d,
                        2.f, 0.5f});
            });
    add("reduction_sum",
            "src:f32::blocked:abcd::f0 "
            "dst:f32::blocked:abcd::f0,,alg:reduction_sum p:0 "
            "eps:0,2x8x5x5:2x1x5x5",
            [&] {
                mk<reduction>(
                        {eng, algorithm::reduction_sum, d4, rd_d, 0.f, 0.f});
            });
    // shuffle
    add("shuffle_fwd", "data:f32::blocked:abcd::f0,,axis:1 group:2,2x8x5x5",
            [&] {
                mk<shuffle_forward>(
                        {eng, prop_kind::forward_training, d4, d4, 1, 2});
            });
    add("shuffle_bwd", "data:f32::blocked:abcd::f0,,axis:1 group:2,2x8x5x5",
            [&] {
                shuffle_forward::primitive_desc h(
                        eng, prop_kind::forward_training, d4, d4, 1, 2);
                mk<shuffle_backward>({eng, d4, d4, 1, 2, h});
            });
    // rnn
    const int T = 3, N = 2, C = 4, L = 1, D = 1;
    md r_src({T, N, C}, f32, tag::tnc), r_dst({T, N, C}, f32, tag::tnc);
    md r_wl({L, D, C, 1, C}, f32, tag::ldigo),
            r_wi({L, D, C, 1, C}, f32, tag::ldigo),
            r_b({L, D, 1, C}, f32, tag::ldgo);
    md r_si({L, D, N, C}, f32, tag::ldnc);
    add("rnn_fwd",
            "src_layer:f32::blocked:abc::f0 src_iter:f32::blocked:abcd::f0 "
            "wei_layer:f32::blocked:abcde::f0 wei_iter:f32::blocked:abcde::f0 "
            "bias:f32::blocked:abcd::f0 dst_layer:f32::blocked:abc::f0 "
            "dst_iter:f32::blocked:abcd::f0,,alg:vanilla_rnn "
            "direction:unidirectional_left2right activation:eltwise_tanh "
            "flags:,l1t3mb2sic4slc4dhc4dic4",
            [&] {
                mk<vanilla_rnn_forward>({eng, prop_kind::forward_inference,
                        algorithm::eltwise_tanh,
                        rnn_direction::unidirectional_left2right, r_src, r_si,
                        r_wl, r_wi, r_b, r_dst, r_si});
            });
    md l_wl({L, D, C, 4, C}, f32, tag::ldigo),
            l_wi({L, D, C, 4, C}, f32, tag::ldigo),
            l_b({L, D, 4, C}, f32, tag::ldgo),
            l_wp({L, D, 3, C}, f32, tag::ldgo);
    add("lstm_fwd_peep",
            "src_layer:f32::blocked:abc::f0 src_iter:f32::blocked:abcd::f0 "
            "wei_layer:f32::blocked:abcde::f0 wei_iter:f32::blocked:abcde::f0 "
            "wei_peephole:f32::blocked:abcd::f0 bias:f32::blocked:abcd::f0 "
            "dst_layer:f32::blocked:abc::f0 "
            "dst_iter:f32::blocked:abcd::f0,,alg:vanilla_lstm "
            "direction:unidirectional_left2right activation:undef "
            "flags:,l1t3mb2sic4slc4dhc4dic4",
            [&] {
                mk<lstm_forward>({eng, prop_kind::forward_training,
                        rnn_direction::unidirectional_left2right, r_src, r_si,
                        r_si, l_wl, l_wi, l_wp, l_b, r_dst, r_si, r_si});
            });
    add("lstm_bwd",
            "*,,alg:vanilla_lstm direction:unidirectional_left2right "
            "activation:undef flags:,l1t3mb2sic4slc4dhc4dic4",
            [&] {
                md wa({L, D, C, 4, C}, f32, tag::any);
                lstm_forward::primitive_desc h(eng, prop_kind::forward_training,
                        rnn_direction::unidirectional_left2right, r_src, r_si,
                        r_si, wa, wa, l_b, r_dst, r_si, r_si);
                mk<lstm_backward>({eng, prop_kind::backward,
                        rnn_direction::unidirectional_left2right, r_src, r_si,
                        r_si, wa, wa, l_b, r_dst, r_si, r_si, r_src, r_si, r_si,
                        wa, wa, l_b, r_dst, r_si, r_si, h});
            });
    md g_wl({L, D, C, 3, C}, f32, tag::ldigo),
            g_b({L, D, 3, C}, f32, tag::ldgo);
    add("gru_fwd",
            "src_layer:f32::blocked:abc::f0 wei_layer:f32::blocked:abcde::f0 "
            "wei_iter:f32::blocked:abcde::f0 bias:f32::blocked:abcd::f0 "
            "dst_layer:f32::blocked:abc::f0,,alg:vanilla_gru "
            "direction:unidirectional_right2left activation:undef "
            "flags:,l1t3mb2sic4slc4dhc4dic4",
            [&] {
                mk<gru_forward>({eng, prop_kind::forward_inference,
                        rnn_direction::unidirectional_right2left, r_src, md(),
                        g_wl, g_wl, g_b, r_dst, md()});
            });

    for (const case_t &c : cases) {
        SCOPED_TRACE(c.name);
        std::string got = fields_of_create(c.make);
        std::string want = c.want;
        if (!want.empty() && want[0] == '*') // descriptors not compared
            got = "*" + got.substr(std::min(got.find(','), got.size()));
        EXPECT_EQ(got, want);
    }
}

// A convolution with a depthwise post-op: oneDNN 3.13.2 prints the
// intermediate tensor and the depthwise weights and bias between bia and
// dst, and the first convolution's problem (layouts of the weights are
// each implementation's own, so only the labels are compared).
TEST(VerboseKinds, FusedDepthwiseConvolution) {
    engine eng(engine::kind::cpu, 0);
    const md s({2, 16, 8, 8}, dt::f32, tag::nhwc),
            w({32, 16, 1, 1}, dt::f32, tag::any),
            d({2, 32, 8, 8}, dt::f32, tag::nhwc);
    post_ops po;
    po.append_dw(dt::f32, dt::f32, dt::f32, 3, 2, 1);
    primitive_attr attr;
    attr.set_post_ops(po);
    const std::string f = fields_of_create([&] {
        mk<convolution_forward>({eng, prop_kind::forward_inference,
                algorithm::convolution_direct, s, w, d, {1, 1}, {0, 0}, {0, 0},
                attr});
    });
    std::string labels;
    std::istringstream mds(f.substr(0, f.find(',')));
    for (std::string m; mds >> m;) labels += m.substr(0, m.find(':')) + " ";
    EXPECT_EQ(labels, "src wei bia src_fused wei_fused bia_fused dst ");
    EXPECT_NE(f.find(" src_fused:f32::blocked:acdb::f0 "), std::string::npos)
            << f;
    EXPECT_NE(f.find(" dst:f32::blocked:acdb::f0,"), std::string::npos) << f;
    EXPECT_EQ(f.substr(f.find(',')),
            ",attr-post-ops:dw:k3s2p1,alg:convolution_direct,"
            "mb2_ic16oc32_ih8oh8kh1sh1dh0ph0_iw8ow8kw1sw1dw0pw0");
}

// A reorder between engines names both in the engine field, as oneDNN
// prints "cpu2gpu" (the field comes from the reorder descriptor's engine
// kinds).
TEST(VerboseKinds, CrossEngineReorderNamesBothEngines) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
    const md m({2, 3}, dt::f32, tag::ab);
    set_verbose(2);
    testing::internal::CaptureStdout();
    reorder r(reorder::primitive_desc(cpu, m, gpu, m));
    reorder back(reorder::primitive_desc(gpu, m, cpu, m));
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    EXPECT_NE(
            out.find(",create:cache_miss,cpu2gpu,reorder,"), std::string::npos)
            << out;
    EXPECT_NE(
            out.find(",create:cache_miss,gpu2cpu,reorder,"), std::string::npos)
            << out;
}

} // namespace
