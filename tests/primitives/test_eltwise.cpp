// Eltwise primitive tests: every algorithm forward and backward against
// the naive double-precision reference (tests/reference/eltwise_ref.*), on
// plain, channels-last, blocked (padded) and strided layouts, f32 / bf16 /
// f16 and the integer types eltwise accepts, in place, with binary
// post-ops, on every implementation the library offers (next_impl), plus
// argument checking, queries and the GPU engine.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/eltwise_ref.hpp"
#include "tensor_glue.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

int query_int(const primitive_desc_base &pd, dnnl_query_t what) {
    int v = -1;
    EXPECT_EQ(dnnl_primitive_desc_query(pd.get(), what, 0, &v), dnnl_success);
    return v;
}

engine &cpu_engine() {
    static engine eng(engine::kind::cpu, 0);
    return eng;
}

// Bytes a buffer for `md` needs: the descriptor's size does not include
// the offset of a sub-memory.
size_t buffer_size(const memory::desc &md) {
    const size_t esz = rr::dtype_size(ref_dt(md.get_data_type()));
    return std::max<size_t>(md.get_size() + md.get_submemory_offset() * esz, 1);
}

// A zero-filled buffer for a descriptor.
std::vector<uint8_t> zero_buffer(const memory::desc &md) {
    return std::vector<uint8_t>(buffer_size(md), 0);
}

// Fills the logical positions with f(pos) (stored with rounding).
template <typename F>
void fill(std::vector<uint8_t> &buf, const memory::desc &md, F f) {
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        rr::store(d, buf.data(), rr::offset(l, pos), f(pos));
    });
}

// Values at the logical positions, in row-major order.
std::vector<double> values(
        const std::vector<uint8_t> &buf, const memory::desc &md) {
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    std::vector<double> v;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        v.push_back(rr::load(d, buf.data(), rr::offset(l, pos)));
    });
    return v;
}

// Number of padding elements (positions outside the logical dims) that
// are not zero.
int nonzero_padding(const std::vector<uint8_t> &buf, const memory::desc &md) {
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    int bad = 0;
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        bool inside = true;
        for (int i = 0; i < l.ndims; ++i) inside = inside && pos[i] < l.dims[i];
        if (!inside && rr::load(d, buf.data(), rr::offset(l, pos)) != 0) ++bad;
    });
    return bad;
}

struct tol_t {
    double abs, rel;
};

// Tolerance of a result stored as `d` after an f32 computation: the
// library's own error (tens of f32 ulps for the transcendental
// algorithms) or one unit of the stored type's rounding.
tol_t tolerance(dt d) {
    switch (d) {
    case dt::f32:
        return {2e-6, 3e-5};
    case dt::bf16:
        return {1e-6, 1.0 / 128};
    case dt::f16:
        return {1e-6, 1.0 / 1024};
    default:
        return {0, 0}; // integers: exact
    }
}

// Compares got with the exact values (rounded to the stored type first).
void expect_close(const std::vector<double> &got,
        const std::vector<double> &exp, dt d, const std::string &what) {
    ASSERT_EQ(got.size(), exp.size());
    const tol_t t = tolerance(d);
    const rr::dtype rd = ref_dt(d);
    int errors = 0;
    for (size_t i = 0; i < got.size() && errors < 5; ++i) {
        const double e = rr::round_to(rd, exp[i]);
        const double g = got[i];
        if (std::isnan(e) && std::isnan(g)) continue;
        if (std::isinf(e) && g == e) continue;
        const double diff = std::fabs(g - e);
        if (diff <= t.abs + t.rel * std::fabs(e)) continue;
        ++errors;
        ADD_FAILURE() << what << ": element " << i << " got " << g
                      << " expected " << e << " (exact " << exp[i] << ")";
    }
}

// ---- algorithm cases
// ---------------------------------------------------------

struct alg_case_t {
    algorithm alg;
    float alpha, beta;
    double lo, hi; // source value range
    const char *name;
};

std::ostream &operator<<(std::ostream &os, const alg_case_t &c) {
    return os << c.name;
}

