// The generated (JIT) eltwise kernels: every algorithm the generator
// emits, on every vector level this processor supports (whatever the
// library's ISA limit), against the naive double-precision reference on
// lengths with tails; equal configurations give equal bytes; the kernel
// cache serves a new shape without generating again; the dump file and
// the perf map line appear.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "cpu/xbyak_include.hpp"

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

#include "reference/eltwise_ref.hpp"

const void *dnnl_test_jit_eltwise_kernel(int entry, int alg, float alpha,
        float beta, int through_cache, unsigned *isa,
        void (**fn)(const float *, float *, size_t), const unsigned char **code,
        size_t *code_size);
void dnnl_test_jit_eltwise_release(const void *handle);
bool dnnl_test_cpu_isa_entry_supported(unsigned isa);
const void *dnnl_test_jit_abi_probe(void (**fn)(void));
void dnnl_test_jit_abi_probe_release(const void *handle);

namespace {

using fn_t = void (*)(const float *, float *, size_t);

// A generated kernel, released when it goes out of scope.
struct kernel_t {
    const void *handle = nullptr;
    unsigned isa = 0;
    fn_t fn = nullptr;
    const unsigned char *code = nullptr;
    size_t size = 0;
    kernel_t(int entry, dnnl_alg_kind_t alg, float alpha, float beta,
            bool cached = false) {
        handle = dnnl_test_jit_eltwise_kernel(
                entry, alg, alpha, beta, cached, &isa, &fn, &code, &size);
    }
    ~kernel_t() {
        if (handle) dnnl_test_jit_eltwise_release(handle);
    }
    std::vector<unsigned char> bytes() const { return {code, code + size}; }
};

// The JIT table entries this processor can run (0: AVX-512, 1: AVX2).
std::vector<int> runnable_entries() {
    std::vector<int> v;
    for (int e = 0;; ++e) {
        kernel_t k(e, dnnl_eltwise_relu, 0.f, 0.f);
        if (!k.handle) break;
        if (dnnl_test_cpu_isa_entry_supported(k.isa)) v.push_back(e);
    }
    return v;
}

struct alg_case_t {
    dnnl_alg_kind_t alg;
    float alpha, beta;
    float lo, hi;
};

// Every algorithm the generator emits (the primitive tests' ranges).
const alg_case_t cases[] = {
        {dnnl_eltwise_relu, 0.f, 0.f, -5, 5},
        {dnnl_eltwise_relu, 0.25f, 0.f, -5, 5},
        {dnnl_eltwise_tanh, 0.f, 0.f, -6, 6},
        {dnnl_eltwise_elu, 1.f, 0.f, -6, 4},
        {dnnl_eltwise_elu, 0.5f, 0.f, -6, 4},
        {dnnl_eltwise_square, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_abs, 0.f, 0.f, -5, 5},
        {dnnl_eltwise_sqrt, 0.f, 0.f, 0.01f, 50},
        {dnnl_eltwise_linear, 1.5f, -0.5f, -5, 5},
        {dnnl_eltwise_soft_relu, 1.f, 0.f, -20, 20},
        {dnnl_eltwise_soft_relu, -1.f, 0.f, -20, 20},
        {dnnl_eltwise_hardsigmoid, 0.2f, 0.5f, -5, 5},
        {dnnl_eltwise_logistic, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_exp, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_gelu_tanh, 0.f, 0.f, -6, 6},
        {dnnl_eltwise_swish, 1.f, 0.f, -10, 10},
        {dnnl_eltwise_swish, 0.5f, 0.f, -10, 10},
        {dnnl_eltwise_log, 0.f, 0.f, 0.01f, 100},
        {dnnl_eltwise_clip, -1.f, 2.5f, -4, 4},
        {dnnl_eltwise_clip_v2, -1.f, 2.5f, -4, 4},
        {dnnl_eltwise_pow, 2.f, 2.f, -3, 3},
        {dnnl_eltwise_pow, 1.f, -1.f, 0.1f, 5},
        {dnnl_eltwise_pow, 3.f, 0.f, -3, 3},
        {dnnl_eltwise_pow, -2.f, 1.f, -3, 3},
        {dnnl_eltwise_gelu_erf, 0.f, 0.f, -6, 6},
        {dnnl_eltwise_round, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_mish, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_hardswish, 1.f / 6, 0.5f, -6, 6},
        {dnnl_eltwise_relu_use_dst_for_bwd, 0.1f, 0.f, -5, 5},
        {dnnl_eltwise_tanh_use_dst_for_bwd, 0.f, 0.f, -6, 6},
        {dnnl_eltwise_elu_use_dst_for_bwd, 1.f, 0.f, -6, 4},
        {dnnl_eltwise_sqrt_use_dst_for_bwd, 0.f, 0.f, 0.01f, 50},
        {dnnl_eltwise_logistic_use_dst_for_bwd, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_exp_use_dst_for_bwd, 0.f, 0.f, -10, 10},
        {dnnl_eltwise_clip_v2_use_dst_for_bwd, -1.f, 2.5f, -4, 4},
};

std::vector<float> random_floats(size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v) x = d(g);
    return v;
}

