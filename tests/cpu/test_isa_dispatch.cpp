// The implementation name (impl_info_str, as verbose prints it) says which
// kernels run, for the ISA the library is pinned to: convolution (GEMM
// and depthwise paths), LRN, eltwise, pooling, softmax, the three
// normalizations, the fast reorder, resampling, the tensor-wide row
// families and matmul's GEMM (f32, bf16 and u8 x s8). Kernels name data
// type, operation with tile or walk, and ISA (f32_lrn_across_cp__avx2, as
// the GEMM's f32_gemm_12x32__avx512f); the expected names follow from
// dnnl_get_effective_cpu_isa() and the processor.
//
// IsaDispatch.EveryIsaOfThisMachine runs the other tests again in child
// processes, once per ISA the processor has, pinned through
// ONEDNN_MAX_CPU_ISA and once more through dnnl_set_max_cpu_isa (called
// by this file's test environment before any test when
// DNNL_TEST_SET_MAX_CPU_ISA holds an ISA value), and the child checks
// that the pin took effect. CTest also runs this binary's table tests
// under ONEDNN_MAX_CPU_ISA = SSE41, AVX2, AVX512_CORE (cpu_isa_* tests).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

bool dnnl_test_cpu_isa_entry_supported(unsigned isa);

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

bool includes(unsigned a, unsigned b) {
    return (a & b) == b;
}

// In a child of EveryIsaOfThisMachine: the ISA value to pin through
// dnnl_set_max_cpu_isa before any test, and what that call returned.
const char *const set_isa_var = "DNNL_TEST_SET_MAX_CPU_ISA";
const char *const expect_isa_var = "DNNL_TEST_EXPECT_EFFECTIVE_ISA";
dnnl_status_t set_isa_status = dnnl_success;

struct pin_isa_env_t : public ::testing::Environment {
    void SetUp() override {
        if (const char *v = std::getenv(set_isa_var))
            set_isa_status = dnnl_set_max_cpu_isa((dnnl_cpu_isa_t)std::atoi(v));
    }
};
::testing::Environment *const pin_isa_env =
        ::testing::AddGlobalTestEnvironment(new pin_isa_env_t);

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
    case level_t::avx512:
        return "avx512_core";
    case level_t::avx2:
        return "avx2";
    default:
        return sse41_floor ? "sse41" : "sse2";
    }
}

// f32 forward eltwise runs on generated code from AVX2 up (its main loop
// takes four vectors an iteration), on the SSE4.1 kernel set below.
std::string eltwise_name(const std::string &alg) {
    switch (level()) {
    case level_t::avx512:
        return "jit:f32_eltwise_" + alg + "_u64__avx512_core";
    case level_t::avx2:
        return "jit:f32_eltwise_" + alg + "_u32__avx2";
    default:
        return "simd:f32_eltwise_" + alg + "_flat__sse41";
    }
}

std::string f32_gemm_token() {
    switch (level()) {
    case level_t::avx512:
        return "f32_gemm_12x32__avx512f";
    case level_t::avx2:
        return "f32_gemm_6x16__avx2_fma";
    default:
        return "f32_gemm_4x8__generic";
    }
}

// u8 x s8: quads on the VNNI dot products where the limit allows them
// (AVX-512 VNNI, else AVX-VNNI), int16 pairs otherwise.
std::string s32_gemm_token() {
    const unsigned eff = (unsigned)get_effective_cpu_isa();
    const bool fma = __builtin_cpu_supports("fma");
    if (includes(eff, (unsigned)cpu_isa::avx512_core_vnni) && fma)
        return "s32_gemm_12x32c4__avx512vnni";
    if (includes(eff, (unsigned)cpu_isa::avx2_vnni) && fma)
        return "s32_gemm_6x16c4__avx2vnni";
    switch (level()) {
    case level_t::avx512:
        return "s32_gemm_12x32c2__avx512bw";
    case level_t::avx2:
        return "s32_gemm_6x16c2__avx2";
    default:
        return "s32_gemm_4x8c2__generic";
    }
}

// bf16 x bf16: the bf16 dot products where allowed, else f32 kernels.
std::string bf16_gemm_token() {
    const unsigned eff = (unsigned)get_effective_cpu_isa();
    if (includes(eff, (unsigned)cpu_isa::avx512_core_bf16)
            && __builtin_cpu_supports("fma"))
        return "f32_gemm_12x32c2__avx512bf16";
    return f32_gemm_token();
}

