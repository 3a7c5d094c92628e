// Group normalization primitive tests: forward training / inference and
// backward (diff scale/shift, backward_data) over a sweep of shapes, group
// counts (1, C and between), flags, data types (f32, bf16, f16, int8 with
// scales), layouts (nchw, nhwc, blocked, strided 2D), in-place execution,
// post-ops, queries, bad parameters and the gpu engine; compared with
// tests/reference/gnorm_ref.*.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/gnorm_ref.hpp"
#include "tensor_glue.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;
using nf = normalization_flags;

// Memory of `md` holding `v` (logical row-major f32 values), converted by a
// reorder; `v` is replaced with the values actually stored.
memory make(const memory::desc &md, const engine &eng, stream &s, std::vector<float> &v) {
    memory m = to_mem(v, md, eng, s);
    v = from_mem(m, eng, s);
    return m;
}

// |got - ref| <= abs + rel * |ref| for every element.
void expect_near(const std::vector<float> &got, const std::vector<double> &ref, double abs,
        double rel, const char *what) {
    ASSERT_EQ(got.size(), ref.size());
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], ref[i], abs + rel * std::fabs(ref[i])) << what << " at " << i;
}

double dt_eps(dt t) {
    switch (t) {
        case dt::bf16: return 1.0 / 128;
        case dt::f16: return 1.0 / 1024;
        case dt::s8:
        case dt::u8: return 1.0;
        default: return 1e-6;
    }
}

struct cfg_t {
    memory::dims dims;
    memory::dim groups;
    nf flags = nf::none;
    dt sdt = dt::f32, ddt = dt::f32;
    tag t = tag::undef; // undef: plain abx
    bool in_place = false;
    prop_kind bprop = prop_kind::backward;
    bool backward = true;
};

