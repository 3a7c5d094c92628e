// Inner product on the gpu engine against the naive double-precision
// reference (tests/reference/ip_ref): forward with bias, scales and
// post-ops in f32 / bf16 / f16 / int8, backward data, backward weights
// with the bias gradient, 2D and spatial (channels-first and channels-last)
// sources, the tiled kernel and split-K forced through the environment,
// the kernel cache serving a new minibatch, and bad inputs.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <array>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "gpu_primitive_fixture.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "reference/ip_ref.hpp"

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

class OclInnerProduct : public gpu_primitive_test {
protected:
    void SetUp() override {
        gpu_primitive_test::SetUp();
        g_eng = &eng;
    }
};

std::vector<float> to_f32(const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
}

memory gpu_f32(const std::vector<float> &v) {
    memory::desc md({(memory::dim)v.size()}, dt::f32, tag::a);
    return to_memory(gpu(), md, std::vector<double>(v.begin(), v.end()));
}

// Problem: src (MB, IC, spatial...) in layout `stag`, weights in `wtag`.
struct ip_t {
    memory::dim MB, OC;
    memory::dims ic_sp;                       // IC and spatial dims
    tag stag = tag::undef, wtag = tag::undef; // undef: plain
    dt sdt = dt::f32, wdt = dt::f32, ddt = dt::f32, bdt = dt::f32;
    bool bias = false;
    bool src_scale = false, dst_scale = false;
    int wei_scale_mask = -1;
    std::vector<por::post_op_t::kind_t> post_ops; // relu, sum 0.5, add per OC
    const char *impl = nullptr;
};

memory::dims src_dims(const ip_t &p) {
    memory::dims d = {p.MB};
    d.insert(d.end(), p.ic_sp.begin(), p.ic_sp.end());
    return d;
}

memory::dims wei_dims(const ip_t &p) {
    memory::dims d = {p.OC};
    d.insert(d.end(), p.ic_sp.begin(), p.ic_sp.end());
    return d;
}

memory::dim k_of(const ip_t &p) {
    memory::dim k = 1;
    for (auto v : p.ic_sp) k *= v;
    return k;
}

memory::desc md_of(const memory::dims &d, dt t, tag g) {
    return g == tag::undef ? memory::desc(d, t, plain_tag(d.size()))
                           : memory::desc(d, t, g);
}

std::string describe(const ip_t &p) {
    std::string s = "MB " + std::to_string(p.MB) + " OC " + std::to_string(p.OC)
                    + " ic/sp";
    for (auto v : p.ic_sp) s += " " + std::to_string(v);
    return s + " " + dt_name(p.sdt) + "/" + dt_name(p.wdt) + "/"
           + dt_name(p.ddt);
}

void check_impl(const ip_t &p, const std::string &impl) {
    if (p.impl) {
        EXPECT_NE(impl.find(p.impl), std::string::npos) << impl;
    }
}