bool ends_with(const std::string &s, const std::string &t) {
    return s.size() >= t.size()
           && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

struct IsaDispatch : public ::testing::Test {
    engine eng{engine::kind::cpu, 0};
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
    // bf16 / f16: converted by the generated kernel on AVX-512, in f32
    // blocks on the compiled kernels below.
    const auto low = [&](const std::string &dts) {
        if (level() == level_t::avx512)
            return "jit:" + dts + "_eltwise_tanh_u64__avx512_core";
        return "simd:" + dts + "_eltwise_tanh_stage1024__" + isa_token(true);
    };
    auto b16 = memory::desc({2, 16, 8, 8}, dt::bf16, tag::nchw);
    eltwise_forward::primitive_desc pb(eng, prop_kind::forward_inference,
            algorithm::eltwise_tanh, b16, b16, 0.f, 0.f);
    EXPECT_EQ(pb.impl_info_str(), low("bf16"));
    // Post-ops stay on the compiled kernels.
    post_ops add;
    add.append_binary(algorithm::binary_add,
            memory::desc({1, 1, 1, 1}, dt::f32, tag::nchw));
    primitive_attr with_add;
    with_add.set_post_ops(add);
    eltwise_forward::primitive_desc po(eng, prop_kind::forward_inference,
            algorithm::eltwise_tanh, b16, b16, 0.f, 0.f, with_add);
    EXPECT_EQ(po.impl_info_str(),
            "simd:bf16_eltwise_tanh_stage1024__" + isa_token(true));
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
    EXPECT_EQ(t.impl_info_str(), "simple:f32_transpose_16x16__" + isa_token());
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
    convolution_forward::primitive_desc dpd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, dsrc, dwei, dsrc, {1, 1}, {1, 1},
            {1, 1});
    // 8 points at a time where 32 vector registers hold them, 6 in 16.
    const std::string dw_tile = isa_token().find("avx512") == 0 ? "8x16" : "6x16";
    EXPECT_EQ(dpd.impl_info_str(),
            "dw:direct:f32_dwconv_" + dw_tile + "__" + isa_token());
    // Channels first: output rows of one channel plane.
    auto psrc = act({2, 32, 14, 14});
    convolution_forward::primitive_desc ppd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, psrc, dwei, psrc, {1, 1}, {1, 1},
            {1, 1});
    EXPECT_EQ(ppd.impl_info_str(), "dw:direct:f32_dwconv_rows__" + isa_token());
}

// A transposed source goes past the BRGEMM matmul (brg_matmul:<isa>,
// whose names JitBrgemmMatmul.NameFollowsIsaLimit and
// Bf16NameFollowsIsaLimit check) to the GEMM, in f32, bf16 and int8.
TEST_F(IsaDispatch, MatmulNamesItsGemmKernel) {
    auto a = memory::desc({64, 48}, dt::f32, tag::ba);
    auto b = memory::desc({48, 80}, dt::f32, tag::ab);
    auto c = memory::desc({64, 80}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng, a, b, c);
    EXPECT_EQ(pd.impl_info_str(), "gemm:" + f32_gemm_token());

    auto a8 = memory::desc({64, 48}, dt::u8, tag::ba);
    auto b8 = memory::desc({48, 80}, dt::s8, tag::ab);
    auto c32 = memory::desc({64, 80}, dt::s32, tag::ab);
    matmul::primitive_desc p8(eng, a8, b8, c32);
    EXPECT_EQ(p8.impl_info_str(), "gemm:" + s32_gemm_token());

    auto a16 = memory::desc({64, 48}, dt::bf16, tag::ba);
    auto b16 = memory::desc({48, 80}, dt::bf16, tag::ab);
    matmul::primitive_desc p16(eng, a16, b16, c);
    EXPECT_EQ(p16.impl_info_str(), "gemm:" + bf16_gemm_token());
}

