// f32 matmul on the BRGEMM kernels through the public API: shapes with M
// and N tails, batches with broadcast, weights `any` (packed panels) and
// plain (packed per execution, transposed too), bias, post-op chains
// (eltwise, sum, binary scalar / per column / full), against the naive
// reference; a second primitive of another shape takes its kernels from
// the kernel cache; what the kernels do not take goes to the GEMM.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

#include "reference/matmul_ref.hpp"

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

std::vector<float> random_floats(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto &x : v) x = d(g);
    return v;
}

int64_t product(const memory::dims &d) {
    int64_t p = 1;
    for (auto x : d) p *= x;
    return p;
}

tag plain_tag(size_t nd, bool transposed = false) {
    switch (nd) {
    case 2:
        return transposed ? tag::ba : tag::ab;
    case 3:
        return transposed ? tag::acb : tag::abc;
    default:
        return tag::abcd;
    }
}

struct binary_t {
    algorithm alg;
    memory::dims dims;
};

struct case_t {
    memory::dims src, wei, dst;
    bool wei_any = true, wei_transposed = false, bias = false;
    std::vector<algorithm> eltwise; // appended first
    float sum_scale = 0.f;          // 0: no sum
    std::vector<binary_t> binaries;
};

// Runs the case; returns the implementation's name.
std::string run_case(const case_t &c, unsigned seed) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const size_t nd = c.dst.size();
    memory::desc src_md(c.src, dt::f32, plain_tag(nd));
    memory::desc wei_user(c.wei, dt::f32, plain_tag(nd, c.wei_transposed));
    memory::desc wei_md =
            c.wei_any ? memory::desc(c.wei, dt::f32, tag::any) : wei_user;
    memory::desc dst_md(c.dst, dt::f32, plain_tag(nd));
    memory::dims bias_dims(nd, 1);
    bias_dims[nd - 1] = c.dst[nd - 1];
    memory::desc bias_md =
            c.bias ? memory::desc(bias_dims, dt::f32, plain_tag(nd))
                   : memory::desc();

    post_ops po;
    std::vector<post_ops_ref::post_op_t> ref_po;
    if (c.sum_scale != 0.f) {
        po.append_sum(c.sum_scale);
        post_ops_ref::post_op_t r;
        r.kind = post_ops_ref::post_op_t::sum;
        r.scale = c.sum_scale;
        ref_po.push_back(r);
    }
    for (auto a : c.eltwise) {
        po.append_eltwise(a, 0.f, 0.f);
        post_ops_ref::post_op_t r;
        r.kind = post_ops_ref::post_op_t::eltwise;
        r.alg = (dnnl_alg_kind_t)a;
        ref_po.push_back(r);
    }
    std::vector<memory> bin_mem;
    for (size_t i = 0; i < c.binaries.size(); ++i) {
        const auto &b = c.binaries[i];
        memory::desc md(b.dims, dt::f32, plain_tag(nd));
        po.append_binary(b.alg, md);
        post_ops_ref::post_op_t r;
        r.kind = post_ops_ref::post_op_t::binary;
        r.alg = (dnnl_alg_kind_t)b.alg;
        r.operand = random_floats(product(b.dims), seed + 50 + (unsigned)i);
        if (b.alg == algorithm::binary_div)
            for (auto &x : r.operand) x += 2.f;
        r.operand_dims.assign(b.dims.begin(), b.dims.end());
        memory m(md, eng);
        std::copy(r.operand.begin(), r.operand.end(),
                (float *)m.get_data_handle());
        bin_mem.push_back(m);
        ref_po.push_back(r);
    }
    primitive_attr attr;
    attr.set_post_ops(po);
    matmul::primitive_desc pd(eng, src_md, wei_md, bias_md, dst_md, attr);
    const std::string impl = pd.impl_info_str();

    const auto src = random_floats(product(c.src), seed);
    const auto wei = random_floats(product(c.wei), seed + 1);
    const auto bias = random_floats(c.dst[nd - 1], seed + 2);
    const auto old = random_floats(product(c.dst), seed + 3);
    memory src_m(src_md, eng), wei_u(wei_user, eng), dst_m(dst_md, eng);
    std::copy(src.begin(), src.end(), (float *)src_m.get_data_handle());
    // The user's weights in logical order (transposed storage if asked).
    float *wu = (float *)wei_u.get_data_handle();
    const int64_t K = c.wei[nd - 2], N = c.wei[nd - 1];
    int64_t wb = 1;
    for (size_t d = 0; d + 2 < nd; ++d) wb *= c.wei[d];
    for (int64_t b = 0; b < wb; ++b)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t n = 0; n < N; ++n)
                wu[b * K * N + (c.wei_transposed ? n * K + k : k * N + n)] =
                        wei[b * K * N + k * N + n];
    std::copy(old.begin(), old.end(), (float *)dst_m.get_data_handle());
    memory wei_m = wei_u;
    if (pd.weights_desc() != wei_user) {
        wei_m = memory(pd.weights_desc(), eng);
        reorder(wei_u, wei_m).execute(s, wei_u, wei_m);
    }
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src_m},
            {DNNL_ARG_WEIGHTS, wei_m}, {DNNL_ARG_DST, dst_m}};
    memory bias_m;
    if (c.bias) {
        bias_m = memory(bias_md, eng);
        std::copy(bias.begin(), bias.end(), (float *)bias_m.get_data_handle());
        args[DNNL_ARG_BIAS] = bias_m;
    }
    for (size_t i = 0; i < bin_mem.size(); ++i)
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(
                     (int)(ref_po.size() - bin_mem.size() + i))
                | DNNL_ARG_SRC_1] = bin_mem[i];
    try {
        matmul(pd).execute(s, args);
    } catch (const dnnl::error &e) {
        ADD_FAILURE() << impl << ": " << e.what();
        return impl;
    }
    s.wait();

    matmul_ref::problem_t p;
    p.src_dims.assign(c.src.begin(), c.src.end());
    p.wei_dims.assign(c.wei.begin(), c.wei.end());
    p.dst_dims.assign(c.dst.begin(), c.dst.end());
    if (c.bias) p.bias_dims.assign(bias_dims.begin(), bias_dims.end());
    const auto ref = matmul_ref::compute(p, src, wei, bias, {}, ref_po, &old);
    const float *got = (const float *)dst_m.get_data_handle();
    int errors = 0;
    for (size_t i = 0; i < ref.size() && errors < 5; ++i) {
        const double tol =
                2e-5 * (std::sqrt((double)K) + 1) * (1 + std::fabs(ref[i]));
        if (std::fabs(got[i] - ref[i]) <= tol) continue;
        ++errors;
        ADD_FAILURE() << impl << " element " << i << ": got " << got[i]
                      << " expected " << ref[i];
    }
    return impl;
}