// The primitive tests' f32 bound: tens of ulps for the transcendental
// algorithms, plus a small absolute term near zero.
bool close(double got, double exp) {
    if (std::isnan(exp)) return std::isnan(got);
    if (std::isinf(exp)) return got == exp;
    return std::fabs(got - exp) <= 2e-6 + 3e-5 * std::fabs(exp);
}

// Runs the kernel on n values of [lo, hi] (plus a few exact points at the
// front) with guard values around the output; reports the first errors.
void check(const kernel_t &k, const alg_case_t &c, size_t n) {
    auto src = random_floats(n, c.lo, c.hi, (unsigned)n);
    const float points[] = {0.f, c.lo, c.hi, 1.f, -1.f, 0.5f};
    for (size_t i = 0; i < n && i < 6; ++i)
        if (points[i] >= c.lo && points[i] <= c.hi) src[i] = points[i];
    const float guard = 12345.f;
    std::vector<float> dst(n + 32, guard);
    k.fn(src.data(), dst.data() + 16, n);
    int errors = 0;
    for (size_t i = 0; i < 16; ++i) {
        EXPECT_EQ(dst[i], guard);
        EXPECT_EQ(dst[n + 16 + i], guard) << "written past the end, n=" << n;
    }
    for (size_t i = 0; i < n && errors < 5; ++i) {
        const double e = eltwise_ref::fwd(c.alg, src[i], c.alpha, c.beta);
        if (close(dst[i + 16], e)) continue;
        ++errors;
        ADD_FAILURE() << "isa " << k.isa << " alg " << c.alg << " n=" << n
                      << " i=" << i << " src " << src[i] << " got "
                      << dst[i + 16] << " expected " << e;
    }
}

// uint64_t harness(void (*fn)()): loads a pattern into rbx, rbp and
// r12-r15, calls fn, and returns the bits of the pattern that changed.
struct abi_harness_t : public Xbyak::CodeGenerator {
    abi_harness_t() {
        using namespace Xbyak::util;
        const Xbyak::Reg64 regs[] = {rbx, rbp, r12, r13, r14, r15};
        for (const auto &r : regs) push(r);
        sub(rsp, 8); // 16-byte alignment at the call
        for (int i = 0; i < 6; ++i) mov(regs[i], pattern(i));
        call(rdi);
        xor_(eax, eax);
        for (int i = 0; i < 6; ++i) {
            mov(rcx, pattern(i));
            xor_(rcx, regs[i]);
            or_(rax, rcx);
        }
        add(rsp, 8);
        for (int i = 5; i >= 0; --i) pop(regs[i]);
        ret();
    }
    static uint64_t pattern(int i) { return 0x0123456789abcdefull * (i + 3); }
};

} // namespace

TEST(JitGenerator, PrologueKeepsCalleeSavedRegisters) {
    void (*fn)(void) = nullptr;
    const void *probe = dnnl_test_jit_abi_probe(&fn);
    ASSERT_NE(fn, nullptr);
    abi_harness_t h;
    auto run = h.getCode<uint64_t (*)(void (*)(void))>();
    EXPECT_EQ(run(fn), 0u);
    dnnl_test_jit_abi_probe_release(probe);
}

TEST(JitEltwise, EveryAlgorithmOnEveryIsaWithTails) {
    const auto entries = runnable_entries();
    if (entries.empty()) GTEST_SKIP() << "no AVX2 or AVX-512 here";
    for (int e : entries)
        for (const auto &c : cases) {
            kernel_t k(e, c.alg, c.alpha, c.beta);
            ASSERT_NE(k.handle, nullptr) << "alg " << c.alg;
            for (size_t n : {1, 7, 15, 16, 17, 63, 100}) check(k, c, n);
        }
}

