// Matmul on the gpu engine against the naive double-precision reference
// (tests/reference/matmul_ref): shapes with tails, transposed and strided
// layouts, batch broadcast (also beyond four batch dims), bias shapes,
// f32 / bf16 / f16 / int8 with scales (in device memory or host scalars)
// and zero points, post-op chains,
// runtime dims, both GEMM kernels and split-K (forced through the
// environment on devices that would not pick them), the kernel cache
// serving a new shape, dropout and stochastic rounding equal to the CPU
// engine's, and bad inputs answered with a status.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "gpu_primitive_fixture.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "oneapi/dnnl/dnnl_ocl.hpp"
#include "reference/matmul_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;
namespace por = post_ops_ref;

namespace {

// The engine of the running test (the fixture's: no engine outlives a
// suite, see gpu_primitive_fixture.hpp).
engine *g_eng = nullptr;

engine &gpu() {
    return *g_eng;
}

class OclMatmul : public gpu_primitive_test {
protected:
    void SetUp() override {
        gpu_primitive_test::SetUp();
        g_eng = &eng;
    }
};

// Dense strides, the last two dims swapped in memory when `trans`; `pad`
// elements added to the leading dimension's stride.
memory::dims strides_of(const memory::dims &dims, bool trans, int pad = 0) {
    const int nd = (int)dims.size();
    std::vector<int> order(nd);
    for (int d = 0; d < nd; ++d) order[d] = d;
    if (trans) std::swap(order[nd - 1], order[nd - 2]);
    memory::dims s(nd);
    memory::dim stride = 1;
    for (int i = nd - 1; i >= 0; --i) {
        s[order[i]] = stride;
        stride *= std::max<memory::dim>(dims[order[i]], 1)
                  + (i == nd - 1 ? pad : 0);
    }
    return s;
}

memory::desc md_of(
        const memory::dims &dims, dt d, bool trans = false, int pad = 0) {
    return memory::desc(dims, d, strides_of(dims, trans, pad));
}

struct po_t {
    por::post_op_t::kind_t kind;
    algorithm alg = algorithm::undef;
    float alpha = 0, beta = 0, scale = 1;
    memory::dims src1; // binary: src1 shape; prelu: weights shape
};

struct cfg_t {
    memory::dims src, wei, dst, bias; // bias empty: none
    dt sdt = dt::f32, wdt = dt::f32, ddt = dt::f32, bdt = dt::f32;
    bool ts = false, tw = false, td = false; // transposed layouts
    int pad = 0; // extra leading-dimension stride of src and weights
    bool src_scale = false;
    int wei_scale_mask = -1, dst_scale_mask = -1; // -1: none
    bool src_zp = false, wei_zp = false;
    int dst_zp_mask = -1;
    std::vector<po_t> post_ops;
    bool user_scratchpad = false;
    // Per-tensor scales (mask 0) as host scalars (set_host_scale).
    bool host_scales = false;
    double rel = 0; // extra relative tolerance (transcendental post-ops)
    const char *impl = nullptr; // expected substring of the impl name
};

cfg_t cfg2d(memory::dim M, memory::dim N, memory::dim K) {
    cfg_t c;
    c.src = {M, K};
    c.wei = {K, N};
    c.dst = {M, N};
    return c;
}

std::string describe(const cfg_t &c) {
    auto dims = [](const memory::dims &d) {
        std::string s;
        for (size_t i = 0; i < d.size(); ++i)
            s += (i ? "x" : "") + std::to_string(d[i]);
        return s;
    };
    return "src " + dims(c.src) + (c.ts ? "T" : "") + " wei " + dims(c.wei)
           + (c.tw ? "T" : "") + " dst " + dims(c.dst) + (c.td ? "T" : "")
           + " bias " + dims(c.bias) + " " + dt_name(c.sdt) + "/"
           + dt_name(c.wdt) + "/" + dt_name(c.ddt);
}

std::vector<float> to_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

memory gpu_f32(const std::vector<float> &v) {
    memory::desc md({(memory::dim)v.size()}, dt::f32, memory::format_tag::a);
    return to_memory(gpu(), md, std::vector<double>(v.begin(), v.end()));
}

memory gpu_s32(const std::vector<int32_t> &v) {
    memory::desc md({(memory::dim)v.size()}, dt::s32, memory::format_tag::a);
    return to_memory(gpu(), md, std::vector<double>(v.begin(), v.end()));
}

// Builds the primitive of `c`, runs it on random data and compares with
// the reference. Returns the implementation name.
std::string run_case(const cfg_t &c) {
    SCOPED_TRACE(describe(c));
    std::mt19937 gen(1234);
    const int nd = (int)c.dst.size();
    const memory::dim N = c.dst[nd - 1];
    const bool int8 = c.sdt == dt::s8 || c.sdt == dt::u8;
    const double lo = int8 ? -5 : -2, hi = int8 ? 5 : 2;
    const memory::desc smd = md_of(c.src, c.sdt, c.ts, c.pad),
                       wmd = md_of(c.wei, c.wdt, c.tw, c.pad),
                       dmd = md_of(c.dst, c.ddt, c.td);
    const auto sv = random_values(count(c.src), c.sdt, gen, lo, hi);
    const auto wv = random_values(count(c.wei), c.wdt, gen, lo, hi);
    const auto dv = random_values(count(c.dst), c.ddt, gen, lo, hi);
    std::unordered_map<int, memory> args;
    args[DNNL_ARG_SRC] = to_memory(gpu(), smd, sv, 0x7f);
    args[DNNL_ARG_WEIGHTS] = to_memory(gpu(), wmd, wv, 0x7f);
    args[DNNL_ARG_DST] = to_memory(gpu(), dmd, dv);
    std::vector<double> bv;
    memory::desc bmd;
    if (!c.bias.empty()) {
        bmd = md_of(c.bias, c.bdt);
        bv = random_values(count(c.bias), c.bdt, gen, lo, hi);
        args[DNNL_ARG_BIAS] = to_memory(gpu(), bmd, bv);
    }

    primitive_attr attr;
    matmul_ref::quant_t q;
    // A scale's attribute and argument: a host scalar where the case asks
    // for one and the scale is per tensor, device memory otherwise.
    auto set_scale = [&](int arg, int mask, const std::vector<float> &v) {
        if (c.host_scales && mask == 0) {
            attr.set_host_scale(arg, dt::f32);
            args[DNNL_ARG_ATTR_SCALES | arg]
                    = memory(memory::desc::host_scalar(dt::f32), v[0]);
        } else {
            attr.set_scales_mask(arg, mask);
            args[DNNL_ARG_ATTR_SCALES | arg] = gpu_f32(v);
        }
    };
    if (c.src_scale) {
        q.src_scale = {0.5f};
        set_scale(DNNL_ARG_SRC, 0, q.src_scale);
    }
    if (c.wei_scale_mask >= 0) {
        q.wei_scale.resize(c.wei_scale_mask ? N : 1);
        for (size_t i = 0; i < q.wei_scale.size(); ++i)
            q.wei_scale[i] = 0.25f * (1 + i % 5);
        set_scale(DNNL_ARG_WEIGHTS, c.wei_scale_mask, q.wei_scale);
    }
    if (c.dst_scale_mask >= 0) {
        q.dst_scale.resize(c.dst_scale_mask ? N : 1);
        for (size_t i = 0; i < q.dst_scale.size(); ++i)
            q.dst_scale[i] = i % 2 ? 0.5f : 2.f;
        set_scale(DNNL_ARG_DST, c.dst_scale_mask, q.dst_scale);
    }
    if (c.src_zp) {
        attr.set_zero_points_mask(DNNL_ARG_SRC, 0);
        q.src_zp = 3;
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] = gpu_s32({3});
    }
    if (c.wei_zp) {
        attr.set_zero_points_mask(DNNL_ARG_WEIGHTS, 0);
        q.wei_zp = -2;
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS] = gpu_s32({-2});
    }
    if (c.dst_zp_mask >= 0) {
        attr.set_zero_points_mask(DNNL_ARG_DST, c.dst_zp_mask);
        q.dst_zp.resize(c.dst_zp_mask ? N : 1);
        for (size_t i = 0; i < q.dst_zp.size(); ++i)
            q.dst_zp[i] = 5 - (int)(i % 7);
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST] = gpu_s32(q.dst_zp);
    }
    post_ops po;
    std::vector<por::post_op_t> ops;
    for (size_t i = 0; i < c.post_ops.size(); ++i) {
        const po_t &p = c.post_ops[i];
        por::post_op_t r;
        r.kind = p.kind;
        r.alg = (dnnl_alg_kind_t)p.alg;
        r.alpha = p.alpha;
        r.beta = p.beta;
        if (p.kind == por::post_op_t::eltwise) {
            po.append_eltwise(p.alg, p.alpha, p.beta);
        } else if (p.kind == por::post_op_t::sum) {
            po.append_sum(p.scale);
            r.scale = p.scale;
        } else if (p.kind == por::post_op_t::prelu) {
            // Weights over the dims where src1's shape is not 1.
            int mask = 0;
            for (size_t d = 0; d < p.src1.size(); ++d)
                if (p.src1[d] != 1) mask |= 1 << d;
            const memory::desc w = plain_f32(
                    std::vector<int64_t>(p.src1.begin(), p.src1.end()));
            const auto v = random_values(count(p.src1), dt::f32, gen, -2, 2);
            po.append_prelu(mask);
            args[DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_WEIGHTS] =
                    to_memory(gpu(), w, v);
            r.operand = to_f32(v);
            r.operand_dims.assign(p.src1.begin(), p.src1.end());
        } else {
            const memory::desc s1 = plain_f32(
                    std::vector<int64_t>(p.src1.begin(), p.src1.end()));
            const auto v = random_values(count(p.src1), dt::f32, gen, 1, 3);
            po.append_binary(p.alg, s1);
            args[DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1] =
                    to_memory(gpu(), s1, v);
            r.operand = to_f32(v);
            r.operand_dims.assign(p.src1.begin(), p.src1.end());
        }
        ops.push_back(r);
    }
    attr.set_post_ops(po);
    if (c.user_scratchpad) attr.set_scratchpad_mode(scratchpad_mode::user);

    matmul::primitive_desc pd =
            c.bias.empty()
                    ? matmul::primitive_desc(gpu(), smd, wmd, dmd, attr)
                    : matmul::primitive_desc(gpu(), smd, wmd, bmd, dmd, attr);
    const std::string impl = pd.impl_info_str();
    if (c.impl) {
        EXPECT_NE(impl.find(c.impl), std::string::npos) << impl;
    }
    if (c.user_scratchpad)
        args[DNNL_ARG_SCRATCHPAD] = memory(pd.scratchpad_desc(), gpu());
    stream s(gpu());
    matmul(pd).execute(s, args);
    s.wait();

    matmul_ref::problem_t p;
    p.src_dims.assign(c.src.begin(), c.src.end());
    p.wei_dims.assign(c.wei.begin(), c.wei.end());
    p.dst_dims.assign(c.dst.begin(), c.dst.end());
    p.bias_dims.assign(c.bias.begin(), c.bias.end());
    const auto old = to_f32(dv);
    const auto exp = matmul_ref::compute(
            p, to_f32(sv), to_f32(wv), to_f32(bv), q, ops, &old);
    EXPECT_TRUE(matches(from_memory(args[DNNL_ARG_DST]), exp, c.ddt,
            tol_for(c.ddt, std::max(1e-6, c.rel))))
            << impl;
    return impl;
}

