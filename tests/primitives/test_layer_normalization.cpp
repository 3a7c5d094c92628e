// Layer normalization primitive tests: forward training (stats out),
// global stats, rms, scale/shift, NULL statistics descriptor (v2 creator),
// backward and backward_data, bad parameters; compared with
// tests/reference/lnorm_ref.*.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/lnorm_ref.hpp"
#include "tensor_glue.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;
using nf = normalization_flags;

void run(memory::dims dims, nf flags, prop_kind bprop = prop_kind::backward) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const int64_t C = dims.back();
    int64_t R = 1;
    for (size_t i = 0; i + 1 < dims.size(); ++i)
        R *= dims[i];
    const size_t n = (size_t)(R * C);
    const tag t = dims.size() == 2 ? tag::ab : dims.size() == 3 ? tag::abc : tag::abcd;
    memory::desc md(dims, dt::f32, t);
    const bool gs = (flags & nf::use_global_stats) != nf::none;
    const bool sc = (flags & nf::use_scale) != nf::none;
    const bool sh = (flags & nf::use_shift) != nf::none;
    const bool rms = (flags & nf::rms_norm) != nf::none;
    dnnl_primitive_desc_t cpd = nullptr;
    ASSERT_EQ(dnnl_layer_normalization_forward_primitive_desc_create_v2(&cpd, eng.get(),
                      dnnl_forward_training, md.get(), md.get(), nullptr, dnnl_f32, 1e-3f,
                      (unsigned)flags, nullptr),
            dnnl_success);
    auto fpd = layer_normalization_forward::primitive_desc(cpd);
    dnnl_primitive_desc_destroy(cpd); // the C++ object holds a clone
    memory::dims sd(dims.begin(), dims.end() - 1);
    EXPECT_EQ(fpd.variance_desc().get_dims(), sd);

    auto sv = random_f32(n, 1), scv = random_f32(C, 2, 0.5f, 2),
         shv = random_f32(C, 3);
    auto mv = random_f32(R, 4), vv = random_f32(R, 5, 0.5f, 3);
    memory src = f32_memory(md, eng, sv), dst(md, eng);
    memory::desc smd(sd, dt::f32, dims.size() == 2 ? tag::a : dims.size() == 3 ? tag::ab : tag::abc);
    // Scale and shift buffers exist even when the flags leave them unused
    // (the descriptor then reports a zero md for them).
    const memory::desc cmd({C}, dt::f32, tag::x);
    memory scale = f32_memory(cmd, eng, scv), shift = f32_memory(cmd, eng, shv);
    memory mean = f32_memory(smd, eng, mv), var = f32_memory(smd, eng, vv);
    layer_normalization_forward(fpd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, scale},
                    {DNNL_ARG_SHIFT, shift}, {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var}});
    strm.wait();
    lnorm_ref::desc_t rd;
    rd.rows = R;
    rd.c = C;
    rd.eps = 1e-3;
    rd.global_stats = gs;
    rd.scale = sc;
    rd.shift = sh;
    rd.rms = rms;
    std::vector<double> rdst(n), rmean(R), rvar(R);
    lnorm_ref::forward(rd, sv.data(), scv.data(), shv.data(), mv.data(), vv.data(),
            rdst.data(), rmean.data(), rvar.data());
    expect_near(raw_f32(dst, n), rdst, 1e-4, "dst");
    if (!gs) {
        if (!rms) expect_near(raw_f32(mean, R), rmean, 1e-5, "mean");
        expect_near(raw_f32(var, R), rvar, 1e-4, "var");
    }
    auto mvals = raw_f32(mean, R), vvals = raw_f32(var, R);
    if (rms) std::fill(mvals.begin(), mvals.end(), 0.f);
    auto ddv = random_f32(n, 6);
    memory ddst = f32_memory(md, eng, ddv), dsrc(md, eng);
    memory dscale(cmd, eng), dshift(cmd, eng);
    auto bpd = layer_normalization_backward::primitive_desc(
            eng, bprop, md, md, md, smd, 1e-3f, flags, fpd);
    layer_normalization_backward(bpd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc},
                    {DNNL_ARG_SCALE, scale}, {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                    {DNNL_ARG_DIFF_SCALE, dscale}, {DNNL_ARG_DIFF_SHIFT, dshift}});
    strm.wait();
    std::vector<double> rds(n), rdsc(C), rdsh(C);
    lnorm_ref::backward(rd, sv.data(), mvals.data(), vvals.data(), ddv.data(), scv.data(),
            rds.data(), rdsc.data(), rdsh.data());
    expect_near(raw_f32(dsrc, n), rds, 2e-4, "diff_src");
    if (bprop == prop_kind::backward) {
        if (sc) expect_near(raw_f32(dscale, C), rdsc, 2e-4, "diff_scale");
        if (sh) expect_near(raw_f32(dshift, C), rdsh, 2e-4, "diff_shift");
    }
}

