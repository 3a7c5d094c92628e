// Softmax primitive tests: softmax and logsoftmax, forward and backward,
// every axis, plain / channels-last / blocked layouts with padding (both
// implementations: lanes and rows), f32/bf16/f16/int8 sources and
// destinations with scales, eltwise and binary post-ops, in-place, `any`
// layouts, queries, bad parameters and the gpu engine; compared with
// tests/reference/softmax_ref.*.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "post_op_glue.hpp"
#include "tensor_glue.hpp"
#include <unordered_map>

#include "reference/binary_ref.hpp"
#include "reference/softmax_ref.hpp"

namespace {

using namespace dnnl;
using namespace tensor_glue;

namespace br = binary_ref;

struct fwd_problem_t {
    algorithm alg = algorithm::softmax_accurate;
    memory::desc src, dst;
    int axis = 1;
    float src_scale = 0, dst_scale = 0;
    std::vector<po_ref::entry_t> po; // eltwise and binary only
    bool in_place = false;
};

void check_fwd(fwd_problem_t p, unsigned seed = 1) {
    SCOPED_TRACE("axis " + std::to_string(p.axis) + " src " + describe(p.src)
                 + " dst " + describe(p.dst));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const auto dims = dims_of(p.src);
    const auto sv = random_values(count(dims), p.src.get_data_type(), gen);
    primitive_attr attr;
    if (p.src_scale) attr.set_scales_mask(DNNL_ARG_SRC, 0);
    if (p.dst_scale) attr.set_scales_mask(DNNL_ARG_DST, 0);
    post_ops po;
    for (auto &e : p.po) {
        if (e.kind == po_ref::kind_t::eltwise) {
            po.append_eltwise(elt_alg(e.elt), (float)e.alpha, (float)e.beta);
        } else {
            e.src = random_values(count(e.dims), dt::f32, gen, -2, 2);
            po.append_binary(e.alg == br::alg_t::mul ? algorithm::binary_mul
                                                     : algorithm::binary_add,
                    plain_f32(e.dims));
        }
    }
    attr.set_post_ops(po);
    softmax_forward::primitive_desc pd(eng, prop_kind::forward_training, p.alg,
            p.src, p.dst, p.axis, attr);
    EXPECT_EQ(pd.get_axis(), p.axis);
    EXPECT_EQ(pd.get_algorithm(), p.alg);
    const auto dmd = pd.dst_desc();
    const dt ddt = dmd.get_data_type();
    auto expected = softmax_ref::forward(
            sv, dims, p.axis, p.alg == algorithm::softmax_log);
    {
        int64_t i = 0;
        br::for_each(dims, [&](const int64_t *pos) {
            double v = expected[i] * (p.src_scale ? p.src_scale : 1);
            v = po_ref::apply(p.po, pos, v, 0);
            expected[i++] = v / (p.dst_scale ? p.dst_scale : 1);
        });
    }
    for_each_impl(pd, [&](const softmax_forward::primitive_desc &ipd) {
        memory ms = to_memory(eng, p.src, sv);
        memory md = p.in_place ? ms : memory(dmd, eng);
        if (!p.in_place) {
            std::memset(md.get_data_handle(), 0x55, dmd.get_size());
            fill_padding(md, 3);
        }
        std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}};
        float ss = p.src_scale, ds = p.dst_scale;
        if (ss)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] =
                    memory({{1}, dt::f32, tag::x}, eng, &ss);
        if (ds)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] =
                    memory({{1}, dt::f32, tag::x}, eng, &ds);
        add_binary_post_op_args(args, p.po, eng);
        softmax_forward(ipd).execute(strm, args);
        strm.wait();
        EXPECT_TRUE(matches(
                from_memory(md), expected, ddt, tol_for(ddt, 2e-5, 2e-6)));
        EXPECT_TRUE(padding_is_zero(md));
    });
}

