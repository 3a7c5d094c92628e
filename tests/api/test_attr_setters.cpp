// Attribute and post-op setters answer as oneDNN 3.13 does: every setter
// status below was recorded from oneDNN 3.13.2 (PyPI onednn 2026.1.0) with
// the same calls, except where a comment says we differ. What oneDNN
// refuses in the setter is refused here too (not later at primitive
// creation), and what it takes is taken.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

namespace {

constexpr dnnl_status_t ok = dnnl_success, bad = dnnl_invalid_arguments;

struct attr_t {
    dnnl_primitive_attr_t a = nullptr;
    attr_t() { dnnl_primitive_attr_create(&a); }
    ~attr_t() { dnnl_primitive_attr_destroy(a); }
};

TEST(AttrSetters, ScalesArgsAndMasks) {
    attr_t t;
    const auto mask = [&](int arg, int m) {
        return dnnl_primitive_attr_set_scales_mask(t.a, arg, m);
    };
    EXPECT_EQ(mask(DNNL_ARG_SRC, -1), bad);
    EXPECT_EQ(mask(-1, 0), bad);
    // Only arguments some primitive takes scales for.
    EXPECT_EQ(mask(DNNL_ARG_BIAS, 0), bad);
    EXPECT_EQ(mask(DNNL_ARG_DIFF_SRC, 0), bad);
    EXPECT_EQ(mask(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS, 1), bad);
    EXPECT_EQ(mask(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, 0), bad);
    EXPECT_EQ(mask(DNNL_ARG_SRC_1, 0), ok);
    EXPECT_EQ(mask(DNNL_ARG_SRC_2, 0), ok);
    EXPECT_EQ(mask(DNNL_ARG_MULTIPLE_SRC + 3, 0), ok);
    EXPECT_EQ(mask(DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, 1), ok);
    EXPECT_EQ(mask(DNNL_ARG_WEIGHTS_1, 0), ok);
    EXPECT_EQ(mask(DNNL_ARG_DST, 1 << 20), ok);
}

TEST(AttrSetters, ScalesDataTypesAndGroups) {
    attr_t t;
    const dnnl_dims_t g2 = {1, 32}, gz = {0, 32}, g3 = {1, 2, 4};
    const auto set = [&](int arg, int m, int nd, const dnnl_dims_t g,
                             dnnl_data_type_t dt) {
        return dnnl_primitive_attr_set_scales(t.a, arg, m, nd, g, dt);
    };
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_s8), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f16), ok);
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_bf16), ok);
    // e8m0 and f8_e4m3 scales come per group or dimension only.
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_e8m0), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 1, 0, nullptr, dnnl_e8m0), ok);
    EXPECT_EQ(set(DNNL_ARG_SRC, 2, 0, nullptr, dnnl_f8_e4m3), ok);
    EXPECT_EQ(set(DNNL_ARG_SRC, 2, 0, nullptr, dnnl_f8_e5m2), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_data_type_undef), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f64), bad);
    // Groups: two positive sizes, with a mask that has dimensions.
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 0, 2, g2, dnnl_f32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 3, 2, g2, dnnl_f32), ok);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 3, 2, gz, dnnl_f32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 3, 1, g2, dnnl_f32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 3, 3, g3, dnnl_f32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 3, -1, g3, dnnl_f32), bad);
    // Host-side scales: one value.
    const auto host = [&](int arg, int m, int nd, const dnnl_dims_t g) {
        return dnnl_primitive_attr_set_scales_v2(t.a, arg, m, nd, g, dnnl_f32, 1);
    };
    EXPECT_EQ(host(DNNL_ARG_SRC, 1, 0, nullptr), bad);
    EXPECT_EQ(host(DNNL_ARG_WEIGHTS, 0, 2, g2), bad);
    EXPECT_EQ(host(DNNL_ARG_SRC, -1, 0, nullptr), bad);
    EXPECT_EQ(host(DNNL_ARG_SRC, 0, 0, nullptr), ok);
    // Quantization modes: the three oneDNN names, nothing else.
    const auto v3 = [&](int m, dnnl_data_type_t dt, int qmode) {
        return dnnl_primitive_attr_set_scales_v3(t.a, DNNL_ARG_SRC, m, 0,
                nullptr, dt, 0, (dnnl_quantization_mode_t)qmode);
    };
    EXPECT_EQ(v3(0, dnnl_f32, 7), bad);
    EXPECT_EQ(v3(0, dnnl_f32, dnnl_quantization_mode_undef), bad);
    EXPECT_EQ(v3(1, dnnl_e8m0, dnnl_quantization_mode_dynamic_mx), ok);
    EXPECT_EQ(v3(1, dnnl_f32, dnnl_quantization_mode_dynamic_fp), ok);
}

