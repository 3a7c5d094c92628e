// Pooling primitive tests: max / avg include / avg exclude padding, 1D-3D,
// strides, padding, dilation, forward (workspace) and backward, bf16, `any`,
// channels-last layout, queries and bad parameters; compared with
// tests/reference/pool_ref.*.
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/pool_ref.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16); // test values are exact in bf16
}
float from_bf16(uint16_t h) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// Logical row-major values <-> memory of any plain layout and f32/bf16.
void write(memory &m, const std::vector<float> &v) {
    auto md = m.get_desc();
    auto dims = md.get_dims();
    auto strides = md.get_strides();
    char *p = static_cast<char *>(m.get_data_handle());
    const int nd = (int)dims.size();
    for (size_t l = 0; l < v.size(); ++l) {
        size_t r = l;
        int64_t off = 0;
        for (int d = nd - 1; d >= 0; --d) {
            off += (int64_t)(r % dims[d]) * strides[d];
            r /= dims[d];
        }
        if (md.get_data_type() == dt::f32)
            reinterpret_cast<float *>(p)[off] = v[l];
        else
            reinterpret_cast<uint16_t *>(p)[off] = to_bf16(v[l]);
    }
}
std::vector<float> read(const memory &m) {
    auto md = m.get_desc();
    auto dims = md.get_dims();
    auto strides = md.get_strides();
    const char *p = static_cast<const char *>(m.get_data_handle());
    size_t n = 1;
    for (auto d : dims)
        n *= d;
    std::vector<float> v(n);
    const int nd = (int)dims.size();
    for (size_t l = 0; l < n; ++l) {
        size_t r = l;
        int64_t off = 0;
        for (int d = nd - 1; d >= 0; --d) {
            off += (int64_t)(r % dims[d]) * strides[d];
            r /= dims[d];
        }
        v[l] = md.get_data_type() == dt::f32 ? reinterpret_cast<const float *>(p)[off]
                                              : from_bf16(reinterpret_cast<const uint16_t *>(p)[off]);
    }
    return v;
}

std::vector<float> rnd(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> u(-32, 32);
    std::vector<float> v(n);
    for (auto &x : v)
        x = u(g) * 0.25f;
    return v;
}

struct pcase_t {
    algorithm alg;
    int nsp;
    int64_t mb, c, in[3], k[3], s[3], pl[3], pr[3], dil[3];
    dt dtype = dt::f32;
    bool cl = false; // channels-last layout
};