std::string run_fwd(const ip_t &p) {
    SCOPED_TRACE(describe(p));
    std::mt19937 gen(99);
    const bool int8 = p.sdt == dt::u8 || p.sdt == dt::s8;
    const double lo = int8 ? -5 : -2, hi = int8 ? 5 : 2;
    const memory::desc smd = md_of(src_dims(p), p.sdt, p.stag),
                       wmd = md_of(wei_dims(p), p.wdt, p.wtag),
                       dmd({p.MB, p.OC}, p.ddt, tag::ab),
                       bmd({p.OC}, p.bdt, tag::a);
    const auto sv = random_values(count(src_dims(p)), p.sdt, gen, lo, hi);
    const auto wv = random_values(count(wei_dims(p)), p.wdt, gen, lo, hi);
    const auto dv = random_values(p.MB * p.OC, p.ddt, gen, lo, hi);
    const auto bv = random_values(p.OC, p.bdt, gen, lo, hi);
    std::unordered_map<int, memory> args;
    args[DNNL_ARG_SRC] = to_memory(gpu(), smd, sv);
    args[DNNL_ARG_WEIGHTS] = to_memory(gpu(), wmd, wv);
    args[DNNL_ARG_DST] = to_memory(gpu(), dmd, dv);
    if (p.bias) args[DNNL_ARG_BIAS] = to_memory(gpu(), bmd, bv);

    primitive_attr attr;
    ip_ref::quant_t q;
    if (p.src_scale) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        q.src_scale = {0.5f};
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = gpu_f32(q.src_scale);
    }
    if (p.wei_scale_mask >= 0) {
        attr.set_scales_mask(DNNL_ARG_WEIGHTS, p.wei_scale_mask);
        q.wei_scale.resize(p.wei_scale_mask ? p.OC : 1);
        for (size_t i = 0; i < q.wei_scale.size(); ++i)
            q.wei_scale[i] = 0.25f * (1 + i % 3);
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] = gpu_f32(q.wei_scale);
    }
    if (p.dst_scale) {
        attr.set_scales_mask(DNNL_ARG_DST, 0);
        q.dst_scale = {2.f};
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = gpu_f32(q.dst_scale);
    }
    post_ops po;
    std::vector<por::post_op_t> ops;
    for (size_t i = 0; i < p.post_ops.size(); ++i) {
        por::post_op_t r;
        r.kind = p.post_ops[i];
        if (r.kind == por::post_op_t::eltwise) {
            po.append_eltwise(algorithm::eltwise_relu, 0.25f, 0.f);
            r.alg = dnnl_eltwise_relu;
            r.alpha = 0.25;
        } else if (r.kind == por::post_op_t::sum) {
            po.append_sum(0.5f);
            r.scale = 0.5;
        } else {
            const memory::desc s1 = plain_f32({1, p.OC});
            const auto v = random_values(p.OC, dt::f32, gen, -2, 2);
            po.append_binary(algorithm::binary_add, s1);
            args[DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1] =
                    to_memory(gpu(), s1, v);
            r.alg = dnnl_binary_add;
            r.operand = to_f32(v);
            r.operand_dims = {1, p.OC};
        }
        ops.push_back(r);
    }
    attr.set_post_ops(po);
    auto pd = p.bias ? inner_product_forward::primitive_desc(gpu(),
                      prop_kind::forward_inference, smd, wmd, bmd, dmd, attr)
                     : inner_product_forward::primitive_desc(gpu(),
                             prop_kind::forward_inference, smd, wmd, dmd, attr);
    const std::string impl = pd.impl_info_str();
    check_impl(p, impl);
    stream s(gpu());
    inner_product_forward(pd).execute(s, args);
    s.wait();
    const auto old = to_f32(dv);
    const auto exp = ip_ref::fwd(p.MB, p.OC, k_of(p), to_f32(sv), to_f32(wv),
            p.bias ? to_f32(bv) : std::vector<float>(), q, ops, &old);
    EXPECT_TRUE(matches(
            from_memory(args[DNNL_ARG_DST]), exp, p.ddt, tol_for(p.ddt)))
            << impl;
    return impl;
}

// The forward hint of the backward kinds (f32: only its layouts matter).
inner_product_forward::primitive_desc fwd_hint(const ip_t &p) {
    return inner_product_forward::primitive_desc(gpu(),
            prop_kind::forward_training, md_of(src_dims(p), dt::f32, p.stag),
            md_of(wei_dims(p), dt::f32, p.wtag),
            memory::desc({p.MB, p.OC}, dt::f32, tag::ab));
}

