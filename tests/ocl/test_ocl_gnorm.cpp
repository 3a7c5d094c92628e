// Group normalization on the gpu engine against tests/reference/gnorm_ref:
// forward training / inference and backward (diff scale / shift,
// backward data) over group counts (1, C, between), flags, long units
// (chunked statistics), nchw / nhwc / blocked (staged) / strided layouts,
// f32 / bf16 / f16 / int8 with scales, post-ops, in-place, empty spatial
// dims, queries and rejected parameters.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "ocl_unit_geometry.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"
#include "reference/gnorm_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

using nf = normalization_flags;
const nf CH = nf::use_scale | nf::use_shift;

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

// The device's compute units: units are held on chip only when there is
// one for each.
int64_t compute_units() {
    cl_uint cus = 1;
    clGetDeviceInfo(ocl_interop::get_device(gpu()),
            CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, nullptr);
    return cus;
}

struct cfg_t {
    memory::dims dims;
    memory::dim groups;
    nf flags = nf::none;
    dt sdt = dt::f32, ddt = dt::f32;
    tag t = tag::undef; // undef: plain
    bool in_place = false;
    prop_kind bprop = prop_kind::backward;
    float src_scale = 0, dst_scale = 0;
    bool relu_po = false;
    bool infer = false; // forward inference with computed statistics
};

std::vector<float> as_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

