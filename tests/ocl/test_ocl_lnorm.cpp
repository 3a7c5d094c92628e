// Layer normalization on the gpu engine against tests/reference/lnorm_ref:
// forward training (statistics saved) and inference with global
// statistics, scale / shift / RMS flags, backward data and backward with
// diff scale / shift (chunked over many rows), plain, transposed and
// staged (non-merging) layouts, f32 / bf16 / f16 data, in-place, long
// rows, forward with s8 / u8 data and src / dst scales, queries and
// rejected parameters (post-ops: the cpu engine's only, as in oneDNN).
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "ocl_unit_geometry.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "reference/lnorm_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

using nf = normalization_flags;

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

struct case_t {
    memory::dims dims;
    nf flags = nf::none;
    tag data_tag = tag::undef; // undef: plain
    dt src_dt = dt::f32, dst_dt = dt::f32;
    prop_kind bprop = prop_kind::backward;
    tag stat_tag = tag::undef; // undef: plain
    bool in_place = false;
};

std::vector<float> as_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

void run(const case_t &c, unsigned seed = 1) {
    stream strm(gpu());
    std::mt19937 gen(seed);
    const auto dims = c.dims;
    const int nd = (int)dims.size();
    const int64_t C = dims.back();
    const int64_t R = count(std::vector<int64_t>(dims.begin(), dims.end() - 1));
    const size_t n = (size_t)(R * C);
    const tag t = c.data_tag == tag::undef ? plain_tag(nd) : c.data_tag;
    const memory::desc src_md(dims, c.src_dt, t), dst_md(dims, c.dst_dt, t);
    const memory::dims sd(dims.begin(), dims.end() - 1);
    const memory::desc stat_md(sd, dt::f32,
            c.stat_tag == tag::undef ? plain_tag(nd - 1) : c.stat_tag);
    SCOPED_TRACE(describe(src_md) + " -> " + describe(dst_md) + " stats "
            + describe(stat_md));
    const bool gs = (c.flags & nf::use_global_stats) != nf::none;
    const bool sc = (c.flags & nf::use_scale) != nf::none;
    const bool sh = (c.flags & nf::use_shift) != nf::none;
    const bool rms = (c.flags & nf::rms_norm) != nf::none;
    const prop_kind fprop
            = gs ? prop_kind::forward_inference : prop_kind::forward_training;
    layer_normalization_forward::primitive_desc fpd(
            gpu(), fprop, src_md, dst_md, stat_md, 1e-3f, c.flags);

    const auto sv = random_values((int64_t)n, c.src_dt, gen);
    const auto scv = random_values(C, dt::f32, gen, 0.5, 2);
    const auto shv = random_values(C, dt::f32, gen, -2, 2);
    const auto mv = random_values(R, dt::f32, gen, -2, 2);
    const auto vv = random_values(R, dt::f32, gen, 0.5, 3);
    memory src = to_memory(gpu(), src_md, sv);
    memory dst = c.in_place ? src : to_memory(gpu(), dst_md,
                         std::vector<double>(n, 5.0), 0x3c);
    const memory::desc cmd({C}, dt::f32, tag::x);
    memory scale = to_memory(gpu(), cmd, scv), shift = to_memory(gpu(), cmd, shv);
    memory mean = to_memory(gpu(), stat_md, mv), var = to_memory(gpu(), stat_md, vv);
    layer_normalization_forward(fpd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, scale},
                    {DNNL_ARG_SHIFT, shift}, {DNNL_ARG_MEAN, mean},
                    {DNNL_ARG_VARIANCE, var}});
    strm.wait();
    lnorm_ref::desc_t rd;
    rd.rows = R;
    rd.c = C;
    rd.eps = 1e-3;
    rd.global_stats = gs;
    rd.scale = sc;
    rd.shift = sh;
    rd.rms = rms;
    const auto sf = as_f32(sv), scf = as_f32(scv), shf = as_f32(shv),
               mf = as_f32(mv), vf = as_f32(vv);
    std::vector<double> rdst(n), rmean(R), rvar(R);
    lnorm_ref::forward(rd, sf.data(), scf.data(), shf.data(), mf.data(),
            vf.data(), rdst.data(), rmean.data(), rvar.data());
    EXPECT_TRUE(matches(from_memory(dst), rdst, c.dst_dt,
            tol_for(c.dst_dt, 2e-5, 2e-5)))
            << "dst " << fpd.impl_info_str();
    if (!gs) {
        if (!rms)
            EXPECT_TRUE(matches(from_memory(mean), rmean, dt::f32,
                    tol_for(dt::f32, 1e-5, 1e-5)))
                    << "mean";
        EXPECT_TRUE(matches(from_memory(var), rvar, dt::f32,
                tol_for(dt::f32, 1e-5, 1e-5)))
                << "variance";
    }

    // Backward from the statistics now in mean / var and the original src.
    auto mvals = as_f32(from_memory(mean)), vvals = as_f32(from_memory(var));
    if (rms) std::fill(mvals.begin(), mvals.end(), 0.f);
    const dt gdt = c.dst_dt, ddt = c.src_dt;
    const memory::desc dd_md(dims, gdt, t), ds_md(dims, ddt, t);
    const auto ddv = random_values((int64_t)n, gdt, gen, -2, 2);
    memory src2 = to_memory(gpu(), src_md, sv);
    memory ddst = to_memory(gpu(), dd_md, ddv);
    memory dsrc = c.in_place && gdt == ddt ? ddst : memory(ds_md, gpu());
    memory dscale(cmd, gpu()), dshift(cmd, gpu());
    layer_normalization_forward::primitive_desc hint(gpu(),
            prop_kind::forward_training, src_md, dst_md, stat_md, 1e-3f,
            c.flags);
    layer_normalization_backward::primitive_desc bpd(gpu(), c.bprop, ds_md,
            dd_md, src_md, stat_md, 1e-3f, c.flags, hint);
    layer_normalization_backward(bpd).execute(strm,
            {{DNNL_ARG_SRC, src2}, {DNNL_ARG_DIFF_DST, ddst},
                    {DNNL_ARG_DIFF_SRC, dsrc}, {DNNL_ARG_SCALE, scale},
                    {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                    {DNNL_ARG_DIFF_SCALE, dscale},
                    {DNNL_ARG_DIFF_SHIFT, dshift}});
    strm.wait();
    std::vector<double> rds(n), rdsc(C), rdsh(C);
    const auto ddf = as_f32(ddv);
    lnorm_ref::backward(rd, sf.data(), mvals.data(), vvals.data(), ddf.data(),
            scf.data(), rds.data(), rdsc.data(), rdsh.data());
    EXPECT_TRUE(matches(from_memory(dsrc), rds, ddt, tol_for(ddt, 1e-4, 1e-4)))
            << "diff_src " << bpd.impl_info_str();
    if (c.bprop == prop_kind::backward) {
        if (sc)
            EXPECT_TRUE(matches(from_memory(dscale), rdsc, dt::f32,
                    tol_for(dt::f32, 1e-4, 1e-4)))
                    << "diff_scale";
        if (sh)
            EXPECT_TRUE(matches(from_memory(dshift), rdsh, dt::f32,
                    tol_for(dt::f32, 1e-4, 1e-4)))
                    << "diff_shift";
    }
}

