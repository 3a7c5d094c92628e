// Batch normalization on the gpu engine against tests/reference/bnorm_ref:
// forward training / inference and backward (diff scale / shift, backward
// data) with scale, shift, global statistics, fused ReLU and add + ReLU,
// a ReLU post-op
// (workspace masks, diff_src_1), few channels over many points (chunked
// statistics and sums), nchw / nhwc / 2-D / blocked (staged) layouts,
// f32 / bf16 / f16, in-place, queries and rejected parameters.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <algorithm>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "ocl_unit_geometry.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"
#include "reference/bnorm_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

using nf = normalization_flags;
const nf CH = nf::use_scale | nf::use_shift;

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

// The device's compute units (how many parts of a channel may be held at
// once).
int64_t compute_units() {
    cl_uint cus = 1;
    clGetDeviceInfo(ocl_interop::get_device(gpu()),
            CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, nullptr);
    return cus;
}

struct cfg_t {
    memory::dims dims;
    nf flags = nf::none;
    tag t = tag::undef; // undef: plain
    dt data_dt = dt::f32;
    bool in_place = false;
    prop_kind bprop = prop_kind::backward;
    bool infer = false; // forward inference with computed statistics
    bool po_relu = false; // a ReLU post-op of slope po_alpha
    float po_alpha = 0.f;
};

std::vector<float> as_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