TEST(LayerNorm, ScaleShift) { run({2, 3, 16}, nf::use_scale | nf::use_shift); }
TEST(LayerNorm, Plain2D) { run({5, 33}, nf::none); }
TEST(LayerNorm, GlobalStats) { run({2, 2, 3, 8}, nf::use_global_stats | nf::use_scale); }
TEST(LayerNorm, Rms) { run({4, 20}, nf::rms_norm | nf::use_scale); }
TEST(LayerNorm, BackwardData) {
    run({3, 12}, nf::use_scale | nf::use_shift, prop_kind::backward_data);
}

// Statistics of transformer-sized rows with a mean offset (the case where
// one running float sum loses ~100 ULPs in the variance): mean and
// variance within a few f32 ULPs of a double reference.
double ulps(float got, double ref) {
    const double ulp = std::ldexp(1.0, std::ilogb(ref) - 23);
    return std::fabs(got - ref) / ulp;
}

void stats_accuracy(int64_t R, int64_t C, double max_ulps) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc md({R, C}, dt::f32, tag::ab), smd({R}, dt::f32, tag::a);
    auto pd = layer_normalization_forward::primitive_desc(
            eng, prop_kind::forward_training, md, md, smd, 1e-5f, nf::none);
    auto sv = random_f32((size_t)(R * C), 21, 2, 6);
    memory src = f32_memory(md, eng, sv), dst(md, eng), mean(smd, eng),
           var(smd, eng);
    layer_normalization_forward(pd).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                                                          {DNNL_ARG_MEAN, mean},
                                                          {DNNL_ARG_VARIANCE, var}});
    strm.wait();
    const auto gm = raw_f32(mean, R), gv = raw_f32(var, R);
    double worst_m = 0, worst_v = 0;
    for (int64_t r = 0; r < R; ++r) {
        double m = 0, v = 0;
        for (int64_t c = 0; c < C; ++c)
            m += sv[r * C + c];
        m /= (double)C;
        for (int64_t c = 0; c < C; ++c)
            v += (sv[r * C + c] - m) * (sv[r * C + c] - m);
        v /= (double)C;
        worst_m = std::max(worst_m, ulps(gm[r], m));
        worst_v = std::max(worst_v, ulps(gv[r], v));
    }
    EXPECT_LE(worst_m, max_ulps) << "mean, C = " << C;
    EXPECT_LE(worst_v, max_ulps) << "variance, C = " << C;
}

TEST(LayerNorm, StatsAccuracyBert) { stats_accuracy(64, 768, 4); }
TEST(LayerNorm, StatsAccuracyLlama) { stats_accuracy(16, 4096, 4); }
TEST(LayerNorm, StatsAccuracyOddRow) { stats_accuracy(8, 1031, 4); }

TEST(LayerNorm, BadParameters) {
    engine eng(engine::kind::cpu, 0);
    dnnl_memory_desc_t a, b, s;
    dnnl_dims_t da = {2, 3, 4}, db = {2, 3, 5}, ds = {3, 3};
    dnnl_memory_desc_create_with_tag(&a, 3, da, dnnl_f32, dnnl_abc);
    dnnl_memory_desc_create_with_tag(&b, 3, db, dnnl_f32, dnnl_abc);
    dnnl_memory_desc_create_with_tag(&s, 2, ds, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_forward_training, a, b, nullptr, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_forward_training, a, a, s, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_backward, a, a, nullptr, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_forward_training, nullptr, a, nullptr, 1e-5f, 0,
                      nullptr),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
    dnnl_memory_desc_destroy(s);
}

} // namespace