TEST(AttrSetters, ZeroPoints) {
    attr_t t;
    const dnnl_dims_t g2 = {1, 32};
    const auto mask = [&](int arg, int m) {
        return dnnl_primitive_attr_set_zero_points_mask(t.a, arg, m);
    };
    EXPECT_EQ(mask(DNNL_ARG_SRC, -1), bad);
    EXPECT_EQ(mask(-1, 0), bad);
    EXPECT_EQ(mask(DNNL_ARG_BIAS, 0), bad);
    EXPECT_EQ(mask(DNNL_ARG_SRC_1, 0), bad);
    EXPECT_EQ(mask(DNNL_ARG_MULTIPLE_SRC, 0), bad);
    EXPECT_EQ(mask(DNNL_ARG_SRC_2, 0), ok);
    const auto set = [&](int arg, int m, int nd, const dnnl_dims_t g,
                             dnnl_data_type_t dt) {
        return dnnl_primitive_attr_set_zero_points(t.a, arg, m, nd, g, dt);
    };
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f32), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_s8), ok);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 0, 0, nullptr, dnnl_u8), ok);
    // Narrow or grouped zero points: sources and weights only; int4 ones
    // per dimension or group.
    EXPECT_EQ(set(DNNL_ARG_DST, 0, 0, nullptr, dnnl_s8), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 0, 0, nullptr, dnnl_s4), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 2, 0, nullptr, dnnl_u4), ok);
    EXPECT_EQ(set(DNNL_ARG_DST, 3, 2, g2, dnnl_s32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 0, 2, g2, dnnl_s32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 3, 2, g2, dnnl_s8), ok);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 3, 1, g2, dnnl_s8), bad);
    EXPECT_EQ(set(DNNL_ARG_BIAS, 0, 0, nullptr, dnnl_s32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS_1, 1, 0, nullptr, dnnl_s8), ok);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_v2(
                      t.a, DNNL_ARG_SRC, 1, 0, nullptr, dnnl_s32, 1),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_v2(
                      t.a, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_s32, 1),
            ok);
}

TEST(AttrSetters, PrecomputedReductions) {
    attr_t t;
    const dnnl_dims_t g2 = {1, 32};
    const auto set = [&](int arg, int m, int nd, const dnnl_dims_t g,
                             dnnl_data_type_t dt) {
        return dnnl_primitive_attr_set_precomputed_reductions(
                t.a, arg, m, nd, g, dt);
    };
    EXPECT_EQ(set(DNNL_ARG_DST, 0, 0, nullptr, dnnl_s32), bad);
    EXPECT_EQ(set(DNNL_ARG_WEIGHTS, 1, 2, g2, dnnl_s32), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f32), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, -1, 0, nullptr, dnnl_s32), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 0, 2, g2, dnnl_s32), bad);
    EXPECT_EQ(set(DNNL_ARG_SRC, 3, 2, g2, dnnl_s32), ok);
    // The integer matmul takes them; a convolution does not.
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), ok);
    const dnnl_dims_t da = {4, 64}, db = {64, 8}, dc = {4, 8};
    dnnl_memory_desc_t a, b, c;
    dnnl_memory_desc_create_with_tag(&a, 2, da, dnnl_u8, dnnl_ab);
    dnnl_memory_desc_create_with_tag(&b, 2, db, dnnl_s8, dnnl_ab);
    dnnl_memory_desc_create_with_tag(&c, 2, dc, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng, a, b, nullptr, c, t.a),
            ok);
    dnnl_primitive_desc_destroy(pd);
    const dnnl_dims_t cs = {1, 64, 4, 4}, cw = {8, 64, 1, 1}, cd = {1, 8, 4, 4};
    dnnl_memory_desc_t s4, w4, d4;
    dnnl_memory_desc_create_with_tag(&s4, 4, cs, dnnl_u8, dnnl_nchw);
    dnnl_memory_desc_create_with_tag(&w4, 4, cw, dnnl_s8, dnnl_oihw);
    dnnl_memory_desc_create_with_tag(&d4, 4, cd, dnnl_f32, dnnl_nchw);
    const dnnl_dims_t one = {1, 1}, no = {0, 0};
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng,
                      dnnl_forward_inference, dnnl_convolution_direct, s4, w4,
                      nullptr, d4, one, no, no, no, t.a),
            dnnl_unimplemented);
    dnnl_memory_desc_destroy(s4);
    dnnl_memory_desc_destroy(w4);
    dnnl_memory_desc_destroy(d4);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
    dnnl_memory_desc_destroy(c);
    dnnl_engine_destroy(eng);
}