void run(const cfg_t &cf) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const auto &dims = cf.dims;
    const int64_t N = dims[0], C = dims[1], G = cf.groups;
    int64_t SP = 1;
    for (size_t i = 2; i < dims.size(); ++i)
        SP *= dims[i];
    const size_t n = (size_t)(N * C * SP);
    const tag t = cf.t == tag::undef ? plain_tag(dims.size()) : cf.t;
    const memory::desc smd(dims, cf.sdt, t), dmd(dims, cf.ddt, t);
    const bool gs = (cf.flags & nf::use_global_stats) != nf::none;
    const bool sc = (cf.flags & nf::use_scale) != nf::none;
    const bool sh = (cf.flags & nf::use_shift) != nf::none;
    const float eps = 1e-3f;

    auto fpd = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_training, smd, dmd, G, eps, cf.flags);
    EXPECT_EQ(fpd.mean_desc().get_dims(), memory::dims({N, G}));
    EXPECT_EQ(fpd.variance_desc().get_dims(), memory::dims({N, G}));
    EXPECT_EQ(fpd.get_group_size(), G);
    EXPECT_EQ(fpd.get_epsilon(), eps);
    EXPECT_EQ(fpd.get_flags(), cf.flags);
    EXPECT_EQ(fpd.weights_desc().get_size() != 0, sc || sh);

    // int8 sources cover their range; float ones [-4, 4].
    auto sv = cf.sdt == dt::u8   ? random_f32(n, 1, 0, 200)
              : cf.sdt == dt::s8 ? random_f32(n, 1, -100, 100)
                                 : random_f32(n, 1);
    for (auto &x : sv)
        if (cf.sdt == dt::s8 || cf.sdt == dt::u8) x = std::round(x);
    auto scv = random_f32(C, 2, 0.5f, 2), shv = random_f32(C, 3);
    auto mv = random_f32(N * G, 4), vv = random_f32(N * G, 5, 0.5f, 3);
    memory src = make(smd, eng, strm, sv);
    memory dst = cf.in_place ? src : memory(dmd, eng);
    const memory::desc cmd({C}, dt::f32, tag::x);
    memory scale(cmd, eng), shift(cmd, eng);
    std::copy(scv.begin(), scv.end(), static_cast<float *>(scale.get_data_handle()));
    std::copy(shv.begin(), shv.end(), static_cast<float *>(shift.get_data_handle()));
    memory mean(fpd.mean_desc(), eng), var(fpd.variance_desc(), eng);
    std::copy(mv.begin(), mv.end(), static_cast<float *>(mean.get_data_handle()));
    std::copy(vv.begin(), vv.end(), static_cast<float *>(var.get_data_handle()));
    group_normalization_forward(fpd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, scale},
                    {DNNL_ARG_SHIFT, shift}, {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var}});
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
    std::vector<double> rdst(n), rmean(N * G), rvar(N * G);
    gnorm_ref::forward(rd, sv.data(), scv.data(), shv.data(), mv.data(), vv.data(),
            rdst.data(), rmean.data(), rvar.data());
    const double de = dt_eps(cf.ddt);
    if (cf.ddt == dt::s8 || cf.ddt == dt::u8) {
        // Integer dst: rounded and saturated.
        const double lo = cf.ddt == dt::s8 ? -128 : 0, hi = cf.ddt == dt::s8 ? 127 : 255;
        for (auto &r : rdst)
            r = std::min(hi, std::max(lo, r));
        expect_near(from_mem(dst, eng, strm), rdst, 1.0, 0, "dst");
    } else {
        expect_near(
                from_mem(dst, eng, strm), rdst, 4 * de + 2e-6, 2 * de, "dst");
    }
    if (!gs) {
        // Float statistics of float data: a few ULPs relative to the scale
        // of the data (mean) and of the variance.
        const auto gm = raw_f32(mean, N * G), gv = raw_f32(var, N * G);
        for (int64_t i = 0; i < N * G; ++i) {
            EXPECT_NEAR(gm[i], rmean[i], 4e-7 * (1 + std::sqrt(rvar[i]))) << "mean " << i;
            EXPECT_NEAR(gv[i], rvar[i], 4e-7 * rvar[i] + 1e-12) << "var " << i;
        }
    }
    if (!cf.backward || cf.sdt == dt::s8 || cf.sdt == dt::u8) return;

    // Backward with the statistics now in mean / var.
    auto mvals = raw_f32(mean, N * G), vvals = raw_f32(var, N * G);
    auto ddv = random_f32(n, 6);
    const memory::desc ddmd(dims, cf.ddt, t), dsmd(dims, cf.sdt, t);
    memory ddst = make(ddmd, eng, strm, ddv);
    memory dsrc = cf.in_place ? ddst : memory(dsmd, eng);
    memory src2 = make(smd, eng, strm, sv);
    memory dscale(cmd, eng), dshift(cmd, eng);
    auto bpd = group_normalization_backward::primitive_desc(
            eng, cf.bprop, dsmd, ddmd, smd, G, eps, cf.flags, fpd);
    EXPECT_EQ(bpd.mean_desc().get_dims(), memory::dims({N, G}));
    EXPECT_EQ(bpd.diff_weights_desc().get_size() != 0,
            cf.bprop == prop_kind::backward && (sc || sh));
    group_normalization_backward(bpd).execute(strm,
            {{DNNL_ARG_SRC, src2}, {DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc},
                    {DNNL_ARG_SCALE, scale}, {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                    {DNNL_ARG_DIFF_SCALE, dscale}, {DNNL_ARG_DIFF_SHIFT, dshift}});
    strm.wait();
    std::vector<double> rds(n), rdsc(C), rdsh(C);
    gnorm_ref::backward(rd, sv.data(), mvals.data(), vvals.data(), ddv.data(), scv.data(),
            rds.data(), rdsc.data(), rdsh.data());
    const double se = dt_eps(cf.sdt);
    expect_near(
            from_mem(dsrc, eng, strm), rds, 8 * se + 1e-5, 2 * se, "diff_src");
    if (cf.bprop == prop_kind::backward) {
        // Sums over N * spatial points.
        const double tol = 1e-6 * (double)(N * SP) + 8 * de;
        if (sc)
            expect_near(raw_f32(dscale, C), rdsc, tol, 4 * de, "diff_scale");
        if (sh)
            expect_near(raw_f32(dshift, C), rdsh, tol, 4 * de, "diff_shift");
    }
}