void run(const cfg_t &cf, unsigned seed = 1) {
    stream strm(gpu());
    std::mt19937 gen(seed);
    const auto &dims = cf.dims;
    const int64_t N = dims[0], C = dims[1], G = cf.groups;
    int64_t SP = 1;
    for (size_t i = 2; i < dims.size(); ++i)
        SP *= dims[i];
    const size_t n = (size_t)(N * C * SP);
    const tag t = cf.t == tag::undef ? plain_tag(dims.size()) : cf.t;
    const memory::desc smd(dims, cf.sdt, t), dmd(dims, cf.ddt, t);
    SCOPED_TRACE(describe(smd) + " -> " + describe(dmd) + " groups "
            + std::to_string(G));
    const bool gs = (cf.flags & nf::use_global_stats) != nf::none;
    const bool sc = (cf.flags & nf::use_scale) != nf::none;
    const bool sh = (cf.flags & nf::use_shift) != nf::none;
    const float eps = 1e-3f;
    primitive_attr attr;
    if (cf.src_scale) attr.set_scales_mask(DNNL_ARG_SRC, 0);
    if (cf.dst_scale) attr.set_scales_mask(DNNL_ARG_DST, 0);
    if (cf.relu_po) {
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(po);
    }
    group_normalization_forward::primitive_desc fpd(gpu(),
            gs || cf.infer ? prop_kind::forward_inference
                           : prop_kind::forward_training,
            smd, dmd, G, eps, cf.flags, attr);
    if (!cf.infer) EXPECT_EQ(fpd.mean_desc().get_dims(), memory::dims({N, G}));

    const bool int8 = cf.sdt == dt::s8 || cf.sdt == dt::u8;
    const auto sv = random_values((int64_t)n, cf.sdt, gen,
            int8 ? -100 : -4, int8 ? 100 : 4);
    const auto scv = random_values(C, dt::f32, gen, 0.5, 2);
    const auto shv = random_values(C, dt::f32, gen, -2, 2);
    const auto mv = random_values(N * G, dt::f32, gen, -2, 2);
    const auto vv = random_values(N * G, dt::f32, gen, 0.5, 3);
    memory src = to_memory(gpu(), smd, sv);
    memory dst = cf.in_place ? src : memory(dmd, gpu());
    if (!cf.in_place) fill_padding(dst, 3);
    const memory::desc cmd({C}, dt::f32, tag::x);
    memory scale = to_memory(gpu(), cmd, scv), shift = to_memory(gpu(), cmd, shv);
    const memory::desc smd2({N, G}, dt::f32, tag::ab);
    memory mean = to_memory(gpu(), smd2, mv), var = to_memory(gpu(), smd2, vv);
    std::unordered_map<int, memory> args {{DNNL_ARG_SRC, src},
            {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, scale},
            {DNNL_ARG_SHIFT, shift}};
    // Inference with computed statistics takes none.
    if (!cf.infer) {
        args[DNNL_ARG_MEAN] = mean;
        args[DNNL_ARG_VARIANCE] = var;
    }
    const memory::desc one({1}, dt::f32, tag::x);
    if (cf.src_scale)
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC]
                = to_memory(gpu(), one, {cf.src_scale});
    if (cf.dst_scale)
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST]
                = to_memory(gpu(), one, {cf.dst_scale});
    group_normalization_forward(fpd).execute(strm, args);
    strm.wait();

    gnorm_ref::desc_t rd;
    rd.mb = N;
    rd.c = C;
    rd.sp = SP;
    rd.groups = G;
    rd.eps = eps;
    rd.global_stats = gs;
    rd.scale = sc;
    rd.shift = sh;
    const auto sf = as_f32(sv), scf = as_f32(scv), shf = as_f32(shv),
               mf = as_f32(mv), vf = as_f32(vv);
    std::vector<double> rdst(n), rmean(N * G), rvar(N * G);
    gnorm_ref::forward(rd, sf.data(), scf.data(), shf.data(), mf.data(),
            vf.data(), rdst.data(), rmean.data(), rvar.data());
    for (auto &r : rdst) {
        if (cf.src_scale) r *= cf.src_scale;
        if (cf.relu_po) r = std::max(r, 0.0);
        if (cf.dst_scale) r /= cf.dst_scale;
    }
    EXPECT_TRUE(matches(from_memory(dst), rdst, cf.ddt,
            tol_for(cf.ddt, 2e-5, 2e-5)))
            << "dst " << fpd.impl_info_str();
    EXPECT_TRUE(padding_is_zero(dst));
    if (!gs && !cf.infer) {
        EXPECT_TRUE(matches(from_memory(mean), rmean, dt::f32,
                tol_for(dt::f32, 1e-5, 1e-5)))
                << "mean";
        EXPECT_TRUE(matches(from_memory(var), rvar, dt::f32,
                tol_for(dt::f32, 1e-5, 1e-5)))
                << "variance";
    }
    if (int8 || cf.ddt == dt::s8 || cf.ddt == dt::u8 || cf.infer) return;

    // Backward with the statistics now in mean / var.
    const auto mvals = as_f32(from_memory(mean)),
               vvals = as_f32(from_memory(var));
    const memory::desc ddmd(dims, cf.ddt, t), dsmd(dims, cf.sdt, t);
    const auto ddv = random_values((int64_t)n, cf.ddt, gen, -2, 2);
    memory ddst = to_memory(gpu(), ddmd, ddv);
    memory dsrc = cf.in_place ? ddst : memory(dsmd, gpu());
    if (!cf.in_place) fill_padding(dsrc, 3);
    memory src2 = to_memory(gpu(), smd, sv);
    memory dscale(cmd, gpu()), dshift(cmd, gpu());
    group_normalization_forward::primitive_desc hint(gpu(),
            prop_kind::forward_training, smd, dmd, G, eps, cf.flags);
    group_normalization_backward::primitive_desc bpd(
            gpu(), cf.bprop, dsmd, ddmd, smd, G, eps, cf.flags, hint);
    group_normalization_backward(bpd).execute(strm,
            {{DNNL_ARG_SRC, src2}, {DNNL_ARG_DIFF_DST, ddst},
                    {DNNL_ARG_DIFF_SRC, dsrc}, {DNNL_ARG_SCALE, scale},
                    {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                    {DNNL_ARG_DIFF_SCALE, dscale},
                    {DNNL_ARG_DIFF_SHIFT, dshift}});
    strm.wait();
    std::vector<double> rds(n), rdsc(C), rdsh(C);
    const auto ddf = as_f32(ddv);
    gnorm_ref::backward(rd, sf.data(), mvals.data(), vvals.data(),
            ddf.data(), scf.data(), rds.data(), rdsc.data(), rdsh.data());
    EXPECT_TRUE(matches(from_memory(dsrc), rds, cf.sdt,
            tol_for(cf.sdt, 1e-4, 1e-4)))
            << "diff_src " << bpd.impl_info_str();
    EXPECT_TRUE(padding_is_zero(dsrc));
    if (cf.bprop == prop_kind::backward) {
        const double abs_tol = 1e-6 * (double)(N * SP) + 1e-5;
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

cfg_t mk(memory::dims d, memory::dim g, nf f, tag t = tag::undef) {
    cfg_t c;
    c.dims = d;
    c.groups = g;
    c.flags = f;
    c.t = t;
    return c;
}

// The implementation a training forward of `cf` gets.
std::string impl_of(const cfg_t &cf) {
    const tag t = cf.t == tag::undef ? plain_tag(cf.dims.size()) : cf.t;
    const memory::desc md(cf.dims, cf.sdt, t);
    group_normalization_forward::primitive_desc pd(gpu(),
            prop_kind::forward_training, md, md, cf.groups, 1e-3f, cf.flags);
    return pd.impl_info_str();
}

class ocl_gnorm : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

} // namespace

TEST_F(ocl_gnorm, groups_flags_and_shapes) {
    run(mk({2, 8, 5, 7}, 4, CH), 1);
    run(mk({3, 6, 4, 4}, 1, CH), 2);
    run(mk({2, 6, 3, 5}, 6, nf::use_scale), 3);
    run(mk({2, 4, 9}, 2, nf::none), 4);
    run(mk({5, 12}, 3, CH), 5);
    run(mk({2, 6, 3, 4, 5}, 3, CH), 6);
    run(mk({2, 8, 4, 3}, 4, nf::use_global_stats | CH), 7);
    cfg_t bd = mk({2, 8, 4, 3}, 2, CH);
    bd.bprop = prop_kind::backward_data;
    run(bd, 8);
    // Long units: several lanes per unit, statistics and sums in chunks.
    run(mk({1, 4, 67, 61}, 2, CH), 9);
    run(mk({1, 2, 3000}, 1, nf::use_global_stats | nf::use_scale), 10);
}

TEST_F(ocl_gnorm, layouts) {
    run(mk({2, 8, 5, 7}, 4, CH, tag::nhwc), 11);
    run(mk({2, 6, 33, 40}, 3, CH, tag::nhwc), 12);
    run(mk({2, 6, 3, 4, 5}, 2, nf::use_shift, tag::ndhwc), 13);
    run(mk({2, 19, 3, 4}, 19, CH, tag::nChw16c), 14);
    cfg_t ip = mk({2, 8, 5, 7}, 4, CH);
    ip.in_place = true;
    run(ip, 15);
    cfg_t ipx = mk({2, 8, 5, 7}, 2, CH, tag::nhwc);
    ipx.in_place = true;
    run(ipx, 16);
}

TEST_F(ocl_gnorm, strided_rows) {
    // Rows of 12 channels in rows of 16 floats.
    stream strm(gpu());
    const int64_t N = 3, C = 12, G = 4;
    const memory::desc md({N, C}, dt::f32, memory::dims {16, 1});
    group_normalization_forward::primitive_desc pd(gpu(),
            prop_kind::forward_inference, md, md, G, 1e-3f, nf::none);
    EXPECT_EQ(pd.scratchpad_desc().get_size(), 0u) << "addressed natively";
    std::mt19937 gen(17);
    const auto sv = random_values(N * C, dt::f32, gen);
    memory src = to_memory(gpu(), md, sv), dst = to_memory(gpu(), md, sv, 0x11);
    group_normalization_forward(pd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    gnorm_ref::desc_t rd;
    rd.mb = N;
    rd.c = C;
    rd.groups = G;
    rd.eps = 1e-3;
    const auto sf = as_f32(sv);
    std::vector<double> ref(N * C), rm(N * G), rv(N * G);
    gnorm_ref::forward(rd, sf.data(), nullptr, nullptr, nullptr, nullptr,
            ref.data(), rm.data(), rv.data());
    EXPECT_TRUE(matches(from_memory(dst), ref, dt::f32, tol_for(dt::f32, 2e-5, 2e-5)));
}

TEST_F(ocl_gnorm, data_types_scales_and_post_ops) {
    cfg_t b = mk({2, 8, 5, 7}, 4, CH);
    b.sdt = b.ddt = dt::bf16;
    run(b, 21);
    cfg_t h = mk({2, 6, 5, 4}, 3, CH, tag::nhwc);
    h.sdt = h.ddt = dt::f16;
    run(h, 22);
    cfg_t s8 = mk({2, 4, 9}, 2, nf::none);
    s8.sdt = dt::s8;
    s8.src_scale = 0.5f;
    run(s8, 23);
    cfg_t u8 = mk({2, 6, 3, 4}, 3, CH, tag::nhwc);
    u8.sdt = u8.ddt = dt::u8;
    u8.src_scale = 2.f;
    u8.dst_scale = 0.25f;
    run(u8, 24);
    cfg_t po = mk({2, 6, 3, 4}, 3, CH);
    po.relu_po = true;
    run(po, 25);
}

// Units read as four-wide vectors (nchw, cpg x S a multiple of 4):
// vectors that straddle two channels of a group (S = 6), integer and
// 16-bit data, post-ops, and units too short for the vectors (scalar).
TEST_F(ocl_gnorm, contiguous_units_as_vectors) {
    run(mk({2, 4, 2, 3}, 2, CH), 26);
    cfg_t po = mk({3, 6, 2, 3}, 3, CH);
    po.relu_po = true;
    run(po, 27);
    cfg_t b = mk({2, 8, 4, 5}, 4, CH);
    b.sdt = b.ddt = dt::bf16;
    run(b, 28);
    cfg_t u8 = mk({2, 4, 2, 4}, 2, CH);
    u8.sdt = u8.ddt = dt::u8;
    u8.src_scale = 2.f;
    u8.dst_scale = 0.25f;
    run(u8, 29);
    run(mk({1, 6, 67, 64}, 2, CH), 30);
    run(mk({2, 3, 5, 5}, 3, CH), 31);
    // nhwc: runs of the group's channels per point (cpg a multiple of 4),
    // with post-ops, 16-bit data and long units in chunks.
    const cfg_t h = mk({2, 8, 5, 7}, 2, CH, tag::nhwc);
    EXPECT_EQ(impl_of(h), "ocl:gnorm:units_vec");
    run(h, 32);
    cfg_t hp = mk({3, 16, 3, 3}, 2, CH, tag::nhwc);
    hp.relu_po = true;
    run(hp, 33);
    cfg_t hb = mk({2, 8, 4, 5}, 1, CH, tag::nhwc);
    hb.sdt = hb.ddt = dt::f16;
    run(hb, 34);
    run(mk({1, 8, 67, 61}, 1, CH, tag::nhwc), 35);
}

TEST_F(ocl_gnorm, binary_post_op_per_channel) {
    stream strm(gpu());
    const int64_t N = 2, C = 6, H = 3, W = 4, G = 3;
    for (tag t : {tag::nchw, tag::nhwc}) {
        const memory::desc md({N, C, H, W}, dt::f32, t);
        const memory::desc bmd({1, C, 1, 1}, dt::f32, tag::nchw);
        post_ops po;
        po.append_binary(algorithm::binary_add, bmd);
        primitive_attr attr;
        attr.set_post_ops(po);
        group_normalization_forward::primitive_desc pd(gpu(),
                prop_kind::forward_inference, md, md, G, 1e-3f, nf::none,
                attr);
        std::mt19937 gen(31);
        const auto sv = random_values(N * C * H * W, dt::f32, gen);
        const auto bv = random_values(C, dt::f32, gen, -1, 1);
        memory src = to_memory(gpu(), md, sv), dst(md, gpu()),
               b = to_memory(gpu(), bmd, bv);
        group_normalization_forward(pd).execute(strm,
                {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                        {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                                b}});
        strm.wait();
        gnorm_ref::desc_t rd;
        rd.mb = N;
        rd.c = C;
        rd.sp = H * W;
        rd.groups = G;
        rd.eps = 1e-3;
        const auto sf = as_f32(sv);
        std::vector<double> ref(sv.size()), rm(N * G), rv(N * G);
        gnorm_ref::forward(rd, sf.data(), nullptr, nullptr, nullptr, nullptr,
                ref.data(), rm.data(), rv.data());
        for (size_t i = 0; i < ref.size(); ++i)
            ref[i] += bv[(i / (H * W)) % C];
        EXPECT_TRUE(matches(from_memory(dst), ref, dt::f32,
                tol_for(dt::f32, 2e-5, 2e-5)));
    }
}

TEST_F(ocl_gnorm, empty_spatial_dims) {
    stream strm(gpu());
    const memory::desc md({2, 4, 0, 3}, dt::f32, tag::nchw);
    group_normalization_forward::primitive_desc pd(gpu(),
            prop_kind::forward_training, md, md, 2, 1e-5f, nf::none);
    memory mean = to_memory(gpu(), pd.mean_desc(), std::vector<double>(4, 7));
    memory var = to_memory(gpu(), pd.variance_desc(), std::vector<double>(4, 7));
    memory src(md, gpu()), dst(md, gpu());
    group_normalization_forward(pd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean},
                    {DNNL_ARG_VARIANCE, var}});
    strm.wait();
    EXPECT_EQ(from_memory(mean), std::vector<double>(4, 0.0));
    EXPECT_EQ(from_memory(var), std::vector<double>(4, 0.0));
    group_normalization_backward::primitive_desc bpd(gpu(),
            prop_kind::backward, md, md, md, 2, 1e-5f, CH, pd);
    const memory::desc cmd({4}, dt::f32, tag::x);
    memory sc = to_memory(gpu(), cmd, std::vector<double>(4, 1)),
           dsc = to_memory(gpu(), cmd, std::vector<double>(4, 5)),
           dsh = to_memory(gpu(), cmd, std::vector<double>(4, 5));
    memory dd(md, gpu()), ds(md, gpu());
    group_normalization_backward(bpd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, dd},
                    {DNNL_ARG_DIFF_SRC, ds}, {DNNL_ARG_MEAN, mean},
                    {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, sc},
                    {DNNL_ARG_DIFF_SCALE, dsc}, {DNNL_ARG_DIFF_SHIFT, dsh}});
    strm.wait();
    EXPECT_EQ(from_memory(dsc), std::vector<double>(4, 0.0));
    EXPECT_EQ(from_memory(dsh), std::vector<double>(4, 0.0));
}

