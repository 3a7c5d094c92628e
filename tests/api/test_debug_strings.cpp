// Spot checks of the dnnl_*2str functions (dnnl_debug.h) against the
// strings the pinned oneDNN prints (taken from its output by hand).

#include <gtest/gtest.h>

#include <string>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"

TEST(DebugStrings, Status) {
    EXPECT_STREQ(dnnl_status2str(dnnl_success), "success");
    EXPECT_STREQ(dnnl_status2str(dnnl_out_of_memory), "out_of_memory");
    EXPECT_STREQ(dnnl_status2str(dnnl_invalid_arguments), "invalid_arguments");
    EXPECT_STREQ(dnnl_status2str(dnnl_unimplemented), "unimplemented");
    EXPECT_STREQ(dnnl_status2str(dnnl_last_impl_reached), "last_impl_reached");
    EXPECT_STREQ(dnnl_status2str(dnnl_runtime_error), "runtime_error");
    EXPECT_STREQ(dnnl_status2str(dnnl_not_required), "not_required");
    EXPECT_STREQ(dnnl_status2str(dnnl_invalid_data_type), "invalid_data_type");
    EXPECT_STREQ(dnnl_status2str((dnnl_status_t)11), "unknown status");
}

TEST(DebugStrings, DataTypes) {
    EXPECT_STREQ(dnnl_dt2str(dnnl_data_type_undef), "undef");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f16), "f16");
    EXPECT_STREQ(dnnl_dt2str(dnnl_bf16), "bf16");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f32), "f32");
    EXPECT_STREQ(dnnl_dt2str(dnnl_s32), "s32");
    EXPECT_STREQ(dnnl_dt2str(dnnl_s8), "s8");
    EXPECT_STREQ(dnnl_dt2str(dnnl_u8), "u8");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f64), "f64");
    EXPECT_STREQ(dnnl_dt2str(dnnl_boolean), "boolean");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f8_e5m2), "f8_e5m2");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f8_e4m3), "f8_e4m3");
    EXPECT_STREQ(dnnl_dt2str(dnnl_s4), "s4");
    EXPECT_STREQ(dnnl_dt2str(dnnl_u4), "u4");
    EXPECT_STREQ(dnnl_dt2str(dnnl_e8m0), "e8m0");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f4_e2m1), "f4_e2m1");
    EXPECT_STREQ(dnnl_dt2str(dnnl_s64), "s64");
    EXPECT_STREQ(dnnl_dt2str(dnnl_data_type_max), "data_type_max");
    // The pinned library has no name for f4_e3m0.
    EXPECT_STREQ(dnnl_dt2str(dnnl_f4_e3m0), "unknown dt");
    EXPECT_STREQ(dnnl_dt2str((dnnl_data_type_t)17), "unknown dt");
}

TEST(DebugStrings, FormatTags) {
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_format_tag_undef), "undef");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_format_tag_any), "any");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_a), "a");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_abcdefghijkl), "abcdefghijkl");
    // Aliases print as the letter tag they stand for.
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_x), "a");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_nc), "ab");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_nchw), "abcd");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_nhwc), "acdb");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_chwn), "bcda");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_goihw), "abcde");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_nChw16c), "aBcd16b");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_OIhw16i16o), "ABcd16b16a");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_OIhw4i16o4i), "ABcd4b16a4b");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_gOIhw16i16o), "aBCde16c16b");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_aBcdef32b), "aBcdef32b");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_format_tag_last), "format_tag_last");
    EXPECT_STREQ(dnnl_fmt_tag2str((dnnl_format_tag_t)(dnnl_format_tag_last + 1)),
            "unknown fmt_tag");
    // Every value below format_tag_last has a name.
    for (int t = 0; t < dnnl_format_tag_last; ++t)
        EXPECT_NE(std::string(dnnl_fmt_tag2str((dnnl_format_tag_t)t)),
                "unknown fmt_tag")
                << t;
}

TEST(DebugStrings, FormatKinds) {
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_format_kind_undef), "undef");
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_format_kind_any), "any");
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_blocked), "blocked");
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_format_kind_sparse), "sparse");
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_format_kind_max), "max");
    // Not named by the pinned library.
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_format_kind_opaque), "unknown fmt_kind");
    EXPECT_STREQ(
            dnnl_fmt_kind2str(dnnl_format_kind_host_scalar), "unknown fmt_kind");
}