// Resampling names its stored types, algorithm and walk: rows of
// channels-first tensors, channel vectors of channels-last ones.
TEST_F(IsaDispatch, ResamplingNamesItsKernels) {
    auto src = act({2, 16, 8, 8}), dst = act({2, 16, 12, 12});
    resampling_forward::primitive_desc lin(eng, prop_kind::forward_inference,
            algorithm::resampling_linear, src, dst);
    EXPECT_EQ(lin.impl_info_str(),
            "simd:f32_resampling_linear_rows__" + isa_token());
    auto nsrc = act({2, 16, 8, 8}, tag::nhwc);
    auto ndst = act({2, 16, 12, 12}, tag::nhwc);
    resampling_forward::primitive_desc near(eng, prop_kind::forward_inference,
            algorithm::resampling_nearest, nsrc, ndst);
    EXPECT_EQ(near.impl_info_str(),
            "simd:f32_resampling_nearest_cvec__" + isa_token());
    auto bsrc = memory::desc({2, 16, 8, 8}, dt::bf16, tag::nchw);
    resampling_forward::primitive_desc mixed(eng, prop_kind::forward_inference,
            algorithm::resampling_linear, bsrc, dst);
    EXPECT_EQ(mixed.impl_info_str(),
            "simd:bf16_f32_resampling_linear_rows__" + isa_token());
}

// The tensor-wide families on the row kernels: stored types, family,
// walk (the loop nest for these dense layouts), ISA.
TEST_F(IsaDispatch, RowFamiliesNameTheirKernels) {
    auto md = act({2, 16, 8, 8});
    binary::primitive_desc b(eng, algorithm::binary_add, md, md, md);
    EXPECT_EQ(b.impl_info_str(), "simd:f32_binary_nest__" + isa_token());
    auto s8 = memory::desc({2, 16, 8, 8}, dt::s8, tag::nchw);
    auto red = memory::desc({2, 16, 1, 1}, dt::f32, tag::nchw);
    reduction::primitive_desc r(
            eng, algorithm::reduction_sum, s8, red, 0.f, 0.f);
    EXPECT_EQ(r.impl_info_str(), "simd:s8_f32_reduction_nest__" + isa_token());
}

// The verbose line of an execution carries the same name, for the five
// families the dispatch issue names: eltwise, LRN, pooling, convolution
// and matmul (GEMM).
namespace {

// The execution line verbose prints for `p` run with `args`.
std::string verbose_line(const engine &eng, const primitive &p,
        const std::unordered_map<int, memory> &args) {
    stream s(eng);
    set_verbose(2);
    testing::internal::CaptureStdout();
    p.execute(s, args);
    s.wait();
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    return out;
}

bool carries(const std::string &line, const std::string &name) {
    return line.find("," + name + ",") != std::string::npos;
}

} // namespace

TEST_F(IsaDispatch, VerboseLineCarriesTheName) {
    auto md = act({2, 16, 8, 8});
    memory m(md, eng), m2(md, eng);
    eltwise_forward::primitive_desc e(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
    std::string out = verbose_line(
            eng, eltwise_forward(e), {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}});
    EXPECT_TRUE(carries(out, eltwise_name("relu"))) << out;

    lrn_forward::primitive_desc l(eng, prop_kind::forward_inference,
            algorithm::lrn_across_channels, md, md, 5, 1e-4f, 0.75f, 1.f);
    out = verbose_line(
            eng, lrn_forward(l), {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m2}});
    EXPECT_TRUE(carries(out, "simd:f32_lrn_across_cp__" + isa_token())) << out;

    auto pdst = act({2, 16, 4, 4});
    memory pm(pdst, eng);
    pooling_forward::primitive_desc p(eng, prop_kind::forward_inference,
            algorithm::pooling_max, md, pdst, {2, 2}, {2, 2}, {0, 0}, {0, 0},
            {0, 0});
    out = verbose_line(
            eng, pooling_forward(p), {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, pm}});
    EXPECT_TRUE(carries(out, "simd:f32_pool_ncsp16__" + isa_token())) << out;

    auto wei = memory::desc({16, 16, 3, 3}, dt::f32, tag::oihw);
    memory wm(wei, eng);
    convolution_forward::primitive_desc c(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, md, wei, md, {1, 1}, {1, 1}, {1, 1});
    out = verbose_line(eng, convolution_forward(c),
            {{DNNL_ARG_SRC, m}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, m2}});
    EXPECT_TRUE(carries(out, c.impl_info_str())) << out;
    EXPECT_TRUE(ends_with(c.impl_info_str(), ":" + f32_gemm_token()))
            << c.impl_info_str();

    auto a = memory::desc({64, 48}, dt::f32, tag::ba);
    auto b = memory::desc({48, 80}, dt::f32, tag::ab);
    auto d = memory::desc({64, 80}, dt::f32, tag::ab);
    memory am(a, eng), bm(b, eng), dm(d, eng);
    matmul::primitive_desc mm(eng, a, b, d);
    out = verbose_line(eng, matmul(mm),
            {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, dm}});
    EXPECT_TRUE(carries(out, "gemm:" + f32_gemm_token())) << out;
}