const memory::dim shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {17, 33, 9},
        {64, 48, 130}, {1, 100, 37}, {70, 1, 65}, {13, 70, 1}};

TEST_F(OclMatmul, F32ShapesAndTransposes) {
    for (const auto &sh : shapes)
        for (int t = 0; t < 4; ++t) {
            cfg_t c = cfg2d(sh[0], sh[1], sh[2]);
            c.ts = t & 1;
            c.tw = t & 2;
            run_case(c);
        }
    cfg_t c = cfg2d(19, 23, 29);
    c.td = true; // dst with unit stride along M
    run_case(c);
    c.pad = 3; // rows of src and weights not a multiple of 4 apart
    c.td = false;
    run_case(c);
}

// The work-group-tiled kernel and split-K on every device: tails in M, N
// and K, every transposition, unaligned rows, batches.
TEST_F(OclMatmul, TiledKernelAndSplitK) {
    forced_gemm_t f("tiled", nullptr);
    for (const auto &sh : shapes)
        for (int t = 0; t < 4; ++t) {
            cfg_t c = cfg2d(sh[0], sh[1], sh[2]);
            c.ts = t & 1;
            c.tw = t & 2;
            run_case(c);
        }
    cfg_t c = cfg2d(45, 67, 53);
    c.pad = 1;
    run_case(c);
    c = cfg2d(40, 36, 64);
    c.bias = {1, 36};
    c.post_ops = {{por::post_op_t::eltwise, algorithm::eltwise_relu}};
    EXPECT_EQ(run_case(c).find("direct"), std::string::npos);
    c = cfg2d(12, 9, 10);
    c.src = {3, 12, 10};
    c.wei = {1, 10, 9};
    c.dst = {3, 12, 9};
    c.ts = true;
    run_case(c);
    {
        forced_gemm_t s("tiled", "3");
        cfg_t k = cfg2d(33, 40, 200); // K slices of 72, 72, 56
        k.bias = {33, 1};
        k.wei_scale_mask = 2;
        k.post_ops = {{por::post_op_t::sum, algorithm::undef, 0, 0, 0.5f}};
        k.impl = "splitk3";
        run_case(k);
        k.src = {2, 33, 200};
        k.wei = {2, 200, 40};
        k.dst = {2, 33, 40};
        k.bias = {};
        k.wei_scale_mask = 4; // per N of a 3D problem
        k.tw = true;
        run_case(k);
        k.user_scratchpad = true; // the workspace in the user's scratchpad
        run_case(k);
        k.user_scratchpad = false;
        k = cfg2d(17, 21, 100);
        k.sdt = dt::u8;
        k.wdt = dt::s8;
        k.ddt = dt::s32;
        k.src_zp = k.wei_zp = true;
        run_case(k);
    }
}