TEST_F(ocl_gnorm, queries_and_bad_parameters) {
    const memory::desc md({2, 6, 4, 4}, dt::f32, tag::nchw);
    group_normalization_forward::primitive_desc pd(gpu(),
            prop_kind::forward_training, md,
            memory::desc({2, 6, 4, 4}, dt::f32, tag::any), 3, 1e-5f, CH);
    EXPECT_EQ(pd.dst_desc(), md);
    EXPECT_EQ(pd.get_group_size(), 3);
    EXPECT_EQ(pd.weights_desc().get_dims(), memory::dims({6}));
    // Every unit one contiguous run of 32 floats: four-wide vectors.
    EXPECT_EQ(std::string(pd.impl_info_str()), "ocl:gnorm:units_vec");
    // Backward of integer data.
    const memory::desc s8({2, 6, 4, 4}, dt::s8, tag::nchw);
    EXPECT_EQ(status_of([&] {
        group_normalization_backward::primitive_desc(gpu(),
                prop_kind::backward_data, md, md, s8, 3, 1e-5f, nf::none,
                pd);
    }),
            dnnl_unimplemented);
    // Groups that do not divide the channels.
    EXPECT_EQ(status_of([&] {
        group_normalization_forward::primitive_desc(gpu(),
                prop_kind::forward_training, md, md, 4, 1e-5f, nf::none);
    }),
            dnnl_invalid_arguments);
    // Missing statistics at execution.
    stream strm(gpu());
    memory a(md, gpu()), b(md, gpu());
    EXPECT_EQ(status_of([&] {
        group_normalization_forward(pd).execute(
                strm, {{DNNL_ARG_SRC, a}, {DNNL_ARG_DST, b}});
        strm.wait();
    }),
            dnnl_invalid_arguments);
}

