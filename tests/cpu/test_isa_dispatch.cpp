// The implementation name (impl_info_str, as verbose prints it) says which
// kernels run, for the ISA the library is pinned to: convolution (GEMM
// and depthwise paths), LRN, eltwise, pooling, softmax, the three
// normalizations, the fast reorder and matmul's GEMM. Kernels name data
// type, operation with tile or walk, and ISA (f32_lrn_across_cp__avx2, as
// the GEMM's f32_gemm_12x32__avx512f). CTest
// runs this under ONEDNN_MAX_CPU_ISA = SSE41, AVX2, AVX512_CORE and
// unpinned (cpu_isa_* tests); the expected names follow from
// dnnl_get_effective_cpu_isa() and the processor.
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

bool includes(unsigned a, unsigned b) {
    return (a & b) == b;
}

// The widest of the three vector levels the kernel files are compiled for
// that the library may use (the AVX2 files also need FMA and F16C).
enum class level_t { base, avx2, avx512 };

level_t level() {
    const unsigned eff = (unsigned)get_effective_cpu_isa();
    const bool fma = __builtin_cpu_supports("fma");
    if (includes(eff, (unsigned)cpu_isa::avx512_core) && fma)
        return level_t::avx512;
    if (includes(eff, (unsigned)cpu_isa::avx2) && fma) return level_t::avx2;
    return level_t::base;
}

// The suffix of the per-ISA kernel sets; eltwise has SSE4.1 as its floor.
std::string isa_token(bool sse41_floor = false) {
    switch (level()) {
        case level_t::avx512: return "avx512_core";
        case level_t::avx2: return "avx2";
        default: return sse41_floor ? "sse41" : "sse2";
    }
}

// f32 forward eltwise runs on generated code from AVX2 up (its main loop
// takes four vectors an iteration), on the SSE4.1 kernel set below.
std::string eltwise_name(const std::string &alg) {
    switch (level()) {
        case level_t::avx512: return "jit:f32_eltwise_" + alg + "_u64__avx512_core";
        case level_t::avx2: return "jit:f32_eltwise_" + alg + "_u32__avx2";
        default: return "simd:f32_eltwise_" + alg + "_flat__sse41";
    }
}

std::string f32_gemm_token() {
    switch (level()) {
        case level_t::avx512: return "f32_gemm_12x32__avx512f";
        case level_t::avx2: return "f32_gemm_6x16__avx2_fma";
        default: return "f32_gemm_4x8__generic";
    }
}

bool ends_with(const std::string &s, const std::string &t) {
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

struct IsaDispatch : public ::testing::Test {
    engine eng {engine::kind::cpu, 0};
    memory::desc act(memory::dims d, tag t = tag::nchw) {
        return memory::desc(d, dt::f32, t);
    }
};

} // namespace

TEST_F(IsaDispatch, EltwiseNamesItsKernels) {
    auto md = act({2, 16, 8, 8});
    eltwise_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
    EXPECT_EQ(pd.impl_info_str(), eltwise_name("relu"));
    eltwise_forward::primitive_desc gelu(eng, prop_kind::forward_inference,
            algorithm::eltwise_gelu_erf, md, md, 0.f, 0.f);
    EXPECT_EQ(gelu.impl_info_str(), eltwise_name("gelu_erf"));
    // Other data types go through f32 blocks on the compiled kernels.
    auto b16 = memory::desc({2, 16, 8, 8}, dt::bf16, tag::nchw);
    eltwise_forward::primitive_desc pb(eng, prop_kind::forward_inference,
            algorithm::eltwise_tanh, b16, b16, 0.f, 0.f);
    EXPECT_EQ(pb.impl_info_str(),
            "simd:bf16_eltwise_tanh_stage1024__" + isa_token(true));
    auto f32_out = memory::desc({2, 16, 8, 8}, dt::f32, tag::nchw);
    eltwise_forward::primitive_desc pm(eng, prop_kind::forward_inference,
            algorithm::eltwise_tanh, b16, f32_out, 0.f, 0.f);
    EXPECT_EQ(pm.impl_info_str(),
            "simd:bf16_f32_eltwise_tanh_stage1024__" + isa_token(true));
    // Backward, from the destination: "_dst" for "_use_dst_for_bwd".
    eltwise_forward::primitive_desc hint(eng, prop_kind::forward_training,
            algorithm::eltwise_relu_use_dst_for_bwd, md, md, 0.f, 0.f);
    eltwise_backward::primitive_desc bwd(eng,
            algorithm::eltwise_relu_use_dst_for_bwd, md, md, md, 0.f, 0.f,
            hint);
    EXPECT_EQ(bwd.impl_info_str(),
            "simd:f32_eltwise_bwd_relu_dst_flat__" + isa_token(true));
}

