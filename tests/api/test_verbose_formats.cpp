// Verbose memory descriptor fields in oneDNN 3.13's form
// `dt:flags:format_kind:layout:strides:extra` (flags: `a` the user left
// `any`, `p` padded dims, `0` a non-zero offset0; strides of layouts that
// are not dense) and the descriptors oneDNN prints for eltwise and softmax
// backward.
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

// The create lines printed while `f` runs.
template <typename F>
std::vector<std::string> create_lines(F f) {
    set_verbose(2);
    testing::internal::CaptureStdout();
    f();
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);)
        if (l.find(",create:cache") != std::string::npos) lines.push_back(l);
    return lines;
}

// Field 8 (0-based) of a create line: the memory descriptors.
std::string mds_of(const std::string &line) {
    size_t pos = 0;
    for (int i = 0; i < 8; ++i)
        pos = line.find(',', pos) + 1;
    return line.substr(pos, line.find(',', pos) - pos);
}

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

TEST(VerboseFormats, AnyPaddingOffsetAndStrides) {
    memory::desc md({2, 3, 4, 5}, dt::f32, tag::nchw);
    auto l = create_lines([&] {
        // Sum destination left `any`.
        sum(sum::primitive_desc(eng(), {1.f, 1.f}, {md, md}));
        // A padded blocked destination.
        reorder(reorder::primitive_desc(eng(), md, eng(),
                memory::desc({2, 3, 4, 5}, dt::f32, tag::nChw8c)));
        // Non-dense strides and a non-zero offset0 (a sub-memory).
        memory::desc big({2, 8}, dt::f32, tag::ab);
        memory::desc sub = big.submemory_desc({2, 4}, {0, 2});
        eltwise_forward(eltwise_forward::primitive_desc(eng(),
                prop_kind::forward_inference, algorithm::eltwise_relu, sub,
                sub, 0.f, 0.f));
    });
    ASSERT_EQ(l.size(), 3u);
    EXPECT_EQ(mds_of(l[0]),
            "src:f32::blocked:abcd::f0 src:f32::blocked:abcd::f0 "
            "dst:f32:a:blocked:abcd::f0");
    EXPECT_EQ(mds_of(l[1]),
            "src:f32::blocked:abcd::f0 dst:f32:p:blocked:aBcd8b::f0");
    EXPECT_EQ(mds_of(l[2]), "data:f32:0:blocked:ab:8x1:f0");
}

TEST(VerboseFormats, EltwiseAndSoftmaxBackwardDescriptors) {
    memory::desc md({2, 16}, dt::f32, tag::ab);
    auto l = create_lines([&] {
        auto f = eltwise_forward::primitive_desc(eng(), prop_kind::forward_training,
                algorithm::eltwise_relu_use_dst_for_bwd, md, md, 0.f, 0.f);
        eltwise_backward(eltwise_backward::primitive_desc(eng(),
                algorithm::eltwise_relu_use_dst_for_bwd, md, md, md, 0.f, 0.f, f));
        auto sf = softmax_forward::primitive_desc(eng(), prop_kind::forward_training,
                algorithm::softmax_accurate, md, md, 1);
        softmax_backward(softmax_backward::primitive_desc(
                eng(), algorithm::softmax_accurate, md, md, md, 1, sf));
    });
    ASSERT_EQ(l.size(), 2u);
    const std::string f = "f32::blocked:ab::f0";
    EXPECT_EQ(mds_of(l[0]), "data:" + f + " diff:" + f);
    EXPECT_EQ(mds_of(l[1]), "src:" + f + " dst:" + f + " diff_dst:" + f);
}

} // namespace

