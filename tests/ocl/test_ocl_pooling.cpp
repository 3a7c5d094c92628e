// Pooling on the gpu engine against the naive reference: max / average
// including / excluding padding, 1D to 3D with strides, padding and
// dilation, forward (training with workspace, inference) and backward,
// plain / channels-last / blocked (padded) / doubly blocked layouts,
// f32 / bf16 / f16 and integer inference, fused post-ops, `any`, queries,
// kernel-cache reuse across shapes and rejected configurations.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <cmath>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "reference/pool_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

struct pcase_t {
    algorithm alg = algorithm::pooling_max;
    int nsp = 2;
    int64_t mb = 2, c = 3;
    int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1};
    int64_t pl[3] = {0, 0, 0}, pr[3] = {0, 0, 0}, dil[3] = {0, 0, 0};
    tag src_tag = tag::undef; // undef: plain of the rank
    tag dst_tag = tag::any;
    dt sdt = dt::f32, ddt = dt::f32;
    prop_kind prop = prop_kind::forward_training;
    bool bwd = true;
};

pcase_t make(algorithm alg, int nsp, int64_t mb, int64_t c,
        std::vector<int64_t> in, std::vector<int64_t> k, std::vector<int64_t> s,
        std::vector<int64_t> pl, std::vector<int64_t> pr,
        std::vector<int64_t> dil) {
    pcase_t p;
    p.alg = alg;
    p.nsp = nsp;
    p.mb = mb;
    p.c = c;
    for (int i = 0; i < nsp; ++i) {
        p.in[i] = in[i];
        p.k[i] = k[i];
        p.s[i] = s[i];
        p.pl[i] = pl[i];
        p.pr[i] = pr[i];
        p.dil[i] = dil[i];
    }
    return p;
}

struct shapes_t {
    memory::dims src, dst, k, s, dil, pl, pr;
    pool_ref::desc_t ref;
};

shapes_t shapes_of(const pcase_t &p) {
    shapes_t r;
    r.src = {p.mb, p.c};
    r.dst = {p.mb, p.c};
    r.ref.alg = (dnnl_alg_kind_t)p.alg;
    r.ref.mb = p.mb;
    r.ref.c = p.c;
    r.ref.nsp = p.nsp;
    for (int i = 0; i < p.nsp; ++i) {
        const int64_t ext = (p.k[i] - 1) * (p.dil[i] + 1) + 1;
        const int64_t o = (p.in[i] + p.pl[i] + p.pr[i] - ext) / p.s[i] + 1;
        r.src.push_back(p.in[i]);
        r.dst.push_back(o);
        r.k.push_back(p.k[i]);
        r.s.push_back(p.s[i]);
        r.dil.push_back(p.dil[i]);
        r.pl.push_back(p.pl[i]);
        r.pr.push_back(p.pr[i]);
        r.ref.in[i] = p.in[i];
        r.ref.out[i] = o;
        r.ref.k[i] = p.k[i];
        r.ref.stride[i] = p.s[i];
        r.ref.pad[i] = p.pl[i];
        r.ref.dil[i] = p.dil[i];
    }
    return r;
}

ref::tolerance_t tol_of(dt d) {
    ref::tolerance_t t;
    t.rel = d == dt::f32 ? 1e-5 : d == dt::bf16 ? 1.0 / 128 : 1.0 / 1024;
    t.abs = d == dt::f32 ? 1e-5 : t.rel;
    t.ulps = 1;
    return t;
}

std::vector<float> as_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