TEST(AttrSetters, RoundingAndModes) {
    attr_t t;
    // Only destinations and gradients may round stochastically; the mode
    // value itself is not checked, and setting `environment` again keeps
    // what the argument had.
    EXPECT_EQ(dnnl_primitive_attr_set_rounding(
                      t.a, DNNL_ARG_SRC, dnnl_rounding_mode_stochastic),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rounding(
                      t.a, DNNL_ARG_SRC, dnnl_rounding_mode_environment),
            ok);
    for (int arg : {DNNL_ARG_DST, DNNL_ARG_DIFF_WEIGHTS, DNNL_ARG_DIFF_SRC})
        EXPECT_EQ(dnnl_primitive_attr_set_rounding(
                          t.a, arg, dnnl_rounding_mode_stochastic),
                ok);
    // (oneDNN stores an integer that names no mode; we refuse it, as every
    // entry point refuses such enum values.)
    EXPECT_EQ(dnnl_primitive_attr_set_rounding(
                      t.a, DNNL_ARG_DST, (dnnl_rounding_mode_t)9),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rounding(
                      t.a, DNNL_ARG_DST, dnnl_rounding_mode_environment),
            ok);
    dnnl_rounding_mode_t m;
    ASSERT_EQ(dnnl_primitive_attr_get_rounding(t.a, DNNL_ARG_DST, &m), ok);
    EXPECT_EQ(m, dnnl_rounding_mode_stochastic);

    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode(t.a, (dnnl_fpmath_mode_t)77), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode_v2(t.a, (dnnl_fpmath_mode_t)77, 1),
            bad);
    int to_int = 5;
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode_v2(t.a, nullptr, &to_int), ok);
    EXPECT_EQ(to_int, 0);
    EXPECT_EQ(dnnl_primitive_attr_set_accumulation_mode(
                      t.a, (dnnl_accumulation_mode_t)77),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_accumulation_mode(
                      t.a, dnnl_accumulation_mode_f16),
            ok);
    EXPECT_EQ(dnnl_primitive_attr_set_scratchpad_mode(
                      t.a, (dnnl_scratchpad_mode_t)7),
            bad);
    int det = 0;
    EXPECT_EQ(dnnl_primitive_attr_set_deterministic(t.a, 5), ok);
    EXPECT_EQ(dnnl_primitive_attr_get_deterministic(t.a, &det), ok);
    EXPECT_EQ(det, 1);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout(t.a, nullptr), bad);
}