// The GEMV kernel (a few rows against weights with a unit stride) on
// every device: rows 1 to 8, column and K tails, weights along N and along
// K, every floating type, bias, scales, post-ops (sum included), batches,
// split K; nine rows are not its and go elsewhere.
TEST_F(OclMatmul, GemvKernel) {
    forced_gemm_t f("gemv", nullptr);
    for (memory::dim m : {1, 3, 8})
        for (memory::dim n : {1, 7, 40, 300}) {
            cfg_t c = cfg2d(m, n, 37);
            c.impl = "_gemv";
            run_case(c);
        }
    cfg_t c = cfg2d(2, 70, 65);
    c.impl = "_gemv";
    c.ts = true; // A m-contiguous
    run_case(c);
    for (dt t : {dt::f16, dt::bf16}) {
        c = cfg2d(4, 77, 50);
        c.impl = "_gemv";
        c.sdt = c.wdt = t;
        c.ddt = t;
        run_case(c);
        c.sdt = dt::f32; // mixed
        run_case(c);
    }
    c = cfg2d(3, 45, 33);
    c.impl = "_gemv";
    c.bias = {1, 45};
    c.src_scale = true;
    c.wei_scale_mask = 2;
    c.dst_scale_mask = 0;
    c.post_ops = {{por::post_op_t::eltwise, algorithm::eltwise_relu},
            {por::post_op_t::sum, algorithm::undef, 0, 0, 0.5f}};
    run_case(c);
    c = cfg2d(2, 33, 40);
    c.impl = "_gemv";
    c.src = {3, 2, 40};
    c.wei = {1, 40, 33};
    c.dst = {3, 2, 33};
    run_case(c);
    {
        forced_gemm_t s("gemv", "4");
        c = cfg2d(5, 130, 200);
        c.impl = "gemv_splitk4";
        c.bias = {5, 1};
        c.post_ops = {{por::post_op_t::sum, algorithm::undef, 0, 0, 0.5f}};
        run_case(c);
        c.src = {2, 5, 200};
        c.wei = {2, 200, 130};
        c.dst = {2, 5, 130};
        c.bias = {};
        run_case(c);
    }
    // Weights with unit stride along K: lanes along K, K tails within a
    // step and a slice. (The scope above unset the forcing.)
    forced_gemm_t f2("gemv", nullptr);
    for (memory::dim m : {1, 5, 8})
        for (memory::dim k : {1, 37, 300}) {
            c = cfg2d(m, 19, k);
            c.tw = true;
            c.impl = "_gemv";
            run_case(c);
        }
    for (dt t : {dt::f16, dt::bf16}) {
        c = cfg2d(3, 20, 70);
        c.tw = true;
        c.impl = "_gemv";
        c.sdt = c.wdt = c.ddt = t;
        run_case(c);
    }
    {
        forced_gemm_t s("gemv", "3");
        c = cfg2d(4, 21, 600);
        c.tw = true;
        c.impl = "gemv_splitk3";
        c.bias = {1, 21};
        c.post_ops = {{por::post_op_t::sum, algorithm::undef, 0, 0, 0.5f}};
        run_case(c);
    }
    c = cfg2d(9, 30, 20); // more rows than it holds
    EXPECT_EQ(run_case(c).find("gemv"), std::string::npos);
}

