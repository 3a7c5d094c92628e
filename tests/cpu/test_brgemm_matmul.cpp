// f32, bf16 and u8 x s8 matmul on the BRGEMM kernels through the public
// API: shapes with M and N tails (odd K for bf16, K % 4 for int8),
// batches with broadcast, weights `any` (packed panels) and plain (packed
// per execution, transposed too), K in blocks, bias, post-op chains
// (eltwise, sum, binary scalar / per column / full), f32, bf16, s8 and
// u8 dst, int8 scales, f32 under fpmath bf16, against the naive
// reference on the same (rounded) inputs; a second primitive of another
// shape takes its kernels from the kernel cache; what the kernels do not
// take goes to the GEMM.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bf16_glue.hpp"

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


// Values as a tensor of type t holds them (bf16: rounded; s8 / u8: the
// values in [-1, 1) spread over the type's range as integers).
std::vector<float> as_type(std::vector<float> v, dt t) {
    for (auto &x : v)
        if (t == dt::bf16)
            x = from_bf16(to_bf16(x));
        else if (t == dt::s8)
            x = std::floor(x * 128.f);
        else if (t == dt::u8)
            x = std::floor((x + 1.f) * 128.f);
    return v;
}

// Writes v (logical order = memory order for the plain tensors here).
void write(memory &m, const std::vector<float> &v) {
    void *h = m.get_data_handle();
    for (size_t i = 0; i < v.size(); ++i)
        switch (m.get_desc().get_data_type()) {
        case dt::bf16:
            ((uint16_t *)h)[i] = to_bf16(v[i]);
            break;
        case dt::s8:
            ((int8_t *)h)[i] = (int8_t)v[i];
            break;
        case dt::u8:
            ((uint8_t *)h)[i] = (uint8_t)v[i];
            break;
        case dt::s32:
            ((int32_t *)h)[i] = (int32_t)v[i];
            break;
        default:
            ((float *)h)[i] = v[i];
            break;
        }
}

float read(const memory &m, size_t i) {
    const void *h = m.get_data_handle();
    switch (m.get_desc().get_data_type()) {
    case dt::bf16:
        return from_bf16(((const uint16_t *)h)[i]);
    case dt::s8:
        return ((const int8_t *)h)[i];
    case dt::u8:
        return ((const uint8_t *)h)[i];
    case dt::s32:
        return (float)((const int32_t *)h)[i];
    default:
        return ((const float *)h)[i];
    }
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
    dt src_dt = dt::f32, dst_dt = dt::f32, bias_dt = dt::f32;
    bool fpmath_bf16 = false; // f32 inputs rounded to bf16
    // u8 x s8 (src_dt u8): 0 no scales, 1 src and weights common, 2 src
    // common and weights per column.
    int scales = 0;
};

case_t int8_case(case_t c, dt dst, int scales) {
    c.src_dt = dt::u8;
    c.dst_dt = dst;
    c.scales = scales;
    return c;
}

case_t bf16_case(case_t c, dt dst = dt::bf16, dt bias = dt::f32) {
    c.src_dt = dt::bf16;
    c.dst_dt = dst;
    c.bias_dt = bias;
    return c;
}