const nf CH = nf::use_scale | nf::use_shift;

TEST(GroupNorm, Nchw) { run({{2, 8, 5, 7}, 4, CH}); }
TEST(GroupNorm, OneGroup) { run({{3, 6, 4, 4}, 1, CH}); }
TEST(GroupNorm, GroupPerChannel) { run({{2, 6, 3, 5}, 6, nf::use_scale}); }
TEST(GroupNorm, OddSizes) { run({{3, 15, 7, 3}, 5, nf::use_shift}); }
TEST(GroupNorm, NoFlags) { run({{2, 4, 9}, 2, nf::none}); }
TEST(GroupNorm, TwoD) { run({{5, 12}, 3, CH}); }
TEST(GroupNorm, FiveD) { run({{2, 6, 3, 4, 5}, 3, CH}); }
TEST(GroupNorm, LongRows) { run({{1, 4, 67, 61}, 2, CH}); }
TEST(GroupNorm, GlobalStats) { run({{2, 8, 4, 3}, 4, nf::use_global_stats | CH}); }
TEST(GroupNorm, GlobalStatsOnly) { run({{2, 8, 4, 3}, 2, nf::use_global_stats}); }
TEST(GroupNorm, Nhwc) {
    cfg_t c {{2, 12, 5, 6}, 3, CH};
    c.t = tag::acdb;
    run(c);
}
TEST(GroupNorm, NhwcManyPoints) {
    cfg_t c {{1, 32, 40, 41}, 8, CH};
    c.t = tag::acdb;
    run(c);
}
TEST(GroupNorm, Ndhwc) {
    cfg_t c {{2, 6, 3, 2, 5}, 2, nf::use_scale};
    c.t = tag::acdeb;
    run(c);
}
TEST(GroupNorm, Blocked) {
    cfg_t c {{2, 32, 3, 5}, 4, CH};
    c.t = tag::aBcd16b;
    run(c);
}
TEST(GroupNorm, BlockedGlobalStats) {
    cfg_t c {{2, 16, 3, 3}, 8, nf::use_global_stats | CH};
    c.t = tag::aBcd8b;
    run(c);
}
TEST(GroupNorm, InPlace) {
    cfg_t c {{2, 8, 5, 5}, 2, CH};
    c.in_place = true;
    run(c);
}
TEST(GroupNorm, InPlaceNhwc) {
    cfg_t c {{2, 8, 5, 5}, 4, CH};
    c.t = tag::acdb;
    c.in_place = true;
    run(c);
}
TEST(GroupNorm, BackwardData) {
    cfg_t c {{2, 8, 4, 4}, 4, CH};
    c.bprop = prop_kind::backward_data;
    run(c);
}
TEST(GroupNorm, BackwardDataGlobalStats) {
    cfg_t c {{2, 8, 4, 4}, 2, nf::use_global_stats | nf::use_scale};
    c.bprop = prop_kind::backward_data;
    run(c);
}
TEST(GroupNorm, Bf16) {
    cfg_t c {{2, 8, 6, 5}, 4, CH};
    c.sdt = c.ddt = dt::bf16;
    run(c);
}
TEST(GroupNorm, Bf16Nhwc) {
    cfg_t c {{2, 8, 6, 5}, 2, CH};
    c.sdt = c.ddt = dt::bf16;
    c.t = tag::acdb;
    run(c);
}
TEST(GroupNorm, F16) {
    cfg_t c {{2, 6, 5, 5}, 3, CH};
    c.sdt = c.ddt = dt::f16;
    run(c);
}
TEST(GroupNorm, F32ToBf16) {
    cfg_t c {{2, 6, 5, 5}, 3, CH};
    c.ddt = dt::bf16;
    c.backward = false;
    run(c);
}
TEST(GroupNorm, S8ToF32) {
    cfg_t c {{2, 8, 4, 4}, 2, CH};
    c.sdt = dt::s8;
    run(c);
}
TEST(GroupNorm, U8Nhwc) {
    cfg_t c {{2, 8, 4, 4}, 4, nf::use_scale};
    c.sdt = dt::u8;
    c.t = tag::acdb;
    run(c);
}
TEST(GroupNorm, F32ToS8) {
    cfg_t c {{2, 8, 4, 4}, 2, CH};
    c.ddt = dt::s8;
    c.backward = false;
    run(c);
}
TEST(GroupNorm, ZeroSpatial) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc md({2, 4, 0, 3}, dt::f32, tag::nchw);
    auto pd = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_training, md, md, 2, 1e-5f, nf::none);
    memory mean(pd.mean_desc(), eng), var(pd.variance_desc(), eng);
    auto *m = static_cast<float *>(mean.get_data_handle());
    auto *v = static_cast<float *>(var.get_data_handle());
    for (int i = 0; i < 4; ++i)
        m[i] = v[i] = 7.f;
    memory src(md, eng), dst(md, eng);
    group_normalization_forward(pd).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                                                          {DNNL_ARG_MEAN, mean},
                                                          {DNNL_ARG_VARIANCE, var}});
    strm.wait();
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(m[i], 0.f);
        EXPECT_EQ(v[i], 0.f);
    }
    // Backward: diff scale / shift are empty sums.
    auto bpd = group_normalization_backward::primitive_desc(eng, prop_kind::backward, md, md,
            md, 2, 1e-5f, nf::use_scale | nf::use_shift, pd);
    const memory::desc cmd({4}, dt::f32, tag::x);
    memory sc(cmd, eng), dsc(cmd, eng), dsh(cmd, eng), dd(md, eng), ds(md, eng);
    for (int i = 0; i < 4; ++i)
        static_cast<float *>(dsc.get_data_handle())[i] = 5.f;
    group_normalization_backward(bpd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, dd}, {DNNL_ARG_DIFF_SRC, ds},
                    {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, sc},
                    {DNNL_ARG_DIFF_SCALE, dsc}, {DNNL_ARG_DIFF_SHIFT, dsh}});
    strm.wait();
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(static_cast<float *>(dsc.get_data_handle())[i], 0.f);
}