void run(const cfg_t &cf, unsigned seed = 1) {
    stream strm(gpu());
    std::mt19937 gen(seed);
    const auto &dims = cf.dims;
    const int64_t N = dims[0], C = dims[1];
    int64_t SP = 1;
    for (size_t i = 2; i < dims.size(); ++i)
        SP *= dims[i];
    const size_t n = (size_t)(N * C * SP);
    const tag t = cf.t == tag::undef ? plain_tag(dims.size()) : cf.t;
    const memory::desc md(dims, cf.data_dt, t);
    SCOPED_TRACE(describe(md));
    const bool gs = (cf.flags & nf::use_global_stats) != nf::none;
    const bool sc = (cf.flags & nf::use_scale) != nf::none;
    const bool sh = (cf.flags & nf::use_shift) != nf::none;
    const bool relu = (cf.flags & nf::fuse_norm_relu) != nf::none;
    const bool add_relu = (cf.flags & nf::fuse_norm_add_relu) != nf::none;
    const float eps = 1e-3f;
    primitive_attr attr;
    if (cf.po_relu) {
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, cf.po_alpha, 0.f);
        attr.set_post_ops(po);
    }
    batch_normalization_forward::primitive_desc fpd(gpu(),
            cf.infer ? prop_kind::forward_inference
                     : prop_kind::forward_training,
            md, md, eps, cf.flags, attr);
    if (!cf.infer)
        EXPECT_EQ(fpd.workspace_desc().get_size() != 0, relu || add_relu);

    const auto sv = random_values((int64_t)n, cf.data_dt, gen, -4, 4);
    const auto s1v = random_values((int64_t)n, cf.data_dt, gen, -2, 2);
    const auto scv = random_values(C, dt::f32, gen, 0.5, 2);
    const auto shv = random_values(C, dt::f32, gen, -2, 2);
    const auto mv = random_values(C, dt::f32, gen, -2, 2);
    const auto vv = random_values(C, dt::f32, gen, 0.5, 3);
    memory src = to_memory(gpu(), md, sv);
    memory dst = cf.in_place ? src : memory(md, gpu());
    if (!cf.in_place) fill_padding(dst, 3);
    const memory::desc cmd({C}, dt::f32, tag::x);
    memory scale = to_memory(gpu(), cmd, scv), shift = to_memory(gpu(), cmd, shv);
    memory mean = to_memory(gpu(), cmd, mv), var = to_memory(gpu(), cmd, vv);
    memory ws(fpd.workspace_desc(), gpu());
    std::unordered_map<int, memory> args {{DNNL_ARG_SRC, src},
            {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, scale},
            {DNNL_ARG_SHIFT, shift}, {DNNL_ARG_WORKSPACE, ws}};
    // Inference with computed statistics takes none.
    if (!cf.infer || gs) {
        args[DNNL_ARG_MEAN] = mean;
        args[DNNL_ARG_VARIANCE] = var;
    }
    if (add_relu) args[DNNL_ARG_SRC_1] = to_memory(gpu(), md, s1v);
    batch_normalization_forward(fpd).execute(strm, args);
    strm.wait();

    bnorm_ref::desc_t rd;
    rd.mb = N;
    rd.c = C;
    rd.sp = SP;
    rd.eps = eps;
    rd.global_stats = gs;
    rd.scale = sc;
    rd.shift = sh;
    rd.relu = relu;
    rd.add_relu = add_relu;
    const auto sf = as_f32(sv), s1f = as_f32(s1v), scf = as_f32(scv),
               shf = as_f32(shv), mf = as_f32(mv), vf = as_f32(vv);
    std::vector<double> rdst(n), rmean(C), rvar(C);
    bnorm_ref::forward(rd, sf.data(), s1f.data(), scf.data(), shf.data(),
            mf.data(), vf.data(), rdst.data(), rmean.data(), rvar.data());
    if (cf.po_relu)
        for (auto &y : rdst)
            y = y > 0 ? y : cf.po_alpha * y;
    EXPECT_TRUE(matches(from_memory(dst), rdst, cf.data_dt,
            tol_for(cf.data_dt, 2e-5, 2e-5)))
            << "dst " << fpd.impl_info_str();
    EXPECT_TRUE(padding_is_zero(dst));
    if (cf.infer) return;
    if (!gs) {
        EXPECT_TRUE(matches(from_memory(mean), rmean, dt::f32,
                tol_for(dt::f32, 1e-5, 1e-5)))
                << "mean";
        EXPECT_TRUE(matches(from_memory(var), rvar, dt::f32,
                tol_for(dt::f32, 1e-5, 1e-5)))
                << "variance";
    }

    // Backward; with a fused ReLU the gradient passes where dst > 0.
    const auto mvals = as_f32(from_memory(mean)),
               vvals = as_f32(from_memory(var));
    const auto out = from_memory(dst);
    auto ddv = random_values((int64_t)n, cf.data_dt, gen, -2, 2);
    memory ddst = to_memory(gpu(), md, ddv);
    memory dsrc = cf.in_place ? ddst : memory(md, gpu());
    if (!cf.in_place) fill_padding(dsrc, 3);
    memory dsrc1(md, gpu());
    memory src2 = to_memory(gpu(), md, sv);
    memory dscale(cmd, gpu()), dshift(cmd, gpu());
    batch_normalization_backward::primitive_desc bpd(
            gpu(), cf.bprop, md, md, md, eps, cf.flags, fpd);
    std::unordered_map<int, memory> bargs {{DNNL_ARG_SRC, src2},
            {DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc},
            {DNNL_ARG_SCALE, scale}, {DNNL_ARG_MEAN, mean},
            {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_DIFF_SCALE, dscale},
            {DNNL_ARG_DIFF_SHIFT, dshift}, {DNNL_ARG_WORKSPACE, ws}};
    if (add_relu) bargs[DNNL_ARG_DIFF_SRC_1] = dsrc1;
    batch_normalization_backward(bpd).execute(strm, bargs);
    strm.wait();
    if (relu || add_relu)
        for (size_t i = 0; i < n; ++i)
            if (!(out[i] > 0)) ddv[i] = 0;
    std::vector<double> rds(n), rdsc(C), rdsh(C);
    const auto ddf = as_f32(ddv);
    bnorm_ref::backward(rd, sf.data(), mvals.data(), vvals.data(), ddf.data(),
            scf.data(), rds.data(), rdsc.data(), rdsh.data());
    EXPECT_TRUE(matches(from_memory(dsrc), rds, cf.data_dt,
            tol_for(cf.data_dt, 1e-4, 1e-4)))
            << "diff_src " << bpd.impl_info_str();
    EXPECT_TRUE(padding_is_zero(dsrc));
    if (add_relu)
        EXPECT_TRUE(matches(from_memory(dsrc1), ddv, cf.data_dt,
                tol_for(cf.data_dt, 0, 0)))
                << "diff_src_1";
    if (cf.bprop == prop_kind::backward) {
        const double abs_tol = 2e-6 * (double)(N * SP) + 1e-5;
        if (sc)
            EXPECT_TRUE(matches(from_memory(dscale), rdsc, dt::f32,
                    tol_for(dt::f32, 1e-4, abs_tol)))
                    << "diff_scale";
        if (sh)
            EXPECT_TRUE(matches(from_memory(dshift), rdsh, dt::f32,
                    tol_for(dt::f32, 1e-4, abs_tol)))
                    << "diff_shift";
    }
}