TEST_F(ocl_gnorm, gpu_geometry) {
    gpu_geometry_t g;
    run(mk({1, 4, 67, 61}, 2, CH), 41);
    run(mk({2, 8, 5, 7}, 4, CH, tag::nhwc), 42);
    run(mk({5, 12}, 3, CH), 43);
}

// Units held in registers (GPU geometry, enough units, aligned runs):
// nchw units as one run (vectors straddling channels when S is odd),
// nhwc units as runs of their channels, long units (up to 16 vectors a lane),
// given statistics, in place, 8-bit data with scales, post-ops; not with
// more channels a group than half the lanes.
TEST_F(ocl_gnorm, units_held_in_registers) {
    gpu_geometry_t g;
    // Enough units for any device's compute units (an H100 has 132).
    const cfg_t nchw = mk({64, 8, 6, 6}, 4, CH);
    EXPECT_EQ(impl_of(nchw), "ocl:gnorm:units_cached");
    run(nchw, 51);
    run(mk({4, 6, 2, 3}, 3, CH), 52);
    const cfg_t nhwc = mk({72, 8, 5, 7}, 2, CH, tag::nhwc);
    EXPECT_EQ(impl_of(nhwc), "ocl:gnorm:units_cached");
    run(nhwc, 53);
    run(mk({3, 16, 9}, 4, nf::use_shift, tag::nwc), 54);
    run(mk({2, 4, 67, 64}, 2, CH), 55);
    run(mk({4, 8, 4, 3}, 4, nf::use_global_stats | CH), 56);
    cfg_t ip = mk({4, 8, 5, 4}, 2, CH, tag::nhwc);
    ip.in_place = true;
    run(ip, 57);
    cfg_t u8 = mk({4, 8, 2, 4}, 2, CH);
    u8.sdt = u8.ddt = dt::u8;
    u8.src_scale = 2.f;
    u8.dst_scale = 0.25f;
    run(u8, 58);
    cfg_t po = mk({4, 8, 3, 4}, 2, CH, tag::nhwc);
    po.relu_po = true;
    run(po, 59);
    // Units too long for registers, read twice by groups of 1024 lanes.
    const cfg_t wide = mk({16, 2, 95, 190}, 1, CH);
    EXPECT_EQ(impl_of(wide), "ocl:gnorm:units_vec");
    run(wide, 60);
    // Channels per group not a multiple of 4 in nhwc: the plain kernel.
    EXPECT_EQ(impl_of(mk({4, 6, 5, 7}, 2, CH, tag::nhwc)), "ocl:gnorm:units");
    // More channel coefficients (two a channel) than the unit's lanes
    // hold: the streaming kernel.
    const cfg_t many = mk({64, 160, 2, 2}, 1, CH);
    EXPECT_EQ(impl_of(many), "ocl:gnorm:units_vec");
    run(many, 49);
}