// Runs the case; returns the implementation's name.
std::string run_case(const case_t &c, unsigned seed) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const size_t nd = c.dst.size();
    const bool int8 = c.src_dt == dt::u8 || c.src_dt == dt::s8;
    const dt wdt = int8 ? dt::s8 : c.src_dt;
    memory::desc src_md(c.src, c.src_dt, plain_tag(nd));
    memory::desc wei_user(c.wei, wdt, plain_tag(nd, c.wei_transposed));
    memory::desc wei_md =
            c.wei_any ? memory::desc(c.wei, wdt, tag::any) : wei_user;
    memory::desc dst_md(c.dst, c.dst_dt, plain_tag(nd));
    memory::dims bias_dims(nd, 1);
    bias_dims[nd - 1] = c.dst[nd - 1];
    memory::desc bias_md =
            c.bias ? memory::desc(bias_dims, c.bias_dt, plain_tag(nd))
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
    if (c.fpmath_bf16) attr.set_fpmath_mode(fpmath_mode::bf16);
    // Scales: src 0.5 (common), weights common or one per column.
    const int64_t N_ = c.wei[nd - 1];
    std::vector<float> src_scale, wei_scale;
    if (c.scales) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        attr.set_scales_mask(
                DNNL_ARG_WEIGHTS, c.scales == 2 ? 1 << (nd - 1) : 0);
        src_scale = {0.5f};
        wei_scale = random_floats(c.scales == 2 ? N_ : 1, seed + 9);
        for (auto &x : wei_scale) x = 0.004f + 0.002f * x;
    }
    matmul::primitive_desc pd(eng, src_md, wei_md, bias_md, dst_md, attr);
    const std::string impl = pd.impl_info_str();

    const auto src = as_type(random_floats(product(c.src), seed), c.src_dt);
    const auto wei = as_type(random_floats(product(c.wei), seed + 1), wdt);
    const auto bias =
            as_type(random_floats(c.dst[nd - 1], seed + 2), c.bias_dt);
    const auto old = as_type(random_floats(product(c.dst), seed + 3), c.dst_dt);
    memory src_m(src_md, eng), wei_u(wei_user, eng), dst_m(dst_md, eng);
    write(src_m, src);
    // The user's weights in logical order (transposed storage if asked).
    std::vector<float> wu(wei.size());
    const int64_t K = c.wei[nd - 2], N = c.wei[nd - 1];
    int64_t wb = 1;
    for (size_t d = 0; d + 2 < nd; ++d) wb *= c.wei[d];
    for (int64_t b = 0; b < wb; ++b)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t n = 0; n < N; ++n)
                wu[b * K * N + (c.wei_transposed ? n * K + k : k * N + n)] =
                        wei[b * K * N + k * N + n];
    write(wei_u, wu);
    write(dst_m, old);
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
        write(bias_m, bias);
        args[DNNL_ARG_BIAS] = bias_m;
    }
    for (size_t i = 0; i < bin_mem.size(); ++i)
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(
                     (int)(ref_po.size() - bin_mem.size() + i))
                | DNNL_ARG_SRC_1] = bin_mem[i];
    if (c.scales) {
        memory ss({{1}, dt::f32, tag::a}, eng);
        memory ws({{(memory::dim)wei_scale.size()}, dt::f32, tag::a}, eng);
        write(ss, src_scale);
        write(ws, wei_scale);
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = ss;
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] = ws;
    }
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
    // fpmath bf16: the product of the inputs rounded to bf16.
    const bool fpm = c.fpmath_bf16;
    matmul_ref::quant_t q;
    q.src_scale = src_scale;
    q.wei_scale = wei_scale;
    const auto ref = matmul_ref::compute(p, fpm ? as_type(src, dt::bf16) : src,
            fpm ? as_type(wei, dt::bf16) : wei, bias, q, ref_po, &old);
    int errors = 0;
    for (size_t i = 0; i < ref.size() && errors < 5; ++i) {
        // A bf16 dst adds its rounding (half an ulp: 2^-9 relative), an
        // s8 / u8 one a unit (saturated first).
        double want = ref[i];
        if (c.dst_dt == dt::s8) want = std::min(127., std::max(-128., want));
        if (c.dst_dt == dt::u8) want = std::min(255., std::max(0., want));
        const double tol =
                2e-5 * (std::sqrt((double)K) + 1) * (1 + std::fabs(want))
                + (c.dst_dt == dt::bf16 ? std::ldexp(std::fabs(want), -8) : 0.)
                + (c.dst_dt == dt::s8 || c.dst_dt == dt::u8 ? 1. : 0.);
        const float got = read(dst_m, i);
        if (std::fabs(got - want) <= tol) continue;
        ++errors;
        ADD_FAILURE() << impl << " element " << i << ": got " << got
                      << " expected " << want;
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
    // 12 rows and 192 columns: whole tiles on both targets (6x64, 6x16).
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

namespace {

// Whether the effective ISA includes `level` (ISA values are bit sets).
bool effective_isa_has(cpu_isa level) {
    const unsigned isa = (unsigned)get_effective_cpu_isa();
    return (isa & (unsigned)level) == (unsigned)level;
}

bool has_bf16_target() {
    return effective_isa_has(cpu_isa::avx512_core_bf16);
}

// AMX (the effective ISA includes its tiles) runs bf16 and int8 sources.
bool has_amx_target() {
    return effective_isa_has(cpu_isa::avx512_core_amx);
}

// The BRGEMM matmul's name for bf16 inputs here.
std::string bf16_impl() {
    return has_amx_target() ? "brg_matmul:avx512_core_amx"
                            : "brg_matmul:avx512_core_bf16";
}

} // namespace

// bf16 x bf16 -> f32 / bf16 on vdpbf16ps: odd K (the last k alone), M and
// N tails, batches with broadcast, `any` (k-pair panels), plain and
// transposed weights, K in blocks (2048 rows of a bf16 panel: a bf16 dst
// sums the blocks in f32 first, the runs of tiles cut at 128 KiB of
// partial sums with M = 600).
TEST(JitBrgemmMatmul, Bf16ShapesAndTails) {
    if (!has_bf16_target()) GTEST_SKIP() << "no avx512_core_bf16 here";
    const std::vector<case_t> shapes = {
            {{5, 1}, {1, 1}, {5, 1}},
            {{6, 64}, {64, 64}, {6, 64}},
            {{7, 65}, {65, 65}, {7, 65}},
            {{13, 3}, {3, 100}, {13, 100}},
            {{50, 129}, {129, 130}, {50, 130}},
            {{100, 0}, {0, 37}, {100, 37}},
            {{37, 51}, {51, 77}, {37, 77}, false},
            {{37, 51}, {51, 77}, {37, 77}, false, true},
            {{3, 10, 31}, {3, 31, 20}, {3, 10, 20}},
            {{3, 10, 30}, {1, 30, 20}, {3, 10, 20}},
            {{1, 10, 30}, {3, 30, 20}, {3, 10, 20}, false, true},
            {{2, 3, 9, 17}, {2, 1, 17, 70}, {2, 3, 9, 70}},
            {{13, 4500}, {4500, 70}, {13, 70}},
            {{7, 4101}, {4101, 33}, {7, 33}, false},
            {{7, 2049}, {2049, 33}, {7, 33}, false, true},
            {{600, 2100}, {2100, 65}, {600, 65}},
            {{2, 5, 4100}, {1, 4100, 20}, {2, 5, 20}, false},
    };
    int n = 0;
    for (size_t i = 0; i < shapes.size(); ++i)
        for (dt d : {dt::f32, dt::bf16}) {
            SCOPED_TRACE("case " + std::to_string(i) + " dst "
                         + (d == dt::bf16 ? "bf16" : "f32"));
            const std::string impl =
                    run_case(bf16_case(shapes[i], d), (unsigned)(300 + i));
            EXPECT_EQ(impl, bf16_impl());
            ++n;
        }
    EXPECT_EQ(n, 2 * (int)shapes.size());
}

// Bias f32 and bf16, chains with sum (reading a bf16 dst), eltwise and
// binary, K in one block and in several (the epilogue on the last).
TEST(JitBrgemmMatmul, Bf16BiasAndPostOps) {
    if (!has_bf16_target()) GTEST_SKIP() << "no avx512_core_bf16 here";
    using a = algorithm;
    std::vector<case_t> cases;
    auto add = [&](memory::dims src, memory::dims wei, memory::dims dst) {
        const size_t nd = dst.size();
        memory::dims per_n(nd, 1), scalar(nd, 1);
        per_n[nd - 1] = dst[nd - 1];
        for (dt d : {dt::bf16, dt::f32}) {
            case_t c = bf16_case({src, wei, dst}, d, dt::bf16);
            c.bias = true;
            cases.push_back(c);
            c.bias_dt = dt::f32;
            c.eltwise = {a::eltwise_gelu_erf};
            cases.push_back(c);
            c.sum_scale = 0.5f;
            cases.push_back(c);
            c.eltwise = {};
            c.sum_scale = 0.f;
            c.binaries = {{a::binary_add, per_n}, {a::binary_mul, scalar},
                    {a::binary_sub, dst}};
            cases.push_back(c);
            c.wei_any = false;
            c.bias_dt = dt::bf16;
            c.sum_scale = 1.f;
            c.eltwise = {a::eltwise_tanh};
            c.binaries = {{a::binary_div, dst}, {a::binary_max, per_n}};
            cases.push_back(c);
        }
    };
    add({31, 41}, {41, 70}, {31, 70});
    add({2, 13, 40}, {2, 40, 33}, {2, 13, 33});
    add({9, 4111}, {4111, 70}, {9, 70}); // K in blocks, the epilogue last
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        EXPECT_EQ(run_case(cases[i], (unsigned)(400 + i)), bf16_impl());
    }
}