TEST_F(IsaDispatch, LrnNamesItsIsa) {
    auto md = act({2, 16, 8, 8});
    lrn_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::lrn_across_channels, md, md, 5, 1e-4f, 0.75f, 1.f);
    EXPECT_EQ(pd.impl_info_str(), "simd:f32_lrn_across_cp__" + isa_token());
    // Channels last: point rows of 16-channel segments.
    auto nhwc = act({2, 32, 8, 8}, tag::nhwc);
    lrn_forward::primitive_desc pc(eng, prop_kind::forward_inference,
            algorithm::lrn_across_channels, nhwc, nhwc, 5, 1e-4f, 0.75f, 1.f);
    EXPECT_EQ(pc.impl_info_str(), "simd:f32_lrn_across_pc16__" + isa_token());
    lrn_forward::primitive_desc within(eng, prop_kind::forward_inference,
            algorithm::lrn_within_channel, md, md, 3, 1e-4f, 0.75f, 1.f);
    EXPECT_EQ(within.impl_info_str(), "simd:f32_lrn_within__" + isa_token());
}

TEST_F(IsaDispatch, PoolingNamesItsKernels) {
    struct {
        tag t;
        memory::dim c;
        const char *walk;
    } cases[] = {{tag::nchw, 16, "pool_ncsp16"}, {tag::nhwc, 16, "pool_cvec64"},
            {tag::nChw8c, 16, "pool_cvec8"}, {tag::nchw, 3, "pool_rows"}};
    for (const auto &c : cases) {
        auto src = act({2, c.c, 8, 8}, c.t), dst = act({2, c.c, 4, 4}, c.t);
        pooling_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                algorithm::pooling_max, src, dst, {2, 2}, {2, 2}, {0, 0},
                {0, 0}, {0, 0});
        EXPECT_EQ(pd.impl_info_str(),
                std::string("simd:f32_") + c.walk + "__" + isa_token());
    }
}

TEST_F(IsaDispatch, SoftmaxNamesItsKernels) {
    // Axis innermost: one row per softmax; axis 1 of nchw: lanes.
    auto rows = memory::desc({64, 100}, dt::f32, tag::ab);
    softmax_forward::primitive_desc r(eng, prop_kind::forward_inference,
            algorithm::softmax_accurate, rows, rows, 1);
    EXPECT_EQ(r.impl_info_str(), "simd:f32_softmax_rows__" + isa_token());
    auto md = act({2, 16, 8, 8});
    softmax_forward::primitive_desc l(eng, prop_kind::forward_inference,
            algorithm::softmax_accurate, md, md, 1);
    EXPECT_EQ(l.impl_info_str(), "simd:f32_softmax_lanes__" + isa_token());
}