void run_bwd_d(const ip_t &p) {
    SCOPED_TRACE(describe(p));
    std::mt19937 gen(5);
    const memory::desc dsmd = md_of(src_dims(p), p.sdt, p.stag),
                       wmd = md_of(wei_dims(p), p.wdt, p.wtag),
                       ddmd({p.MB, p.OC}, p.ddt, tag::ab);
    const auto wv = random_values(count(wei_dims(p)), p.wdt, gen, -2, 2);
    const auto ddv = random_values(p.MB * p.OC, p.ddt, gen, -2, 2);
    inner_product_backward_data::primitive_desc pd(
            gpu(), dsmd, wmd, ddmd, fwd_hint(p));
    check_impl(p, pd.impl_info_str());
    memory diff_src = to_memory(
            gpu(), dsmd, std::vector<double>(count(src_dims(p)), 7.0));
    stream s(gpu());
    inner_product_backward_data(pd).execute(
            s, {{DNNL_ARG_DIFF_DST, to_memory(gpu(), ddmd, ddv)},
                       {DNNL_ARG_WEIGHTS, to_memory(gpu(), wmd, wv)},
                       {DNNL_ARG_DIFF_SRC, diff_src}});
    s.wait();
    const auto exp =
            ip_ref::bwd_data(p.MB, p.OC, k_of(p), to_f32(ddv), to_f32(wv));
    EXPECT_TRUE(matches(from_memory(diff_src), exp, p.sdt, tol_for(p.sdt)))
            << pd.impl_info_str();
}

void run_bwd_w(const ip_t &p) {
    SCOPED_TRACE(describe(p));
    std::mt19937 gen(6);
    const memory::desc smd = md_of(src_dims(p), p.sdt, p.stag),
                       dwmd = md_of(wei_dims(p), p.wdt, p.wtag),
                       ddmd({p.MB, p.OC}, p.ddt, tag::ab),
                       dbmd({p.OC}, p.bdt, tag::a);
    const auto sv = random_values(count(src_dims(p)), p.sdt, gen, -2, 2);
    const auto ddv = random_values(p.MB * p.OC, p.ddt, gen, -2, 2);
    auto pd = p.bias ? inner_product_backward_weights::primitive_desc(
                      gpu(), smd, dwmd, dbmd, ddmd, fwd_hint(p))
                     : inner_product_backward_weights::primitive_desc(
                             gpu(), smd, dwmd, ddmd, fwd_hint(p));
    check_impl(p, pd.impl_info_str());
    memory dw = to_memory(
            gpu(), dwmd, std::vector<double>(count(wei_dims(p)), 7.0));
    memory db = to_memory(gpu(), dbmd, std::vector<double>(p.OC, 7.0));
    std::unordered_map<int, memory> args = {
            {DNNL_ARG_SRC, to_memory(gpu(), smd, sv)},
            {DNNL_ARG_DIFF_DST, to_memory(gpu(), ddmd, ddv)},
            {DNNL_ARG_DIFF_WEIGHTS, dw}};
    if (p.bias) args[DNNL_ARG_DIFF_BIAS] = db;
    stream s(gpu());
    inner_product_backward_weights(pd).execute(s, args);
    s.wait();
    std::vector<double> ew, eb;
    ip_ref::bwd_weights(p.MB, p.OC, k_of(p), to_f32(sv), to_f32(ddv), ew, eb);
    EXPECT_TRUE(matches(from_memory(dw), ew, p.wdt, tol_for(p.wdt)))
            << pd.impl_info_str();
    if (p.bias) {
        EXPECT_TRUE(matches(from_memory(db), eb, p.bdt, tol_for(p.bdt)));
    }
}

ip_t ip2d(memory::dim MB, memory::dim IC, memory::dim OC) {
    ip_t p;
    p.MB = MB;
    p.OC = OC;
    p.ic_sp = {IC};
    return p;
}

// Channels-first and channels-last spatial sources.
std::vector<ip_t> spatial_cases() {
    ip_t a;
    a.MB = 5, a.OC = 7, a.ic_sp = {3, 4, 5};
    a.stag = tag::abcd, a.wtag = tag::abcd;
    ip_t b = a;
    b.stag = tag::acdb, b.wtag = tag::acdb;
    ip_t c = a;
    c.ic_sp = {2, 3, 2, 3};
    c.stag = tag::abcde, c.wtag = tag::abcde;
    return {a, b, c};
}

const memory::dim shapes[][3] = {
        {1, 1, 1}, {3, 5, 7}, {17, 33, 9}, {64, 130, 48}, {2, 200, 3}};

TEST_F(OclInnerProduct, Forward) {
    for (const auto &s : shapes)
        for (bool bias : {false, true}) {
            ip_t p = ip2d(s[0], s[1], s[2]);
            p.bias = bias;
            run_fwd(p);
        }
    for (ip_t p : spatial_cases()) {
        p.bias = true;
        run_fwd(p);
    }
}