const alg_case_t alg_cases[] = {
        {algorithm::eltwise_relu, 0.f, 0.f, -5, 5, "relu"},
        {algorithm::eltwise_relu, 0.25f, 0.f, -5, 5, "leaky_relu"},
        {algorithm::eltwise_tanh, 0.f, 0.f, -6, 6, "tanh"},
        {algorithm::eltwise_elu, 1.f, 0.f, -6, 4, "elu"},
        {algorithm::eltwise_elu, 0.5f, 0.f, -6, 4, "elu_a05"},
        {algorithm::eltwise_square, 0.f, 0.f, -10, 10, "square"},
        {algorithm::eltwise_abs, 0.f, 0.f, -5, 5, "abs"},
        {algorithm::eltwise_sqrt, 0.f, 0.f, 0.01, 50, "sqrt"},
        {algorithm::eltwise_linear, 1.5f, -0.5f, -5, 5, "linear"},
        {algorithm::eltwise_soft_relu, 1.f, 0.f, -20, 20, "soft_relu"},
        {algorithm::eltwise_soft_relu, 0.5f, 0.f, -20, 20, "soft_relu_a05"},
        {algorithm::eltwise_soft_relu, -1.f, 0.f, -20, 20, "soft_relu_am1"},
        {algorithm::eltwise_hardsigmoid, 0.2f, 0.5f, -5, 5, "hardsigmoid"},
        {algorithm::eltwise_logistic, 0.f, 0.f, -10, 10, "logistic"},
        {algorithm::eltwise_exp, 0.f, 0.f, -10, 10, "exp"},
        {algorithm::eltwise_gelu_tanh, 0.f, 0.f, -6, 6, "gelu_tanh"},
        {algorithm::eltwise_swish, 1.f, 0.f, -10, 10, "swish"},
        {algorithm::eltwise_swish, 0.5f, 0.f, -10, 10, "swish_a05"},
        {algorithm::eltwise_log, 0.f, 0.f, 0.01, 100, "log"},
        {algorithm::eltwise_clip, -1.f, 2.5f, -4, 4, "clip"},
        {algorithm::eltwise_clip_v2, -1.f, 2.5f, -4, 4, "clip_v2"},
        {algorithm::eltwise_pow, 2.f, 2.f, -3, 3, "pow_2"},
        {algorithm::eltwise_pow, 1.5f, 3.f, -3, 3, "pow_3"},
        {algorithm::eltwise_pow, 2.f, 0.5f, 0.1, 5, "pow_half"},
        {algorithm::eltwise_pow, 1.f, -1.f, 0.1, 5, "pow_m1"},
        {algorithm::eltwise_pow, 0.5f, 1.5f, 0.1, 5, "pow_1_5"},
        {algorithm::eltwise_pow, 3.f, 0.f, -3, 3, "pow_0"},
        {algorithm::eltwise_pow, -2.f, 1.f, -3, 3, "pow_1"},
        {algorithm::eltwise_gelu_erf, 0.f, 0.f, -6, 6, "gelu_erf"},
        {algorithm::eltwise_round, 0.f, 0.f, -10, 10, "round"},
        {algorithm::eltwise_mish, 0.f, 0.f, -10, 10, "mish"},
        {algorithm::eltwise_hardswish, 1.f / 6, 0.5f, -6, 6, "hardswish"},
        {algorithm::eltwise_relu_use_dst_for_bwd, 0.f, 0.f, -5, 5, "relu_dst"},
        {algorithm::eltwise_relu_use_dst_for_bwd, 0.1f, 0.f, -5, 5,
                "leaky_relu_dst"},
        {algorithm::eltwise_tanh_use_dst_for_bwd, 0.f, 0.f, -6, 6, "tanh_dst"},
        {algorithm::eltwise_elu_use_dst_for_bwd, 1.f, 0.f, -6, 4, "elu_dst"},
        {algorithm::eltwise_sqrt_use_dst_for_bwd, 0.f, 0.f, 0.01, 50,
                "sqrt_dst"},
        {algorithm::eltwise_logistic_use_dst_for_bwd, 0.f, 0.f, -10, 10,
                "logistic_dst"},
        {algorithm::eltwise_exp_use_dst_for_bwd, 0.f, 0.f, -10, 10, "exp_dst"},
        {algorithm::eltwise_clip_v2_use_dst_for_bwd, -1.f, 2.5f, -4, 4,
                "clip_v2_dst"},
};

dnnl_alg_kind_t c_alg(algorithm a) {
    return static_cast<dnnl_alg_kind_t>(a);
}

// Layout cases: (dims, src/dst tag). Each runs as src layout == dst layout.
struct layout_case_t {
    memory::dims dims;
    tag t;
};

const layout_case_t layout_cases[] = {
        {{2, 3, 4, 5}, tag::nchw}, {{2, 3, 4, 5}, tag::nhwc},
        {{2, 3, 4, 5}, tag::nChw8c}, // channels padded to 8
        {{2, 17, 3, 2, 5}, tag::ncdhw},
        {{70001}, tag::a}, // threads and vector tails
};

std::vector<double> random_source(
        std::mt19937 &gen, size_t n, double lo, double hi) {
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (auto &x : v) x = u(gen);
    return v;
}