// The bf16 name follows the ISA limit: below avx512_core_bf16 (CTest's
// cpu_isa_AVX512_CORE) the GEMM-based bf16 matmul runs, correctly.
TEST(JitBrgemmMatmul, Bf16NameFollowsIsaLimit) {
    case_t c = bf16_case({{20, 31}, {31, 40}, {20, 40}});
    c.bias = true;
    const std::string impl = run_case(c, 9);
    if (has_bf16_target())
        EXPECT_EQ(impl, bf16_impl());
    else
        EXPECT_FALSE(on_brgemm(impl)) << impl;
}

// bf16 problems where 4 rows or fewer use each panel (decode-like) go to
// the GEMM, whose small-M kernels stream plain bf16 weights (widened as
// they are read), correctly: bias, post-ops, f32 and bf16 dst.
TEST(JitBrgemmMatmul, Bf16SmallMFallsBackToTheGemm) {
    for (int m = 1; m <= 4; ++m)
        for (dt d : {dt::f32, dt::bf16}) {
            case_t c = bf16_case({{m, 301}, {301, 1030}, {m, 1030}, false}, d);
            c.bias = true;
            c.eltwise = {algorithm::eltwise_relu};
            SCOPED_TRACE("m " + std::to_string(m));
            EXPECT_FALSE(on_brgemm(run_case(c, (unsigned)(500 + m))));
        }
}