void run_case(const pcase_t &pc) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    pool_ref::desc_t rd;
    rd.alg = (dnnl_alg_kind_t)pc.alg;
    rd.mb = pc.mb;
    rd.c = pc.c;
    rd.nsp = pc.nsp;
    memory::dims sd = {pc.mb, pc.c}, dd = {pc.mb, pc.c}, K, S, D, PL, PR;
    for (int i = 0; i < pc.nsp; ++i) {
        const int64_t ext = (pc.k[i] - 1) * (pc.dil[i] + 1) + 1;
        const int64_t o = (pc.in[i] + pc.pl[i] + pc.pr[i] - ext) / pc.s[i] + 1;
        sd.push_back(pc.in[i]);
        dd.push_back(o);
        K.push_back(pc.k[i]);
        S.push_back(pc.s[i]);
        D.push_back(pc.dil[i]);
        PL.push_back(pc.pl[i]);
        PR.push_back(pc.pr[i]);
        rd.in[i] = pc.in[i];
        rd.out[i] = o;
        rd.k[i] = pc.k[i];
        rd.stride[i] = pc.s[i];
        rd.pad[i] = pc.pl[i];
        rd.dil[i] = pc.dil[i];
    }
    const tag t = pc.cl ? (pc.nsp == 1 ? tag::nwc : pc.nsp == 2 ? tag::nhwc : tag::ndhwc)
                        : (pc.nsp == 1 ? tag::ncw : pc.nsp == 2 ? tag::nchw : tag::ncdhw);
    memory::desc smd(sd, pc.dtype, t), dmd(dd, pc.dtype, tag::any);
    auto fpd = pooling_forward::primitive_desc(
            eng, prop_kind::forward_training, pc.alg, smd, dmd, S, K, D, PL, PR);
    ASSERT_EQ(fpd.dst_desc().get_dims(), dd);
    const bool is_max = pc.alg == algorithm::pooling_max;
    ASSERT_EQ(fpd.workspace_desc().get_size() != 0, is_max);
    memory src(fpd.src_desc(), eng), dst(fpd.dst_desc(), eng), ws(fpd.workspace_desc(), eng);
    size_t ns = 1, nd = 1;
    for (auto v : sd)
        ns *= v;
    for (auto v : dd)
        nd *= v;
    auto sv = rnd(ns, 7);
    write(src, sv);
    pooling_forward(fpd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    std::vector<double> ref(nd);
    pool_ref::forward(rd, sv.data(), ref.data());
    auto got = read(dst);
    const double tol = pc.dtype == dt::f32 ? 1e-5 : 2e-2;
    for (size_t i = 0; i < nd; ++i)
        ASSERT_NEAR(got[i], ref[i], tol * (1 + std::fabs(ref[i]))) << "fwd at " << i;

    // Backward.
    memory::desc dsmd(sd, pc.dtype, tag::any), ddmd(dd, pc.dtype, t);
    auto bpd = pooling_backward::primitive_desc(eng, pc.alg, dsmd, ddmd, S, K, D, PL, PR, fpd);
    ASSERT_EQ(bpd.diff_src_desc(), fpd.src_desc());
    if (is_max) ASSERT_EQ(bpd.workspace_desc(), fpd.workspace_desc());
    memory ddst(bpd.diff_dst_desc(), eng), dsrc(bpd.diff_src_desc(), eng);
    auto ddv = rnd(nd, 11);
    write(ddst, ddv);
    pooling_backward(bpd).execute(strm,
            {{DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc}, {DNNL_ARG_WORKSPACE, ws}});
    strm.wait();
    std::vector<double> bref(ns);
    pool_ref::backward(rd, sv.data(), ddv.data(), bref.data());
    auto bgot = read(dsrc);
    for (size_t i = 0; i < ns; ++i)
        ASSERT_NEAR(bgot[i], bref[i], tol * (1 + std::fabs(bref[i]))) << "bwd at " << i;
}