cfg_t mk(memory::dims d, nf f, tag t = tag::undef) {
    cfg_t c;
    c.dims = d;
    c.flags = f;
    c.t = t;
    return c;
}

class ocl_bnorm : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

} // namespace

TEST_F(ocl_bnorm, flags_and_shapes) {
    run(mk({2, 5, 4, 3}, CH), 1);
    run(mk({3, 4, 7}, nf::none), 2);
    run(mk({2, 3, 2, 2, 3}, nf::use_global_stats | nf::use_scale), 3);
    run(mk({8, 6}, nf::use_shift), 4);
    cfg_t bd = mk({2, 5, 4, 3}, CH);
    bd.bprop = prop_kind::backward_data;
    run(bd, 5);
    // Few channels over many points: statistics and sums in chunks.
    run(mk({2, 3, 50, 60}, CH), 6);
    run(mk({4, 3, 30, 40}, CH, tag::nhwc), 7);
}

TEST_F(ocl_bnorm, fused_relu_and_add_relu) {
    run(mk({2, 4, 5, 5}, nf::fuse_norm_relu | nf::use_scale), 11);
    run(mk({2, 4, 5, 5}, nf::fuse_norm_add_relu | CH, tag::nhwc), 12);
    run(mk({2, 19, 3, 3}, nf::fuse_norm_relu | CH, tag::nChw16c), 13);
    run(mk({1, 3, 2000}, nf::fuse_norm_add_relu | nf::use_global_stats), 14);
}

TEST_F(ocl_bnorm, layouts_data_types_and_in_place) {
    run(mk({2, 19, 4, 3}, CH, tag::nChw16c), 21);
    run(mk({3, 6, 4, 5}, CH, tag::nhwc), 22);
    cfg_t b = mk({2, 5, 4, 3}, CH);
    b.data_dt = dt::bf16;
    run(b, 23);
    cfg_t h = mk({2, 5, 4, 3}, CH, tag::nhwc);
    h.data_dt = dt::f16;
    run(h, 24);
    cfg_t ip = mk({2, 3, 4, 4}, CH);
    ip.in_place = true;
    run(ip, 25);
}

TEST_F(ocl_bnorm, queries_and_bad_parameters) {
    const memory::desc md({2, 3, 4, 4}, dt::f32, tag::nhwc),
            any({2, 3, 4, 4}, dt::f32, tag::any);
    batch_normalization_forward::primitive_desc pd(gpu(),
            prop_kind::forward_inference, md, any, 1e-5f,
            nf::use_global_stats | nf::fuse_norm_relu);
    EXPECT_EQ(pd.dst_desc(), md);
    EXPECT_EQ(pd.mean_desc().get_dims(), memory::dims({3}));
    EXPECT_EQ(pd.workspace_desc().get_size(), 0u);
    EXPECT_EQ(std::string(pd.impl_info_str()), "ocl:bnorm:lanes");
    // s8 only with given statistics (s8_given_statistics).
    const memory::desc s8({2, 3, 4, 4}, dt::s8, tag::nchw);
    EXPECT_EQ(status_of([&] {
        batch_normalization_forward::primitive_desc(gpu(),
                prop_kind::forward_training, s8, s8, 1e-5f, nf::none);
    }),
            dnnl_unimplemented);
    // Missing workspace at execution of a fused ReLU backward (of the
    // two-pass kernels; GPUs would otherwise hold the channels on chip).
    norm_held_t two_pass(false);
    const memory::desc nchw({2, 3, 4, 4}, dt::f32, tag::nchw);
    batch_normalization_forward::primitive_desc fpd(gpu(),
            prop_kind::forward_training, nchw, nchw, 1e-5f,
            nf::fuse_norm_relu);
    // rows_vec on GPUs (vector loads), rows on CPU devices.
    EXPECT_EQ(std::string(fpd.impl_info_str()).rfind("ocl:bnorm:rows", 0), 0u)
            << fpd.impl_info_str();
    batch_normalization_backward::primitive_desc bpd(gpu(),
            prop_kind::backward_data, nchw, nchw, nchw, 1e-5f,
            nf::fuse_norm_relu, fpd);
    stream strm(gpu());
    memory a(nchw, gpu()), b(nchw, gpu()), c(nchw, gpu());
    memory m(fpd.mean_desc(), gpu()), v(fpd.variance_desc(), gpu());
    EXPECT_EQ(status_of([&] {
        batch_normalization_backward(bpd).execute(strm,
                {{DNNL_ARG_SRC, a}, {DNNL_ARG_DIFF_DST, b},
                        {DNNL_ARG_DIFF_SRC, c}, {DNNL_ARG_MEAN, m},
                        {DNNL_ARG_VARIANCE, v}});
        strm.wait();
    }),
            dnnl_invalid_arguments);
}