TEST_F(IsaDispatch, NormalizationsNameTheirKernels) {
    auto rows = memory::desc({32, 64}, dt::f32, tag::ab);
    layer_normalization_forward::primitive_desc ln(eng,
            prop_kind::forward_inference, rows, rows, 1e-5f,
            normalization_flags::none);
    EXPECT_EQ(ln.impl_info_str(), "simd:f32_lnorm_rows__" + isa_token());
    auto md = act({2, 16, 8, 8});
    batch_normalization_forward::primitive_desc bn(eng,
            prop_kind::forward_inference, md, md, 1e-5f,
            normalization_flags::none);
    EXPECT_EQ(bn.impl_info_str(), "simd:f32_bnorm_rows__" + isa_token());
    group_normalization_forward::primitive_desc gn(eng,
            prop_kind::forward_inference, md, md, 4, 1e-5f,
            normalization_flags::none);
    EXPECT_EQ(gn.impl_info_str(), "simd:f32_gnorm_ncsp__" + isa_token());
}

TEST_F(IsaDispatch, ReorderNamesItsKernels) {
    auto nchw = act({2, 16, 8, 8}), nhwc = act({2, 16, 8, 8}, tag::nhwc);
    reorder::primitive_desc t(eng, nchw, eng, nhwc);
    EXPECT_EQ(t.impl_info_str(),
            "simple:f32_transpose_16x16__" + isa_token());
    auto s8 = memory::desc({2, 16, 8, 8}, dt::s8, tag::nchw);
    reorder::primitive_desc c(eng, nchw, eng, s8);
    EXPECT_EQ(c.impl_info_str(), "simple:f32_s8_cvt__" + isa_token());
    reorder::primitive_desc d(eng, nchw, eng, nchw);
    EXPECT_EQ(d.impl_info_str(), "simple:f32_copy__" + isa_token());
}

TEST_F(IsaDispatch, ConvolutionNamesItsKernels) {
    auto src = act({2, 16, 14, 14}), dst = act({2, 32, 14, 14});
    auto wei = memory::desc({32, 16, 3, 3}, dt::f32, tag::oihw);
    convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, src, wei, dst, {1, 1}, {1, 1},
            {1, 1});
    const std::string name = pd.impl_info_str();
    EXPECT_TRUE(ends_with(name, ":" + f32_gemm_token())) << name;

    // Depthwise: the direct kernel's own table.
    auto dsrc = act({2, 32, 14, 14}, tag::nhwc);
    auto dwei = memory::desc({32, 1, 1, 3, 3}, dt::f32, tag::goihw);
    convolution_forward::primitive_desc dpd(eng,
            prop_kind::forward_inference, algorithm::convolution_direct, dsrc,
            dwei, dsrc, {1, 1}, {1, 1}, {1, 1});
    EXPECT_EQ(dpd.impl_info_str(),
            "dw:direct:f32_dwconv_cvec64__" + isa_token());
    // Channels first: output rows of one channel plane.
    auto psrc = act({2, 32, 14, 14});
    convolution_forward::primitive_desc ppd(eng,
            prop_kind::forward_inference, algorithm::convolution_direct, psrc,
            dwei, psrc, {1, 1}, {1, 1}, {1, 1});
    EXPECT_EQ(ppd.impl_info_str(), "dw:direct:f32_dwconv_rows__" + isa_token());
}

// A transposed source goes past the BRGEMM matmul (brg_matmul:<isa>,
// whose name JitBrgemmMatmul.NameFollowsIsaLimit checks) to the GEMM.
TEST_F(IsaDispatch, MatmulNamesItsGemmKernel) {
    auto a = memory::desc({64, 48}, dt::f32, tag::ba);
    auto b = memory::desc({48, 80}, dt::f32, tag::ab);
    auto c = memory::desc({64, 80}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng, a, b, c);
    EXPECT_EQ(pd.impl_info_str(), "gemm:" + f32_gemm_token());
}

// The verbose line of an execution carries the same name.
TEST_F(IsaDispatch, VerboseLineCarriesTheName) {
    auto md = act({2, 16, 8, 8});
    eltwise_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
    memory m(md, eng);
    stream s(eng);
    set_verbose(2);
    testing::internal::CaptureStdout();
    eltwise_forward(pd).execute(s, {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}});
    s.wait();
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    EXPECT_NE(out.find("," + eltwise_name("relu") + ","), std::string::npos)
            << out;
}