// Runs the forward problem with every implementation; returns the names.
std::set<std::string> run_fwd(const alg_case_t &c, const memory::desc &src_md,
        const memory::desc &dst_md_in, bool in_place, unsigned seed,
        const primitive_attr &attr = primitive_attr(),
        const std::vector<std::pair<memory::desc, std::vector<uint8_t>>>
                &po_srcs = {},
        const std::vector<algorithm> &po_algs = {}) {
    engine &eng = cpu_engine();
    stream strm(eng);
    std::mt19937 gen(seed);
    SCOPED_TRACE(std::string(c.name) + " src " + describe(src_md)
                 + (in_place ? " in-place" : ""));

    eltwise_forward::primitive_desc pd(eng, prop_kind::forward_training, c.alg,
            src_md, dst_md_in, c.alpha, c.beta, attr);
    const memory::desc dst_md = pd.dst_desc();

    // Source: random values at logical positions, zero padding.
    const rr::layout_t sl = layout_of(src_md);
    int64_t n = 1;
    for (int d = 0; d < sl.ndims; ++d) n *= sl.dims[d];
    const auto raw = random_source(gen, (size_t)n, c.lo, c.hi);
    std::vector<uint8_t> src_buf = zero_buffer(src_md);
    int64_t k = 0;
    fill(src_buf, src_md, [&](const int64_t *) { return raw[(size_t)k++]; });
    const std::vector<double> sv = values(src_buf, src_md);

    // Reference.
    std::vector<double> exp(sv.size());
    {
        const auto dims = src_md.get_dims();
        const int nd = (int)dims.size();
        std::vector<int64_t> pos(nd, 0);
        for (size_t i = 0; i < sv.size(); ++i) {
            double v = eltwise_ref::fwd(c_alg(c.alg), sv[i], c.alpha, c.beta);
            for (size_t p = 0; p < po_srcs.size(); ++p) {
                const auto &md = po_srcs[p].first;
                const rr::layout_t l = layout_of(md);
                int64_t ppos[rr::max_dims];
                for (int d = 0; d < nd; ++d)
                    ppos[d] = l.dims[d] == 1 ? 0 : pos[d];
                const double s1 = rr::load(ref_dt(md.get_data_type()),
                        po_srcs[p].second.data(), rr::offset(l, ppos));
                v = eltwise_ref::binary(c_alg(po_algs[p]), v, s1);
            }
            exp[i] = v;
            for (int d = nd - 1; d >= 0; --d) {
                if (++pos[d] < dims[d]) break;
                pos[d] = 0;
            }
        }
    }

    std::set<std::string> impls;
    do {
        impls.insert(pd.impl_info_str());
        SCOPED_TRACE(std::string("impl ") + pd.impl_info_str());
        std::vector<uint8_t> sbuf = src_buf;
        std::vector<uint8_t> dbuf(buffer_size(dst_md), 0x7f);
        memory sm(src_md, eng, sbuf.data());
        memory dm = in_place ? sm : memory(dst_md, eng, dbuf.data());
        std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC, sm}, {DNNL_ARG_DST, dm}};
        std::vector<std::vector<uint8_t>> po_copies;
        po_copies.reserve(po_srcs.size());
        for (size_t p = 0; p < po_srcs.size(); ++p) {
            po_copies.push_back(po_srcs[p].second);
            args[DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)p) | DNNL_ARG_SRC_1] =
                    memory(po_srcs[p].first, eng, po_copies.back().data());
        }
        eltwise_forward(pd).execute(strm, args);
        strm.wait();
        const auto &out = in_place ? sbuf : dbuf;
        expect_close(values(out, dst_md), exp, dst_md.get_data_type(),
                std::string("fwd ") + pd.impl_info_str());
        EXPECT_EQ(nonzero_padding(out, dst_md), 0) << "dst padding not zero";
        if (!in_place) {
            EXPECT_EQ(sbuf, src_buf) << "source modified";
        }
    } while (pd.next_impl());
    return impls;
}

// Runs the backward problem with every implementation.
std::set<std::string> run_bwd(const alg_case_t &c, const memory::desc &data_md,
        const memory::desc &diff_md_in, bool in_place, unsigned seed) {
    engine &eng = cpu_engine();
    stream strm(eng);
    std::mt19937 gen(seed);
    SCOPED_TRACE(std::string(c.name) + " bwd data " + describe(data_md)
                 + (in_place ? " in-place" : ""));
    const bool use_dst = eltwise_ref::use_dst(c_alg(c.alg));

    eltwise_forward::primitive_desc hint(eng, prop_kind::forward_training,
            c.alg, data_md, data_md, c.alpha, c.beta);
    eltwise_backward::primitive_desc pd(
            eng, c.alg, diff_md_in, diff_md_in, data_md, c.alpha, c.beta, hint);
    const memory::desc diff_src_md = pd.diff_src_desc();
    const memory::desc diff_dst_md = pd.diff_dst_desc();

    const rr::layout_t l = layout_of(data_md);
    int64_t n = 1;
    for (int d = 0; d < l.ndims; ++d) n *= l.dims[d];
    const auto src_raw = random_source(gen, (size_t)n, c.lo, c.hi);
    const auto dd_raw = random_source(gen, (size_t)n, -2, 2);

    // Data: the source, or the forward result for the *_use_dst algorithms.
    std::vector<uint8_t> data_buf = zero_buffer(data_md);
    int64_t k = 0;
    fill(data_buf, data_md, [&](const int64_t *) {
        const double s = src_raw[(size_t)k++];
        return use_dst ? eltwise_ref::fwd(c_alg(c.alg), s, c.alpha, c.beta) : s;
    });
    std::vector<uint8_t> dd_buf = zero_buffer(diff_dst_md);
    k = 0;
    fill(dd_buf, diff_dst_md,
            [&](const int64_t *) { return dd_raw[(size_t)k++]; });
    const std::vector<double> dv = values(data_buf, data_md);
    const std::vector<double> ddv = values(dd_buf, diff_dst_md);
    std::vector<double> exp(dv.size());
    for (size_t i = 0; i < dv.size(); ++i)
        exp[i] = eltwise_ref::bwd(c_alg(c.alg), ddv[i], dv[i], c.alpha, c.beta);

    std::set<std::string> impls;
    do {
        impls.insert(pd.impl_info_str());
        SCOPED_TRACE(std::string("impl ") + pd.impl_info_str());
        std::vector<uint8_t> vbuf = data_buf, gbuf = dd_buf;
        std::vector<uint8_t> obuf(buffer_size(diff_src_md), 0x7f);
        memory vm(data_md, eng, vbuf.data());
        memory gm(diff_dst_md, eng, gbuf.data());
        memory om = in_place ? gm : memory(diff_src_md, eng, obuf.data());
        eltwise_backward(pd).execute(strm,
                {{use_dst ? DNNL_ARG_DST : DNNL_ARG_SRC, vm},
                        {DNNL_ARG_DIFF_DST, gm}, {DNNL_ARG_DIFF_SRC, om}});
        strm.wait();
        const auto &out = in_place ? gbuf : obuf;
        expect_close(values(out, diff_src_md), exp, diff_src_md.get_data_type(),
                std::string("bwd ") + pd.impl_info_str());
        EXPECT_EQ(nonzero_padding(out, diff_src_md), 0)
                << "diff_src padding not zero";
        EXPECT_EQ(vbuf, data_buf) << "data modified";
    } while (pd.next_impl());
    return impls;
}