TEST(AttrSetters, PostOps) {
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), ok);
    EXPECT_EQ(dnnl_post_ops_len(nullptr), 0);
    EXPECT_EQ(dnnl_post_ops_append_sum(po, DNNL_RUNTIME_F32_VAL, 0,
                      dnnl_data_type_undef),
            bad);
    EXPECT_EQ(dnnl_post_ops_append_sum(po, NAN, 0, dnnl_data_type_undef), ok);
    // Eltwise: the algorithm's limits on its parameters, no runtime values.
    const auto elt = [&](dnnl_alg_kind_t alg, float a, float b) {
        return dnnl_post_ops_append_eltwise(po, alg, a, b);
    };
    EXPECT_EQ(elt(dnnl_binary_add, 0, 0), bad);
    EXPECT_EQ(elt(dnnl_eltwise_clip, 2, 1), bad);
    EXPECT_EQ(elt(dnnl_eltwise_clip_v2, 2, 1), bad);
    EXPECT_EQ(elt(dnnl_eltwise_relu_use_dst_for_bwd, -1, 0), bad);
    EXPECT_EQ(elt(dnnl_eltwise_elu_use_dst_for_bwd, -1, 0), bad);
    EXPECT_EQ(elt(dnnl_eltwise_relu, DNNL_RUNTIME_F32_VAL, 0), bad);
    EXPECT_EQ(elt(dnnl_eltwise_round, 0, 0), ok);
    EXPECT_EQ(elt(dnnl_eltwise_gelu_erf, 0, 0), ok);
    const int last = dnnl_post_ops_len(po) - 1;
    EXPECT_EQ(dnnl_post_ops_get_params_eltwise(po, last, nullptr, nullptr, nullptr),
            ok);
    EXPECT_EQ(dnnl_post_ops_get_params_sum(po, -1, nullptr, nullptr, nullptr), bad);
    // Depthwise: the kernel must reach past the left padding.
    EXPECT_EQ(dnnl_post_ops_append_dw(po, dnnl_f32, dnnl_f32, dnnl_f32, 3, 1, 3),
            bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(
                      po, dnnl_data_type_undef, dnnl_f32, dnnl_f32, 3, 1, 1),
            bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(
                      po, dnnl_f32, dnnl_data_type_undef, dnnl_f32, 3, 1, 1),
            ok);
    // Prelu: any mask; its getter does not look at the entry's kind.
    EXPECT_EQ(dnnl_post_ops_append_prelu(po, -1), ok);
    int m = 7;
    EXPECT_EQ(dnnl_post_ops_get_params_prelu(po, 0, &m), ok);
    EXPECT_EQ(dnnl_post_ops_get_params_prelu(po, dnnl_post_ops_len(po) - 1, nullptr),
            ok);
    // Binary: `any` layouts are taken, runtime dims and other algorithms
    // are not.
    dnnl_memory_desc_t md, any, rt;
    const dnnl_dims_t d = {2, 3}, drt = {DNNL_RUNTIME_DIM_VAL, 3};
    dnnl_memory_desc_create_with_tag(&md, 2, d, dnnl_f32, dnnl_ab);
    dnnl_memory_desc_create_with_tag(&any, 2, d, dnnl_f32, dnnl_format_tag_any);
    dnnl_memory_desc_create_with_tag(&rt, 2, drt, dnnl_f32, dnnl_ab);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, any), ok);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, rt), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_eltwise_relu, md), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary_v2(po, dnnl_binary_select, md, any), ok);
    // A full chain (32 entries): one more is dnnl_out_of_memory.
    while (dnnl_post_ops_len(po) < 32)
        ASSERT_EQ(elt(dnnl_eltwise_relu, 0, 0), ok);
    EXPECT_EQ(dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef),
            dnnl_out_of_memory);
    EXPECT_EQ(elt(dnnl_eltwise_relu, 0, 0), dnnl_out_of_memory);
    EXPECT_EQ(dnnl_post_ops_append_dw(po, dnnl_f32, dnnl_f32, dnnl_f32, 3, 1, 1),
            dnnl_out_of_memory);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, md),
            dnnl_out_of_memory);
    EXPECT_EQ(dnnl_post_ops_append_prelu(po, 0), dnnl_out_of_memory);
    dnnl_memory_desc_destroy(md);
    dnnl_memory_desc_destroy(any);
    dnnl_memory_desc_destroy(rt);
    dnnl_post_ops_destroy(po);
}

} // namespace