// Strided (padded) 2D tensor: rows of 12 channels in rows of 16 floats.
TEST(GroupNorm, StridedRows) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const int64_t N = 3, C = 12, G = 4;
    memory::desc md({N, C}, dt::f32, memory::dims {16, 1});
    auto pd = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_inference, md, md, G, 1e-3f, nf::none);
    memory src(md, eng), dst(md, eng);
    auto sv = random_f32(N * 16, 9);
    std::copy(sv.begin(), sv.end(), static_cast<float *>(src.get_data_handle()));
    group_normalization_forward(pd).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    std::vector<float> dense(N * C);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            dense[n * C + c] = sv[n * 16 + c];
    gnorm_ref::desc_t rd;
    rd.mb = N;
    rd.c = C;
    rd.groups = G;
    rd.eps = 1e-3;
    std::vector<double> ref(N * C), rm(N * G), rv(N * G);
    gnorm_ref::forward(rd, dense.data(), nullptr, nullptr, nullptr, nullptr, ref.data(),
            rm.data(), rv.data());
    const float *d = static_cast<const float *>(dst.get_data_handle());
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            ASSERT_NEAR(d[n * 16 + c], ref[n * C + c], 1e-5) << n << "," << c;
}

// Post-ops (eltwise, per-channel binary) on dst, as oneDNN allows.
TEST(GroupNorm, PostOps) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const int64_t N = 2, C = 6, H = 3, W = 4, G = 3;
    for (tag t : {tag::nchw, tag::nhwc}) {
        memory::desc md({N, C, H, W}, dt::f32, t);
        memory::desc bmd({1, C, 1, 1}, dt::f32, tag::nchw);
        post_ops po;
        po.append_binary(algorithm::binary_add, bmd);
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        primitive_attr attr;
        attr.set_post_ops(po);
        auto pd = group_normalization_forward::primitive_desc(
                eng, prop_kind::forward_inference, md, md, G, 1e-3f, nf::none, attr);
        auto sv = random_f32(N * C * H * W, 11);
        memory src = make(md, eng, strm, sv), dst(md, eng), b(bmd, eng);
        auto bv = random_f32(C, 12, -1, 1);
        std::copy(bv.begin(), bv.end(), static_cast<float *>(b.get_data_handle()));
        group_normalization_forward(pd).execute(strm,
                {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                        {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, b}});
        strm.wait();
        gnorm_ref::desc_t rd;
        rd.mb = N;
        rd.c = C;
        rd.sp = H * W;
        rd.groups = G;
        rd.eps = 1e-3;
        std::vector<double> ref(sv.size()), rm(N * G), rv(N * G);
        gnorm_ref::forward(rd, sv.data(), nullptr, nullptr, nullptr, nullptr, ref.data(),
                rm.data(), rv.data());
        for (size_t i = 0; i < ref.size(); ++i)
            ref[i] = std::max(0.0, ref[i] + bv[(i / (H * W)) % C]);
        expect_near(from_mem(dst, eng, strm), ref, 1e-5, 1e-5, "dst");
    }
}