TEST(DebugStrings, Kinds) {
    EXPECT_STREQ(dnnl_engine_kind2str(dnnl_any_engine), "any");
    EXPECT_STREQ(dnnl_engine_kind2str(dnnl_cpu), "cpu");
    EXPECT_STREQ(dnnl_engine_kind2str(dnnl_gpu), "gpu");
    EXPECT_STREQ(dnnl_prop_kind2str(dnnl_prop_kind_undef), "undef");
    EXPECT_STREQ(dnnl_prop_kind2str(dnnl_forward_training), "forward_training");
    EXPECT_STREQ(dnnl_prop_kind2str(dnnl_forward), "forward_training");
    EXPECT_STREQ(
            dnnl_prop_kind2str(dnnl_forward_inference), "forward_inference");
    EXPECT_STREQ(dnnl_prop_kind2str(dnnl_backward_bias), "backward_bias");
    EXPECT_STREQ(dnnl_prim_kind2str(dnnl_undefined_primitive), "undef");
    EXPECT_STREQ(dnnl_prim_kind2str(dnnl_convolution), "convolution");
    EXPECT_STREQ(dnnl_prim_kind2str(dnnl_group_normalization),
            "group_normalization");
    EXPECT_STREQ(
            dnnl_prim_kind2str(dnnl_primitive_kind_max), "primitive_kind_max");
    EXPECT_STREQ(dnnl_prim_kind2str((dnnl_primitive_kind_t)22),
            "unknown prim_kind");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_alg_kind_undef), "undef");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_eltwise_relu), "eltwise_relu");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_eltwise_gelu_tanh), "eltwise_gelu_tanh");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_pooling_avg_exclude_padding),
            "pooling_avg_exclude_padding");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_binary_select), "binary_select");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_reduction_norm_lp_power_p_sum),
            "reduction_norm_lp_power_p_sum");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_softmax_log), "softmax_log");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_lbr_augru), "lbr_augru");
    EXPECT_STREQ(dnnl_alg_kind2str((dnnl_alg_kind_t)12345), "unknown alg_kind");
    EXPECT_STREQ(dnnl_sparse_encoding2str(dnnl_csr), "csr");
    EXPECT_STREQ(dnnl_sparse_encoding2str(dnnl_coo), "coo");
    EXPECT_STREQ(dnnl_sparse_encoding2str(dnnl_packed), "packed");
    EXPECT_STREQ(
            dnnl_sparse_encoding2str(dnnl_sparse_encoding_undef), "undef");
}

TEST(DebugStrings, Modes) {
    EXPECT_STREQ(dnnl_fpmath_mode2str(dnnl_fpmath_mode_strict), "strict");
    EXPECT_STREQ(dnnl_fpmath_mode2str(dnnl_fpmath_mode_bf16), "bf16");
    EXPECT_STREQ(dnnl_fpmath_mode2str(dnnl_fpmath_mode_tf32), "tf32");
    EXPECT_STREQ(dnnl_fpmath_mode2str((dnnl_fpmath_mode_t)5),
            "unknown fpmath_mode");
    EXPECT_STREQ(dnnl_accumulation_mode2str(dnnl_accumulation_mode_relaxed),
            "relaxed");
    EXPECT_STREQ(
            dnnl_accumulation_mode2str(dnnl_accumulation_mode_f16), "f16");
    EXPECT_STREQ(dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_library),
            "library");
    EXPECT_STREQ(dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_user), "user");
    EXPECT_STREQ(dnnl_rounding_mode2str(dnnl_rounding_mode_environment),
            "environment");
    EXPECT_STREQ(dnnl_rounding_mode2str(dnnl_rounding_mode_stochastic),
            "stochastic");
    EXPECT_STREQ(dnnl_quantization_mode2str(dnnl_quantization_mode_undef),
            "undef");
    EXPECT_STREQ(dnnl_quantization_mode2str(dnnl_quantization_mode_dynamic_mx),
            "dynamic_mx");
    EXPECT_STREQ(dnnl_rnn_flags2str(dnnl_rnn_flags_undef), "undef");
    EXPECT_STREQ(dnnl_rnn_flags2str(dnnl_rnn_flags_diff_weights_overwrite),
            "rnn_flags_diff_weights_overwrite");
    EXPECT_STREQ(dnnl_rnn_direction2str(dnnl_unidirectional_left2right),
            "unidirectional_left2right");
    EXPECT_STREQ(dnnl_rnn_direction2str(dnnl_bidirectional_sum),
            "bidirectional_sum");
}

TEST(DebugStrings, CpuIsaAndRuntime) {
    EXPECT_STREQ(dnnl_cpu_isa2str(dnnl_cpu_isa_default), "cpu_isa_default");
    EXPECT_STREQ(dnnl_cpu_isa2str(dnnl_cpu_isa_avx2), "cpu_isa_avx2");
    // Aliases print as the value's first name.
    EXPECT_STREQ(dnnl_cpu_isa2str(dnnl_cpu_isa_avx512_core_amx),
            "cpu_isa_avx10_1_512_amx");
    EXPECT_STREQ(dnnl_cpu_isa2str(dnnl_cpu_isa_avx10_2_amx_2),
            "cpu_isa_avx10_2_amx_2");
    EXPECT_STREQ(dnnl_cpu_isa2str((dnnl_cpu_isa_t)2), "unknown cpu_isa");
    EXPECT_STREQ(dnnl_cpu_isa_hints2str(dnnl_cpu_isa_prefer_ymm),
            "cpu_isa_prefer_ymm");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_NONE), "none");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_SEQ), "sequential");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_OMP), "OpenMP");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_TBB), "TBB");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_THREADPOOL), "threadpool");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_OCL), "OpenCL");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_SYCL), "SYCL");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_ZE), "Level Zero");
    EXPECT_STREQ(dnnl_runtime2str(3), "unknown");
}

TEST(DebugStrings, ValuesOutsideTheEnumRange) {
    // C callers can pass any int; those must not crash.
    EXPECT_STREQ(dnnl_status2str((dnnl_status_t)-1), "unknown status");
    EXPECT_STREQ(dnnl_fmt_tag2str((dnnl_format_tag_t)-1), "unknown fmt_tag");
    EXPECT_STREQ(dnnl_alg_kind2str((dnnl_alg_kind_t)-1), "unknown alg_kind");
}
