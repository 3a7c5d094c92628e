// Verbose output: line format of create and exec lines, cache hit/miss
// reporting, and silence when creating primitive descriptors.
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (l.rfind("onednn_verbose,", 0) == 0) out.push_back(l);
    return out;
}

std::vector<std::string> matching(
        const std::vector<std::string> &lines, const std::string &needle) {
    std::vector<std::string> out;
    for (const auto &l : lines)
        if (l.find(needle) != std::string::npos) out.push_back(l);
    return out;
}

eltwise_forward::primitive_desc relu_pd(const engine &eng, memory::dim n) {
    memory::desc md({n, 3, 4, 5}, dt::f32, tag::nchw);
    return eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
}

class Verbose : public ::testing::Test {
protected:
    void SetUp() override { set_verbose(2); }
    void TearDown() override { set_verbose(0); }
    engine eng {engine::kind::cpu, 0};
};

} // namespace

TEST_F(Verbose, CreateAndExecLinesFollowOneDnnFormat) {
    set_primitive_cache_capacity(0);
    set_primitive_cache_capacity(1024);
    if (get_primitive_cache_capacity() == 0)
        GTEST_SKIP() << "primitive cache compiled out";
    testing::internal::CaptureStdout();
    auto pd = relu_pd(eng, 29);
    const std::string after_pd = testing::internal::GetCapturedStdout();
    EXPECT_TRUE(matching(lines_of(after_pd), "create:").empty())
            << "creating a primitive descriptor prints no create line";

    testing::internal::CaptureStdout();
    eltwise_forward p(pd);
    eltwise_forward p2(relu_pd(eng, 29));
    memory::desc md({29, 3, 4, 5}, dt::f32, tag::nchw);
    memory m(md, eng);
    stream s(eng);
    p.execute(s, {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}});
    s.wait();
    const auto lines = lines_of(testing::internal::GetCapturedStdout());

    // primitive,create:cache_miss,cpu,eltwise,<impl>,forward_inference,
    // <mds>,<attrs>,alg:eltwise_relu alpha:0 beta:0,29x3x4x5,<ms>
    const std::regex create(
            "onednn_verbose,(\\d+\\.\\d+,)?v1,primitive,create:cache_(miss|hit),cpu,"
            "eltwise,[^,]+,forward_inference,data:f32::blocked:abcd::f0,"
            "[^,]*,alg:eltwise_relu alpha:0 beta:0,29x3x4x5,[0-9.e+-]+");
    auto miss = matching(lines, "create:cache_miss");
    auto hit = matching(lines, "create:cache_hit");
    ASSERT_EQ(miss.size(), 1u);
    ASSERT_EQ(hit.size(), 1u);
    EXPECT_TRUE(std::regex_match(miss[0], create)) << miss[0];
    EXPECT_TRUE(std::regex_match(hit[0], create)) << hit[0];
    auto exec = matching(lines, "primitive,exec,");
    ASSERT_EQ(exec.size(), 1u);
    EXPECT_TRUE(std::regex_match(exec[0],
            std::regex("onednn_verbose,v1,primitive,exec,cpu,eltwise,.*,29x3x4x5,[0-9.e+-]+")))
            << exec[0];
}

TEST_F(Verbose, ReorderLineNamesBothDescriptorsAndAttributes) {
    testing::internal::CaptureStdout();
    memory::desc a({2, 16, 4, 5}, dt::f32, tag::nchw), b({2, 16, 4, 5}, dt::f32, tag::nChw8c);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    reorder r(reorder::primitive_desc(eng, a, eng, b, attr));
    const auto lines = matching(lines_of(testing::internal::GetCapturedStdout()), "create:cache");
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find(",reorder,"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("src:f32::blocked:abcd::f0 dst:f32::blocked:aBcd8b::f0"),
            std::string::npos)
            << lines[0];
    EXPECT_NE(lines[0].find("attr-scales:src0:0:f32"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find(",2x16x4x5,"), std::string::npos) << lines[0];
}

TEST_F(Verbose, LevelZeroIsSilentAndBadLevelsAreRejected) {
    set_verbose(0);
    testing::internal::CaptureStdout();
    eltwise_forward p(relu_pd(eng, 31));
    EXPECT_TRUE(lines_of(testing::internal::GetCapturedStdout()).empty());
    EXPECT_EQ(dnnl_set_verbose(-1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_verbose(3), dnnl_invalid_arguments);
}

TEST_F(Verbose, DescriptorLabelsFollowOneDnn) {
    // oneDNN labels per primitive kind: eltwise data, every source of
    // binary and sum "src", matmul without a propagation kind, layer
    // normalization's statistics even when absent.
    memory::desc md({2, 3, 4, 5}, dt::f32, tag::nchw);
    testing::internal::CaptureStdout();
    eltwise_forward(relu_pd(eng, 2));
    binary(binary::primitive_desc(eng, algorithm::binary_add, md, md, md));
    sum(sum::primitive_desc(eng, {1.f, 2.f}, {md, md}));
    memory::desc a({2, 8}, dt::f32, tag::ab), w({8, 4}, dt::f32, tag::ab),
            c({2, 4}, dt::f32, tag::ab);
    matmul(matmul::primitive_desc(eng, a, w, c));
    memory::desc l({2, 3, 8}, dt::f32, tag::abc);
    layer_normalization_forward(layer_normalization_forward::primitive_desc(
            eng, prop_kind::forward_inference, l, l, 1e-5f,
            normalization_flags::none));
    const auto lines = matching(lines_of(testing::internal::GetCapturedStdout()), "create:cache");
    ASSERT_EQ(lines.size(), 5u);
    const std::string f = "f32::blocked:abcd::f0";
    EXPECT_NE(lines[0].find(",forward_inference,data:f32::blocked:abcd::f0,"),
            std::string::npos) << lines[0];
    EXPECT_NE(lines[1].find(",src:" + f + " src:" + f + " dst:" + f + ","),
            std::string::npos) << lines[1];
    EXPECT_NE(lines[2].find(",src:" + f + " src:" + f + " dst:"),
            std::string::npos) << lines[2];
    EXPECT_NE(lines[3].find(",undef,src:f32::blocked:ab::f0 wei:"),
            std::string::npos) << lines[3];
    EXPECT_NE(lines[4].find(" stats:undef::undef:::,"), std::string::npos)
            << lines[4];
}