TEST_F(OclMatmul, BatchedBroadcast) {
    struct bc_t {
        memory::dims src, wei, dst, bias;
    };
    const bc_t cases[] = {
            {{4, 5, 6}, {4, 6, 7}, {4, 5, 7}, {}},
            {{4, 5, 6}, {1, 6, 7}, {4, 5, 7}, {1, 1, 7}},
            {{1, 5, 6}, {3, 6, 7}, {3, 5, 7}, {3, 1, 7}},
            {{2, 1, 5, 6}, {1, 3, 6, 7}, {2, 3, 5, 7}, {2, 3, 5, 7}},
            {{2, 3, 4, 3, 5}, {2, 1, 4, 5, 2}, {2, 3, 4, 3, 2},
                    {1, 3, 1, 1, 2}},
            // Seven batch dims fold onto the kernels' four.
            {{2, 1, 2, 2, 1, 2, 3, 4, 5}, {2, 3, 2, 2, 1, 2, 3, 5, 3},
                    {2, 3, 2, 2, 1, 2, 3, 4, 3}, {}},
            // Broadcasts alternating between the sources: six batch dims
            // that do not fold; the outer two are launches of their own.
            {{2, 1, 3, 1, 2, 1, 3, 4}, {1, 2, 1, 3, 1, 2, 4, 5},
                    {2, 2, 3, 3, 2, 2, 3, 5}, {1, 2, 3, 1, 2, 1, 1, 5}},
    };
    for (const auto &bc : cases)
        for (int t = 0; t < 2; ++t) {
            cfg_t c;
            c.src = bc.src;
            c.wei = bc.wei;
            c.dst = bc.dst;
            c.bias = bc.bias;
            c.tw = t;
            run_case(c);
        }
}