bool is_simd(const std::string &name) {
    return name.rfind("simd:", 0) == 0;
}

// Generated code (jit:f32_eltwise_<alg>_u<n>__<isa>, f32 forward from
// AVX2 up) or compiled vector kernels (simd:<types>_eltwise_..._<isa>).
bool is_vectorised(const std::string &name) {
    return is_simd(name) || name.rfind("jit:", 0) == 0;
}

class eltwise_alg_t : public ::testing::TestWithParam<alg_case_t> {};

} // namespace

// ---- every algorithm, layouts and data types ------------------------------

TEST_P(eltwise_alg_t, ForwardF32AllLayouts) {
    const auto &c = GetParam();
    unsigned seed = 1;
    for (const auto &lc : layout_cases) {
        memory::desc md(lc.dims, dt::f32, lc.t);
        const auto impls = run_fwd(c, md, md, false, seed++);
        // Dense layouts: the vectorised implementation comes first and the
        // generic one is reachable through next_impl.
        EXPECT_TRUE(impls.count("ref:any")) << c.name;
        const bool padded = lc.t == tag::nChw8c;
        if (!padded) {
            int simd = 0;
            for (const auto &s : impls) simd += is_simd(s);
            EXPECT_EQ(simd, 1) << c.name;
        }
    }
}

TEST_P(eltwise_alg_t, ForwardLowPrecision) {
    const auto &c = GetParam();
    if (c.alg == algorithm::eltwise_round) {
        GTEST_SKIP() << "round is f32 only";
    }
    unsigned seed = 100;
    for (dt d : {dt::bf16, dt::f16}) {
        for (tag t : {tag::nchw, tag::nChw8c}) {
            memory::desc md({2, 5, 3, 7}, d, t);
            run_fwd(c, md, md, false, seed++);
        }
    }
    // Several f32 blocks of the staged drivers and a tail, in place too.
    const memory::desc big({5, 501}, dt::bf16, tag::ab);
    run_fwd(c, big, big, false, seed++);
    run_fwd(c, big, big, true, seed++);
    // dst of another type than src: refused, as oneDNN's eltwise does.
    EXPECT_THROW(eltwise_forward::primitive_desc(cpu_engine(),
                         prop_kind::forward_inference, c.alg,
                         memory::desc({3, 40}, dt::f32, tag::ab),
                         memory::desc({3, 40}, dt::bf16, tag::ab), c.alpha,
                         c.beta),
            dnnl::error);
}

TEST_P(eltwise_alg_t, ForwardInPlace) {
    const auto &c = GetParam();
    memory::desc md({4, 3, 5, 7}, dt::f32, tag::nhwc);
    run_fwd(c, md, md, true, 7);
    memory::desc blk({2, 3, 4, 4}, dt::f32, tag::nChw8c);
    run_fwd(c, blk, blk, true, 8);
}

TEST_P(eltwise_alg_t, ForwardMixedLayouts) {
    // dst in another layout than src: refused, as oneDNN's eltwise does.
    const auto &c = GetParam();
    memory::desc src({2, 6, 3, 5}, dt::f32, tag::nchw);
    memory::desc dst({2, 6, 3, 5}, dt::f32, tag::nhwc);
    EXPECT_THROW(eltwise_forward::primitive_desc(cpu_engine(),
                         prop_kind::forward_inference, c.alg, src, dst,
                         c.alpha, c.beta),
            dnnl::error);
    // dst `any` follows the source layout.
    memory::desc any({2, 6, 3, 5}, dt::f32, tag::any);
    memory::desc nhwc_src({2, 6, 3, 5}, dt::f32, tag::nhwc);
    eltwise_forward::primitive_desc pd(cpu_engine(),
            prop_kind::forward_inference, c.alg, nhwc_src, any, c.alpha,
            c.beta);
    EXPECT_EQ(pd.dst_desc(), nhwc_src);
}

TEST_P(eltwise_alg_t, ForwardStridedSubmemory) {
    const auto &c = GetParam();
    // A 4x6 window of a 7x10 tensor, offset (2, 3).
    memory::desc parent({7, 10}, dt::f32, tag::ab);
    memory::desc sub = parent.submemory_desc({4, 6}, {2, 3});
    const auto impls = run_fwd(c, sub, sub, false, 13);
    EXPECT_TRUE(impls.count("ref:any"));
}

TEST_P(eltwise_alg_t, BackwardF32AllLayouts) {
    const auto &c = GetParam();
    if (c.alg == algorithm::eltwise_round) {
        GTEST_SKIP() << "round has no backward";
    }
    unsigned seed = 200;
    for (const auto &lc : layout_cases) {
        memory::desc md(lc.dims, dt::f32, lc.t);
        const auto impls = run_bwd(c, md, md, false, seed++);
        EXPECT_TRUE(impls.count("ref:any")) << c.name;
        if (lc.t != tag::nChw8c) {
            int simd = 0;
            for (const auto &s : impls) simd += is_simd(s);
            EXPECT_EQ(simd, 1) << c.name;
        }
    }
    // diff descriptors `any` follow the data layout.
    memory::desc data({2, 3, 4, 5}, dt::f32, tag::nhwc);
    memory::desc any({2, 3, 4, 5}, dt::f32, tag::any);
    run_bwd(c, data, any, false, seed++);
}