// Runs the forward pass and, for float training cases, the backward pass;
// returns the forward primitive descriptor's implementation name.
std::string run_case(const pcase_t &p, unsigned seed,
        const primitive_attr &attr = primitive_attr(),
        const std::vector<double> *expected_dst = nullptr) {
    stream strm(gpu());
    const shapes_t sh = shapes_of(p);
    const tag stag =
            p.src_tag == tag::undef ? plain_tag(sh.src.size()) : p.src_tag;
    const memory::desc smd(sh.src, p.sdt, stag), dmd(sh.dst, p.ddt, p.dst_tag);
    pooling_forward::primitive_desc fpd(gpu(), p.prop, p.alg, smd, dmd, sh.s,
            sh.k, sh.dil, sh.pl, sh.pr, attr);
    EXPECT_EQ(fpd.dst_desc().get_dims(), sh.dst);
    const bool training = p.prop == prop_kind::forward_training;
    const bool is_max = p.alg == algorithm::pooling_max;
    EXPECT_EQ(fpd.workspace_desc().get_size() != 0, training && is_max);

    std::mt19937 gen(seed);
    const int64_t ns = count(sh.src), nd = count(sh.dst);
    const double lo = p.sdt == dt::u8 ? 0 : -8;
    const auto sv = random_values(ns, p.sdt, gen, lo, 8);
    memory src = to_memory(gpu(), fpd.src_desc(), sv, 0x7f);
    memory dst = to_memory(
            gpu(), fpd.dst_desc(), std::vector<double>(nd, 5.0), 0x5a);
    fill_padding(dst, 3.0);
    memory ws(fpd.workspace_desc(), gpu());
    pooling_forward(fpd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                          {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    std::vector<double> exp(nd);
    const auto sf = as_f32(sv);
    pool_ref::forward(sh.ref, sf.data(), exp.data());
    if (expected_dst) exp = *expected_dst;
    const std::string what = std::string(fpd.impl_info_str()) + " "
                             + describe(fpd.src_desc()) + " -> "
                             + describe(fpd.dst_desc());
    EXPECT_TRUE(matches(from_memory(dst), exp, p.ddt, tol_of(p.ddt)))
            << "fwd " << what;
    EXPECT_TRUE(padding_is_zero(dst)) << "dst padding " << what;
    if (!training || !p.bwd) return fpd.impl_info_str();

    const memory::desc dsmd(sh.src, p.sdt, tag::any),
            ddmd(sh.dst, p.ddt, p.dst_tag == tag::any ? stag : p.dst_tag);
    pooling_backward::primitive_desc bpd(
            gpu(), p.alg, dsmd, ddmd, sh.s, sh.k, sh.dil, sh.pl, sh.pr, fpd);
    EXPECT_EQ(bpd.diff_src_desc(), fpd.src_desc());
    if (is_max) EXPECT_EQ(bpd.workspace_desc(), fpd.workspace_desc());
    const auto ddv = random_values(nd, p.ddt, gen, -4, 4);
    memory ddst = to_memory(gpu(), bpd.diff_dst_desc(), ddv, 0x7f);
    memory dsrc = to_memory(
            gpu(), bpd.diff_src_desc(), std::vector<double>(ns, 9.0), 0x5a);
    fill_padding(dsrc, 3.0);
    pooling_backward(bpd).execute(
            strm, {{DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc},
                          {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    std::vector<double> bexp(ns);
    const auto ddf = as_f32(ddv);
    pool_ref::backward(sh.ref, sf.data(), ddf.data(), bexp.data());
    EXPECT_TRUE(matches(from_memory(dsrc), bexp, p.sdt, tol_of(p.sdt)))
            << "bwd " << bpd.impl_info_str() << " "
            << describe(bpd.diff_src_desc());
    EXPECT_TRUE(padding_is_zero(dsrc)) << "diff_src padding";
    return fpd.impl_info_str();
}

// The backward implementation a case gets (in the case's source layout).
std::string bwd_name(const pcase_t &p) {
    const shapes_t sh = shapes_of(p);
    const tag t = p.src_tag == tag::undef ? plain_tag(sh.src.size())
                                          : p.src_tag;
    const memory::desc s(sh.src, p.sdt, t), d(sh.dst, p.ddt, t);
    pooling_forward::primitive_desc f(gpu(), prop_kind::forward_training,
            p.alg, s, d, sh.s, sh.k, sh.dil, sh.pl, sh.pr);
    pooling_backward::primitive_desc b(
            gpu(), p.alg, s, d, sh.s, sh.k, sh.dil, sh.pl, sh.pr, f);
    return b.impl_info_str();
}

// While an object lives, pooling backward does not take the phased
// gather (ONEDNN_OCL_POOL_PHASED=0), so the tiles and the generic gather
// are tested where it would run; the primitive cache is off meanwhile.
struct phased_off_t {
    phased_off_t() : capacity_(get_primitive_cache_capacity()) {
        setenv("ONEDNN_OCL_POOL_PHASED", "0", 1);
        set_primitive_cache_capacity(0);
    }
    ~phased_off_t() {
        unsetenv("ONEDNN_OCL_POOL_PHASED");
        set_primitive_cache_capacity(capacity_);
    }
    phased_off_t(const phased_off_t &) = delete;
    phased_off_t &operator=(const phased_off_t &) = delete;

private:
    int capacity_;
};

class ocl_pooling : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

const algorithm algs[] = {algorithm::pooling_max,
        algorithm::pooling_avg_include_padding,
        algorithm::pooling_avg_exclude_padding};

} // namespace

TEST_F(ocl_pooling, algorithms_2d_plain) {
    unsigned seed = 1;
    for (algorithm a : algs) {
        // Overlapping windows, padding on both sides, tails.
        run_case(make(a, 2, 2, 3, {7, 9}, {3, 3}, {2, 2}, {1, 1}, {1, 1},
                         {0, 0}),
                seed++);
        // Dilation and stride 1 on one dim.
        run_case(make(a, 2, 1, 2, {9, 8}, {3, 2}, {2, 1}, {1, 1}, {2, 1},
                         {1, 2}),
                seed++);
        // Even output width (nchw: two outputs per work-item).
        run_case(make(a, 2, 2, 3, {9, 16}, {3, 3}, {2, 2}, {1, 1}, {1, 0},
                         {0, 0}),
                seed++);
    }
}

// Rows of nchw whose width and output width are multiples of four: each
// work-item takes four outputs from aligned 4-wide chunks of the source
// rows. Strides, dilation and padding phases that index the chunks
// differently; every algorithm; float and integer types.
TEST_F(ocl_pooling, rows_of_aligned_chunks) {
    unsigned seed = 60;
    const pcase_t shapes[] = {
            make(algorithm::pooling_max, 2, 2, 3, {9, 16}, {3, 3}, {2, 2},
                    {1, 1}, {1, 0}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 2, {5, 12}, {3, 3}, {1, 1},
                    {1, 1}, {1, 1}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 2, {6, 16}, {2, 2}, {2, 2},
                    {0, 1}, {0, 1}, {0, 1}),
            make(algorithm::pooling_max, 2, 1, 2, {7, 16}, {3, 7}, {1, 2},
                    {1, 3}, {1, 2}, {0, 0}),
            make(algorithm::pooling_max, 2, 2, 2, {4, 12}, {2, 3}, {2, 3},
                    {0, 0}, {0, 0}, {0, 0}),
            make(algorithm::pooling_max, 1, 2, 3, {16}, {3}, {2}, {1}, {0},
                    {0}),
    };
    for (algorithm a : algs)
        for (pcase_t p : shapes) {
            p.alg = a;
            EXPECT_EQ(run_case(p, seed++), "ocl:pooling:rows_vec");
        }
    // Backward over nchw rows with a window too large for the tiles
    // (72 taps) writes elements along w as vector lanes.
    {
        const pcase_t big = make(algorithm::pooling_max, 2, 2, 3, {12, 16},
                {9, 8}, {1, 2}, {0, 0}, {0, 0}, {0, 0});
        run_case(big, seed++);
        EXPECT_EQ(bwd_name(big), "ocl:pooling:rows");
    }
    struct {
        dt s, d;
    } types[] = {{dt::bf16, dt::bf16}, {dt::f16, dt::f16}, {dt::u8, dt::f32},
            {dt::s8, dt::s8}};
    for (const auto &t : types)
        for (algorithm a : {algorithm::pooling_max,
                     algorithm::pooling_avg_exclude_padding}) {
            pcase_t p = shapes[0];
            p.alg = a;
            p.sdt = t.s;
            p.ddt = t.d;
            if (t.s != t.d || t.s == dt::s8 || t.s == dt::u8)
                p.prop = prop_kind::forward_inference;
            EXPECT_EQ(run_case(p, seed++), "ocl:pooling:rows_vec");
        }
}

TEST_F(ocl_pooling, one_and_three_spatial_dims) {
    unsigned seed = 10;
    for (algorithm a : algs) {
        run_case(make(a, 1, 2, 5, {11}, {3}, {2}, {1}, {1}, {1}), seed++);
        run_case(make(a, 3, 1, 2, {4, 5, 6}, {2, 3, 2}, {2, 1, 2}, {0, 1, 1},
                         {1, 1, 0}, {0, 0, 1}),
                seed++);
    }
}

// Backward over dense tensors in tiles held in local memory: several
// whole nchw planes a group, or one plane's rows in tiles (100 x 96, and
// 12 x 30 x 30 cut along d), windows in phases (stride 2 over 3 taps: 2 a
// dim, stride 1: 3, dilation, windows that do not overlap: 1), 1D to 3D,
// asymmetric padding, every algorithm, bf16 and f16; max pooling over
// channels last. The phased gather, which would take most of the nchw
// cases, is off.
TEST_F(ocl_pooling, backward_in_tiles) {
    phased_off_t off;
    unsigned seed = 300;
    const pcase_t shapes[] = {
            make(algorithm::pooling_max, 2, 2, 3, {9, 16}, {3, 3}, {2, 2},
                    {1, 1}, {1, 0}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 2, {100, 96}, {3, 3}, {2, 2},
                    {1, 1}, {1, 1}, {0, 0}),
            make(algorithm::pooling_max, 3, 1, 2, {12, 30, 30}, {3, 3, 3},
                    {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}),
            make(algorithm::pooling_max, 2, 2, 3, {7, 9}, {3, 3}, {1, 2},
                    {1, 1}, {1, 1}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 4, {11, 10}, {3, 2}, {2, 2},
                    {2, 0}, {1, 1}, {1, 2}),
            make(algorithm::pooling_max, 2, 3, 2, {12, 13}, {2, 2}, {3, 3},
                    {0, 1}, {1, 0}, {0, 0}),
            make(algorithm::pooling_max, 1, 2, 5, {40}, {3}, {2}, {1}, {0},
                    {0}),
            make(algorithm::pooling_max, 3, 2, 3, {4, 5, 6}, {2, 3, 2},
                    {2, 1, 2}, {0, 1, 1}, {1, 1, 0}, {0, 0, 1}),
    };
    for (algorithm a : algs)
        for (pcase_t p : shapes) {
            p.alg = a;
            run_case(p, seed++);
            EXPECT_EQ(bwd_name(p), "ocl:pooling:tiles");
        }
    for (dt t : {dt::bf16, dt::f16})
        for (int i : {0, 1}) {
            pcase_t p = shapes[i];
            p.alg = i ? algorithm::pooling_avg_exclude_padding
                      : algorithm::pooling_max;
            p.sdt = p.ddt = t;
            run_case(p, seed++);
            EXPECT_EQ(bwd_name(p), "ocl:pooling:tiles");
        }
    // Channels last: blocks of up to 32 channels of one image (3 channels:
    // a block of 4; 40: a full block and one of 8), rows in tiles (32
    // channels of 60-point rows: at most 4 rows in 8192 floats, so three
    // tiles of 3 rows), 3D.
    pcase_t last[] = {
            make(algorithm::pooling_max, 2, 2, 3, {9, 16}, {3, 3}, {2, 2},
                    {1, 1}, {1, 0}, {0, 0}),
            make(algorithm::pooling_max, 2, 2, 40, {7, 9}, {3, 3}, {1, 2},
                    {1, 1}, {1, 1}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 32, {9, 60}, {3, 2}, {2, 2},
                    {1, 0}, {1, 0}, {0, 1}),
            make(algorithm::pooling_max, 3, 1, 5, {4, 5, 6}, {2, 3, 2},
                    {2, 1, 2}, {0, 1, 1}, {1, 1, 0}, {0, 0, 1}),
    };
    for (algorithm a : algs)
        for (pcase_t p : last) {
            p.alg = a;
            p.src_tag = p.nsp == 3 ? tag::ndhwc : tag::nhwc;
            run_case(p, seed++);
            // Average pooling over channels last stays on the gather.
            EXPECT_EQ(bwd_name(p) == "ocl:pooling:tiles",
                    a == algorithm::pooling_max);
        }
    // Windows in more than 8 phases (stride 1 over 3 x 3: 9) stay on the
    // gather.
    pcase_t s1 = shapes[0];
    s1.s[0] = s1.s[1] = 1;
    run_case(s1, seed++);
    EXPECT_EQ(bwd_name(s1), "ocl:pooling:rows");
    // Blocked channels stay on the gather.
    pcase_t blocked = last[1];
    blocked.src_tag = tag::nChw16c;
    run_case(blocked, seed++);
    EXPECT_EQ(bwd_name(blocked), "ocl:pooling:blocked");
}

// Backward over dense nchw-like tensors gathered with the window compiled
// in: blocks of stride x a multiple of 16 bytes and the stride (f32 3x3
// stride 2: 2 x 4; stride 1: 1 x 4; stride 3: 3 x 12), every algorithm, 1D to
// 3D, asymmetric and large padding, windows that do not overlap or leave
// elements out (stride over kernel), a partial last block (10-wide rows in
// blocks of 4 with 9 phases, where the tiles do not apply), 16-bit data (blocks
// of 8); dilation and rows of single stores where the tiles apply keep the
// tiles.
TEST_F(ocl_pooling, backward_phased) {
    unsigned seed = 900;
    const pcase_t shapes[] = {
            make(algorithm::pooling_max, 2, 2, 3, {9, 16}, {3, 3}, {2, 2},
                    {1, 1}, {1, 0}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 2, {7, 12}, {3, 3}, {1, 1},
                    {1, 1}, {1, 1}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 2, {7, 10}, {3, 3}, {1, 1},
                    {1, 1}, {1, 1}, {0, 0}),
            make(algorithm::pooling_max, 3, 1, 2, {6, 10, 12}, {3, 3, 3},
                    {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}),
            make(algorithm::pooling_max, 1, 2, 5, {40}, {3}, {2}, {1}, {0},
                    {0}),
            make(algorithm::pooling_max, 2, 2, 2, {8, 16}, {2, 2}, {2, 2},
                    {0, 0}, {0, 0}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 3, {9, 12}, {2, 2}, {3, 3},
                    {1, 0}, {0, 1}, {0, 0}),
            make(algorithm::pooling_max, 2, 1, 2, {8, 12}, {5, 4}, {2, 3},
                    {3, 2}, {2, 3}, {0, 0}),
    };
    for (algorithm a : algs)
        for (pcase_t p : shapes) {
            p.alg = a;
            run_case(p, seed++);
            EXPECT_EQ(bwd_name(p), "ocl:pooling:phased");
        }
    for (dt t : {dt::bf16, dt::f16})
        for (int i : {0, 3}) {
            pcase_t p = shapes[i];
            p.alg = i ? algorithm::pooling_avg_exclude_padding
                      : algorithm::pooling_max;
            p.sdt = p.ddt = t;
            run_case(p, seed++);
            EXPECT_EQ(bwd_name(p), "ocl:pooling:phased");
        }
    pcase_t dilated = shapes[0];
    dilated.dil[1] = 1;
    run_case(dilated, seed++);
    EXPECT_EQ(bwd_name(dilated), "ocl:pooling:tiles");
    // 14-wide rows: blocks of 2 (4 would not divide them); 15-wide rows
    // take single stores and keep the tiles.
    pcase_t narrow = shapes[0];
    narrow.in[1] = 14;
    run_case(narrow, seed++);
    EXPECT_EQ(bwd_name(narrow), "ocl:pooling:phased");
    narrow.in[1] = 15;
    run_case(narrow, seed++);
    EXPECT_EQ(bwd_name(narrow), "ocl:pooling:tiles");
}

// A forward source without elements (windows wholly in the padding) is
// refused cleanly on the gpu engine (no buffer to address); a sum post-op
// is refused on every engine, as oneDNN refuses it for pooling.
// A source without elements (every window in the padding): max writes
// the lowest value and average 0, as the cpu engine, with or without a
// source memory. A sum post-op is refused, as oneDNN refuses it.
TEST_F(ocl_pooling, empty_source_and_sum_post_op_refused) {
    memory::desc src({2, 4, 0, 4}, memory::data_type::f32,
            memory::format_tag::nchw);
    memory::desc dst({2, 4, 4, 4}, memory::data_type::f32,
            memory::format_tag::nchw);
    engine cpu(engine::kind::cpu, 0);
    // (Average without padding over windows wholly in the padding is
    // refused for every source, as oneDNN refuses it.)
    for (algorithm a : {algorithm::pooling_max,
                 algorithm::pooling_avg_include_padding}) {
        std::vector<float> got[2];
        for (int e = 0; e < 2; ++e) {
            engine &eng = e ? gpu() : cpu;
            pooling_forward::primitive_desc pd(eng,
                    prop_kind::forward_training, a, src, dst, {1, 1}, {3, 3},
                    {2, 2}, {1, 3}, {9, 3});
            memory d(dst, eng), ws(pd.workspace_desc(), eng);
            stream s(eng);
            std::unordered_map<int, memory> args {
                    {DNNL_ARG_DST, d}, {DNNL_ARG_WORKSPACE, ws}};
            // The gpu engine with an empty source memory too.
            if (e) args[DNNL_ARG_SRC] = memory(src, eng);
            pooling_forward(pd).execute(s, args);
            s.wait();
            const float *p = d.map_data<float>();
            got[e].assign(p, p + dst.get_size() / sizeof(float));
            d.unmap_data((void *)p);
            if (e) {
                pooling_forward(pd).execute(
                        s, {{DNNL_ARG_DST, d}, {DNNL_ARG_WORKSPACE, ws}});
                s.wait();
            }
        }
        EXPECT_EQ(got[0], got[1]) << (int)a;
    }
    memory::desc s4({1, 4, 4, 4}, memory::data_type::f32,
            memory::format_tag::nchw);
    memory::desc d4({1, 4, 2, 2}, memory::data_type::f32,
            memory::format_tag::nchw);
    post_ops po;
    po.append_sum(1.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    EXPECT_THROW(pooling_forward::primitive_desc(gpu(),
                         prop_kind::forward_inference, algorithm::pooling_max,
                         s4, d4, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}, attr),
            dnnl::error);
}

TEST_F(ocl_pooling, layouts) {
    unsigned seed = 20;
    for (algorithm a :
            {algorithm::pooling_max, algorithm::pooling_avg_exclude_padding}) {
        // Channels-last: channel vectors (19 channels: no vector; 24: 8).
        for (int64_t c : {19, 24}) {
            pcase_t p = make(
                    a, 2, 2, c, {6, 7}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {0, 0});
            p.src_tag = tag::nhwc;
            run_case(p, seed++);
        }
        // Blocked with channel padding (19 of 32), and a batch block.
        pcase_t b = make(
                a, 2, 3, 19, {5, 6}, {2, 3}, {1, 2}, {0, 1}, {1, 1}, {0, 0});
        b.src_tag = tag::nChw16c;
        run_case(b, seed++);
        b.src_tag = tag::NChw16n16c;
        run_case(b, seed++);
        // Layouts that take the layout_t path: a doubly blocked channel
        // and a blocked spatial dim.
        b.src_tag = tag::ABcd8b16a2b;
        EXPECT_EQ(run_case(b, seed++), "ocl:pooling:any");
        b.src_tag = tag::aBCd16b16c;
        run_case(b, seed++);
        // Source and destination in different layouts.
        pcase_t m = make(a, 3, 2, 5, {3, 4, 5}, {2, 2, 2}, {1, 2, 2}, {1, 0, 1},
                {0, 1, 1}, {0, 0, 0});
        m.src_tag = tag::ncdhw;
        m.dst_tag = tag::nCdhw8c;
        run_case(m, seed++);
    }
}

TEST_F(ocl_pooling, data_types) {
    // Each configuration builds its own program: one algorithm per type
    // and layout keeps the test short.
    unsigned seed = 40;
    struct {
        dt s, d;
        algorithm a;
        tag t;
    } cases[] = {
            {dt::bf16, dt::bf16, algorithm::pooling_max, tag::nhwc},
            {dt::bf16, dt::bf16, algorithm::pooling_avg_exclude_padding,
                    tag::nchw},
            {dt::f16, dt::f16, algorithm::pooling_avg_include_padding,
                    tag::nhwc},
            {dt::f16, dt::f16, algorithm::pooling_max, tag::nchw},
            // Integer and mixed types: inference only.
            {dt::s8, dt::s8, algorithm::pooling_max, tag::nhwc},
            {dt::u8, dt::u8, algorithm::pooling_avg_exclude_padding, tag::nhwc},
            {dt::u8, dt::f32, algorithm::pooling_avg_exclude_padding,
                    tag::nchw},
            {dt::s8, dt::f16, algorithm::pooling_avg_include_padding,
                    tag::nhwc},
            {dt::f32, dt::s8, algorithm::pooling_avg_include_padding,
                    tag::nchw},
            {dt::s32, dt::s32, algorithm::pooling_max, tag::nhwc},
    };
    for (const auto &c : cases) {
        pcase_t p = make(
                c.a, 2, 2, 32, {6, 5}, {3, 2}, {2, 1}, {1, 0}, {1, 1}, {0, 0});
        p.sdt = c.s;
        p.ddt = c.d;
        p.src_tag = c.t;
        if (c.s != c.d || c.s == dt::s8 || c.s == dt::u8 || c.s == dt::s32)
            p.prop = prop_kind::forward_inference;
        run_case(p, seed++);
    }
}

TEST_F(ocl_pooling, post_ops) {
    // avg -> relu -> add a per-channel tensor.
    pcase_t p = make(algorithm::pooling_avg_include_padding, 2, 2, 8, {6, 6},
            {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0});
    p.prop = prop_kind::forward_inference;
    p.src_tag = tag::nhwc;
    const shapes_t sh = shapes_of(p);
    const memory::desc per_c({1, 8, 1, 1}, dt::f32, tag::nchw);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_binary(algorithm::binary_add, per_c);
    primitive_attr attr;
    attr.set_post_ops(po);
    stream strm(gpu());
    const memory::desc smd(sh.src, dt::f32, tag::nhwc),
            dmd(sh.dst, dt::f32, tag::nhwc);
    pooling_forward::primitive_desc pd(gpu(), p.prop, p.alg, smd, dmd, sh.s,
            sh.k, sh.dil, sh.pl, sh.pr, attr);
    std::mt19937 gen(77);
    const auto sv = random_values(count(sh.src), dt::f32, gen);
    const auto cv = random_values(8, dt::f32, gen);
    memory src = to_memory(gpu(), smd, sv),
           dst = to_memory(gpu(), dmd, std::vector<double>(count(sh.dst), 0.0));
    memory c_m = to_memory(gpu(), per_c, cv);
    pooling_forward(pd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, c_m}});
    strm.wait();
    std::vector<double> exp(count(sh.dst));
    const auto sf = as_f32(sv);
    pool_ref::forward(sh.ref, sf.data(), exp.data());
    const int64_t sp = sh.dst[2] * sh.dst[3];
    for (size_t i = 0; i < exp.size(); ++i)
        exp[i] = std::max(exp[i], 0.0) + cv[(i / sp) % 8];
    EXPECT_TRUE(matches(from_memory(dst), exp, dt::f32, tol_of(dt::f32)));

    // A sum post-op is not oneDNN's for pooling: refused.
    post_ops po2;
    po2.append_sum(0.5f);
    primitive_attr attr2;
    attr2.set_post_ops(po2);
    EXPECT_THROW(pooling_forward::primitive_desc(gpu(), p.prop, p.alg, smd,
                         dmd, sh.s, sh.k, sh.dil, sh.pl, sh.pr, attr2),
            dnnl::error);
}

TEST_F(ocl_pooling, any_formats_and_queries) {
    const memory::desc s({2, 16, 6, 6}, dt::f32, tag::nChw16c),
            d({2, 16, 3, 3}, dt::f32, tag::any);
    pooling_forward::primitive_desc pd(gpu(), prop_kind::forward_training,
            algorithm::pooling_max, s, d, {2, 2}, {2, 2}, {0, 0}, {0, 0},
            {0, 0});
    EXPECT_EQ(
            pd.dst_desc(), memory::desc({2, 16, 3, 3}, dt::f32, tag::nChw16c));
    EXPECT_EQ(pd.get_kernel(), memory::dims({2, 2}));
    EXPECT_EQ(pd.get_strides(), memory::dims({2, 2}));
    EXPECT_EQ(pd.get_algorithm(), algorithm::pooling_max);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    EXPECT_NE(pd.workspace_desc().get_size(), 0u);
    EXPECT_EQ(pd.query_md(query::exec_arg_md, DNNL_ARG_WORKSPACE),
            pd.workspace_desc());
    EXPECT_EQ(std::string(pd.impl_info_str()).rfind("ocl:", 0), 0u);
    // Backward without a hint still finds its workspace layout.
    pooling_backward::primitive_desc bpd(gpu(),
            algorithm::pooling_avg_exclude_padding,
            memory::desc({2, 16, 6, 6}, dt::f32, tag::any),
            memory::desc({2, 16, 3, 3}, dt::f32, tag::nhwc), {2, 2}, {2, 2},
            {0, 0}, {0, 0}, {0, 0}, pd);
    EXPECT_EQ(bpd.diff_src_desc(), pd.src_desc());
    // Zero batch: nothing to do, no error.
    const memory::desc zs({0, 4, 4, 4}, dt::f32, tag::nchw),
            zd({0, 4, 2, 2}, dt::f32, tag::nchw);
    pooling_forward::primitive_desc zpd(gpu(), prop_kind::forward_inference,
            algorithm::pooling_max, zs, zd, {2, 2}, {2, 2}, {0, 0}, {0, 0},
            {0, 0});
    stream strm(gpu());
    memory zsm(zs, gpu()), zdm(zd, gpu());
    pooling_forward(zpd).execute(
            strm, {{DNNL_ARG_SRC, zsm}, {DNNL_ARG_DST, zdm}});
    strm.wait();
}

// Shapes are kernel arguments: a new spatial size, batch, channel count,
// stride, padding and dilation reuse the built program (kernel cache
// hits, no misses). The forward window's size is compiled in (up to 8 x 8
// over two spatial dims), and so is the number of outputs along w a
// work-item of an nchw forward takes (2 or 1 as the output width
// divides), so another window or width class builds again. Backward
// takes the tiles while the windows fall in at most 8 phases (both cases
// here: 4 and 3), else the gather, another program.
TEST_F(ocl_pooling, new_shape_builds_no_program) {
    pcase_t p = make(algorithm::pooling_max, 2, 2, 5, {7, 7}, {3, 3}, {2, 2},
            {1, 1}, {1, 1}, {0, 0});
    run_case(p, 91);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    pcase_t q = make(algorithm::pooling_max, 2, 3, 7, {12, 15}, {3, 3}, {2, 3},
            {0, 1}, {1, 1}, {1, 0});
    run_case(q, 92);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_GT(after.hits, before.hits);
}

TEST_F(ocl_pooling, rejects_unsupported_and_bad_arguments) {
    const memory::desc s({1, 4, 4, 4}, dt::f32, tag::nchw),
            d({1, 4, 2, 2}, dt::f32, tag::nchw);
    const memory::dims k = {2, 2}, st = {2, 2}, z = {0, 0};
    auto fwd = [&](prop_kind pk, const memory::desc &sm, const memory::desc &dm,
                       const primitive_attr &a) {
        return status_of([&] {
            pooling_forward::primitive_desc(gpu(), pk, algorithm::pooling_max,
                    sm, dm, st, k, z, z, z, a);
        });
    };
    // Scales are not a pooling attribute here.
    primitive_attr sc;
    sc.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(fwd(prop_kind::forward_inference, s, d, sc), dnnl_unimplemented);
    // Integer data and mixed types only for inference.
    const memory::desc s8s({1, 4, 4, 4}, dt::s8, tag::nchw),
            s8d({1, 4, 2, 2}, dt::s8, tag::nchw),
            bf({1, 4, 2, 2}, dt::bf16, tag::nchw);
    EXPECT_EQ(fwd(prop_kind::forward_training, s8s, s8d, primitive_attr()),
            dnnl_unimplemented);
    EXPECT_EQ(fwd(prop_kind::forward_inference, s, bf, primitive_attr()),
            dnnl_unimplemented);
    // Bad shapes and parameters are invalid arguments.
    const memory::desc bad({1, 4, 3, 2}, dt::f32, tag::nchw);
    EXPECT_EQ(fwd(prop_kind::forward_inference, s, bad, primitive_attr()),
            dnnl_invalid_arguments);
    EXPECT_EQ(status_of([&] {
        pooling_forward::primitive_desc(gpu(), prop_kind::forward_inference,
                algorithm::pooling_max, s, d, st, k, z, {-1, 0}, z);
    }),
            dnnl_invalid_arguments);
    // Backward: post-ops and mixed types are not supported.
    pooling_forward::primitive_desc hint(gpu(), prop_kind::forward_training,
            algorithm::pooling_avg_include_padding, s, d, st, k, z, z, z);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr pa;
    pa.set_post_ops(po);
    EXPECT_EQ(status_of([&] {
        pooling_backward::primitive_desc(gpu(),
                algorithm::pooling_avg_include_padding, s, d, st, k, z, z, z,
                hint, pa);
    }),
            dnnl_unimplemented);
    EXPECT_EQ(status_of([&] {
        pooling_backward::primitive_desc(gpu(),
                algorithm::pooling_avg_include_padding,
                memory::desc({1, 4, 4, 4}, dt::bf16, tag::nchw), d, st, k, z, z,
                z, hint);
    }),
            dnnl_unimplemented);
    // A sum post-op reading the destination as another type.
    post_ops ps;
    ps.append_sum(1.f, 0, dt::u8);
    primitive_attr psa;
    psa.set_post_ops(ps);
    const memory::desc s8o({1, 4, 2, 2}, dt::s8, tag::nchw);
    EXPECT_EQ(
            fwd(prop_kind::forward_inference, s, s8o, psa), dnnl_unimplemented);
    // A missing workspace at execution is an error, not a crash.
    pooling_forward::primitive_desc mpd(gpu(), prop_kind::forward_training,
            algorithm::pooling_max, s, d, st, k, z, z, z);
    memory sm(s, gpu()), dm(d, gpu());
    dnnl_exec_arg_t args[] = {
            {DNNL_ARG_SRC, sm.get()}, {DNNL_ARG_DST, dm.get()}};
    stream strm(gpu());
    EXPECT_EQ(dnnl_primitive_execute(
                      pooling_forward(mpd).get(), strm.get(), 2, args),
            dnnl_invalid_arguments);
    // So is a missing source of a non-empty tensor (an empty one may be
    // absent: empty_source_and_sum_post_op_refused).
    pooling_forward::primitive_desc ipd(gpu(), prop_kind::forward_inference,
            algorithm::pooling_max, s, d, st, k, z, z, z);
    dnnl_exec_arg_t dst_only[] = {{DNNL_ARG_DST, dm.get()}};
    EXPECT_EQ(dnnl_primitive_execute(
                      pooling_forward(ipd).get(), strm.get(), 1, dst_only),
            dnnl_invalid_arguments);
}

#endif
