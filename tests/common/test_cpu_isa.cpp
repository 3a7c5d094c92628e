// CPU ISA controls through the C API: the effective ISA, the max-ISA limit
// (dnnl_set_max_cpu_isa and ONEDNN_MAX_CPU_ISA) and the ISA hints, which
// may only be set before their first use. Tests that need a fresh library
// state run in a child process (death-test machinery, "threadsafe" style
// re-executes the binary), and report through the exit code.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

namespace {

const dnnl_cpu_isa_t known_isas[] = {dnnl_cpu_isa_default, dnnl_cpu_isa_sse41,
        dnnl_cpu_isa_avx, dnnl_cpu_isa_avx2, dnnl_cpu_isa_avx2_vnni,
        dnnl_cpu_isa_avx2_vnni_2, dnnl_cpu_isa_avx512_core,
        dnnl_cpu_isa_avx512_core_vnni, dnnl_cpu_isa_avx512_core_bf16,
        dnnl_cpu_isa_avx10_1_512, dnnl_cpu_isa_avx10_1_512_amx,
        dnnl_cpu_isa_avx10_1_512_amx_fp16, dnnl_cpu_isa_avx10_2,
        dnnl_cpu_isa_avx10_2_amx_2};

bool is_known(dnnl_cpu_isa_t isa) {
    for (auto k : known_isas)
        if (k == isa) return true;
    return false;
}

// ISA a includes ISA b (the enum values nest by bits).
bool includes(unsigned a, unsigned b) {
    return (a & b) == b;
}

// What the processor supports, without asking the library (asking would
// fix its settings before the tests that need them unset).
bool cpu_supports_avx2() {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
bool cpu_supports_avx512_core() {
    return __builtin_cpu_supports("avx512f")
           && __builtin_cpu_supports("avx512bw")
           && __builtin_cpu_supports("avx512vl")
           && __builtin_cpu_supports("avx512dq");
}

// The ISA the machine should report without limits, at least.
bool plausible_full_isa(dnnl_cpu_isa_t isa) {
    if (!is_known(isa) || !includes(isa, dnnl_cpu_isa_sse41)) return false;
    if (cpu_supports_avx2() && !includes(isa, dnnl_cpu_isa_avx2)) return false;
    if (cpu_supports_avx512_core() && !includes(isa, dnnl_cpu_isa_avx512_core))
        return false;
    return true;
}

// Exits the child with 0 when `ok`, printing `what` otherwise.
void finish(bool ok, const std::string &what) {
    if (!ok) std::fprintf(stderr, "child check failed: %s\n", what.c_str());
    std::fflush(stderr);
    std::_Exit(ok ? 0 : 1);
}

// Implementation name of an eltwise relu on a small dense f32 tensor
// (generated code from AVX2 up, compiled SSE4.1 kernels below).
std::string eltwise_impl_name() {
    dnnl_engine_t eng = nullptr;
    if (dnnl_engine_create(&eng, dnnl_cpu, 0) != dnnl_success) return "";
    dnnl_memory_desc_t md = nullptr;
    dnnl_dims_t dims = {2, 16};
    dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    std::string name;
    if (dnnl_eltwise_forward_primitive_desc_create(&pd, eng,
                dnnl_forward_inference, dnnl_eltwise_relu, md, md, 0.f, 0.f,
                nullptr)
            == dnnl_success) {
        const char *s = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &s);
        name = s ? s : "";
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_memory_desc_destroy(md);
    dnnl_engine_destroy(eng);
    return name;
}

class cpu_isa_t : public ::testing::Test {
protected:
    void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

} // namespace

// Note: the death-test child re-runs the whole test body, so tests with
// EXPECT_EXIT must not call the library before it.

TEST_F(cpu_isa_t, EffectiveIsaIsAPublicValue) {
    const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
    EXPECT_TRUE(is_known(isa)) << isa;
    // x86-64 machines this library targets have SSE4.1.
    EXPECT_TRUE(includes(isa, dnnl_cpu_isa_sse41)) << isa;
}

TEST_F(cpu_isa_t, SettingsAreLockedAfterUse) {
    (void)dnnl_get_effective_cpu_isa();
    EXPECT_EQ(dnnl_set_max_cpu_isa(dnnl_cpu_isa_sse41), dnnl_invalid_arguments);
    (void)dnnl_get_cpu_isa_hints();
    EXPECT_EQ(dnnl_set_cpu_isa_hints(dnnl_cpu_isa_prefer_ymm),
            dnnl_runtime_error);
    // Unknown values are rejected whatever the state.
    EXPECT_EQ(dnnl_set_max_cpu_isa((dnnl_cpu_isa_t)2), dnnl_invalid_arguments);
}

TEST_F(cpu_isa_t, MaxIsaBeforeFirstUse) {
    EXPECT_EXIT(
            {
                const dnnl_cpu_isa_t full = dnnl_cpu_isa_avx2;
                bool ok = dnnl_set_max_cpu_isa(dnnl_cpu_isa_sse41)
                          == dnnl_success;
                // Set once: a second call fails even before any use.
                ok = ok && dnnl_set_max_cpu_isa(full) == dnnl_invalid_arguments;
                ok = ok && dnnl_get_effective_cpu_isa() == dnnl_cpu_isa_sse41;
                const std::string name = eltwise_impl_name();
                ok = ok && name == "simd:f32_eltwise_relu_flat__sse41";
                finish(ok, "sse41 limit, impl " + name);
            },
            ::testing::ExitedWithCode(0), "");
}

TEST_F(cpu_isa_t, MaxIsaDefaultMeansEverything) {
    EXPECT_EXIT(
            {
                bool ok = dnnl_set_max_cpu_isa(dnnl_cpu_isa_default)
                          == dnnl_success;
                ok = ok && plausible_full_isa(dnnl_get_effective_cpu_isa());
                finish(ok, "default limit");
            },
            ::testing::ExitedWithCode(0), "");
}

TEST_F(cpu_isa_t, MaxIsaAboveTheMachineIsAccepted) {
    EXPECT_EXIT(
            {
                bool ok =
                        dnnl_set_max_cpu_isa(dnnl_cpu_isa_avx10_1_512_amx_fp16)
                        == dnnl_success;
                ok = ok && plausible_full_isa(dnnl_get_effective_cpu_isa());
                finish(ok, "high limit");
            },
            ::testing::ExitedWithCode(0), "");
}

TEST_F(cpu_isa_t, EnvironmentLimitIsCaseInsensitive) {
    if (!cpu_supports_avx2()) GTEST_SKIP() << "no AVX2";
    EXPECT_EXIT(
            {
                setenv("ONEDNN_MAX_CPU_ISA", "Avx2", 1);
                const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
                const std::string name = eltwise_impl_name();
                finish(isa == dnnl_cpu_isa_avx2
                               && name == "jit:f32_eltwise_relu_u32__avx2",
                        "ONEDNN_MAX_CPU_ISA=Avx2 gave " + std::to_string(isa)
                                + " " + name);
            },
            ::testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
            {
                setenv("DNNL_MAX_CPU_ISA", "SSE41", 1);
                finish(dnnl_get_effective_cpu_isa() == dnnl_cpu_isa_sse41,
                        "DNNL_MAX_CPU_ISA=SSE41");
            },
            ::testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
            {
                // The ONEDNN_ spelling wins over DNNL_.
                setenv("DNNL_MAX_CPU_ISA", "SSE41", 1);
                setenv("ONEDNN_MAX_CPU_ISA", "AVX", 1);
                finish(dnnl_get_effective_cpu_isa() == dnnl_cpu_isa_avx,
                        "ONEDNN_ over DNNL_");
            },
            ::testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
            {
                // Unknown names leave the machine's ISA.
                setenv("ONEDNN_MAX_CPU_ISA", "no_such_isa", 1);
                finish(plausible_full_isa(dnnl_get_effective_cpu_isa()),
                        "unknown name");
            },
            ::testing::ExitedWithCode(0), "");
}

TEST_F(cpu_isa_t, HintsBeforeFirstUse) {
    EXPECT_EXIT(
            {
                bool ok = dnnl_set_cpu_isa_hints(dnnl_cpu_isa_prefer_ymm)
                          == dnnl_success;
                ok = ok && dnnl_get_cpu_isa_hints() == dnnl_cpu_isa_prefer_ymm;
                ok = ok
                     && dnnl_set_cpu_isa_hints(dnnl_cpu_isa_no_hints)
                                == dnnl_runtime_error;
                // 256-bit vectors on AVX-512 machines.
                const std::string name = eltwise_impl_name();
                if (cpu_supports_avx512_core())
                    ok = ok && name == "jit:f32_eltwise_relu_u32__avx2";
                finish(ok, "prefer_ymm, impl " + name);
            },
            ::testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
            {
                setenv("ONEDNN_CPU_ISA_HINTS", "PREFER_YMM", 1);
                finish(dnnl_get_cpu_isa_hints() == dnnl_cpu_isa_prefer_ymm,
                        "ONEDNN_CPU_ISA_HINTS");
            },
            ::testing::ExitedWithCode(0), "");
}