// Bias shapes and data types, and the destination types of floating-point
// inputs.
TEST_F(OclMatmul, BiasShapesAndTypes) {
    for (auto b :
            std::vector<memory::dims>{{1, 1}, {1, 24}, {15, 1}, {15, 24}}) {
        cfg_t c = cfg2d(15, 24, 10);
        c.bias = b;
        run_case(c);
    }
    cfg_t c = cfg2d(15, 24, 10);
    c.bias = {1, 24};
    c.sdt = c.wdt = c.bdt = dt::bf16;
    run_case(c);
    c.ddt = dt::bf16;
    run_case(c);
    c.sdt = c.wdt = c.bdt = c.ddt = dt::f16;
    run_case(c);
    c.wdt = dt::f32; // mixed inputs
    c.ddt = dt::f32;
    run_case(c);
    // Floating-point inputs into f8 and integer destinations (integers
    // saturate).
    for (dt d : {dt::f8_e4m3, dt::f8_e5m2, dt::s8, dt::u8, dt::s32}) {
        c = cfg2d(15, 24, 10);
        c.bias = {1, 24};
        c.sdt = d == dt::s8 ? dt::bf16 : dt::f32;
        c.ddt = d;
        c.dst_scale_mask = 0;
        run_case(c);
    }
}

TEST_F(OclMatmul, Int8ScalesAndZeroPoints) {
    for (dt s : {dt::u8, dt::s8})
        for (dt d : {dt::s32, dt::s8, dt::f32}) {
            cfg_t c = cfg2d(9, 19, 23);
            c.sdt = s;
            c.wdt = dt::s8;
            c.ddt = d;
            c.src_zp = c.wei_zp = true;
            c.dst_zp_mask = d == dt::s8 ? 2 : -1;
            c.src_scale = d != dt::s32;
            c.wei_scale_mask = d != dt::s32 ? 2 : -1;
            c.bias = d == dt::f32 ? memory::dims{1, 19} : memory::dims{};
            run_case(c);
        }
}

TEST_F(OclMatmul, F32Scales) {
    cfg_t c = cfg2d(11, 13, 17);
    c.src_scale = true;
    c.wei_scale_mask = 2;
    c.dst_scale_mask = 0;
    run_case(c);
    c.wei_scale_mask = 0;
    c.bias = {1, 13};
    run_case(c);
}