// Units longer than registers hold (more than 16 vectors a lane of 256):
// the rest in local memory (ocl:gnorm:units_held, while
// ONEDNN_OCL_NORM_HELD=1), groups looping over
// the units (two per compute unit, so a partial last round): nchw with
// uneven lane shares and vectors straddling channels (odd S), nhwc runs,
// inference (statistics not saved), 16-bit and 8-bit data with scales,
// post-ops, in place; the largest unit that fits, and the first that
// does not (streaming kernel), on either side of the register-only one.
TEST_F(ocl_gnorm, units_held_on_chip) {
    gpu_geometry_t g;
    norm_held_t held;
    // Images enough for a unit per compute unit (an H100 has 132), and a
    // partial last round of the looping groups.
    const int64_t n = std::max<int64_t>(5, compute_units() + 3);
    const cfg_t nchw = mk({n, 8, 48, 48}, 1, CH);
    EXPECT_EQ(impl_of(nchw), "ocl:gnorm:units_held");
    run(nchw, 61);
    run(mk({n, 4, 67, 71}, 1, CH), 62);
    // Channels-last with 12 channels (3 vectors a point do not divide the
    // lanes, so no image parts).
    const cfg_t nhwc = mk({n, 12, 70, 70}, 3, CH, tag::nhwc);
    EXPECT_EQ(impl_of(nhwc), "ocl:gnorm:units_held");
    run(nhwc, 63);
    cfg_t inf = mk({n, 8, 48, 48}, 1, CH);
    inf.infer = true;
    run(inf, 64);
    cfg_t b = mk({n, 8, 48, 48}, 1, CH);
    b.sdt = b.ddt = dt::bf16;
    run(b, 65);
    cfg_t u8 = mk({n, 8, 48, 48}, 1, CH);
    u8.sdt = u8.ddt = dt::u8;
    u8.src_scale = 2.f;
    u8.dst_scale = 0.25f;
    run(u8, 66);
    cfg_t po = mk({n, 12, 50, 50}, 3, CH, tag::nhwc);
    po.relu_po = true;
    run(po, 67);
    cfg_t ip = mk({n, 8, 48, 48}, 1, nf::use_shift);
    ip.in_place = true;
    run(ip, 68);
    const cfg_t largest = mk({n, 8, 54, 64}, 1, CH);
    EXPECT_EQ(impl_of(largest), "ocl:gnorm:units_held");
    run(largest, 69);
    const cfg_t past = mk({n, 4, 83, 84}, 1, CH);
    EXPECT_EQ(impl_of(past), "ocl:gnorm:units_vec");
    run(past, 70);
    EXPECT_EQ(impl_of(mk({n, 4, 64, 64}, 1, CH)), "ocl:gnorm:units_cached");
    EXPECT_EQ(impl_of(mk({n, 4, 64, 65}, 1, CH)), "ocl:gnorm:units_held");
    // Given statistics leave nothing to hold: the streaming kernel.
    EXPECT_EQ(impl_of(mk({n, 8, 48, 48}, 1, nf::use_global_stats)),
            "ocl:gnorm:units_vec");
}