bool on_brgemm(const std::string &impl) {
    return impl.rfind("brg_matmul:", 0) == 0;
}

} // namespace

TEST(JitBrgemmMatmul, ShapesAndTails) {
    const std::vector<case_t> cases = {
            {{5, 1}, {1, 1}, {5, 1}},
            {{6, 64}, {64, 64}, {6, 64}},
            {{7, 65}, {65, 65}, {7, 65}},
            {{13, 3}, {3, 100}, {13, 100}},
            {{50, 129}, {129, 130}, {50, 130}},
            {{100, 0}, {0, 37}, {100, 37}},
            {{37, 51}, {51, 77}, {37, 77}, false},
            {{37, 51}, {51, 77}, {37, 77}, false, true},
            {{3, 10, 30}, {3, 30, 20}, {3, 10, 20}},
            {{3, 10, 30}, {1, 30, 20}, {3, 10, 20}},
            {{1, 10, 30}, {3, 30, 20}, {3, 10, 20}},
            {{2, 3, 9, 17}, {2, 1, 17, 70}, {2, 3, 9, 70}},
            // K in blocks (B blocks of 256 KiB: 1024 rows of 64 columns).
            {{13, 2500}, {2500, 70}, {13, 70}},
            {{7, 3100}, {3100, 33}, {7, 33}, false},
            {{2, 5, 2100}, {1, 2100, 20}, {2, 5, 20}, false},
    };
    int on = 0;
    for (size_t i = 0; i < cases.size(); ++i)
        on += on_brgemm(run_case(cases[i], (unsigned)i));
    if (on == 0) GTEST_SKIP() << "no BRGEMM target here";
    EXPECT_EQ(on, (int)cases.size());
}