TEST_F(OclInnerProduct, ForwardDataTypesAndScales) {
    ip_t p = ip2d(6, 21, 11);
    p.bias = true;
    for (dt t : {dt::bf16, dt::f16}) {
        p.sdt = p.wdt = t;
        p.ddt = p.bdt = dt::f32;
        run_fwd(p);
        p.ddt = p.bdt = t;
        run_fwd(p);
    }
    // Scales with neither an int8 source nor an integer destination are
    // refused before any implementation is tried, on gpu as on cpu
    // (oneDNN 3.13, src/common/inner_product.cpp: ip_attr_check).
    for (dt t : {dt::f32, dt::bf16, dt::f16}) {
        const memory::desc s({6, 21}, t, tag::ab), w({11, 21}, t, tag::ab),
                d({6, 11}, t, tag::ab);
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST}) {
            primitive_attr attr;
            attr.set_scales_mask(arg, 0);
            dnnl_primitive_desc_t pd = nullptr;
            EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd,
                              gpu().get(), dnnl_forward_inference, s.get(),
                              w.get(), nullptr, d.get(), attr.get()),
                    dnnl_unimplemented)
                    << dt_name(t) << " arg " << arg;
            EXPECT_EQ(pd, nullptr);
        }
    }
    // Host-side scalar scales reach no gpu kernel: refused, int8 or not.
    {
        const memory::desc s({6, 21}, dt::u8, tag::ab),
                w({11, 21}, dt::s8, tag::ab), d({6, 11}, dt::f32, tag::ab);
        primitive_attr attr;
        attr.set_host_scale(DNNL_ARG_SRC, dt::f32);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd,
                          gpu().get(), dnnl_forward_inference, s.get(),
                          w.get(), nullptr, d.get(), attr.get()),
                dnnl_unimplemented);
    }
    const std::pair<dt, dt> int8_cases[] = {
            {dt::u8, dt::s8}, {dt::s8, dt::f32}, {dt::u8, dt::s32}};
    for (const auto &sd : int8_cases) {
        const dt d = sd.second;
        ip_t q = ip2d(6, 21, 11);
        q.sdt = sd.first;
        q.wdt = dt::s8;
        q.ddt = d;
        q.bias = true;
        q.src_scale = d != dt::s32;
        q.dst_scale = d == dt::s8;
        q.wei_scale_mask = d != dt::s32 ? 1 : -1;
        run_fwd(q);
    }
}

TEST_F(OclInnerProduct, ForwardPostOps) {
    using K = por::post_op_t;
    ip_t p = ip2d(9, 13, 10);
    p.bias = true;
    p.post_ops = {K::eltwise, K::sum, K::binary};
    run_fwd(p);
    p.sdt = p.wdt = p.ddt = dt::bf16;
    run_fwd(p);
}

TEST_F(OclInnerProduct, BackwardData) {
    for (const auto &s : shapes) run_bwd_d(ip2d(s[0], s[1], s[2]));
    for (const ip_t &p : spatial_cases()) run_bwd_d(p);
    ip_t p = ip2d(7, 9, 5);
    p.sdt = p.wdt = p.ddt = dt::bf16;
    run_bwd_d(p);
    p.sdt = dt::f32;
    run_bwd_d(p);
}

TEST_F(OclInnerProduct, BackwardWeights) {
    for (const auto &s : shapes)
        for (bool bias : {false, true}) {
            ip_t p = ip2d(s[0], s[1], s[2]);
            p.bias = bias;
            run_bwd_w(p);
        }
    for (ip_t p : spatial_cases()) {
        p.bias = true;
        run_bwd_w(p);
    }
    ip_t p = ip2d(7, 9, 5);
    p.bias = true;
    p.sdt = p.ddt = dt::f16;
    p.wdt = p.bdt = dt::f32;
    run_bwd_w(p);
}