class ocl_lnorm : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

case_t mk(memory::dims d, nf f) {
    case_t c;
    c.dims = d;
    c.flags = f;
    return c;
}

} // namespace

TEST_F(ocl_lnorm, flags_and_shapes) {
    run(mk({2, 3, 16}, nf::use_scale | nf::use_shift), 1);
    run(mk({5, 33}, nf::none), 2);
    run(mk({2, 2, 3, 8}, nf::use_global_stats | nf::use_scale), 3);
    run(mk({4, 20}, nf::rms_norm | nf::use_scale | nf::use_shift), 4);
    run(mk({2, 3, 2, 2, 7}, nf::use_shift), 5);
    auto bd = mk({3, 12}, nf::use_scale | nf::use_shift);
    bd.bprop = prop_kind::backward_data;
    run(bd, 6);
    // Long rows (many elements per lane), many short rows (diff scale and
    // shift split over chunks of rows).
    run(mk({3, 3000}, nf::use_scale | nf::use_shift), 7);
    run(mk({700, 5}, nf::use_scale | nf::use_shift), 8);
    run(mk({3, 1500}, nf::rms_norm | nf::use_global_stats | nf::use_scale), 9);
}

TEST_F(ocl_lnorm, layouts) {
    // Transposed rows (rows adjacent), rows that do not merge (staged),
    // statistics in another layout (staged).
    case_t t = mk({40, 24}, nf::use_scale | nf::use_shift);
    t.data_tag = tag::ba;
    run(t, 11);
    case_t s = mk({3, 5, 9}, nf::use_scale);
    s.data_tag = tag::acb;
    run(s, 12);
    case_t st = mk({3, 5, 9}, nf::use_shift);
    st.stat_tag = tag::ba;
    run(st, 13);
}