// Backward from a forward descriptor's dst; diff tensors of the given
// descriptors (may be `any`).
void check_bwd(algorithm alg, const memory::desc &dst,
        const memory::desc &diff_dst, const memory::desc &diff_src, int axis,
        bool in_place = false, unsigned seed = 1) {
    SCOPED_TRACE("axis " + std::to_string(axis) + " dst " + describe(dst)
                 + " diff_dst " + describe(diff_dst) + " diff_src "
                 + describe(diff_src));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const auto dims = dims_of(dst);
    const bool log = alg == algorithm::softmax_log;
    // dst: a softmax of random values, as stored.
    auto dv = softmax_ref::forward(
            random_values(count(dims), dt::f32, gen), dims, axis, log);
    for (auto &x : dv) x = rr::round_to(ref_dt(dst.get_data_type()), x);
    softmax_forward::primitive_desc hint(
            eng, prop_kind::forward_training, alg, dst, dst, axis);
    softmax_backward::primitive_desc pd(
            eng, alg, diff_src, diff_dst, dst, axis, hint);
    const auto ddmd = pd.diff_dst_desc(), dsmd = pd.diff_src_desc();
    const auto ddv =
            random_values(count(dims), ddmd.get_data_type(), gen, -2, 2);
    const auto expected = softmax_ref::backward(dv, ddv, dims, axis, log);
    const dt odt = dsmd.get_data_type();
    for_each_impl(pd, [&](const softmax_backward::primitive_desc &ipd) {
        memory md = to_memory(eng, dst, dv), mdd = to_memory(eng, ddmd, ddv);
        memory mds = in_place ? mdd : memory(dsmd, eng);
        if (!in_place) fill_padding(mds, 3);
        softmax_backward(ipd).execute(
                strm, {{DNNL_ARG_DST, md}, {DNNL_ARG_DIFF_DST, mdd},
                              {DNNL_ARG_DIFF_SRC, mds}});
        strm.wait();
        EXPECT_TRUE(matches(
                from_memory(mds), expected, odt, tol_for(odt, 1e-5, 2e-5)));
        EXPECT_TRUE(padding_is_zero(mds));
    });
}

} // namespace

TEST(Softmax, ForwardAxesAndLayouts) {
    const memory::dims d = {2, 19, 3, 5};
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log})
        for (int axis = 0; axis < 4; ++axis)
            for (tag t : {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c})
                for (tag td : {t, tag::nchw}) {
                    fwd_problem_t p;
                    p.alg = alg;
                    p.axis = axis;
                    p.src = memory::desc(d, dt::f32, t);
                    p.dst = memory::desc(d, dt::f32, td);
                    check_fwd(p);
                }
}

TEST(Softmax, ForwardShapes) {
    // Long rows, long lanes, and other ranks.
    const std::vector<std::pair<memory::dims, int>> shapes = {{{7, 1000}, 1},
            {{7, 1000}, 0}, {{3, 300, 20}, 1}, {{2, 3000}, 1}, {{1, 1}, 1},
            {{5}, 0}, {{2, 3, 4, 5, 6}, 2}, {{2, 5000, 3}, 1},
            {{4, 40, 70}, 2}};
    for (const auto &s : shapes)
        for (algorithm alg :
                {algorithm::softmax_accurate, algorithm::softmax_log}) {
            fwd_problem_t p;
            p.alg = alg;
            p.axis = s.second;
            const int nd = (int)s.first.size();
            const tag t = nd == 1   ? tag::a
                          : nd == 2 ? tag::ab
                          : nd == 3 ? tag::abc
                                    : tag::abcde;
            p.src = p.dst = memory::desc(s.first, dt::f32, t);
            check_fwd(p, 3);
        }
}

TEST(Softmax, ForwardDataTypesAndScales) {
    const memory::dims d = {3, 19, 4, 5};
    struct c_t {
        dt s, d;
        float ss, ds;
    };
    for (const c_t &c :
            {c_t{dt::bf16, dt::bf16, 0, 0}, c_t{dt::f16, dt::f16, 0, 0},
                    c_t{dt::f32, dt::bf16, 0, 0}, c_t{dt::bf16, dt::f32, 0, 0},
                    c_t{dt::f32, dt::u8, 0, 1.f / 255},
                    c_t{dt::f32, dt::s8, 0, 1.f / 127},
                    c_t{dt::s8, dt::f32, 0.5f, 0},
                    c_t{dt::u8, dt::u8, 0.25f, 1.f / 200},
                    c_t{dt::s8, dt::s8, 0, 0}})
        for (int axis : {1, 3})
            for (tag t : {tag::nchw, tag::nChw16c}) {
                fwd_problem_t p;
                p.axis = axis;
                p.src = memory::desc(d, c.s, t);
                p.dst = memory::desc(d, c.d, tag::any);
                p.src_scale = c.ss;
                p.dst_scale = c.ds;
                check_fwd(p, 5);
                p.alg = algorithm::softmax_log;
                if (c.d == dt::u8) continue; // negative results
                check_fwd(p, 5);
            }
}

