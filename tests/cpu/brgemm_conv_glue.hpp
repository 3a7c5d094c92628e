// What the tests of the convolutions on the BRGEMM kernels share
// (test_brgemm_conv.cpp: forward, test_brgemm_conv_bwd.cpp: backward):
// a case's shape and its descriptors, values in and out of memories of
// any layout, the names and the ISA check.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

#include "reference/conv_ref.hpp"

namespace brgemm_conv_glue {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

inline std::vector<float> random_floats(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto &x : v) x = d(g);
    return v;
}

inline int64_t product(const memory::dims &d) {
    int64_t p = 1;
    for (auto x : d) p *= x;
    return p;
}

inline tag plain(size_t nd) {
    return nd == 3 ? tag::abc : nd == 4 ? tag::abcd : tag::abcde;
}

inline tag channels_last(size_t nd) {
    return nd == 3 ? tag::acb : nd == 4 ? tag::acdb : tag::acdeb;
}

// Where a binary operand varies: mask bits over dst dims (reference).
struct binary_t {
    algorithm alg;
    int mask;
};

struct case_t {
    int64_t mb, ic, oc;
    std::vector<int64_t> in, k, s, pl, pr, dil; // spatial, 1 to 3 dims
    bool bias = false;
    std::vector<algorithm> eltwise;
    float sum_scale = 0.f; // 0: no sum (appended first)
    std::vector<binary_t> binaries;
    tag user_act = tag::undef; // undef: `any` (else the given layout)
    tag user_wei = tag::undef; // undef: `any`
};

// A 2D case: mb, ic, oc, ih, iw, k, stride, padding (both sides).
inline case_t c2d(int64_t mb, int64_t ic, int64_t oc, int64_t ih, int64_t iw,
        int64_t k, int64_t s, int64_t p) {
    case_t c{mb, ic, oc, {ih, iw}, {k, k}, {s, s}, {p, p}, {p, p}, {0, 0}};
    return c;
}

// A case's problem: the reference's shape and the library's dims.
struct shape_t {
    conv_ref::prb_t p;
    memory::dims src, dst, wei, strides, dil, pl, pr;
    size_t nd = 0;
};

inline shape_t shape_of(const case_t &c) {
    shape_t r;
    const size_t sp = c.in.size();
    r.nd = sp + 2;
    r.p.mb = c.mb, r.p.ic = c.ic, r.p.oc = c.oc;
    r.src = {c.mb, c.ic};
    r.dst = {c.mb, c.oc};
    r.wei = {c.oc, c.ic};
    for (size_t i = 0; i < sp; ++i) {
        const int j = (int)(3 - sp + i);
        const int64_t ext = (c.k[i] - 1) * (c.dil[i] + 1) + 1;
        const int64_t o = (c.in[i] + c.pl[i] + c.pr[i] - ext) / c.s[i] + 1;
        r.p.i[j] = c.in[i], r.p.o[j] = o, r.p.k[j] = c.k[i];
        r.p.s[j] = c.s[i], r.p.d[j] = c.dil[i], r.p.pl[j] = c.pl[i];
        r.src.push_back(c.in[i]);
        r.dst.push_back(o);
        r.wei.push_back(c.k[i]);
        r.strides.push_back(c.s[i]);
        r.dil.push_back(c.dil[i]);
        r.pl.push_back(c.pl[i]);
        r.pr.push_back(c.pr[i]);
    }
    return r;
}

// Appends a sum post-op of `scale` (none for 0) to the library's chain
// and the reference's.
inline void append_sum(float scale, post_ops &po,
        std::vector<conv_ref::post_op_t> &ref_po) {
    if (scale == 0.f) return;
    po.append_sum(scale);
    conv_ref::post_op_t r;
    r.kind = conv_ref::post_op_t::sum;
    r.scale = scale;
    ref_po.push_back(r);
}