TEST_P(eltwise_alg_t, BackwardLowPrecisionAndInPlace) {
    const auto &c = GetParam();
    if (c.alg == algorithm::eltwise_round) {
        GTEST_SKIP() << "round has no backward";
    }
    unsigned seed = 300;
    for (dt d : {dt::bf16, dt::f16}) {
        memory::desc md({2, 5, 3, 7}, d, tag::nchw);
        run_bwd(c, md, md, false, seed++);
    }
    memory::desc md({3, 4, 5, 6}, dt::f32, tag::nhwc);
    run_bwd(c, md, md, true, seed++);
    memory::desc blk({2, 3, 4, 4}, dt::f32, tag::nChw8c);
    run_bwd(c, blk, blk, true, seed++);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, eltwise_alg_t,
        ::testing::ValuesIn(alg_cases),
        [](const ::testing::TestParamInfo<alg_case_t> &info) {
            return std::string(info.param.name);
        });

// ---- integer data
// --------------------------------------------------------------

TEST(Eltwise, IntegerRelu) {
    unsigned seed = 400;
    for (dt d : {dt::s8, dt::u8, dt::s32}) {
        const double lo = d == dt::u8 ? 0 : (d == dt::s8 ? -128 : -70000);
        const double hi = d == dt::u8 ? 255 : (d == dt::s8 ? 127 : 70000);
        for (float alpha : {0.f, 0.25f, -2.f}) {
            alg_case_t c{
                    algorithm::eltwise_relu, alpha, 0.f, lo, hi, "int_relu"};
            memory::desc md({3, 5, 4, 4}, d, tag::nhwc);
            run_fwd(c, md, md, false, seed++);
            run_fwd(c, md, md, true, seed++);
        }
        alg_case_t lin{
                algorithm::eltwise_linear, 0.5f, 3.f, lo, hi, "int_linear"};
        memory::desc md({7, 9}, d, tag::ab);
        run_fwd(lin, md, md, false, seed++);
    }
    // f32 -> s8 is a reorder's work: refused, as oneDNN's eltwise does.
    EXPECT_THROW(eltwise_forward::primitive_desc(cpu_engine(),
                         prop_kind::forward_inference,
                         algorithm::eltwise_linear,
                         memory::desc({64}, dt::f32, tag::a),
                         memory::desc({64}, dt::s8, tag::a), 100.f, 0.25f),
            dnnl::error);
}

// ---- binary post-ops -------------------------------------------------------

TEST(Eltwise, BinaryPostOps) {
    std::mt19937 gen(17);
    memory::desc src({2, 4, 3, 5}, dt::f32, tag::nchw);
    memory::desc per_channel({1, 4, 1, 1}, dt::f32, tag::nchw);
    memory::desc full({2, 4, 3, 5}, dt::f32, tag::nhwc);
    std::vector<uint8_t> b1 = zero_buffer(per_channel), b2 = zero_buffer(full);
    std::uniform_real_distribution<double> u(-2, 2);
    fill(b1, per_channel, [&](const int64_t *) { return u(gen); });
    fill(b2, full, [&](const int64_t *) { return u(gen); });
    post_ops po;
    po.append_binary(algorithm::binary_add, per_channel);
    po.append_binary(algorithm::binary_mul, full);
    po.append_binary(algorithm::binary_max, per_channel);
    primitive_attr attr;
    attr.set_post_ops(po);
    alg_case_t c{algorithm::eltwise_tanh, 0.f, 0.f, -3, 3, "tanh_po"};
    const auto impls = run_fwd(c, src, src, false, 18, attr,
            {{per_channel, b1}, {full, b2}, {per_channel, b1}},
            {algorithm::binary_add, algorithm::binary_mul,
                    algorithm::binary_max});
    EXPECT_TRUE(impls.count("ref:any"));
}

TEST(Eltwise, BinaryPostOpsVectorised) {
    // A scalar and a same-layout second source: both implementations.
    std::mt19937 gen(19);
    std::uniform_real_distribution<double> u(-2, 2);
    for (dt d : {dt::f32, dt::bf16}) {
        memory::desc src({3, 5, 4, 6}, d, tag::nhwc);
        memory::desc scalar({1, 1, 1, 1}, dt::f32, tag::nchw);
        memory::desc full({3, 5, 4, 6}, dt::bf16, tag::nhwc);
        std::vector<uint8_t> b1 = zero_buffer(scalar), b2 = zero_buffer(full);
        fill(b1, scalar, [&](const int64_t *) { return u(gen); });
        fill(b2, full, [&](const int64_t *) { return u(gen); });
        post_ops po;
        po.append_binary(algorithm::binary_sub, scalar);
        po.append_binary(algorithm::binary_div, full);
        po.append_binary(algorithm::binary_ge, scalar);
        primitive_attr attr;
        attr.set_post_ops(po);
        alg_case_t c{algorithm::eltwise_gelu_erf, 0.f, 0.f, -3, 3, "gelu_po"};
        const auto impls = run_fwd(c, src, src, false, 20, attr,
                {{scalar, b1}, {full, b2}, {scalar, b1}},
                {algorithm::binary_sub, algorithm::binary_div,
                        algorithm::binary_ge});
        EXPECT_EQ(impls.size(), 2u);
        EXPECT_TRUE(impls.count("ref:any"));
        // In place too.
        run_fwd(c, src, src, true, 21, attr,
                {{scalar, b1}, {full, b2}, {scalar, b1}},
                {algorithm::binary_sub, algorithm::binary_div,
                        algorithm::binary_ge});
    }
}