// f32 with fpmath_mode bf16 runs the bf16 kernels on inputs rounded to
// bf16 (the reference rounds them too; the tolerance is f32's, so an
// unrounded product fails): tails, odd K, batches, plain and transposed
// weights, K in blocks, bias and post-ops. Strict f32 stays on f32.
TEST(JitBrgemmMatmul, F32WithFpmathBf16) {
    if (!has_bf16_target()) GTEST_SKIP() << "no avx512_core_bf16 here";
    std::vector<case_t> cases = {
            {{13, 77}, {77, 130}, {13, 130}},
            {{37, 51}, {51, 77}, {37, 77}, false, true},
            {{2, 3, 9, 17}, {2, 1, 17, 70}, {2, 3, 9, 70}},
            {{50, 2101}, {2101, 65}, {50, 65}},
    };
    cases[1].bias = true;
    cases[1].eltwise = {algorithm::eltwise_gelu_erf};
    cases[3].bias = true;
    cases[3].sum_scale = 0.5f;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        case_t c = cases[i];
        c.fpmath_bf16 = true;
        EXPECT_EQ(run_case(c, (unsigned)(600 + i)), bf16_impl());
    }
    EXPECT_EQ(run_case(cases[0], 610), "brg_matmul:avx512_core");
}

namespace {

bool has_vnni_target() {
    return effective_isa_has(cpu_isa::avx512_core_vnni);
}

// The BRGEMM matmul's name for int8 inputs here.
std::string int8_impl() {
    return has_amx_target() ? "brg_matmul:avx512_core_amx"
                            : "brg_matmul:avx512_core_vnni";
}

} // namespace

// u8 x s8 on vpdpbusd: K % 4 of 0-3 (a partial last quad), M and N tails,
// batches with broadcast, `any` (k-quad panels), plain and transposed
// weights, K in blocks (s32 partial sums), dst f32 / s8 / u8 (saturated),
// scales common and per column, bias and post-ops (sum reading an s8 /
// u8 dst).
TEST(JitBrgemmMatmul, Int8ShapesScalesAndPostOps) {
    if (!has_vnni_target()) GTEST_SKIP() << "no avx512_core_vnni here";
    std::vector<case_t> shapes = {
            {{5, 1}, {1, 1}, {5, 1}},
            {{7, 66}, {66, 65}, {7, 65}},
            {{13, 3}, {3, 100}, {13, 100}},
            {{50, 129}, {129, 130}, {50, 130}},
            {{37, 51}, {51, 77}, {37, 77}, false},
            {{37, 51}, {51, 77}, {37, 77}, false, true},
            {{2, 3, 9, 17}, {2, 1, 17, 70}, {2, 3, 9, 70}},
            // GEMV-like with 4 Mi `any` weights (taken below 5 rows).
            {{1, 4099}, {4099, 1030}, {1, 1030}},
            {{13, 9001}, {9001, 70}, {13, 70}},
            {{600, 4100}, {4100, 65}, {600, 65}, false},
    };
    int n = 0;
    for (size_t i = 0; i < shapes.size(); ++i)
        for (dt d : {dt::f32, dt::s8, dt::u8}) {
            case_t c = int8_case(shapes[i], d, (int)(i + n) % 3);
            // s8 sources (read as u8 + 128, corrected per column) with
            // the s8 destinations, where the weights have no batch (the
            // corrections are made for one weights matrix).
            if (d == dt::s8 && product(c.wei) == c.wei.end()[-1] * c.wei.end()[-2])
                c.src_dt = dt::s8;
            if (i % 2) {
                c.bias = true;
                c.eltwise = {algorithm::eltwise_relu};
            }
            if (i % 3 == 2 && c.dst[0] * c.dst.back() < 10000) {
                c.sum_scale = 0.5f;
                c.binaries = {
                        {algorithm::binary_add, memory::dims(c.dst.size(), 1)}};
            }
            SCOPED_TRACE("case " + std::to_string(i) + " dst "
                         + std::to_string((int)d) + " scales "
                         + std::to_string(c.scales));
            EXPECT_EQ(run_case(c, (unsigned)(700 + i)),
                    int8_impl());
            ++n;
        }
}