// Channels-last images whose points follow one another, cut into parts of
// whole points held on chip by groups that wait for one another
// (ocl:gnorm:image_parts_held, for units longer than registers hold; a
// part holds 27 vectors a lane of 256 at most): two parts an image (16
// channels, 3000 points), one part, a channel group of one vector (cpg
// 4), 3-D, of all the channels (one group), 1024 channels in one group (a
// point is the 256 lanes' vectors), more items than groups (tickets taken
// in turn), inference (statistics not saved), given statistics (nothing
// to hold: another kernel), bf16 and u8 with scales, post-ops, in place,
// scale or shift alone; more parts an image than compute units, units
// that registers alone hold and batches whose statistics words would
// pass 64 MiB take the other kernels.
TEST_F(ocl_gnorm, image_parts_held_on_chip) {
    gpu_geometry_t g;
    norm_held_t held;
    const int64_t n = 5;
    const cfg_t two = mk({n, 16, 50, 60}, 2, CH, tag::nhwc);
    EXPECT_EQ(impl_of(two), "ocl:gnorm:image_parts_held");
    run(two, 81);
    run(mk({n, 16, 50, 60}, 4, CH, tag::nhwc), 82); // units in registers
    run(mk({3, 64, 26, 30}, 1, CH, tag::nhwc), 83);
    const cfg_t one = mk({2, 64, 20, 20}, 1, nf::use_scale, tag::nhwc);
    EXPECT_EQ(impl_of(one), "ocl:gnorm:image_parts_held");
    run(one, 84);
    const cfg_t wide = mk({3, 1024, 7, 7}, 1, CH, tag::nhwc);
    EXPECT_EQ(impl_of(wide), "ocl:gnorm:image_parts_held");
    run(wide, 85);
    const cfg_t cpg4 = mk({4, 8, 70, 70}, 2, nf::use_shift, tag::nhwc);
    EXPECT_EQ(impl_of(cpg4), "ocl:gnorm:image_parts_held");
    run(cpg4, 86);
    const cfg_t d3 = mk({2, 32, 11, 11, 11}, 2, CH, tag::ndhwc);
    EXPECT_EQ(impl_of(d3), "ocl:gnorm:image_parts_held");
    run(d3, 87);
    cfg_t inf = mk({n, 16, 50, 60}, 2, CH, tag::nhwc);
    inf.infer = true;
    run(inf, 88);
    EXPECT_NE(impl_of(mk({n, 16, 50, 60}, 2, nf::use_global_stats,
                      tag::nhwc)),
            "ocl:gnorm:image_parts_held");
    run(mk({n, 16, 50, 60}, 2, nf::use_global_stats | CH, tag::nhwc), 89);
    cfg_t b = mk({n, 16, 50, 60}, 2, CH, tag::nhwc);
    b.sdt = b.ddt = dt::bf16;
    run(b, 90);
    cfg_t u8 = mk({n, 16, 50, 60}, 2, CH, tag::nhwc);
    u8.sdt = u8.ddt = dt::u8;
    u8.src_scale = 2.f;
    u8.dst_scale = 0.25f;
    run(u8, 91);
    cfg_t po = mk({n, 16, 50, 60}, 2, CH, tag::nhwc);
    po.relu_po = true;
    run(po, 92);
    cfg_t ip = mk({n, 16, 50, 60}, 4, CH, tag::nhwc);
    ip.in_place = true;
    run(ip, 93);
    // More points than compute_units() parts of at most 27 points hold.
    const int64_t past = 28 * compute_units();
    EXPECT_NE(impl_of(mk({1, 1024, past, 1}, 32, CH, tag::nhwc)),
            "ocl:gnorm:image_parts_held");
    EXPECT_EQ(impl_of(mk({compute_units() + 3, 16, 8, 8}, 2, CH, tag::nhwc)),
            "ocl:gnorm:units_cached");
    // A batch whose parts' statistics words would pass 64 MiB of
    // scratchpad (two parts of two groups an image: 48 bytes an image).
    EXPECT_NE(impl_of(mk({1500000, 16, 50, 60}, 2, CH, tag::nhwc)),
            "ocl:gnorm:image_parts_held");
    norm_held_t off(false);
    EXPECT_NE(impl_of(two), "ocl:gnorm:image_parts_held");
}

// With ONEDNN_OCL_NORM_HELD=0 long units take the streaming kernel, and
// without it the held one.
TEST_F(ocl_gnorm, units_held_on_chip_unless_turned_off) {
    gpu_geometry_t g;
    const int64_t n = std::max<int64_t>(5, compute_units() + 3);
    EXPECT_EQ(impl_of(mk({n, 8, 48, 48}, 1, CH)), "ocl:gnorm:units_held");
    norm_held_t off(false);
    EXPECT_EQ(impl_of(mk({n, 8, 48, 48}, 1, CH)), "ocl:gnorm:units_vec");
}

#endif