TEST(Eltwise, UnsupportedPostOpsAndAttributes) {
    engine &eng = cpu_engine();
    memory::desc md({2, 3, 4, 5}, dt::f32, tag::nchw);
    auto status_of = [&](const primitive_attr &attr) {
        dnnl_primitive_desc_t pd = nullptr;
        dnnl_status_t st = dnnl_eltwise_forward_primitive_desc_create(&pd,
                eng.get(), dnnl_forward_inference, dnnl_eltwise_relu, md.get(),
                md.get(), 0.f, 0.f, attr.get());
        if (pd) dnnl_primitive_desc_destroy(pd);
        return st;
    };
    {
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        primitive_attr attr;
        attr.set_post_ops(po);
        EXPECT_EQ(status_of(attr), dnnl_unimplemented);
    }
    {
        primitive_attr attr;
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        EXPECT_EQ(status_of(attr), dnnl_unimplemented);
    }
    {
        // Settings that do not change an eltwise result are accepted.
        primitive_attr attr;
        attr.set_scratchpad_mode(scratchpad_mode::user);
        attr.set_fpmath_mode(fpmath_mode::bf16);
        EXPECT_EQ(status_of(attr), dnnl_success);
    }
}

// ---- implementations
// -----------------------------------------------------------

TEST(Eltwise, NextImplWalksFromVectorisedToGeneric) {
    engine &eng = cpu_engine();
    memory::desc md({8, 16, 5, 5}, dt::f32, tag::nchw);
    eltwise_forward::primitive_desc pd(
            eng, prop_kind::forward_inference, algorithm::eltwise_relu, md, md);
    const std::string first = pd.impl_info_str();
    EXPECT_TRUE(is_vectorised(first)) << first;
    ASSERT_TRUE(pd.next_impl());
    // Generated code first where it runs, then the compiled kernels.
    if (!is_simd(first)) {
        EXPECT_TRUE(is_simd(pd.impl_info_str())) << pd.impl_info_str();
        ASSERT_TRUE(pd.next_impl());
    }
    const std::string second = pd.impl_info_str();
    EXPECT_EQ(second, "ref:any");
    EXPECT_NE(first, second);
    EXPECT_FALSE(pd.next_impl());
    EXPECT_EQ(std::string(pd.impl_info_str()), "ref:any");
    // The primitive made from the moved descriptor uses that implementation.
    eltwise_forward prim(pd);
    const char *name = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_query(prim.get_primitive_desc(),
                      dnnl_query_impl_info_str, 0, &name),
            dnnl_success);
    EXPECT_EQ(std::string(name), "ref:any");
}

TEST(Eltwise, PaddedLayoutUsesVectorisedOnlyWhenZeroIsKept) {
    engine &eng = cpu_engine();
    memory::desc md({2, 3, 4, 4}, dt::f32, tag::nChw8c);
    eltwise_forward::primitive_desc relu(
            eng, prop_kind::forward_inference, algorithm::eltwise_relu, md, md);
    EXPECT_TRUE(is_vectorised(relu.impl_info_str()));
    eltwise_forward::primitive_desc logistic(eng, prop_kind::forward_inference,
            algorithm::eltwise_logistic, md, md);
    EXPECT_EQ(std::string(logistic.impl_info_str()), "ref:any");
}

// ---- special values
// -----------------------------------------------------------

TEST(Eltwise, SpecialValues) {
    engine &eng = cpu_engine();
    stream strm(eng);
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> in = {0.f, -0.f, inf, -inf, nan, 1e-40f, -1e-40f,
            88.8f, -88.8f, 100.f, -100.f, 1e30f, -1e30f, 3.4e38f};
    const algorithm algs[] = {algorithm::eltwise_relu, algorithm::eltwise_tanh,
            algorithm::eltwise_logistic, algorithm::eltwise_exp,
            algorithm::eltwise_abs, algorithm::eltwise_square,
            algorithm::eltwise_sqrt, algorithm::eltwise_log,
            algorithm::eltwise_elu, algorithm::eltwise_linear};
    memory::desc md({(memory::dim)in.size()}, dt::f32, tag::a);
    for (algorithm a : algs) {
        const float alpha = a == algorithm::eltwise_linear ? 2.f : 1.f;
        eltwise_forward::primitive_desc pd(
                eng, prop_kind::forward_inference, a, md, md, alpha, 0.f);
        do {
            std::vector<float> src = in, dst(in.size(), 0.f);
            memory sm(md, eng, src.data()), dm(md, eng, dst.data());
            eltwise_forward(pd).execute(
                    strm, {{DNNL_ARG_SRC, sm}, {DNNL_ARG_DST, dm}});
            strm.wait();
            for (size_t i = 0; i < in.size(); ++i) {
                const double e = eltwise_ref::fwd(c_alg(a), in[i], alpha, 0.f);
                const double ef = (double)(float)e;
                if (std::isnan(ef)) {
                    EXPECT_TRUE(std::isnan(dst[i]))
                            << pd.impl_info_str() << " alg " << (int)a << " x "
                            << in[i] << " got " << dst[i];
                } else if (std::isinf(ef) || ef == 0) {
                    EXPECT_EQ(dst[i], ef) << pd.impl_info_str() << " alg "
                                          << (int)a << " x " << in[i];
                } else {
                    EXPECT_NEAR(dst[i], ef, 1e-5 * std::fabs(ef) + 1e-37)
                            << pd.impl_info_str() << " alg " << (int)a << " x "
                            << in[i];
                }
            }
        } while (pd.next_impl());
    }
}

// ---- argument checking
// -------------------------------------------------------