TEST_F(ocl_lnorm, data_types_and_in_place) {
    case_t b = mk({4, 37}, nf::use_scale | nf::use_shift);
    b.src_dt = b.dst_dt = dt::bf16;
    run(b, 21);
    case_t h = mk({2, 3, 19}, nf::use_scale);
    h.src_dt = dt::f16;
    run(h, 22);
    case_t ip = mk({6, 40}, nf::use_scale | nf::use_shift);
    ip.in_place = true;
    run(ip, 23);
}

TEST_F(ocl_lnorm, queries_and_bad_parameters) {
    const memory::desc md({2, 3, 8}, dt::f32, tag::abc);
    layer_normalization_forward::primitive_desc fpd(gpu(),
            prop_kind::forward_training, md, memory::desc({2, 3, 8}, dt::f32,
                    tag::any), 1e-5f, nf::use_scale | nf::use_shift);
    EXPECT_EQ(fpd.dst_desc(), md);
    EXPECT_EQ(fpd.mean_desc().get_dims(), memory::dims({2, 3}));
    EXPECT_EQ(fpd.variance_desc(), fpd.mean_desc());
    EXPECT_EQ(fpd.weights_desc().get_dims(), memory::dims({8}));
    EXPECT_EQ(fpd.get_epsilon(), 1e-5f);
    // rows_held on GPUs (rows in registers), rows on CPU devices.
    EXPECT_EQ(std::string(fpd.impl_info_str()).rfind("ocl:lnorm:rows", 0), 0u)
            << fpd.impl_info_str();
    EXPECT_EQ(fpd.scratchpad_desc().get_size(), 0u);
    // Integer data is normalized forward only.
    const memory::desc s8({2, 3, 8}, dt::s8, tag::abc);
    layer_normalization_forward::primitive_desc s8pd(gpu(),
            prop_kind::forward_training, s8, md, 1e-5f, nf::none);
    EXPECT_EQ(status_of([&] {
        layer_normalization_backward::primitive_desc(gpu(),
                prop_kind::backward_data, md, md, s8, 1e-5f, nf::none, s8pd);
    }),
            dnnl_unimplemented);
    // Statistics other than f32.
    const memory::desc f16_stats({2, 3}, dt::f16, tag::ab);
    EXPECT_EQ(status_of([&] {
        layer_normalization_forward::primitive_desc(gpu(),
                prop_kind::forward_training, md, md, f16_stats, 1e-5f,
                nf::none);
    }),
            dnnl_unimplemented);
    // A missing statistics buffer at execution.
    stream strm(gpu());
    memory a(md, gpu()), b(md, gpu());
    layer_normalization_forward::primitive_desc gpd(gpu(),
            prop_kind::forward_inference, md, md, 1e-5f,
            nf::use_global_stats);
    EXPECT_EQ(status_of([&] {
        layer_normalization_forward(gpd).execute(
                strm, {{DNNL_ARG_SRC, a}, {DNNL_ARG_DST, b}});
        strm.wait();
    }),
            dnnl_invalid_arguments);
}