// Per-tensor scales kept on the host (host-scalar memory, as oneDNN's
// matmul_with_host_scalar_scale example passes them), alone and beside
// per-column scales in device memory, f32 and int8, on the device's GEMM
// kernel and on the tiled one with split-K.
TEST_F(OclMatmul, HostScalarScales) {
    auto cases = [] {
        cfg_t c = cfg2d(11, 13, 17);
        c.host_scales = true;
        c.src_scale = true;
        c.wei_scale_mask = 0;
        c.dst_scale_mask = 0;
        run_case(c);
        c.wei_scale_mask = 2; // per column, in device memory
        c.bias = {1, 13};
        run_case(c);
        cfg_t q = cfg2d(9, 19, 23);
        q.host_scales = true;
        q.sdt = dt::u8;
        q.wdt = dt::s8;
        q.ddt = dt::s8;
        q.src_zp = true;
        q.src_scale = true;
        q.wei_scale_mask = 0;
        q.dst_scale_mask = 0;
        run_case(q);
    };
    cases();
    forced_gemm_t f("tiled", "2");
    cases();
}

TEST_F(OclMatmul, PostOps) {
    using K = por::post_op_t;
    cfg_t c = cfg2d(21, 18, 11);
    c.bias = {1, 18};
    c.post_ops = {{K::eltwise, algorithm::eltwise_relu, 0.5f},
            {K::sum, algorithm::undef, 0, 0, 0.5f},
            {K::eltwise, algorithm::eltwise_tanh}};
    c.rel = 1e-5;
    run_case(c);
    c.post_ops = {{K::binary, algorithm::binary_add, 0, 0, 1, {1, 18}},
            {K::binary, algorithm::binary_mul, 0, 0, 1, {21, 18}},
            {K::binary, algorithm::binary_max, 0, 0, 1, {1, 1}}};
    c.rel = 0;
    run_case(c);
    // Batched with a binary source over one batch dim, and bf16 dst.
    c.src = {3, 21, 11};
    c.wei = {3, 11, 18};
    c.dst = {3, 21, 18};
    c.bias = {};
    c.sdt = c.wdt = c.ddt = dt::bf16;
    c.post_ops = {{K::binary, algorithm::binary_sub, 0, 0, 1, {3, 1, 1}},
            {K::eltwise, algorithm::eltwise_linear, 2.f, 1.f}};
    run_case(c);
    // PReLU: one weight, per column, per batch and column, around an
    // eltwise entry that moves values across zero.
    c.sdt = c.wdt = c.ddt = dt::f32;
    c.post_ops = {{K::prelu, algorithm::undef, 0, 0, 1, {1, 1, 1}},
            {K::eltwise, algorithm::eltwise_linear, 1.f, -0.5f},
            {K::prelu, algorithm::undef, 0, 0, 1, {1, 1, 18}},
            {K::prelu, algorithm::undef, 0, 0, 1, {3, 1, 18}}};
    c.rel = 1e-6;
    run_case(c);
    // More than six dims: eltwise and sum entries see no positions, so the
    // batch dims fold as without post-ops; binary ones stay refused.
    c = cfg2d(3, 5, 4);
    c.src = {2, 2, 3, 2, 2, 3, 4};
    c.wei = {2, 2, 3, 2, 2, 4, 5};
    c.dst = {2, 2, 3, 2, 2, 3, 5};
    c.post_ops = {{K::eltwise, algorithm::eltwise_relu},
            {K::sum, algorithm::undef, 0, 0, 0.5f}};
    run_case(c);
    const memory::desc s7({2, 2, 3, 2, 2, 3, 4}, dt::f32, memory::format_tag::abcdefg),
            w7({2, 2, 3, 2, 2, 4, 5}, dt::f32, memory::format_tag::abcdefg),
            d7({2, 2, 3, 2, 2, 3, 5}, dt::f32, memory::format_tag::abcdefg);
    primitive_attr a7;
    post_ops p7;
    p7.append_binary(algorithm::binary_add,
            memory::desc({1, 1, 1, 1, 1, 1, 5}, dt::f32, memory::format_tag::abcdefg));
    a7.set_post_ops(p7);
    dnnl_primitive_desc_t pd7 = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd7, gpu().get(), s7.get(), w7.get(),
                      nullptr, d7.get(), a7.get()),
            dnnl_unimplemented);
}