namespace {
// Field 9 (0-based) of a create line: the attributes.
std::string attrs_of(const std::string &line) {
    size_t pos = 0;
    for (int i = 0; i < 9; ++i)
        pos = line.find(',', pos) + 1;
    return line.substr(pos, line.find(',', pos) - pos);
}
// Post-op chains in oneDNN 3.13's spelling (each expected string recorded
// from oneDNN 3.13.2 with the same convolution): parameters only as far as
// they differ from their defaults, binary tensors with their mask of
// non-unit dims and their layout (`any` as the user gave it) unless
// exactly one dim is not 1.
TEST(VerboseFormats, PostOpChains) {
    const memory::desc src({2, 16, 6, 6}, dt::f32, tag::nchw),
            w({16, 16, 3, 3}, dt::f32, tag::oihw),
            d({2, 16, 4, 4}, dt::f32, tag::nchw);
    struct case_t {
        std::function<void(post_ops &)> make;
        const char *want;
    };
    const case_t cases[] = {
            {[](post_ops &p) {
                 p.append_eltwise(algorithm::eltwise_linear, 2.f, 1.f);
             },
                    "attr-post-ops:eltwise_linear:2:1"},
            {[](post_ops &p) {
                 p.append_eltwise(algorithm::eltwise_relu, 0.1f, 0.f);
                 p.append_eltwise(algorithm::eltwise_clip, 0.f, 0.5f);
             },
                    "attr-post-ops:eltwise_relu:0.1+eltwise_clip:0:0.5"},
            {[](post_ops &p) { p.append_sum(0.5f); }, "attr-post-ops:sum:0.5"},
            {[](post_ops &p) { p.append_sum(1.f, 0, dt::f32); },
                    "attr-post-ops:sum:1:0:f32"},
            {[](post_ops &p) {
                 p.append_binary(algorithm::binary_add,
                         memory::desc({1, 16, 1, 1}, dt::f32, tag::abcd));
             },
                    "attr-post-ops:binary_add:f32:2"},
            {[](post_ops &p) {
                 p.append_binary(algorithm::binary_mul,
                         memory::desc({2, 16, 4, 4}, dt::f32, tag::nhwc));
             },
                    "attr-post-ops:binary_mul:f32:15:acdb"},
            {[](post_ops &p) {
                 p.append_binary(algorithm::binary_max,
                         memory::desc({2, 16, 4, 4}, dt::f32, tag::any));
             },
                    "attr-post-ops:binary_max:f32:15:any"},
            {[](post_ops &p) {
                 p.append_binary(algorithm::binary_select,
                         memory::desc({2, 1, 4, 4}, dt::f32, tag::abcd),
                         memory::desc({2, 1, 4, 4}, dt::s8, tag::abcd));
             },
                    "attr-post-ops:binary_select:f32:13:abcd"},
            {[](post_ops &p) { p.append_prelu(2); }, "attr-post-ops:prelu:2"},
            {[](post_ops &p) {
                 p.append_sum();
                 p.append_eltwise(algorithm::eltwise_gelu_erf, 0.f, 0.f);
             },
                    "attr-post-ops:sum+eltwise_gelu_erf"},
    };
    for (const auto &c : cases) {
        post_ops po;
        c.make(po);
        primitive_attr attr;
        attr.set_post_ops(po);
        bool created = true;
        const auto lines = create_lines([&] {
            try {
                convolution_forward(convolution_forward::primitive_desc(eng(),
                        prop_kind::forward_inference,
                        algorithm::convolution_direct, src, w, d, {1, 1},
                        {0, 0}, {0, 0}, attr));
            } catch (const error &) { created = false; }
        });
        EXPECT_TRUE(created) << c.want;
        ASSERT_FALSE(lines.empty()) << c.want;
        const std::string want = std::string(",") + c.want + ",";
        EXPECT_NE(lines[0].find(want), std::string::npos)
                << lines[0] << "\nwant " << c.want;
    }
}

// The attribute field's parts in oneDNN 3.13's order and spelling
// (recorded from oneDNN 3.13.2 with the same matmul).
TEST(VerboseFormats, AttributeFields) {
    const memory::desc a({4, 64}, dt::f32, tag::ab), b({64, 16}, dt::f32, tag::ab),
            c({4, 16}, dt::f32, tag::ab);
    primitive_attr attr;
    attr.set_scratchpad_mode(scratchpad_mode::user);
    attr.set_fpmath_mode(fpmath_mode::strict, true);
    attr.set_accumulation_mode(accumulation_mode::relaxed);
    attr.set_deterministic(true);
    attr.set_scales_mask(DNNL_ARG_DST, 0);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    attr.set_post_ops(po);
    const auto lines = create_lines(
            [&] { matmul(matmul::primitive_desc(eng(), a, b, c, attr)); });
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines[0].find(",attr-scratchpad:user attr-fpmath:strict:true "
                            "attr-acc-mode:relaxed attr-deterministic:1 "
                            "attr-scales:dst:0:f32 attr-post-ops:eltwise_relu,"),
            std::string::npos)
            << lines[0];
}

} // namespace

// oneDNN's "attr-dropout[:layout]:seed_dt:use_offset:use_host_scalars".
TEST(VerboseFormats, DropoutAttribute) {
    const memory::desc a({4, 3}, dt::f32, tag::ab), b({3, 5}, dt::f32, tag::ab),
            d({4, 5}, dt::f32, tag::ab);
    struct case_t {
        memory::desc mask;
        dt seed_dt;
        bool offset, host;
        const char *want;
    } cases[] = {
            {memory::desc({4, 5}, dt::u8, tag::ab), dt::s32, false, false,
                    "attr-dropout:ab:s32:0:0"},
            {memory::desc({4, 5}, dt::u8, tag::any), dt::s64, true, true,
                    "attr-dropout:any:s64:1:1"},
            {memory::desc(), dt::s64, true, false, "attr-dropout:undef:s64:1:0"},
    };
    for (const auto &c : cases) {
        primitive_attr attr;
        attr.set_dropout(c.mask, c.seed_dt, c.offset, c.host);
        const auto lines = create_lines(
                [&] { matmul(matmul::primitive_desc(eng(), a, b, d, attr)); });
        ASSERT_FALSE(lines.empty());
        EXPECT_EQ(attrs_of(lines.back()), c.want) << lines.back();
    }
}

// oneDNN prints an RNN's data quantization as "rnn_data_qparams:scale:shift;"
// (and not its weights scales).
TEST(VerboseFormats, RnnDataQparams) {
    const memory::desc sl({2, 1, 4}, dt::u8, tag::tnc), si({1, 1, 1, 4}, dt::u8, tag::ldnc),
            sic({1, 1, 1, 4}, dt::f32, tag::ldnc), w({1, 1, 4, 4, 4}, dt::s8, tag::ldigo),
            b({1, 1, 4, 4}, dt::f32, tag::ldgo);
    primitive_attr attr;
    attr.set_rnn_data_qparams(64.f, 128.f);
    attr.set_rnn_weights_qparams(0, {100.f});
    const auto lines = create_lines([&] {
        lstm_forward(lstm_forward::primitive_desc(eng(), prop_kind::forward_inference,
                rnn_direction::unidirectional_left2right, sl, si, sic, w, w, b, sl, si, sic,
                attr));
    });
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(attrs_of(lines.back()), "rnn_data_qparams:64:128;") << lines.back();
}