// int8 src and dst with their scales: dst = norm * src_scale / dst_scale.
TEST(GroupNorm, Int8Scales) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const int64_t N = 2, C = 4, SP = 9, G = 2;
    memory::desc smd({N, C, SP}, dt::s8, tag::abc), dmd({N, C, SP}, dt::s8, tag::abc);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    attr.set_scales_mask(DNNL_ARG_DST, 0);
    auto pd = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_inference, smd, dmd, G, 1e-3f, nf::none, attr);
    auto sv = random_f32(N * C * SP, 13, -100, 100);
    for (auto &x : sv)
        x = std::round(x);
    memory src = make(smd, eng, strm, sv), dst(dmd, eng);
    memory::desc one({1}, dt::f32, tag::x);
    memory ss(one, eng), ds(one, eng);
    *static_cast<float *>(ss.get_data_handle()) = 40.f;
    *static_cast<float *>(ds.get_data_handle()) = 0.5f;
    group_normalization_forward(pd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ss},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, ds}});
    strm.wait();
    gnorm_ref::desc_t rd;
    rd.mb = N;
    rd.c = C;
    rd.sp = SP;
    rd.groups = G;
    rd.eps = 1e-3;
    std::vector<double> ref(sv.size()), rm(N * G), rv(N * G);
    gnorm_ref::forward(rd, sv.data(), nullptr, nullptr, nullptr, nullptr, ref.data(),
            rm.data(), rv.data());
    for (auto &r : ref)
        r = std::min(127.0, std::max(-128.0, r * 40 / 0.5));
    expect_near(from_mem(dst, eng, strm), ref, 1.0, 0, "dst");
    // Missing scale memory at execution.
    EXPECT_THROW(group_normalization_forward(pd).execute(
                         strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}}),
            error);
}

// Different group counts are different primitives (the cache key holds
// the groups).
TEST(GroupNorm, GroupsInKey) {
    engine eng(engine::kind::cpu, 0);
    memory::desc md({2, 8, 3, 3}, dt::f32, tag::nchw);
    auto a = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_training, md, md, 2, 1e-5f, nf::none);
    auto b = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_training, md, md, 4, 1e-5f, nf::none);
    auto pa = group_normalization_forward(a), pb = group_normalization_forward(b);
    dnnl_dim_t ga = 0, gb = 0;
    ASSERT_EQ(dnnl_primitive_desc_query(
                      pa.get_primitive_desc(), dnnl_query_group_size_s64, 0, &ga),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_desc_query(
                      pb.get_primitive_desc(), dnnl_query_group_size_s64, 0, &gb),
            dnnl_success);
    EXPECT_EQ(ga, 2);
    EXPECT_EQ(gb, 4);
}