// u8 x s8 -> s32 without scales, bias or post-ops: the sums stored as
// they are (K in blocks added in dst), exact.
TEST(JitBrgemmMatmul, Int8RawSums) {
    if (!has_vnni_target()) GTEST_SKIP() << "no avx512_core_vnni here";
    const std::vector<case_t> shapes = {
            {{7, 66}, {66, 65}, {7, 65}},
            {{37, 51}, {51, 77}, {37, 77}, false},
            {{13, 9001}, {9001, 70}, {13, 70}}, // three K blocks
    };
    for (size_t i = 0; i < shapes.size(); ++i) {
        SCOPED_TRACE("case " + std::to_string(i));
        EXPECT_EQ(run_case(int8_case(shapes[i], dt::s32, 0), (unsigned)(900 + i)),
                int8_impl());
    }
}

// Other int8 problems go to the GEMM, correctly: weights zero points,
// per-channel dst zero points; below avx512_core_vnni (CTest's
// cpu_isa_AVX512_CORE) all of them, s8 sources, source and dst zero
// points and dst scales too.
TEST(JitBrgemmMatmul, Int8OthersFallBack) {
    case_t c = int8_case({{20, 31}, {31, 40}, {20, 40}}, dt::f32, 2);
    const std::string impl = run_case(c, 11);
    if (has_vnni_target())
        EXPECT_EQ(impl, int8_impl());
    else
        EXPECT_FALSE(on_brgemm(impl)) << impl;
    engine eng(engine::kind::cpu, 0);
    memory::desc s({20, 31}, dt::s8, tag::ab), w({31, 40}, dt::s8, tag::ab),
            u({20, 31}, dt::u8, tag::ab), d({20, 40}, dt::f32, tag::ab);
    EXPECT_EQ(on_brgemm(matmul::primitive_desc(eng, s, w, d).impl_info_str()),
            has_vnni_target());
    primitive_attr zp;
    zp.set_zero_points_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(on_brgemm(matmul::primitive_desc(eng, u, w, d, zp).impl_info_str()),
            has_vnni_target());
    zp.set_zero_points_mask(DNNL_ARG_DST, 0);
    EXPECT_EQ(on_brgemm(matmul::primitive_desc(eng, u, w, d, zp).impl_info_str()),
            has_vnni_target());
    zp.set_zero_points_mask(DNNL_ARG_DST, 2);
    EXPECT_FALSE(on_brgemm(
            matmul::primitive_desc(eng, u, w, d, zp).impl_info_str()));
    primitive_attr wzp;
    wzp.set_zero_points_mask(DNNL_ARG_WEIGHTS, 0);
    EXPECT_FALSE(on_brgemm(
            matmul::primitive_desc(eng, u, w, d, wzp).impl_info_str()));
    primitive_attr ds;
    ds.set_scales_mask(DNNL_ARG_DST, 0);
    EXPECT_EQ(on_brgemm(matmul::primitive_desc(eng, u, w, d, ds).impl_info_str()),
            has_vnni_target());
    post_ops relu;
    relu.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    ds.set_post_ops(relu);
    EXPECT_EQ(on_brgemm(matmul::primitive_desc(eng, u, w, d, ds).impl_info_str()),
            has_vnni_target());
}