TEST_F(OclMatmul, RuntimeDims) {
    const memory::dim R = DNNL_RUNTIME_DIM_VAL;
    memory::desc s({R, R}, dt::f32, memory::format_tag::ab),
            w({R, R}, dt::f32, memory::format_tag::ba),
            d({R, R}, dt::f32, memory::format_tag::ab),
            b({1, R}, dt::f32, memory::format_tag::ab);
    matmul::primitive_desc pd(gpu(), s, w, b, d);
    matmul prim(pd);
    stream st(gpu());
    std::mt19937 gen(7);
    for (const auto &sh :
            {std::vector<int64_t>{5, 7, 3}, std::vector<int64_t>{33, 17, 45}}) {
        const int64_t M = sh[0], N = sh[1], K = sh[2];
        memory::desc sm({M, K}, dt::f32, memory::format_tag::ab),
                wm({K, N}, dt::f32, memory::format_tag::ba),
                dm({M, N}, dt::f32, memory::format_tag::ab),
                bm({1, N}, dt::f32, memory::format_tag::ab);
        const auto sv = random_values(M * K, dt::f32, gen, -2, 2);
        const auto wv = random_values(K * N, dt::f32, gen, -2, 2);
        const auto bv = random_values(N, dt::f32, gen, -2, 2);
        memory dst(dm, gpu());
        prim.execute(st, {{DNNL_ARG_SRC, to_memory(gpu(), sm, sv)},
                                 {DNNL_ARG_WEIGHTS, to_memory(gpu(), wm, wv)},
                                 {DNNL_ARG_BIAS, to_memory(gpu(), bm, bv)},
                                 {DNNL_ARG_DST, dst}});
        st.wait();
        matmul_ref::problem_t p;
        p.src_dims = {M, K};
        p.wei_dims = {K, N};
        p.dst_dims = {M, N};
        p.bias_dims = {1, N};
        const auto exp = matmul_ref::compute(
                p, to_f32(sv), to_f32(wv), to_f32(bv), {}, {}, nullptr);
        EXPECT_TRUE(matches(from_memory(dst), exp, dt::f32, tol_for(dt::f32)));
    }
}

// A matmul of a new shape with the configuration of an earlier one builds
// no program: the kernel cache serves it.
// Dropout (with its mask) and stochastic rounding in the GEMM epilogue
// equal the CPU engine's bit for bit on every kernel path: the inputs make
// every f32 sum exact, so both engines round the same values (1 / (1 - p)
// is correctly rounded on the device too).
namespace dropout_sround {

memory filled(const engine &e, const memory::desc &md, const void *data, size_t size) {
    memory m(md, e);
    void *p = m.map_data();
    std::memcpy(p, data, size);
    m.unmap_data(p);
    return m;
}

struct out_t {
    std::vector<uint8_t> dst, mask;
};

// The index of the first byte that differs (-1: none; sizes differ: -2).
long first_difference(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
    if (a.size() != b.size()) return -2;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return (long)i;
    return -1;
}

out_t run(const engine &e, memory::dim B, memory::dim M, memory::dim N, memory::dim K,
        dt ddt) {
    memory::desc a({B, M, K}, dt::f32, tag::abc), b({B, K, N}, dt::f32, tag::abc),
            d({B, M, N}, ddt, tag::abc), mk({B, M, N}, dt::u8, tag::abc);
    primitive_attr attr;
    attr.set_dropout(mk, dt::s64, true, false);
    attr.set_rounding_mode(DNNL_ARG_DST, rounding_mode::stochastic);
    // One multiplication: the OpenCL compiler may fuse a * x + b into one
    // fma where the CPU side rounds twice.
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 1.5f, 0.f);
    attr.set_post_ops(po);
    matmul::primitive_desc pd(e, a, b, d, attr);
    std::vector<float> av(B * M * K), bv(B * K * N);
    for (size_t i = 0; i < av.size(); ++i) av[i] = float(int((i * 7) % 29) - 14) / 8.f;
    for (size_t i = 0; i < bv.size(); ++i) bv[i] = float(int((i * 11) % 23) - 11) / 8.f;
    const float p = 0.3f;
    const int64_t seed = 0x5eed1234567LL, offset = 1234;
    const int32_t rseed = 777;
    memory A = filled(e, a, av.data(), av.size() * 4), B_ = filled(e, b, bv.data(), bv.size() * 4);
    memory D(d, e), Mk(mk, e);
    const memory::desc f1({1}, dt::f32, tag::x), l1({1}, dt::s64, tag::x),
            i1({1}, dt::s32, tag::x);
    stream st(e);
    matmul(pd).execute(st,
            {{DNNL_ARG_SRC, A}, {DNNL_ARG_WEIGHTS, B_}, {DNNL_ARG_DST, D},
                    {DNNL_ARG_ATTR_DROPOUT_MASK, Mk},
                    {DNNL_ARG_ATTR_DROPOUT_PROBABILITY, filled(e, f1, &p, 4)},
                    {DNNL_ARG_ATTR_DROPOUT_SEED, filled(e, l1, &seed, 8)},
                    {DNNL_ARG_ATTR_DROPOUT_OFFSET, filled(e, l1, &offset, 8)},
                    {DNNL_ARG_ATTR_ROUNDING_SEED, filled(e, i1, &rseed, 4)}});
    st.wait();
    return {host_bytes(D), host_bytes(Mk)};
}

} // namespace dropout_sround