// Forward with s8 / u8 data and per-tensor src and dst scales against the
// reference in oneDNN's order: normalized * src_scale / dst_scale, rounded
// and saturated. Post-ops (oneDNN's gpu engine refuses them too), scales
// with a mask and backward attributes are refused.
void run_int8_and_scales() {
    struct q_t {
        memory::dims dims;
        dt src_dt, dst_dt;
        bool gs;
    };
    unsigned seed = 300;
    for (const q_t &q : {q_t {{4, 37}, dt::s8, dt::u8, false},
                 q_t {{2, 3, 64}, dt::u8, dt::s8, false},
                 q_t {{5, 48}, dt::f32, dt::s8, true},
                 q_t {{3, 2, 40}, dt::s8, dt::f32, false},
                 q_t {{6, 1024}, dt::f32, dt::u8, false}}) {
        stream strm(gpu());
        std::mt19937 gen(seed++);
        const int nd = (int)q.dims.size();
        const int64_t C = q.dims.back();
        const int64_t R = count(
                std::vector<int64_t>(q.dims.begin(), q.dims.end() - 1));
        const size_t n = (size_t)(R * C);
        const memory::desc src_md(q.dims, q.src_dt, plain_tag(nd)),
                dst_md(q.dims, q.dst_dt, plain_tag(nd));
        SCOPED_TRACE(describe(src_md) + " -> " + describe(dst_md));
        primitive_attr attr;
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        attr.set_scales_mask(DNNL_ARG_DST, 0);
        const nf flags = nf::use_scale | nf::use_shift
                | (q.gs ? nf::use_global_stats : nf::none);
        layer_normalization_forward::primitive_desc fpd(gpu(),
                q.gs ? prop_kind::forward_inference
                     : prop_kind::forward_training,
                src_md, dst_md, 1e-3f, flags, attr);
        const auto sv = random_values((int64_t)n, q.src_dt, gen, -20, 20);
        const auto scv = random_values(C, dt::f32, gen, 0.5, 2);
        const auto shv = random_values(C, dt::f32, gen, -2, 2);
        const auto mv = random_values(R, dt::f32, gen, -2, 2);
        const auto vv = random_values(R, dt::f32, gen, 0.5, 3);
        const float ss = 3.f, ds = 0.25f;
        const memory::desc cmd({C}, dt::f32, tag::x),
                smd({R}, dt::f32, tag::x), one({1}, dt::f32, tag::x);
        memory src = to_memory(gpu(), src_md, sv), dst(dst_md, gpu());
        layer_normalization_forward(fpd).execute(strm,
                {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                        {DNNL_ARG_SCALE, to_memory(gpu(), cmd, scv)},
                        {DNNL_ARG_SHIFT, to_memory(gpu(), cmd, shv)},
                        {DNNL_ARG_MEAN, to_memory(gpu(), smd, mv)},
                        {DNNL_ARG_VARIANCE, to_memory(gpu(), smd, vv)},
                        {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
                                to_memory(gpu(), one, {ss})},
                        {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
                                to_memory(gpu(), one, {ds})}});
        strm.wait();
        lnorm_ref::desc_t rd;
        rd.rows = R;
        rd.c = C;
        rd.eps = 1e-3;
        rd.global_stats = q.gs;
        rd.scale = rd.shift = true;
        const auto sf = as_f32(sv), scf = as_f32(scv), shf = as_f32(shv),
                   mf = as_f32(mv), vf = as_f32(vv);
        std::vector<double> rdst(n), rmean(R), rvar(R);
        lnorm_ref::forward(rd, sf.data(), scf.data(), shf.data(), mf.data(),
                vf.data(), rdst.data(), rmean.data(), rvar.data());
        for (size_t i = 0; i < n; ++i) {
            double z = rdst[i] * ss / ds;
            if (q.dst_dt == dt::s8) z = std::min(127.0, std::max(-128.0, z));
            if (q.dst_dt == dt::u8) z = std::min(255.0, std::max(0.0, z));
            rdst[i] = z;
        }
        EXPECT_TRUE(matches(from_memory(dst), rdst, q.dst_dt,
                tol_for(q.dst_dt, 1e-4, 1e-3)))
                << fpd.impl_info_str();
    }
}