TEST(GroupNorm, Queries) {
    engine eng(engine::kind::cpu, 0);
    memory::desc md({2, 6, 4, 4}, dt::f32, tag::nhwc), any({2, 6, 4, 4}, dt::f32, tag::any);
    auto pd = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_inference, md, any, 3, 1e-5f, nf::use_global_stats);
    EXPECT_EQ(pd.dst_desc(), md);
    EXPECT_EQ(pd.mean_desc().get_dims(), memory::dims({2, 3}));
    EXPECT_EQ(pd.weights_desc().get_size(), 0u);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_inference);
    auto tpd = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_training, md, md, 3, 1e-5f, nf::use_scale);
    EXPECT_EQ(tpd.query_md(query::dst_md, 1).get_dims(), memory::dims({2, 3}));
    EXPECT_EQ(tpd.query_md(query::src_md, 1).get_size(), 0u);
    EXPECT_EQ(tpd.weights_desc().get_dims(), memory::dims({6}));
    // Inference without global stats has no statistics at all.
    auto ipd = group_normalization_forward::primitive_desc(
            eng, prop_kind::forward_inference, md, md, 3, 1e-5f, nf::none);
    EXPECT_EQ(ipd.mean_desc().get_size(), 0u);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(ipd.get(), dnnl_query_num_of_inputs_s32, 0), 1);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(tpd.get(), dnnl_query_num_of_outputs_s32, 0), 3);
}

dnnl_status_t fwd_status(const dnnl_memory_desc_t s, const dnnl_memory_desc_t d,
        dnnl_dim_t groups, unsigned flags, const engine &eng,
        dnnl_prop_kind_t prop = dnnl_forward_training, const_dnnl_primitive_attr_t attr = nullptr) {
    dnnl_primitive_desc_t pd = nullptr;
    dnnl_status_t st = dnnl_group_normalization_forward_primitive_desc_create(
            &pd, eng.get(), prop, s, d, groups, 1e-5f, flags, attr);
    if (pd) dnnl_primitive_desc_destroy(pd);
    return st;
}