TEST(Pooling, Max2D) {
    run_case({algorithm::pooling_max, 2, 2, 3, {7, 6}, {3, 2}, {2, 2}, {1, 0}, {1, 1}, {0, 0}});
}
TEST(Pooling, AvgInclude2DDilated) {
    run_case({algorithm::pooling_avg_include_padding, 2, 2, 3, {9, 8}, {3, 3}, {2, 1},
            {1, 1}, {1, 2}, {1, 0}});
}
TEST(Pooling, AvgExclude2D) {
    run_case({algorithm::pooling_avg_exclude_padding, 2, 1, 4, {5, 7}, {3, 3}, {2, 2},
            {1, 1}, {1, 1}, {0, 0}});
}
TEST(Pooling, Max1D) {
    run_case({algorithm::pooling_max, 1, 2, 5, {11}, {3}, {2}, {1}, {1}, {1}});
}
TEST(Pooling, Avg3D) {
    run_case({algorithm::pooling_avg_exclude_padding, 3, 1, 2, {4, 5, 6}, {2, 3, 2},
            {2, 1, 2}, {0, 1, 1}, {1, 1, 0}, {0, 0, 0}});
}
TEST(Pooling, Max3DChannelsLast) {
    pcase_t pc {algorithm::pooling_max, 3, 2, 3, {4, 5, 6}, {2, 2, 3}, {1, 2, 2},
            {0, 1, 1}, {0, 0, 1}, {1, 0, 0}};
    pc.cl = true;
    run_case(pc);
}
// 16 channels and more: ncsp goes through the transposed channel-vector
// walk (two groups, the second partial), channels-last through groups of
// 64 with a partial last group; windows clipped on every side.
TEST(Pooling, MaxNcspWideChannels) {
    run_case({algorithm::pooling_max, 2, 2, 35, {11, 13}, {3, 3}, {2, 2}, {1, 1},
            {1, 1}, {0, 0}});
}
TEST(Pooling, AvgExcludeNcspWideChannelsDilated) {
    run_case({algorithm::pooling_avg_exclude_padding, 2, 1, 20, {12, 9}, {3, 2},
            {2, 1}, {1, 0}, {1, 1}, {1, 1}});
}
TEST(Pooling, AvgIncludeGlobalNcsp) {
    run_case({algorithm::pooling_avg_include_padding, 2, 2, 18, {7, 7}, {7, 7},
            {1, 1}, {0, 0}, {0, 0}, {0, 0}});
}
TEST(Pooling, MaxChannelsLastWide) {
    pcase_t pc {algorithm::pooling_max, 2, 2, 70, {9, 10}, {3, 3}, {2, 2}, {1, 1},
            {1, 1}, {0, 0}};
    pc.cl = true;
    run_case(pc);
}
TEST(Pooling, AvgExclude3DChannelsLastWide) {
    pcase_t pc {algorithm::pooling_avg_exclude_padding, 3, 1, 64, {5, 5, 5},
            {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}};
    pc.cl = true;
    run_case(pc);
}
TEST(Pooling, MaxBf16) {
    pcase_t pc {algorithm::pooling_max, 2, 2, 3, {6, 6}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}};
    pc.dtype = dt::bf16;
    run_case(pc);
}
TEST(Pooling, AvgBf16ChannelsLast) {
    pcase_t pc {algorithm::pooling_avg_include_padding, 2, 2, 3, {6, 5}, {2, 2}, {2, 1},
            {1, 0}, {1, 0}, {0, 0}};
    pc.dtype = dt::bf16;
    pc.cl = true;
    run_case(pc);
}

TEST(Pooling, InferenceHasNoWorkspace) {
    engine eng(engine::kind::cpu, 0);
    memory::desc s({1, 2, 4, 4}, dt::f32, tag::nchw), d({1, 2, 2, 2}, dt::f32, tag::any);
    auto pd = pooling_forward::primitive_desc(eng, prop_kind::forward_inference,
            algorithm::pooling_max, s, d, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0});
    EXPECT_EQ(pd.workspace_desc().get_size(), 0u);
    EXPECT_EQ(pd.get_kernel(), memory::dims({2, 2}));
    EXPECT_EQ(pd.get_algorithm(), algorithm::pooling_max);
}

TEST(Pooling, BadParameters) {
    engine eng(engine::kind::cpu, 0);
    dnnl_memory_desc_t s, d, d_bad;
    dnnl_dims_t sd = {1, 2, 4, 4}, dd = {1, 2, 2, 2}, bd = {1, 2, 3, 2};
    dnnl_memory_desc_create_with_tag(&s, 4, sd, dnnl_f32, dnnl_nchw);
    dnnl_memory_desc_create_with_tag(&d, 4, dd, dnnl_f32, dnnl_nchw);
    dnnl_memory_desc_create_with_tag(&d_bad, 4, bd, dnnl_f32, dnnl_nchw);
    dnnl_dims_t k = {2, 2}, st = {2, 2}, z = {0, 0}, neg = {-1, 0};
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_pooling_max, s, d_bad, st, k, z, z, z,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_eltwise_relu, s, d, st, k, z, z, z,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_pooling_max, s, d, st, k, z, neg, z,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_backward_data, dnnl_pooling_max, s, d, st, k, z, z, z, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_pooling_max, nullptr, d, st, k, z, z, z,
                      nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_pooling_max, s, d, st, k, z, z, z,
                      nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(d);
    dnnl_memory_desc_destroy(d_bad);
}

} // namespace