TEST_F(ocl_lnorm, int8_and_scales) {
    run_int8_and_scales();
    // The same through the kernels GPUs take (rows held in registers).
    {
        gpu_geometry_t g;
        run_int8_and_scales();
    }
    const memory::desc md({2, 3, 8}, dt::s8, tag::abc);
    auto status = [&](const primitive_attr &attr) {
        return status_of([&] {
            layer_normalization_forward::primitive_desc(gpu(),
                    prop_kind::forward_training, md, md, 1e-5f, nf::none,
                    attr);
        });
    };
    primitive_attr eltwise, masked;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    eltwise.set_post_ops(po);
    masked.set_scales_mask(DNNL_ARG_SRC, 1);
    EXPECT_EQ(status(eltwise), dnnl_unimplemented);
    EXPECT_EQ(status(masked), dnnl_unimplemented);
}

TEST_F(ocl_lnorm, gpu_geometry) {
    gpu_geometry_t g;
    run(mk({3, 3000}, nf::use_scale | nf::use_shift), 41);
    run(mk({40, 24}, nf::use_scale), 42);
    run(mk({700, 5}, nf::use_scale | nf::use_shift), 43);
    case_t t = mk({40, 24}, nf::use_shift);
    t.data_tag = tag::ba;
    run(t, 44);
    // Vectors along C with other data types, given statistics, in place.
    case_t v = mk({6, 2, 64}, nf::use_global_stats | nf::use_scale);
    v.src_dt = dt::bf16;
    v.dst_dt = dt::f16;
    run(v, 45);
    case_t w = mk({5, 1028}, nf::use_shift);
    w.in_place = true;
    run(w, 46);
    // Backward over rows held in registers: more rows than the slots
    // launched (each slot's diff scale / shift sums over several rows),
    // RMS and given statistics, backward data, bf16 in place, and rows
    // longer than the registers hold (the unit kernel).
    run(mk({600, 64}, nf::use_scale | nf::use_shift), 47);
    run(mk({9, 256}, nf::rms_norm | nf::use_scale | nf::use_shift), 48);
    run(mk({7, 3, 512}, nf::use_global_stats | nf::use_scale), 49);
    case_t bd = mk({33, 128}, nf::use_scale | nf::use_shift);
    bd.bprop = prop_kind::backward_data;
    run(bd, 50);
    case_t bi = mk({17, 96}, nf::use_scale);
    bi.src_dt = bi.dst_dt = dt::bf16;
    bi.in_place = true;
    run(bi, 51);
    run(mk({2, 8200}, nf::use_scale | nf::use_shift), 52);
    // Forward rows held in registers at their longest (16 vectors a
    // lane), RMS, and rows one vector past what the lanes hold (read
    // twice as vectors).
    run(mk({3, 16384}, nf::use_scale | nf::use_shift), 53);
    run(mk({5, 1000}, nf::rms_norm | nf::use_scale), 54);
    run(mk({2, 16388}, nf::use_scale | nf::use_shift), 55);
    auto fwd_name = [](int64_t c) {
        const memory::desc md({4, c}, dt::f32, tag::ab);
        layer_normalization_forward::primitive_desc pd(gpu(),
                prop_kind::forward_training, md, md, 1e-5f, nf::use_scale);
        return std::string(pd.impl_info_str());
    };
    EXPECT_EQ(fwd_name(16384), "ocl:lnorm:rows_held");
    EXPECT_EQ(fwd_name(16388), "ocl:lnorm:rows_vec");
    EXPECT_EQ(fwd_name(30), "ocl:lnorm:rows"); // not a multiple of 4
    const memory::desc md({4, 256}, dt::f32, tag::ab);
    layer_normalization_forward::primitive_desc hint(gpu(),
            prop_kind::forward_training, md, md, 1e-5f, nf::use_scale);
    layer_normalization_backward::primitive_desc bpd(gpu(),
            prop_kind::backward, md, md, md, 1e-5f, nf::use_scale, hint);
    EXPECT_EQ(std::string(bpd.impl_info_str()), "ocl:lnorm:rows_held");
}

#endif