TEST(JitBrgemmMatmul, BiasAndPostOps) {
    using a = algorithm;
    std::vector<case_t> cases;
    auto add = [&](memory::dims src, memory::dims wei, memory::dims dst) {
        const size_t nd = dst.size();
        memory::dims per_n(nd, 1), scalar(nd, 1);
        per_n[nd - 1] = dst[nd - 1];
        case_t c{src, wei, dst};
        c.bias = true;
        cases.push_back(c);
        c.eltwise = {a::eltwise_relu};
        cases.push_back(c);
        c.eltwise = {a::eltwise_gelu_erf};
        c.sum_scale = 0.5f;
        cases.push_back(c);
        c.eltwise = {};
        c.sum_scale = 0.f;
        c.binaries = {{a::binary_add, per_n}, {a::binary_mul, scalar},
                {a::binary_sub, dst}};
        cases.push_back(c);
        c.wei_any = false;
        c.sum_scale = 1.f;
        c.eltwise = {a::eltwise_tanh};
        c.binaries = {{a::binary_div, dst}, {a::binary_max, per_n}};
        cases.push_back(c);
    };
    add({31, 40}, {40, 70}, {31, 70});
    add({2, 13, 40}, {2, 40, 33}, {2, 13, 33});
    add({9, 2100}, {2100, 70}, {9, 70}); // K in blocks, the epilogue last
    int on = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        on += on_brgemm(run_case(cases[i], (unsigned)(100 + i)));
    }
    if (on == 0) GTEST_SKIP() << "no BRGEMM target here";
    EXPECT_EQ(on, (int)cases.size());
}

// What the kernel's epilogue does not take goes to the GEMM, correctly.
TEST(JitBrgemmMatmul, OtherPostOpsFallBack) {
    case_t c{{9, 20}, {20, 30}, {9, 30}};
    c.binaries = {{algorithm::binary_add, {9, 1}}}; // per row
    EXPECT_FALSE(on_brgemm(run_case(c, 7)));
    // 4 rows (GEMV-like), weights plain or `any`: the GEMM's small-M
    // kernels stream B.
    case_t d{{4, 300}, {300, 70}, {4, 70}, false};
    EXPECT_FALSE(on_brgemm(run_case(d, 8)));
    d.wei_any = true;
    EXPECT_FALSE(on_brgemm(run_case(d, 10)));
}

// A primitive of another shape whose tiles have no tails takes its
// kernel from the cache: one hit, no miss, and verbose says so.
TEST(JitBrgemmMatmul, KernelCacheServesNewShape) {
    engine eng(engine::kind::cpu, 0);
    auto make = [&](memory::dim M, memory::dim N, memory::dim K) {
        memory::desc s({M, K}, dt::f32, tag::ab), w({K, N}, dt::f32, tag::any),
                d({M, N}, dt::f32, tag::ab);
        post_ops po;
        po.append_eltwise(algorithm::eltwise_swish, 0.375f, 0.f);
        primitive_attr attr;
        attr.set_post_ops(po);
        return matmul::primitive_desc(eng, s, w, d, attr);
    };
    // 12 rows and 192 columns: whole tiles on both targets (6x64, 4x24).
    auto pd1 = make(12, 192, 50);
    if (!on_brgemm(pd1.impl_info_str())) GTEST_SKIP() << pd1.impl_info_str();
    matmul p1(pd1);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    set_verbose(2);
    testing::internal::CaptureStdout();
    matmul p2(make(24, 384, 70));
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_EQ(after.hits, before.hits + 1);
    EXPECT_NE(out.find("create:kernel_cache_hit,jit:f32_brgemm_"),
            std::string::npos)
            << out;
}

// The ISA dispatch picks the target: ONEDNN_MAX_CPU_ISA (CTest runs these
// tests under each limit) or the processor decides the name.
TEST(JitBrgemmMatmul, NameFollowsIsaLimit) {
    case_t c{{20, 30}, {30, 40}, {20, 40}};
    const std::string impl = run_case(c, 9);
    const cpu_isa isa = get_effective_cpu_isa();
    const auto at_least = [&](cpu_isa x) {
        return ((unsigned)isa & (unsigned)x) == (unsigned)x;
    };
    if (at_least(cpu_isa::avx512_core))
        EXPECT_EQ(impl, "brg_matmul:avx512_core");
    else if (at_least(cpu_isa::avx2))
        EXPECT_EQ(impl, "brg_matmul:avx2");
    else
        EXPECT_FALSE(on_brgemm(impl)) << impl;
}