TEST(Softmax, ForwardPostOps) {
    using po_ref::entry_t;
    auto elt = [](po_ref::elt_t e, double a = 0, double b = 0) {
        entry_t x;
        x.kind = po_ref::kind_t::eltwise;
        x.elt = e;
        x.alpha = a;
        x.beta = b;
        return x;
    };
    auto bin = [](br::alg_t a, std::vector<int64_t> d) {
        entry_t x;
        x.kind = po_ref::kind_t::binary;
        x.alg = a;
        x.dims = d;
        return x;
    };
    const std::vector<std::vector<entry_t>> chains = {
            {elt(po_ref::elt_t::linear, 2, 1)},
            {elt(po_ref::elt_t::tanh), elt(po_ref::elt_t::relu, 0.5)},
            {bin(br::alg_t::mul, {1, 19, 1, 1})},
            {bin(br::alg_t::add, {2, 19, 3, 5}), elt(po_ref::elt_t::square)}};
    for (const auto &chain : chains)
        for (int axis : {1, 3})
            for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c}) {
                fwd_problem_t p;
                p.axis = axis;
                p.src = memory::desc({2, 19, 3, 5}, dt::f32, t);
                p.dst = memory::desc({2, 19, 3, 5}, dt::f32, t);
                p.po = chain;
                check_fwd(p, 7);
            }
}

TEST(Softmax, ForwardInPlace) {
    for (tag t : {tag::nchw, tag::nChw16c})
        for (int axis : {1, 2}) {
            fwd_problem_t p;
            p.axis = axis;
            p.src = p.dst = memory::desc({2, 19, 3, 5}, dt::f32, t);
            p.in_place = true;
            check_fwd(p, 9);
        }
}

TEST(Softmax, Backward) {
    const memory::dims d = {2, 19, 3, 5};
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log})
        for (int axis = 0; axis < 4; ++axis)
            for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c}) {
                const memory::desc dst(d, dt::f32, t);
                check_bwd(alg, dst, memory::desc(d, dt::f32, tag::any),
                        memory::desc(d, dt::f32, tag::any), axis);
                check_bwd(alg, dst, memory::desc(d, dt::f32, tag::nchw),
                        memory::desc(d, dt::f32, tag::nhwc), axis, false, 3);
            }
    // Data types, long rows, in-place.
    for (algorithm alg :
            {algorithm::softmax_accurate, algorithm::softmax_log}) {
        check_bwd(alg, memory::desc(d, dt::bf16, tag::nchw),
                memory::desc(d, dt::bf16, tag::any),
                memory::desc(d, dt::f32, tag::any), 1, false, 5);
        check_bwd(alg, memory::desc(d, dt::f16, tag::nChw16c),
                memory::desc(d, dt::f32, tag::any),
                memory::desc(d, dt::f16, tag::any), 1, false, 5);
        const memory::desc big({5, 2000}, dt::f32, tag::ab);
        check_bwd(alg, big, big, big, 1, false, 7);
        check_bwd(alg, big, big, big, 0, false, 7);
        const memory::desc m(d, dt::f32, tag::nchw);
        check_bwd(alg, m, m, m, 1, true, 9);
    }
}

// Rows shorter than the lanes kernel's groups (64 rows) work as lanes:
// several groups and a partial one, rows one after another (read and
// written a group at once) or strided (one at a time), with post-ops
// (written a row at a time), in place, forward and backward.
TEST(Softmax, ShortRowsInGroups) {
    using po_ref::entry_t;
    entry_t relu;
    relu.kind = po_ref::kind_t::eltwise;
    relu.elt = po_ref::elt_t::relu;
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log})
        for (const memory::dims &d : std::vector<memory::dims>{
                     {2, 70, 3, 7}, {3, 45, 2, 40}, {1, 129, 1, 15}})
            for (tag t : {tag::nchw, tag::nhwc}) {
                fwd_problem_t p;
                p.alg = alg;
                p.axis = 3;
                p.src = p.dst = memory::desc(d, dt::f32, t);
                check_fwd(p, 11);
                p.in_place = true;
                check_fwd(p, 12);
                p.in_place = false;
                p.po = {relu};
                check_fwd(p, 13);
                p.po.clear();
                p.dst = memory::desc(d, dt::bf16, t);
                check_fwd(p, 14);
                const memory::desc m(d, dt::f32, t);
                check_bwd(alg, m, m, m, 3, false, 15);
                check_bwd(alg, m, m, m, 3, true, 16);
            }
}