// The tiled kernel and split-K on every device.
TEST_F(OclInnerProduct, TiledKernelAndSplitK) {
    set_primitive_cache_capacity(0);
    setenv("ONEDNN_OCL_GEMM_KERNEL", "tiled", 1);
    ip_t p = ip2d(37, 45, 29);
    p.bias = true;
    p.post_ops = {por::post_op_t::eltwise};
    run_fwd(p);
    run_bwd_d(p);
    run_bwd_w(p);
    setenv("ONEDNN_OCL_GEMM_SPLITK", "4", 1);
    p = ip2d(10, 300, 21);
    p.bias = true;
    p.impl = "splitk4";
    run_fwd(p);
    ip_t w = ip2d(120, 13, 9); // K = MB
    w.bias = true;
    w.impl = "splitk4";
    run_bwd_w(w);
    unsetenv("ONEDNN_OCL_GEMM_KERNEL");
    unsetenv("ONEDNN_OCL_GEMM_SPLITK");
    set_primitive_cache_capacity(1024);
}

// The GEMV kernel on every device: small minibatches forward (weights
// with unit stride along IC, spatial sources flattened) and backward data
// (unit stride along IC the other way), with bias, post-ops and split K.
TEST_F(OclInnerProduct, GemvKernel) {
    set_primitive_cache_capacity(0);
    setenv("ONEDNN_OCL_GEMM_KERNEL", "gemv", 1);
    for (const auto &s : {std::array<memory::dim, 3> {1, 45, 29},
                 std::array<memory::dim, 3> {8, 300, 7}}) {
        ip_t p = ip2d(s[0], s[1], s[2]);
        p.bias = true;
        p.post_ops = {por::post_op_t::eltwise, por::post_op_t::sum};
        p.impl = "gemv";
        run_fwd(p);
        p.post_ops = {};
        run_bwd_d(p);
    }
    for (ip_t p : spatial_cases()) {
        p.bias = true;
        run_fwd(p);
    }
    ip_t h = ip2d(3, 70, 20);
    h.sdt = h.wdt = h.ddt = h.bdt = dt::f16;
    h.bias = true;
    h.impl = "gemv";
    run_fwd(h);
    setenv("ONEDNN_OCL_GEMM_SPLITK", "3", 1);
    ip_t k = ip2d(2, 700, 11);
    k.bias = true;
    k.impl = "gemv_splitk3";
    run_fwd(k);
    unsetenv("ONEDNN_OCL_GEMM_KERNEL");
    unsetenv("ONEDNN_OCL_GEMM_SPLITK");
    set_primitive_cache_capacity(1024);
}

TEST_F(OclInnerProduct, KernelCacheServesNewMinibatch) {
    ip_t p = ip2d(8, 24, 16);
    p.bias = true;
    run_fwd(p);
    dnnl_ext_kernel_cache_stats_t before, after;
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    p.MB = 13;
    p.OC = 19;
    run_fwd(p);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
}

TEST_F(OclInnerProduct, BadInputsGiveStatus) {
    memory::desc s({4, 6}, dt::f32, tag::ab), w({5, 6}, dt::f32, tag::ab),
            d({4, 5}, dt::f32, tag::ab);
    inner_product_forward prim(inner_product_forward::primitive_desc(
            gpu(), prop_kind::forward_inference, s, w, d));
    engine cpu(engine::kind::cpu, 0);
    stream st(gpu());
    memory cs(s, cpu), gw(w, gpu()), gd(d, gpu());
    EXPECT_NE(status_of([&] {
        prim.execute(st, {{DNNL_ARG_SRC, cs}, {DNNL_ARG_WEIGHTS, gw},
                                 {DNNL_ARG_DST, gd}});
        st.wait();
    }),
            dnnl_success);
    // Weights ordered unlike src: through dense copies (blocked:<impl>).
    memory::desc s4({2, 3, 4, 4}, dt::f32, tag::abcd),
            w4({5, 3, 4, 4}, dt::f32, tag::acdb), d4({2, 5}, dt::f32, tag::ab);
    inner_product_forward::primitive_desc reordered(
            gpu(), prop_kind::forward_inference, s4, w4, d4);
    EXPECT_EQ(std::string(reordered.impl_info_str()).rfind("blocked:", 0), 0u);
}

} // namespace

#endif