TEST(JitEltwise, LargeArrayWithTail) {
    for (int e : runnable_entries())
        for (dnnl_alg_kind_t alg : {dnnl_eltwise_gelu_erf, dnnl_eltwise_relu}) {
            kernel_t k(e, alg, 0.f, 0.f);
            check(k, {alg, 0.f, 0.f, -6, 6}, 1000003);
        }
}

// Special inputs behave as the compiled kernels' scalar math says.
TEST(JitEltwise, SpecialValues) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> src = {nan, inf, -inf, 0.f, -0.f, 1e-40f, -1e-40f};
    for (int e : runnable_entries())
        for (dnnl_alg_kind_t alg : {dnnl_eltwise_exp, dnnl_eltwise_log,
                     dnnl_eltwise_tanh, dnnl_eltwise_logistic,
                     dnnl_eltwise_gelu_erf, dnnl_eltwise_sqrt}) {
            kernel_t k(e, alg, 0.f, 0.f);
            std::vector<float> dst(src.size());
            k.fn(src.data(), dst.data(), src.size());
            for (size_t i = 0; i < src.size(); ++i) {
                const double ref = eltwise_ref::fwd(alg, src[i], 0.f, 0.f);
                EXPECT_TRUE(close(dst[i], ref))
                        << "alg " << alg << " src " << src[i] << " got "
                        << dst[i] << " expected " << ref;
            }
        }
}

// Results that would be subnormal come out as 0 (or stay normal): a
// subnormal operand or result costs a microcode assist per operation.
// Inputs far into the tails, where the exponentials underflow.
TEST(JitEltwise, NoSubnormalResults) {
    std::vector<float> src;
    for (float v = -1000.f; v <= 1000.f; v += 0.37f) src.push_back(v);
    for (float v : {-87.2f, -87.3f, -87.34f, -87.5f, -88.f, -100.f, -103.f,
                 -12.5f, -12.7f, -13.f, -14.3f, -15.f})
        src.push_back(v);
    for (int e : runnable_entries())
        for (dnnl_alg_kind_t alg :
                {dnnl_eltwise_exp, dnnl_eltwise_logistic, dnnl_eltwise_swish,
                        dnnl_eltwise_gelu_tanh, dnnl_eltwise_gelu_erf,
                        dnnl_eltwise_mish, dnnl_eltwise_soft_relu,
                        dnnl_eltwise_elu, dnnl_eltwise_tanh}) {
            const float alpha = 1.f; // swish, soft_relu, elu: plain forms
            kernel_t k(e, alg, alpha, 0.f);
            std::vector<float> dst(src.size());
            k.fn(src.data(), dst.data(), src.size());
            int errors = 0;
            for (size_t i = 0; i < src.size() && errors < 5; ++i) {
                // As a float: exp overflows to inf past 88.7.
                const double ref =
                        (float)eltwise_ref::fwd(alg, src[i], alpha, 0.f);
                if (std::fpclassify(dst[i]) != FP_SUBNORMAL
                        && close(dst[i], ref))
                    continue;
                ++errors;
                ADD_FAILURE() << "alg " << alg << " src " << src[i] << " got "
                              << dst[i] << " expected " << ref;
            }
        }
}

TEST(JitEltwise, UnsupportedAlgorithmIsDeclined) {
    kernel_t k(0, dnnl_eltwise_pow, 1.f, 1.5f); // libm's pow stays compiled
    EXPECT_EQ(k.handle, nullptr);
}

TEST(JitEltwise, EqualConfigurationsGiveEqualCode) {
    for (int e : runnable_entries()) {
        kernel_t a(e, dnnl_eltwise_gelu_erf, 0.f, 0.f);
        kernel_t b(e, dnnl_eltwise_gelu_erf, 0.f, 0.f);
        kernel_t c(e, dnnl_eltwise_relu, 0.5f, 0.f);
        ASSERT_NE(a.code, b.code); // two buffers
        EXPECT_EQ(a.bytes(), b.bytes());
        EXPECT_NE(a.bytes(), c.bytes());
    }
}