// Given statistics over one dense plain layout: the elementwise kernel,
// channels along vectors (nhwc) or one channel per vector (nchw).
TEST_F(ocl_bnorm, dense_given_statistics) {
    const nf gs = nf::use_global_stats;
    const memory::desc nchw({2, 8, 4, 6}, dt::f32, tag::nchw);
    batch_normalization_forward::primitive_desc pd(gpu(),
            prop_kind::forward_inference, nchw, nchw, 1e-5f, gs | CH);
    EXPECT_EQ(std::string(pd.impl_info_str()), "ocl:bnorm:dense");
    run(mk({2, 8, 4, 6}, gs | CH), 51);
    run(mk({3, 12, 5, 5}, gs | CH, tag::nhwc), 52);
    run(mk({2, 4, 3, 4}, gs | nf::fuse_norm_relu | CH), 53);
    run(mk({2, 8, 3, 3}, gs | nf::fuse_norm_add_relu, tag::nhwc), 54);
    cfg_t b = mk({4, 16}, gs | nf::use_scale);
    b.data_dt = dt::bf16;
    b.in_place = true;
    run(b, 55);
}

// Computed statistics over one dense plain layout, split in chunks: the
// chunks' statistics are merged, then the elementwise kernel normalizes
// (nchw: rows with four rows' loads at once; nhwc: channel lanes).
TEST_F(ocl_bnorm, dense_computed_statistics) {
    auto cases = [](unsigned seed) {
        // Long enough for chunks on GPUs too (256 lanes per channel).
        const memory::desc nchw({8, 3, 64, 64}, dt::f32, tag::nchw);
        batch_normalization_forward::primitive_desc pd(gpu(),
                prop_kind::forward_training, nchw, nchw, 1e-5f, CH);
        EXPECT_NE(std::string(pd.impl_info_str()).find("+dense"),
                std::string::npos)
                << pd.impl_info_str();
        run(mk({8, 3, 64, 64}, CH), seed++);
        run(mk({5, 2, 33, 40}, nf::fuse_norm_relu | CH), seed++);
        run(mk({3, 2, 40, 40}, nf::fuse_norm_add_relu), seed++);
        run(mk({4, 8, 30, 40}, CH, tag::nhwc), seed++);
        run(mk({4, 8, 30, 40}, nf::fuse_norm_relu, tag::nhwc), seed++);
        cfg_t b = mk({2, 3, 48, 50}, CH);
        b.data_dt = dt::bf16;
        b.in_place = true;
        run(b, seed++);
    };
    // The two-pass kernels (GPUs hold these channels on chip otherwise):
    // on this device, then with a GPU's geometry.
    norm_held_t two_pass(false);
    cases(70);
    gpu_geometry_t g;
    cases(80);
}

// Computed statistics over a dense channels-last layout: bands of rows
// reduced for many channels at once, merged per channel, then the
// elementwise kernel. Channel counts below, at and above one group's
// channel lanes (64 vectors), rows that fill no band evenly, a single row.
TEST_F(ocl_bnorm, channels_last_statistics_in_bands) {
    const memory::desc nhwc({2, 8, 5, 7}, dt::f32, tag::nhwc);
    batch_normalization_forward::primitive_desc pd(gpu(),
            prop_kind::forward_training, nhwc, nhwc, 1e-5f, CH);
    EXPECT_NE(std::string(pd.impl_info_str()).find("bands+dense"),
            std::string::npos)
            << pd.impl_info_str();
    run(mk({2, 8, 5, 7}, CH, tag::nhwc), 90);
    run(mk({3, 260, 3, 5}, CH, tag::nhwc), 91);
    run(mk({1, 256, 1, 1}, CH, tag::nhwc), 92);
    run(mk({37, 12}, nf::use_scale), 93);
    run(mk({2, 4, 2, 3, 4}, nf::fuse_norm_relu | CH, tag::ndhwc), 94);
    run(mk({4, 16, 9, 9}, nf::fuse_norm_add_relu, tag::nhwc), 95);
    cfg_t b = mk({2, 20, 6, 6}, CH, tag::nhwc);
    b.data_dt = dt::bf16;
    b.in_place = true;
    run(b, 96);
    run(mk({5, 132, 17, 19}, CH, tag::nhwc), 97);
}