// Appends eltwise post-ops (alpha and beta 0) to the library's chain
// and the reference's.
inline void append_eltwise(const std::vector<algorithm> &algs, post_ops &po,
        std::vector<conv_ref::post_op_t> &ref_po) {
    for (auto a : algs) {
        po.append_eltwise(a, 0.f, 0.f);
        conv_ref::post_op_t r;
        r.kind = conv_ref::post_op_t::eltwise;
        r.alg = (dnnl_alg_kind_t)a;
        ref_po.push_back(r);
    }
}

// A memory of layout `want` holding the dense (plain) values `v`.
inline memory to_memory(const engine &eng, stream &s, const memory::dims &d,
        const std::vector<float> &v, const memory::desc &want) {
    memory user(memory::desc(d, dt::f32, plain(d.size())), eng);
    std::copy(v.begin(), v.end(), (float *)user.get_data_handle());
    memory m(want, eng);
    reorder(user, m).execute(s, user, m);
    return m;
}

// The values of `m` in dense (plain) order.
inline std::vector<float> from_memory(
        const engine &eng, stream &s, memory m, const memory::dims &d) {
    memory got(memory::desc(d, dt::f32, plain(d.size())), eng);
    reorder(m, got).execute(s, m, got);
    s.wait();
    const float *g = (const float *)got.get_data_handle();
    return std::vector<float>(g, g + product(d));
}

// The dims of binary operand `b` over a dst of dims `dst`.
inline memory::dims binary_dims(const binary_t &b, const memory::dims &dst) {
    memory::dims bd(dst.size(), 1);
    for (size_t d = 0; d < dst.size(); ++d)
        if ((b.mask >> d) & 1) bd[d] = dst[d];
    return bd;
}

// A binary post-op's operand and its index in the chain.
struct binary_operand_t {
    int po_index;
    memory mem;
};

// Appends binary post-op `b` with operand values `vals` (dense over
// binary_dims) to the library's chain and the reference's; the operand
// is channels last where it is full over channels and space (as dst),
// plain otherwise.
inline binary_operand_t append_binary(const binary_t &b,
        const memory::dims &dst, const std::vector<float> &vals,
        const engine &eng, stream &s, post_ops &po,
        std::vector<conv_ref::post_op_t> &ref_po) {
    const size_t nd = dst.size();
    const memory::dims bd = binary_dims(b, dst);
    const bool full = (b.mask >> 1) & 1 && b.mask > 3;
    memory::desc md(bd, dt::f32, full ? channels_last(nd) : plain(nd));
    po.append_binary(b.alg, md);
    conv_ref::post_op_t r;
    r.kind = conv_ref::post_op_t::binary;
    r.alg = (dnnl_alg_kind_t)b.alg;
    r.mask = b.mask;
    r.data.assign(vals.begin(), vals.end());
    const int index = (int)ref_po.size();
    ref_po.push_back(r);
    return {index, to_memory(eng, s, bd, vals, md)};
}

// Compares at most 5 failing elements; tolerance grows with the length
// of the sums (K).
inline void expect_near(const std::vector<float> &got,
        const std::vector<double> &ref, double K, const std::string &what) {
    int errors = 0;
    for (size_t i = 0; i < ref.size() && errors < 5; ++i) {
        const double tol = 2e-5 * (std::sqrt(K) + 1) * (1 + std::fabs(ref[i]));
        if (std::fabs(got[i] - ref[i]) <= tol) continue;
        ++errors;
        ADD_FAILURE() << what << " element " << i << ": got " << got[i]
                      << " expected " << ref[i];
    }
}

inline bool have_brgemm() {
    const cpu_isa isa = get_effective_cpu_isa();
    return ((unsigned)isa & (unsigned)cpu_isa::avx2) == (unsigned)cpu_isa::avx2;
}

inline bool isa_at_least(cpu_isa x) {
    const cpu_isa isa = get_effective_cpu_isa();
    return ((unsigned)isa & (unsigned)x) == (unsigned)x;
}

} // namespace brgemm_conv_glue