// The names above for every ISA this processor has: the other tests of
// this file run in a child process pinned to each, through the
// environment variable and through the API.
namespace {

struct isa_pin_t {
    const char *env_name; // as ONEDNN_MAX_CPU_ISA takes it
    dnnl_cpu_isa_t isa;
};

const isa_pin_t isa_pins[] = {{"SSE41", dnnl_cpu_isa_sse41},
        {"AVX", dnnl_cpu_isa_avx}, {"AVX2", dnnl_cpu_isa_avx2},
        {"AVX2_VNNI", dnnl_cpu_isa_avx2_vnni},
        {"AVX2_VNNI_2", dnnl_cpu_isa_avx2_vnni_2},
        {"AVX512_CORE", dnnl_cpu_isa_avx512_core},
        {"AVX512_CORE_VNNI", dnnl_cpu_isa_avx512_core_vnni},
        {"AVX512_CORE_BF16", dnnl_cpu_isa_avx512_core_bf16},
        {"AVX512_CORE_FP16", dnnl_cpu_isa_avx10_1_512},
        {"AVX512_CORE_AMX", dnnl_cpu_isa_avx10_1_512_amx},
        {"AVX512_CORE_AMX_FP16", dnnl_cpu_isa_avx10_1_512_amx_fp16}};

std::string self_path() {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    return n > 0 ? std::string(buf, (size_t)n) : std::string();
}

// Runs this binary's IsaDispatch tests (but this one) with `env` before
// it, without the parent's ISA settings and GoogleTest output or shard
// settings; returns the exit status and fills `out` with what it printed.
int run_child(const std::string &env, std::string &out) {
    const std::string cmd =
            "env -u ONEDNN_MAX_CPU_ISA -u ONEDNN_CPU_ISA_HINTS "
            "-u GTEST_OUTPUT -u GTEST_TOTAL_SHARDS "
            "-u GTEST_SHARD_INDEX "
            + env + " '" + self_path()
            + "' --gtest_filter='IsaDispatch.*:-IsaDispatch.EveryIsa*' 2>&1";
    FILE *f = popen(cmd.c_str(), "r");
    if (!f) return -1;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
    const int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

} // namespace

// In a child: the pin is the effective ISA (the names were checked
// against the effective ISA, so a pin that did nothing would go unseen).
TEST_F(IsaDispatch, PinnedIsaIsInEffect) {
    const char *want = std::getenv(expect_isa_var);
    if (!want) GTEST_SKIP() << "not a pinned child";
    if (std::getenv(set_isa_var)) EXPECT_EQ(set_isa_status, dnnl_success);
    EXPECT_EQ((int)get_effective_cpu_isa(), std::atoi(want));
}

TEST_F(IsaDispatch, EveryIsaOfThisMachine) {
    ASSERT_FALSE(self_path().empty());
    int pinned = 0;
    for (const auto &p : isa_pins) {
        if (!dnnl_test_cpu_isa_entry_supported((unsigned)p.isa)) continue;
        ++pinned;
        const std::string expect =
                std::string(expect_isa_var) + "=" + std::to_string((int)p.isa);
        const std::string how[2] = {
                std::string("ONEDNN_MAX_CPU_ISA=") + p.env_name,
                std::string(set_isa_var) + "=" + std::to_string((int)p.isa)};
        for (const auto &h : how) {
            std::string out;
            const int rc = run_child(h + " " + expect, out);
            EXPECT_EQ(rc, 0) << h << ":\n" << out;
            EXPECT_EQ(out.find("FAILED"), std::string::npos) << h << ":\n"
                                                             << out;
            EXPECT_NE(out.find("[  PASSED  ]"), std::string::npos) << h << ":\n"
                                                                   << out;
        }
    }
    EXPECT_GE(pinned, 1);
}