TEST_F(ocl_bnorm, gpu_geometry) {
    gpu_geometry_t g;
    run(mk({2, 3, 50, 60}, CH), 41);
    run(mk({4, 3, 30, 40}, nf::fuse_norm_relu | CH, tag::nhwc), 42);
    run(mk({8, 6}, nf::use_shift), 43);
    // Vectors along the points: given statistics with add + ReLU, bf16
    // data in place, and points not a multiple of the vector (scalar).
    run(mk({3, 5, 4, 8}, nf::use_global_stats | nf::fuse_norm_add_relu | CH),
            44);
    cfg_t b = mk({2, 4, 6, 6}, CH);
    b.data_dt = dt::bf16;
    b.in_place = true;
    run(b, 45);
    run(mk({2, 3, 5, 3}, nf::use_global_stats | CH), 46);
}

// Computed statistics and the normalization in one launch, each channel's
// parts held on chip by groups that wait for one another (GPU geometry,
// ONEDNN_OCL_NORM_HELD=1, nchw-like layouts read as vectors): two parts
// of a channel (more than the groups' lanes hold at once), parts of
// unequal images, a single part, more parts than groups (each group takes
// several in turn), fused ReLU (workspace) and add + ReLU, in place,
// inference (statistics not saved); more parts than compute units,
// images too long for a group and 16-bit data take the two-pass kernels.
TEST_F(ocl_bnorm, channels_held_on_chip) {
    gpu_geometry_t g;
    norm_held_t held;
    const auto impl = [](const memory::dims &d, dt t = dt::f32) {
        const memory::desc md(d, t, tag::nchw);
        return std::string(batch_normalization_forward::primitive_desc(gpu(),
                prop_kind::forward_training, md, md, 1e-5f, CH)
                        .impl_info_str());
    };
    EXPECT_EQ(impl({8, 3, 64, 64}), "ocl:bnorm:held");
    run(mk({8, 3, 64, 64}, CH), 101);
    run(mk({7, 2, 64, 64}, nf::use_scale), 102);
    run(mk({3, 4, 32, 32}, CH), 103);
    run(mk({8, compute_units() + 5, 64, 64}, CH), 104);
    run(mk({8, 3, 64, 64}, nf::fuse_norm_relu | CH), 105);
    run(mk({8, 2, 64, 64}, nf::fuse_norm_add_relu), 106);
    cfg_t b = mk({8, 3, 64, 64}, CH);
    b.in_place = true;
    run(b, 107);
    cfg_t inf = mk({8, 3, 64, 64}, CH);
    inf.infer = true;
    run(inf, 109);
    // Six images of 64 x 64 fill a part: one part more than compute units.
    EXPECT_NE(impl({6 * (compute_units() + 1), 1, 64, 64}), "ocl:bnorm:held");
    EXPECT_NE(impl({2, 3, 170, 170}), "ocl:bnorm:held");
    EXPECT_NE(impl({8, 3, 64, 64}, dt::bf16), "ocl:bnorm:held");
    EXPECT_NE(impl({8, 3, 64, 64}, dt::f16), "ocl:bnorm:held");
}

