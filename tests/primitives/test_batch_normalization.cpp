// Batch normalization primitive tests: forward training / inference with
// scale, shift, global stats, fused relu; backward (diff scale/shift and
// backward_data); in-place; queries; bad parameters; compared with
// tests/reference/bnorm_ref.*.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/bnorm_ref.hpp"
#include "tensor_glue.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;
using nf = normalization_flags;

void run(memory::dims dims, nf flags, bool in_place = false) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const int64_t N = dims[0], C = dims[1];
    int64_t SP = 1;
    for (size_t i = 2; i < dims.size(); ++i)
        SP *= dims[i];
    const size_t n = (size_t)(N * C * SP);
    const tag t = dims.size() == 2 ? tag::nc : dims.size() == 3 ? tag::ncw
            : dims.size() == 4                                 ? tag::nchw
                                                               : tag::ncdhw;
    memory::desc md(dims, dt::f32, t);
    const bool gs = (flags & nf::use_global_stats) != nf::none;
    const bool sc = (flags & nf::use_scale) != nf::none;
    const bool sh = (flags & nf::use_shift) != nf::none;
    const bool relu = (flags & nf::fuse_norm_relu) != nf::none;
    auto fpd = batch_normalization_forward::primitive_desc(
            eng, prop_kind::forward_training, md, md, 1e-3f, flags);
    EXPECT_EQ(fpd.get_epsilon(), 1e-3f);
    EXPECT_EQ(fpd.mean_desc().get_dims(), memory::dims({C}));
    EXPECT_EQ(fpd.variance_desc().get_dims(), memory::dims({C}));
    EXPECT_EQ(fpd.workspace_desc().get_size() != 0, relu);

    auto sv = random_f32(n, 1), scv = random_f32(C, 2, 0.5f, 2),
         shv = random_f32(C, 3);
    auto mv = random_f32(C, 4), vv = random_f32(C, 5, 0.5f, 3);
    memory src = f32_memory(md, eng, sv);
    memory dst = in_place ? src : memory(md, eng);
    // Scale and shift buffers exist even when the flags leave them unused
    // (the descriptor then reports a zero md for them).
    const memory::desc cmd({C}, dt::f32, tag::x);
    memory scale = f32_memory(cmd, eng, scv), shift = f32_memory(cmd, eng, shv);
    memory mean = f32_memory(fpd.mean_desc(), eng, mv),
           var = f32_memory(fpd.variance_desc(), eng, vv);
    memory ws(fpd.workspace_desc(), eng);
    batch_normalization_forward(fpd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, scale},
                    {DNNL_ARG_SHIFT, shift}, {DNNL_ARG_MEAN, mean},
                    {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    bnorm_ref::desc_t rd;
    rd.mb = N;
    rd.c = C;
    rd.sp = SP;
    rd.eps = 1e-3;
    rd.global_stats = gs;
    rd.scale = sc;
    rd.shift = sh;
    rd.relu = relu;
    std::vector<double> rdst(n), rmean(C), rvar(C);
    bnorm_ref::forward(rd, sv.data(), nullptr, scv.data(), shv.data(), mv.data(), vv.data(),
            rdst.data(), rmean.data(), rvar.data());
    expect_near(raw_f32(dst, n), rdst, 1e-4, "dst");
    if (!gs) {
        expect_near(raw_f32(mean, C), rmean, 1e-5, "mean");
        expect_near(raw_f32(var, C), rvar, 1e-4, "var");
    }
    if (relu) return;

    // Backward (with the statistics now in mean/var).
    auto mvals = raw_f32(mean, C), vvals = raw_f32(var, C);
    auto ddv = random_f32(n, 6);
    memory ddst = f32_memory(md, eng, ddv);
    memory dsrc = in_place ? ddst : memory(md, eng);
    memory dscale(cmd, eng), dshift(cmd, eng);
    auto bpd = batch_normalization_backward::primitive_desc(
            eng, prop_kind::backward, md, md, md, 1e-3f, flags, fpd);
    memory src_orig = f32_memory(md, eng, sv);
    batch_normalization_backward(bpd).execute(strm,
            {{DNNL_ARG_SRC, src_orig}, {DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc},
                    {DNNL_ARG_SCALE, scale}, {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                    {DNNL_ARG_DIFF_SCALE, dscale}, {DNNL_ARG_DIFF_SHIFT, dshift}});
    strm.wait();
    std::vector<double> rds(n), rdsc(C), rdsh(C);
    bnorm_ref::backward(rd, sv.data(), mvals.data(), vvals.data(), ddv.data(), scv.data(),
            rds.data(), rdsc.data(), rdsh.data());
    expect_near(raw_f32(dsrc, n), rds, 2e-4, "diff_src");
    if (sc) expect_near(raw_f32(dscale, C), rdsc, 2e-4, "diff_scale");
    if (sh) expect_near(raw_f32(dshift, C), rdsh, 2e-4, "diff_shift");
}

TEST(BatchNorm, TrainingScaleShift) { run({2, 5, 4, 3}, nf::use_scale | nf::use_shift); }
TEST(BatchNorm, TrainingPlain) { run({3, 4, 7}, nf::none); }
TEST(BatchNorm, GlobalStats) { run({2, 3, 2, 2, 3}, nf::use_global_stats | nf::use_scale); }
TEST(BatchNorm, NC) { run({8, 6}, nf::use_shift); }
TEST(BatchNorm, FuseRelu) { run({2, 4, 5, 5}, nf::fuse_norm_relu | nf::use_scale); }
TEST(BatchNorm, InPlace) { run({2, 3, 4, 4}, nf::use_scale | nf::use_shift, true); }

TEST(BatchNorm, InferenceQueries) {
    engine eng(engine::kind::cpu, 0);
    memory::desc md({2, 3, 4, 4}, dt::f32, tag::nhwc), any({2, 3, 4, 4}, dt::f32, tag::any);
    auto pd = batch_normalization_forward::primitive_desc(
            eng, prop_kind::forward_inference, md, any, 1e-5f, nf::use_global_stats);
    EXPECT_EQ(pd.dst_desc(), md);
    EXPECT_EQ(pd.mean_desc().get_dims(), memory::dims({3}));
    EXPECT_EQ(pd.workspace_desc().get_size(), 0u);
}

TEST(BatchNorm, BadParameters) {
    engine eng(engine::kind::cpu, 0);
    dnnl_memory_desc_t a, b;
    dnnl_dims_t da = {2, 3, 4, 4}, db = {2, 4, 4, 4};
    dnnl_memory_desc_create_with_tag(&a, 4, da, dnnl_f32, dnnl_nchw);
    dnnl_memory_desc_create_with_tag(&b, 4, db, dnnl_f32, dnnl_nchw);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_forward_training, a, b, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_backward, a, a, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_forward_training, nullptr, a, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(
                      &pd, eng.get(), dnnl_forward_training, a, a, 1e-5f, 0x400, nullptr),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
}

} // namespace