TEST(Eltwise, BadParametersAreRejected) {
    engine &eng = cpu_engine();
    memory::desc md({2, 3, 4, 5}, dt::f32, tag::nchw);
    memory::desc other({2, 3, 4, 6}, dt::f32, tag::nchw);
    memory::desc any({2, 3, 4, 5}, dt::f32, tag::any);
    memory::desc bf16({2, 3, 4, 5}, dt::bf16, tag::nchw);
    memory::desc s8({2, 3, 4, 5}, dt::s8, tag::nchw);
    auto fwd = [&](dnnl_primitive_desc_t *out, dnnl_engine_t e,
                       dnnl_prop_kind_t prop, dnnl_alg_kind_t alg,
                       const_dnnl_memory_desc_t s, const_dnnl_memory_desc_t d,
                       float alpha, float beta) {
        dnnl_primitive_desc_t pd = nullptr;
        dnnl_status_t st = dnnl_eltwise_forward_primitive_desc_create(
                out ? out : &pd, e, prop, alg, s, d, alpha, beta, nullptr);
        if (pd) dnnl_primitive_desc_destroy(pd);
        if (out && *out) {
            dnnl_primitive_desc_destroy(*out);
            *out = nullptr;
        }
        return st;
    };
    dnnl_primitive_desc_t out = nullptr;
    const auto e = eng.get();
    const auto f32 = md.get();
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_relu, f32, f32,
                      0, 0),
            dnnl_success);
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(nullptr, e,
                      dnnl_forward_inference, dnnl_eltwise_relu, f32, f32, 0, 0,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, nullptr, dnnl_forward_inference, dnnl_eltwise_relu, f32,
                      f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_relu, nullptr,
                      f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_relu, f32,
                      nullptr, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            fwd(&out, e, dnnl_backward_data, dnnl_eltwise_relu, f32, f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_binary_add, f32, f32, 0,
                      0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_alg_kind_undef, f32,
                      f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, (dnnl_alg_kind_t)53, f32,
                      f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_clip, f32, f32,
                      2.f, 1.f),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_round,
                      bf16.get(), bf16.get(), 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_tanh, s8.get(),
                      s8.get(), 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_relu, f32,
                      other.get(), 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_relu, any.get(),
                      f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_training,
                      dnnl_eltwise_relu_use_dst_for_bwd, f32, f32, -1.f, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_training,
                      dnnl_eltwise_relu_use_dst_for_bwd, f32, f32, 0.5f, 0),
            dnnl_success);
    // Runtime dimensions are valid but not supported.
    memory::desc rt({DNNL_RUNTIME_DIM_VAL, 3}, dt::f32, tag::ab);
    EXPECT_EQ(fwd(&out, e, dnnl_forward_inference, dnnl_eltwise_relu, rt.get(),
                      rt.get(), 0, 0),
            dnnl_unimplemented);

    // Backward.
    eltwise_forward::primitive_desc hint(
            eng, prop_kind::forward_training, algorithm::eltwise_relu, md, md);
    auto bwd = [&](dnnl_alg_kind_t alg, const_dnnl_memory_desc_t ds,
                       const_dnnl_memory_desc_t dd,
                       const_dnnl_memory_desc_t data, float alpha,
                       const_dnnl_primitive_desc_t h) {
        dnnl_primitive_desc_t pd = nullptr;
        dnnl_status_t st = dnnl_eltwise_backward_primitive_desc_create(
                &pd, e, alg, ds, dd, data, alpha, 0.f, h, nullptr);
        if (pd) dnnl_primitive_desc_destroy(pd);
        return st;
    };
    EXPECT_EQ(
            bwd(dnnl_eltwise_relu, f32, f32, f32, 0, hint.get()), dnnl_success);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, f32, f32, f32, 0, nullptr), dnnl_success);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, nullptr, f32, f32, 0, hint.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, f32, nullptr, f32, 0, hint.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, f32, f32, nullptr, 0, hint.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(bwd(dnnl_eltwise_round, f32, f32, f32, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, f32, other.get(), f32, 0, hint.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, other.get(), f32, f32, 0, hint.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            bwd(dnnl_eltwise_elu_use_dst_for_bwd, f32, f32, f32, -1.f, nullptr),
            dnnl_invalid_arguments);
    // The hint must be an eltwise forward descriptor.
    eltwise_backward::primitive_desc bwd_pd(
            eng, algorithm::eltwise_relu, md, md, md, hint);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, f32, f32, f32, 0, bwd_pd.get()),
            dnnl_invalid_arguments);
    reorder::primitive_desc rpd(eng, md, eng, md);
    EXPECT_EQ(bwd(dnnl_eltwise_relu, f32, f32, f32, 0, rpd.get()),
            dnnl_invalid_arguments);
    // Integer backward is valid but not implemented.
    EXPECT_EQ(bwd(dnnl_eltwise_relu, s8.get(), s8.get(), s8.get(), 0, nullptr),
            dnnl_unimplemented);
    // No attributes on backward.
    {
        post_ops po;
        po.append_binary(algorithm::binary_add, md);
        primitive_attr attr;
        attr.set_post_ops(po);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_eltwise_backward_primitive_desc_create(&pd, e,
                          dnnl_eltwise_relu, f32, f32, f32, 0.f, 0.f,
                          hint.get(), attr.get()),
                dnnl_unimplemented);
        if (pd) dnnl_primitive_desc_destroy(pd);
    }
}