// The backward with src and diff_dst held on chip (both at once, so a
// part takes half the images it takes forward: three of 64 x 64 at 256
// lanes): two parts, unequal parts, a single part, more parts than
// groups, fused ReLU (the workspace masks g) and add + ReLU (diff_src_1),
// in place, backward data, given statistics; more parts than compute
// units and 16-bit data take the unit kernels.
TEST_F(ocl_bnorm, backward_held_on_chip) {
    gpu_geometry_t g;
    norm_held_t held;
    const auto impl = [](const memory::dims &d, prop_kind pk, dt t = dt::f32) {
        const memory::desc md(d, t, tag::nchw);
        batch_normalization_forward::primitive_desc fpd(
                gpu(), prop_kind::forward_training, md, md, 1e-5f, CH);
        return std::string(batch_normalization_backward::primitive_desc(
                gpu(), pk, md, md, md, 1e-5f, CH, fpd)
                                   .impl_info_str());
    };
    EXPECT_EQ(impl({6, 3, 64, 64}, prop_kind::backward), "ocl:bnorm:held");
    EXPECT_EQ(impl({6, 3, 64, 64}, prop_kind::backward_data), "ocl:bnorm:held");
    run(mk({6, 3, 64, 64}, CH), 111);
    run(mk({5, 2, 64, 64}, nf::use_scale), 112);
    run(mk({3, 4, 32, 32}, CH), 113);
    run(mk({6, compute_units() + 5, 64, 64}, CH), 114);
    run(mk({6, 3, 64, 64}, nf::fuse_norm_relu | CH), 115);
    run(mk({6, 2, 64, 64}, nf::fuse_norm_add_relu | nf::use_shift), 116);
    cfg_t b = mk({6, 3, 64, 64}, CH);
    b.in_place = true;
    run(b, 117);
    cfg_t d = mk({6, 3, 64, 64}, CH | nf::fuse_norm_relu);
    d.bprop = prop_kind::backward_data;
    run(d, 119);
    run(mk({6, 3, 64, 64}, nf::use_global_stats | CH), 120);
    // Three images of 64 x 64 fill a part: one part more than compute
    // units.
    EXPECT_NE(impl({3 * (compute_units() + 1), 1, 64, 64}, prop_kind::backward),
            "ocl:bnorm:held");
    EXPECT_NE(impl({6, 3, 64, 64}, prop_kind::backward, dt::bf16),
            "ocl:bnorm:held");
}

// s8 src and dst with given statistics (oneDNN's only s8 form): plain,
// channels-last and blocked (staged) layouts, with a fused ReLU, against
// the reference rounded and saturated; s8 with computed statistics or a
// float dst is refused.
TEST_F(ocl_bnorm, s8_given_statistics) {
    const nf gs = nf::use_global_stats;
    unsigned seed = 400;
    for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
        for (nf f : {gs | CH, gs | CH | nf::fuse_norm_relu, gs}) {
            const memory::dims dims = {2, 19, 5, 6};
            const int64_t C = dims[1], SP = dims[2] * dims[3];
            const size_t n = (size_t)(dims[0] * C * SP);
            const memory::desc md(dims, dt::s8, t);
            SCOPED_TRACE(describe(md));
            std::mt19937 gen(seed++);
            batch_normalization_forward::primitive_desc pd(gpu(),
                    prop_kind::forward_inference, md, md, 1e-3f, f);
            const auto sv = random_values((int64_t)n, dt::s8, gen, -100, 100);
            const auto scv = random_values(C, dt::f32, gen, 0.5, 2);
            const auto shv = random_values(C, dt::f32, gen, -20, 20);
            const auto mv = random_values(C, dt::f32, gen, -10, 10);
            const auto vv = random_values(C, dt::f32, gen, 0.5, 30);
            const memory::desc cmd({C}, dt::f32, tag::x);
            memory dst(md, gpu());
            fill_padding(dst, 3);
            stream strm(gpu());
            batch_normalization_forward(pd).execute(strm,
                    {{DNNL_ARG_SRC, to_memory(gpu(), md, sv)},
                            {DNNL_ARG_DST, dst},
                            {DNNL_ARG_SCALE, to_memory(gpu(), cmd, scv)},
                            {DNNL_ARG_SHIFT, to_memory(gpu(), cmd, shv)},
                            {DNNL_ARG_MEAN, to_memory(gpu(), cmd, mv)},
                            {DNNL_ARG_VARIANCE, to_memory(gpu(), cmd, vv)}});
            strm.wait();
            bnorm_ref::desc_t rd;
            rd.mb = dims[0];
            rd.c = C;
            rd.sp = SP;
            rd.eps = 1e-3f;
            rd.global_stats = true;
            rd.scale = (f & nf::use_scale) != nf::none;
            rd.shift = (f & nf::use_shift) != nf::none;
            rd.relu = (f & nf::fuse_norm_relu) != nf::none;
            const auto sf = as_f32(sv), scf = as_f32(scv), shf = as_f32(shv),
                       mf = as_f32(mv), vf = as_f32(vv);
            std::vector<double> rdst(n), rmean(C), rvar(C);
            bnorm_ref::forward(rd, sf.data(), nullptr, scf.data(), shf.data(),
                    mf.data(), vf.data(), rdst.data(), rmean.data(),
                    rvar.data());
            for (double &y : rdst)
                y = std::min(127.0, std::max(-128.0, y));
            EXPECT_TRUE(matches(from_memory(dst), rdst, dt::s8,
                    tol_for(dt::s8, 1e-5, 1e-5)))
                    << pd.impl_info_str();
            EXPECT_TRUE(padding_is_zero(dst));
        }
    const memory::desc s8({2, 4, 3, 3}, dt::s8, tag::nchw),
            f32({2, 4, 3, 3}, dt::f32, tag::nchw);
    for (auto pair : {std::make_pair(s8, s8), std::make_pair(s8, f32)})
        for (nf f : {CH, gs | CH}) {
            if (pair.second == s8 && f == (gs | CH)) continue;
            EXPECT_THROW(batch_normalization_forward::primitive_desc(gpu(),
                                 prop_kind::forward_inference, pair.first,
                                 pair.second, 1e-3f, f),
                    dnnl::error);
        }
}