TEST_F(OclMatmul, DropoutAndStochasticRoundingMatchCpu) {
    namespace ds = dropout_sround;
    engine cpu(engine::kind::cpu, 0);
    struct path_t {
        const char *kernel, *splitk;
    };
    for (const path_t &path : {path_t {nullptr, nullptr}, path_t {"direct", nullptr},
                 path_t {"tiled", nullptr}, path_t {"tiled", "3"}})
        for (dt ddt : {dt::bf16, dt::f8_e4m3, dt::f32}) {
            SCOPED_TRACE(std::string(path.kernel ? path.kernel : "default") + " split "
                    + (path.splitk ? path.splitk : "-") + " dt "
                    + std::to_string((int)ddt));
            forced_gemm_t f(path.kernel, path.splitk);
            const ds::out_t want = ds::run(cpu, 2, 33, 40, 200, ddt);
            const ds::out_t got = ds::run(gpu(), 2, 33, 40, 200, ddt);
            EXPECT_EQ(ds::first_difference(got.mask, want.mask), -1);
            EXPECT_EQ(ds::first_difference(got.dst, want.dst), -1)
                    << "(byte index of the first difference)";
            size_t kept = 0;
            for (uint8_t x : want.mask) kept += x;
            EXPECT_GT(kept, want.mask.size() / 2); // p = 0.3
            EXPECT_LT(kept, want.mask.size());
        }
}

TEST_F(OclMatmul, KernelCacheServesNewShapes) {
    cfg_t c = cfg2d(26, 31, 19);
    c.bias = {1, 31};
    c.post_ops = {{por::post_op_t::eltwise, algorithm::eltwise_relu}};
    run_case(c);
    dnnl_ext_kernel_cache_stats_t before, after;
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    cfg_t d = c;
    d.src = {41, 12};
    d.wei = {12, 27};
    d.dst = {41, 27};
    d.bias = {1, 27};
    run_case(d);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_GT(after.hits, before.hits);
}

TEST_F(OclMatmul, BadInputsGiveStatus) {
    memory::desc a({8, 6}, dt::f32, memory::format_tag::ab),
            b({6, 5}, dt::f32, memory::format_tag::ab),
            c({8, 5}, dt::f32, memory::format_tag::ab);
    matmul prim(matmul::primitive_desc(gpu(), a, b, c));
    stream s(gpu());
    memory ga(a, gpu()), gb(b, gpu()), gc(c, gpu());
    // A CPU memory passed to a gpu primitive.
    engine cpu(engine::kind::cpu, 0);
    memory ca(a, cpu);
    EXPECT_NE(status_of([&] {
        prim.execute(s, {{DNNL_ARG_SRC, ca}, {DNNL_ARG_WEIGHTS, gb},
                                {DNNL_ARG_DST, gc}});
        s.wait();
    }),
            dnnl_success);
    // A buffer smaller than the tensor.
    cl_int err;
    cl_mem small = clCreateBuffer(ocl_interop::get_context(gpu()),
            CL_MEM_READ_WRITE, 16, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(status_of([&] {
        memory sa = ocl_interop::make_memory(a, gpu(), small);
        prim.execute(s, {{DNNL_ARG_SRC, sa}, {DNNL_ARG_WEIGHTS, gb},
                                {DNNL_ARG_DST, gc}});
        s.wait();
    }),
            dnnl_invalid_arguments);
    clReleaseMemObject(small);
    // Blocked layouts go through dense copies (test_matmul_blocked.cpp).
    memory::desc blocked({16, 16}, dt::f32, memory::format_tag::AB16b16a);
    EXPECT_EQ(std::string(matmul::primitive_desc(gpu(), blocked, blocked,
                                  blocked)
                                  .impl_info_str())
                      .rfind("blocked:", 0),
            0u);
}

} // namespace

#endif