TEST(Softmax, AnyLayoutsAndQueries) {
    engine eng(engine::kind::cpu, 0);
    const memory::dims d = {2, 19, 3, 5};
    const memory::desc src(d, dt::f32, tag::nChw16c);
    softmax_forward::primitive_desc fwd(eng, prop_kind::forward_inference,
            algorithm::softmax_log, src, memory::desc(d, dt::u8, tag::any), 1);
    EXPECT_EQ(fwd.dst_desc(), memory::desc(d, dt::u8, tag::nChw16c));
    EXPECT_EQ(fwd.get_prop_kind(), prop_kind::forward_inference);
    EXPECT_EQ(query_s32(fwd, query::num_of_inputs_s32), 1);
    const memory::desc dst(d, dt::f32, tag::nhwc);
    softmax_backward::primitive_desc bwd(eng, algorithm::softmax_accurate,
            memory::desc(d, dt::bf16, tag::any),
            memory::desc(d, dt::f32, tag::any), dst, 1, fwd);
    EXPECT_EQ(bwd.diff_dst_desc(), memory::desc(d, dt::f32, tag::nhwc));
    EXPECT_EQ(bwd.diff_src_desc(), memory::desc(d, dt::bf16, tag::nhwc));
    EXPECT_EQ(bwd.dst_desc(), dst);
    EXPECT_EQ(bwd.get_axis(), 1);
    EXPECT_EQ(query_s32(bwd, query::num_of_inputs_s32), 2);
}

TEST(Softmax, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    auto fwd = [&](prop_kind pk, algorithm alg, const memory::desc &s,
                       const memory::desc &d, int axis,
                       const primitive_attr &attr = primitive_attr()) {
        return status_of([&] {
            softmax_forward::primitive_desc(eng, pk, alg, s, d, axis, attr);
        });
    };
    const auto ft = prop_kind::forward_training;
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a, a, 1), dnnl_success);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a, a, 4),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a, a, -1),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            fwd(ft, algorithm::eltwise_relu, a, a, 1), dnnl_invalid_arguments);
    EXPECT_EQ(
            fwd(prop_kind::backward_data, algorithm::softmax_accurate, a, a, 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate,
                      memory::desc({2, 3, 4, 5}, dt::f32, tag::any), a, 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a,
                      memory::desc({2, 3, 4, 6}, dt::f32, tag::nchw), 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a,
                      memory::desc({2, 3, 4, 5}, dt::s32, tag::nchw), 1),
            dnnl_unimplemented);
    primitive_attr scales;
    scales.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a, a, 1, scales),
            dnnl_unimplemented);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a,
                      memory::desc({2, 3, 4, 5}, dt::u8, tag::nchw), 1, scales),
            dnnl_success);
    primitive_attr mask;
    mask.set_scales_mask(DNNL_ARG_DST, 2);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a,
                      memory::desc({2, 3, 4, 5}, dt::u8, tag::nchw), 1, mask),
            dnnl_unimplemented);
    primitive_attr sum_po;
    post_ops po;
    po.append_sum(1.f);
    sum_po.set_post_ops(po);
    EXPECT_EQ(fwd(ft, algorithm::softmax_accurate, a, a, 1, sum_po),
            dnnl_unimplemented);
    // Backward.
    softmax_forward::primitive_desc hint(
            eng, ft, algorithm::softmax_accurate, a, a, 1);
    auto bwd = [&](const memory::desc &ds, const memory::desc &dd,
                       const memory::desc &d, int axis,
                       const primitive_attr &attr = primitive_attr()) {
        return status_of([&] {
            softmax_backward::primitive_desc(eng, algorithm::softmax_accurate,
                    ds, dd, d, axis, hint, attr);
        });
    };
    EXPECT_EQ(bwd(a, a, a, 1), dnnl_success);
    EXPECT_EQ(bwd(a, a, memory::desc({2, 3, 4, 5}, dt::f32, tag::any), 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(bwd(a, memory::desc({2, 3, 4, 6}, dt::f32, tag::nchw), a, 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(bwd(a, a, a, 7), dnnl_invalid_arguments);
    EXPECT_EQ(bwd(a, a, memory::desc({2, 3, 4, 5}, dt::s8, tag::nchw), 1),
            dnnl_unimplemented);
    primitive_attr elt;
    post_ops epo;
    epo.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    elt.set_post_ops(epo);
    EXPECT_EQ(bwd(a, a, a, 1, elt), dnnl_unimplemented);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, dnnl_softmax_accurate, nullptr,
                      a.get(), 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_backward_primitive_desc_create(&pd, eng.get(),
                      dnnl_softmax_accurate, a.get(), nullptr, a.get(), 1,
                      nullptr, nullptr),
            dnnl_invalid_arguments);
    // Backward without a hint is accepted.
    EXPECT_EQ(dnnl_softmax_backward_primitive_desc_create(&pd, eng.get(),
                      dnnl_softmax_accurate, a.get(), a.get(), a.get(), 1,
                      nullptr, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
}

// The gpu engine's implementation is tested in tests/ocl/.
TEST(Softmax, GpuEngineCreates) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        softmax_forward::primitive_desc(eng, prop_kind::forward_training,
                algorithm::softmax_accurate, a, a, 1);
    }),
            dnnl_success);
}