TEST(GroupNorm, BadParameters) {
    engine eng(engine::kind::cpu, 0);
    dnnl_memory_desc_t a, b, one, anyd, bf;
    dnnl_dims_t da = {2, 6, 4, 4}, db = {2, 8, 4, 4}, d1 = {6};
    dnnl_memory_desc_create_with_tag(&a, 4, da, dnnl_f32, dnnl_nchw);
    dnnl_memory_desc_create_with_tag(&b, 4, db, dnnl_f32, dnnl_nchw);
    dnnl_memory_desc_create_with_tag(&one, 1, d1, dnnl_f32, dnnl_a);
    dnnl_memory_desc_create_with_tag(&anyd, 4, da, dnnl_f32, dnnl_format_tag_any);
    dnnl_memory_desc_create_with_tag(&bf, 4, da, dnnl_bf16, dnnl_nchw);
    EXPECT_EQ(fwd_status(a, a, 3, 0, eng), dnnl_success);
    EXPECT_EQ(fwd_status(a, a, 0, 0, eng), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(a, a, -2, 0, eng), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(a, a, 4, 0, eng), dnnl_invalid_arguments); // 6 % 4
    EXPECT_EQ(fwd_status(a, a, 12, 0, eng), dnnl_invalid_arguments); // > C
    EXPECT_EQ(fwd_status(a, b, 2, 0, eng), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(one, one, 1, 0, eng), dnnl_invalid_arguments); // 1D
    EXPECT_EQ(fwd_status(anyd, a, 2, 0, eng), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(a, anyd, 2, 0, eng), dnnl_success);
    EXPECT_EQ(fwd_status(a, a, 2, dnnl_rms_norm, eng), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(a, a, 2, dnnl_fuse_norm_relu, eng), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(a, a, 2, 0, eng, dnnl_backward), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(nullptr, a, 2, 0, eng), dnnl_invalid_arguments);
    EXPECT_EQ(fwd_status(a, nullptr, 2, 0, eng), dnnl_invalid_arguments);
    {
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(&pd, nullptr,
                          dnnl_forward_training, a, a, 2, 1e-5f, 0, nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(nullptr, eng.get(),
                          dnnl_forward_training, a, a, 2, 1e-5f, 0, nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(&pd, eng.get(),
                          dnnl_forward_training, a, a, 2, -1.f, 0, nullptr),
                dnnl_invalid_arguments);
    }
    // Attributes: scales only for int8, no zero points; backward takes none.
    dnnl_primitive_attr_t attr;
    dnnl_primitive_attr_create(&attr);
    dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0);
    EXPECT_EQ(fwd_status(a, a, 2, 0, eng, dnnl_forward_training, attr), dnnl_unimplemented);
    {
        // A src scale needs an 8-bit src (an 8-bit dst is not enough).
        dnnl_memory_desc_t s8;
        dnnl_memory_desc_create_with_tag(&s8, 4, da, dnnl_s8, dnnl_nchw);
        EXPECT_EQ(fwd_status(a, s8, 2, 0, eng, dnnl_forward_training, attr),
                dnnl_unimplemented);
        EXPECT_EQ(fwd_status(s8, a, 2, 0, eng, dnnl_forward_training, attr), dnnl_success);
        dnnl_memory_desc_destroy(s8);
    }
    dnnl_primitive_attr_destroy(attr);
    dnnl_primitive_attr_create(&attr);
    dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0);
    EXPECT_EQ(fwd_status(a, a, 2, 0, eng, dnnl_forward_training, attr), dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_t po;
    dnnl_post_ops_create(&po);
    dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef);
    dnnl_primitive_attr_create(&attr);
    dnnl_primitive_attr_set_post_ops(attr, po);
    EXPECT_EQ(fwd_status(a, a, 2, 0, eng, dnnl_forward_training, attr), dnnl_unimplemented);
    {
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_backward, a, a, a, 2, 1e-5f, 0, nullptr, attr),
                dnnl_unimplemented);
    }
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    // Backward checks.
    {
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_forward_training, a, a, a, 2, 1e-5f, 0, nullptr, nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_backward, a, b, a, 2, 1e-5f, 0, nullptr, nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_backward, a, a, nullptr, 2, 1e-5f, 0, nullptr, nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_backward, a, a, a, 5, 1e-5f, 0, nullptr, nullptr),
                dnnl_invalid_arguments);
        // int8 backward is not supported.
        dnnl_memory_desc_t s8;
        dnnl_memory_desc_create_with_tag(&s8, 4, da, dnnl_s8, dnnl_nchw);
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_backward, s8, s8, s8, 2, 1e-5f, 0, nullptr, nullptr),
                dnnl_unimplemented);
        dnnl_memory_desc_destroy(s8);
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_backward, bf, bf, a, 2, 1e-5f, dnnl_use_scale, nullptr,
                          nullptr),
                dnnl_success);
        dnnl_primitive_desc_destroy(pd);
    }
    // A hint of another primitive kind.
    {
        auto bn = batch_normalization_forward::primitive_desc(eng,
                prop_kind::forward_training, memory::desc({2, 6, 4, 4}, dt::f32, tag::nchw),
                memory::desc({2, 6, 4, 4}, dt::f32, tag::nchw), 1e-5f, nf::none);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                          dnnl_backward, a, a, a, 2, 1e-5f, 0, bn.get(), nullptr),
                dnnl_invalid_arguments);
    }
    // Missing statistics at execution.
    {
        stream strm(eng);
        memory::desc md({2, 6, 4, 4}, dt::f32, tag::nchw);
        auto pd = group_normalization_forward::primitive_desc(
                eng, prop_kind::forward_training, md, md, 2, 1e-5f, nf::none);
        memory s(md, eng), d(md, eng);
        EXPECT_THROW(group_normalization_forward(pd).execute(
                             strm, {{DNNL_ARG_SRC, s}, {DNNL_ARG_DST, d}}),
                error);
    }
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
    dnnl_memory_desc_destroy(one);
    dnnl_memory_desc_destroy(anyd);
    dnnl_memory_desc_destroy(bf);
}

// The gpu engine's implementation is tested in tests/ocl/.
TEST(GroupNorm, GpuEngineCreates) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    dnnl_memory_desc_t a;
    dnnl_dims_t da = {2, 6, 4, 4};
    dnnl_memory_desc_create_with_tag(&a, 4, da, dnnl_f32, dnnl_nchw);
    EXPECT_EQ(fwd_status(a, a, 2, 0, eng), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, eng.get(),
                      dnnl_backward, a, a, a, 2, 1e-5f, 0, nullptr, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(a);
}

} // namespace