// A ReLU post-op (oneDNN's one post-op for batch normalization): applied
// by every forward kernel (unit rows, dense, bands, held), with a slope in
// inference; no workspace of its own. Other chains, a slope in training
// and backward post-ops are refused.
TEST_F(ocl_bnorm, relu_post_op) {
    const nf gs = nf::use_global_stats;
    unsigned seed = 200;
    for (float alpha : {0.f, 0.25f}) {
        const bool infer = alpha != 0.f;
        for (const cfg_t &base : {mk({2, 4, 5, 5}, CH),
                     mk({3, 5, 7}, gs | CH), mk({2, 4, 3, 4}, gs, tag::nhwc),
                     mk({2, 19, 3, 3}, CH, tag::nChw16c),
                     mk({2, 6, 5, 5}, nf::fuse_norm_relu | CH)}) {
            cfg_t c = base;
            c.po_relu = true;
            c.po_alpha = alpha;
            // Training (alpha 0), or inference with computed or given
            // statistics.
            c.infer = infer;
            run(c, seed++);
        }
    }
    {
        gpu_geometry_t g;
        cfg_t c = mk({4, 3, 30, 40}, CH, tag::nhwc);
        c.po_relu = true;
        run(c, seed++);
        norm_held_t held;
        cfg_t h = mk({8, 3, 64, 64}, CH);
        h.po_relu = true;
        run(h, seed++);
        h.infer = true;
        h.po_alpha = 0.5f;
        run(h, seed++);
    }
    const memory::desc md({2, 4, 5, 5}, dt::f32, tag::nchw);
    auto refused = [&](prop_kind pk, const post_ops &po) {
        primitive_attr attr;
        attr.set_post_ops(po);
        try {
            batch_normalization_forward::primitive_desc(
                    gpu(), pk, md, md, 1e-3f, CH, attr);
        } catch (const dnnl::error &e) {
            return e.status == dnnl_unimplemented;
        }
        return false;
    };
    post_ops leaky, two, other, scaled;
    leaky.append_eltwise(algorithm::eltwise_relu, 0.1f, 0.f);
    two.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    two.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    other.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
    scaled.append_sum(1.f);
    EXPECT_TRUE(refused(prop_kind::forward_training, leaky));
    EXPECT_FALSE(refused(prop_kind::forward_inference, leaky));
    EXPECT_TRUE(refused(prop_kind::forward_training, two));
    EXPECT_TRUE(refused(prop_kind::forward_inference, other));
    EXPECT_TRUE(refused(prop_kind::forward_inference, scaled));
}

// With ONEDNN_OCL_NORM_HELD=0 the two-pass kernels, and without it the
// held one.
TEST_F(ocl_bnorm, channels_held_on_chip_unless_turned_off) {
    gpu_geometry_t g;
    const memory::desc md({8, 3, 64, 64}, dt::f32, tag::nchw);
    const auto impl = [&] {
        return std::string(batch_normalization_forward::primitive_desc(gpu(),
                prop_kind::forward_training, md, md, 1e-5f, CH)
                        .impl_info_str());
    };
    EXPECT_EQ(impl(), "ocl:bnorm:held");
    norm_held_t off(false);
    EXPECT_EQ(impl(), "ocl:bnorm:rows_vec+dense");
}

#endif