// A second primitive of another shape takes the kernel from the cache.
TEST(JitEltwise, KernelCacheServesNewShape) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    auto make = [&](memory::dim n) {
        memory::desc md({n}, memory::data_type::f32, memory::format_tag::a);
        return eltwise_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::eltwise_swish, md, md,
                0.3125f, 0.f);
    };
    auto pd1 = make(1001);
    if (std::string(pd1.impl_info_str()).rfind("jit:", 0) != 0)
        GTEST_SKIP() << "not on generated code: " << pd1.impl_info_str();
    eltwise_forward p1(pd1);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    set_verbose(2);
    testing::internal::CaptureStdout();
    eltwise_forward p2(make(77));
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_EQ(after.hits, before.hits + 1);
    EXPECT_NE(out.find("create:kernel_cache_hit,jit:f32_eltwise_swish_u"),
            std::string::npos)
            << out;
}

// With the kernel cache disabled (capacity 0) every primitive generates
// its own kernel.
TEST(JitEltwise, KernelCacheCapacityZeroRegenerates) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    auto make = [&](memory::dim n) {
        memory::desc md({n}, memory::data_type::f32, memory::format_tag::a);
        return eltwise_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::eltwise_elu, md, md,
                0.40625f, 0.f);
    };
    auto pd1 = make(1003);
    if (std::string(pd1.impl_info_str()).rfind("jit:", 0) != 0)
        GTEST_SKIP() << "not on generated code: " << pd1.impl_info_str();
    int old_capacity = 0;
    ASSERT_EQ(dnnl_get_kernel_cache_capacity(&old_capacity), dnnl_success);
    ASSERT_EQ(dnnl_set_kernel_cache_capacity(0), dnnl_success);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    eltwise_forward p1(pd1);
    eltwise_forward p2(make(79));
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    ASSERT_EQ(dnnl_set_kernel_cache_capacity(old_capacity), dnnl_success);
    EXPECT_EQ(after.misses, before.misses + 2);
    EXPECT_EQ(after.hits, before.hits);
    EXPECT_EQ(after.entries, 0);
}

TEST(JitEltwise, DumpWritesTheKernel) {
    const auto entries = runnable_entries();
    if (entries.empty()) GTEST_SKIP();
    ASSERT_EQ(dnnl_set_jit_dump(1), dnnl_success);
    kernel_t k(entries[0], dnnl_eltwise_mish, 0.f, 0.f);
    ASSERT_EQ(dnnl_set_jit_dump(0), dnnl_success);
    ASSERT_NE(k.handle, nullptr);
    // The newest dnnl_dump_f32_eltwise_mish_u<n>__<isa>.<i>.bin holds the
    // code (n: elements per main-loop iteration).
    bool found = false;
    for (int i = 0; i < 10000 && !found; ++i)
        for (const char *isa : {"u64__avx512_core", "u32__avx2"}) {
            const std::string name = std::string("dnnl_dump_f32_eltwise_mish_")
                                     + isa + "." + std::to_string(i) + ".bin";
            std::ifstream f(name, std::ios::binary);
            if (!f) continue;
            std::vector<unsigned char> got((std::istreambuf_iterator<char>(f)),
                    std::istreambuf_iterator<char>());
            found = got == k.bytes();
            std::remove(name.c_str());
        }
    EXPECT_TRUE(found);
}

TEST(JitEltwise, PerfMapNamesTheKernel) {
    const auto entries = runnable_entries();
    if (entries.empty()) GTEST_SKIP();
    EXPECT_EQ(dnnl_set_jit_profiling_flags(16u), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_set_jit_profiling_flags(DNNL_JIT_PROFILE_LINUX_PERFMAP),
            dnnl_success);
    kernel_t k(entries[0], dnnl_eltwise_hardswish, 0.25f, 0.5f);
    ASSERT_EQ(
            dnnl_set_jit_profiling_flags(DNNL_JIT_PROFILE_NONE), dnnl_success);
    ASSERT_NE(k.handle, nullptr);
    std::ostringstream line;
    line << std::hex << (unsigned long)k.code << " " << k.size
         << " f32_eltwise_hardswish_u";
    const std::string path = "/tmp/perf-" + std::to_string(getpid()) + ".map";
    std::ifstream f(path);
    std::string l;
    bool found = false;
    while (std::getline(f, l)) found = found || l.rfind(line.str(), 0) == 0;
    EXPECT_TRUE(found) << line.str();
    std::remove(path.c_str());
}