TEST(Eltwise, Queries) {
    engine &eng = cpu_engine();
    memory::desc md({2, 3, 4, 5}, dt::f32, tag::nhwc);
    eltwise_forward::primitive_desc pd(eng, prop_kind::forward_training,
            algorithm::eltwise_clip, md, md, -0.5f, 1.5f);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    EXPECT_EQ(pd.get_algorithm(), algorithm::eltwise_clip);
    EXPECT_EQ(pd.get_alpha(), -0.5f);
    EXPECT_EQ(pd.get_beta(), 1.5f);
    EXPECT_EQ(pd.src_desc(), md);
    EXPECT_EQ(pd.dst_desc(), md);
    EXPECT_EQ(query_int(pd, dnnl_query_num_of_inputs_s32), 1);
    EXPECT_EQ(query_int(pd, dnnl_query_num_of_outputs_s32), 1);
    EXPECT_EQ(pd.get_kind(), primitive::kind::eltwise);

    // Backward with dst as data: src is unused, dst is the data.
    eltwise_forward::primitive_desc hint(eng, prop_kind::forward_training,
            algorithm::eltwise_tanh_use_dst_for_bwd, md, md);
    eltwise_backward::primitive_desc bpd(
            eng, algorithm::eltwise_tanh_use_dst_for_bwd, md, md, md, hint);
    EXPECT_EQ(bpd.get_prop_kind(), prop_kind::backward_data);
    EXPECT_EQ(bpd.src_desc(), memory::desc());
    EXPECT_EQ(bpd.dst_desc(), md);
    EXPECT_EQ(bpd.diff_src_desc(), md);
    EXPECT_EQ(bpd.diff_dst_desc(), md);
    EXPECT_EQ(query_int(bpd, dnnl_query_num_of_inputs_s32), 2);
    eltwise_backward::primitive_desc bpd2(
            eng, algorithm::eltwise_tanh, md, md, md, hint);
    EXPECT_EQ(bpd2.src_desc(), md);
    EXPECT_EQ(bpd2.dst_desc(), memory::desc());
}

TEST(Eltwise, ZeroSizeTensor) {
    engine &eng = cpu_engine();
    stream strm(eng);
    memory::desc md({0, 3, 4}, dt::f32, tag::abc);
    eltwise_forward::primitive_desc pd(
            eng, prop_kind::forward_inference, algorithm::eltwise_tanh, md, md);
    do {
        memory m(md, eng);
        eltwise_forward(pd).execute(
                strm, {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}});
        strm.wait();
    } while (pd.next_impl());
}

// The gpu engine has OpenCL implementations (tests/ocl checks them in
// depth); an attribute eltwise never takes is refused there too.
TEST(Eltwise, GpuEngineCreates) {
    if (engine::get_count(engine::kind::gpu) == 0) {
        GTEST_SKIP() << "no GPU engine";
    }
    engine gpu(engine::kind::gpu, 0);
    memory::desc md({2, 3, 4, 5}, dt::f32, tag::nchw);
    eltwise_forward::primitive_desc fwd(gpu, prop_kind::forward_training,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
    EXPECT_EQ(std::string(fwd.impl_info_str()).rfind("ocl:", 0), 0u);
    eltwise_backward::primitive_desc bwd(
            gpu, algorithm::eltwise_relu, md, md, md, 0.f, 0.f, fwd);
    EXPECT_EQ(std::string(bwd.impl_info_str()).rfind("ocl:", 0), 0u);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_NE(dnnl_eltwise_forward_primitive_desc_create(&pd, gpu.get(),
                      dnnl_forward_inference, dnnl_eltwise_relu, md.get(),
                      md.get(), 0.f, 0.f, attr.get()),
            dnnl_success);
    EXPECT_EQ(pd, nullptr);
}

// ---- narrower ISAs
// ---------------------------------------------------------------

namespace {

// In a fresh child process: limits the ISA, then runs every algorithm
// forward and backward on dense layouts with the vectorised kernels of
// that ISA (implementation names simd:..._<walk>__<isa>, `isa_suffix`
// "__avx2"). Exits 0 when everything matched.
void run_all_with_max_isa(dnnl_cpu_isa_t isa, const std::string &isa_suffix) {
    auto ran_simd = [&](const std::set<std::string> &impls) {
        int n = 0;
        for (const auto &s : impls)
            n += is_simd(s) && s.size() > isa_suffix.size()
                    && s.compare(s.size() - isa_suffix.size(),
                               isa_suffix.size(), isa_suffix)
                            == 0;
        return n == 1;
    };
    bool ok = dnnl_set_max_cpu_isa(isa) == dnnl_success;
    unsigned seed = 500;
    for (const auto &c : alg_cases) {
        for (dt d : {dt::f32, dt::bf16}) {
            memory::desc md({3, 7, 5, 11}, d, tag::nhwc);
            if (c.alg != algorithm::eltwise_round || d == dt::f32) {
                const auto f = run_fwd(c, md, md, false, seed++);
                ok = ok && ran_simd(f);
            }
            if (c.alg != algorithm::eltwise_round) {
                const auto b = run_bwd(c, md, md, false, seed++);
                ok = ok && ran_simd(b);
            }
        }
    }
    ok = ok && !::testing::Test::HasFailure();
    if (!ok)
        std::fprintf(stderr, "failures with max ISA %s\n", isa_suffix.c_str());
    std::fflush(stderr);
    std::_Exit(ok ? 0 : 1);
}

} // namespace

// Each death-test child re-runs the test body: nothing else may run here.
TEST(Eltwise, Avx2KernelsMatchReference) {
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        GTEST_SKIP() << "no AVX2";
    }
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(run_all_with_max_isa(dnnl_cpu_isa_avx2, "__avx2"),
            ::testing::ExitedWithCode(0), "");
}

TEST(Eltwise, Sse41KernelsMatchReference) {
    if (!__builtin_cpu_supports("sse4.1")) GTEST_SKIP() << "no SSE4.1";
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(run_all_with_max_isa(dnnl_cpu_isa_sse41, "__sse41"),
            ::testing::ExitedWithCode(0), "");
}
