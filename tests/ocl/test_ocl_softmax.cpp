// Softmax on the gpu engine against tests/reference/softmax_ref: softmax
// and logsoftmax forward and backward over every axis, plain /
// channels-last / blocked (padded, staged) and mixed layouts, both kernel
// shapes (rows, lanes), long rows, f32 / bf16 / f16 / int8 with scales,
// eltwise and binary post-ops, in-place, `any`, queries, the kernel
// cache across shapes, and rejected parameters.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/post_op_glue.hpp"
#include "../primitives/tensor_glue.hpp"
#include "ocl_unit_geometry.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "reference/softmax_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

namespace br = binary_ref;

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

struct fwd_problem_t {
    algorithm alg = algorithm::softmax_accurate;
    memory::desc src, dst;
    int axis = 1;
    float src_scale = 0, dst_scale = 0;
    std::vector<po_ref::entry_t> po;
    bool in_place = false;
};

void check_fwd(fwd_problem_t p, unsigned seed = 1) {
    SCOPED_TRACE("axis " + std::to_string(p.axis) + " src " + describe(p.src)
            + " dst " + describe(p.dst));
    stream strm(gpu());
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
    softmax_forward::primitive_desc pd(gpu(), prop_kind::forward_training,
            p.alg, p.src, p.dst, p.axis, attr);
    const auto dmd = pd.dst_desc();
    const dt ddt = dmd.get_data_type();
    auto expected = softmax_ref::forward(
            sv, dims, p.axis, p.alg == algorithm::softmax_log);
    int64_t i = 0;
    br::for_each(dims, [&](const int64_t *pos) {
        double v = expected[i] * (p.src_scale ? p.src_scale : 1);
        v = po_ref::apply(p.po, pos, v, 0);
        expected[i++] = v / (p.dst_scale ? p.dst_scale : 1);
    });
    memory ms = to_memory(gpu(), p.src, sv);
    memory md = p.in_place ? ms : to_memory(gpu(), dmd,
                        std::vector<double>(count(dims), 7.0), 0x55);
    if (!p.in_place) fill_padding(md, 3);
    std::unordered_map<int, memory> args {
            {DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}};
    float ss = p.src_scale, ds = p.dst_scale;
    memory::desc sc_md({1}, dt::f32, tag::x);
    if (ss) args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = to_memory(gpu(), sc_md, {ss});
    if (ds) args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = to_memory(gpu(), sc_md, {ds});
    add_binary_post_op_args(args, p.po, gpu());
    softmax_forward(pd).execute(strm, args);
    strm.wait();
    EXPECT_TRUE(matches(from_memory(md), expected, ddt,
            tol_for(ddt, 2e-5, 2e-6)))
            << pd.impl_info_str();
    EXPECT_TRUE(padding_is_zero(md));
}

void check_bwd(algorithm alg, const memory::desc &dst,
        const memory::desc &diff_dst, const memory::desc &diff_src, int axis,
        bool in_place = false, unsigned seed = 1) {
    SCOPED_TRACE("axis " + std::to_string(axis) + " dst " + describe(dst)
            + " diff_dst " + describe(diff_dst) + " diff_src "
            + describe(diff_src));
    stream strm(gpu());
    std::mt19937 gen(seed);
    const auto dims = dims_of(dst);
    const bool log = alg == algorithm::softmax_log;
    auto dv = softmax_ref::forward(
            random_values(count(dims), dt::f32, gen), dims, axis, log);
    for (auto &x : dv) x = rr::round_to(ref_dt(dst.get_data_type()), x);
    softmax_forward::primitive_desc hint(
            gpu(), prop_kind::forward_training, alg, dst, dst, axis);
    softmax_backward::primitive_desc pd(
            gpu(), alg, diff_src, diff_dst, dst, axis, hint);
    const auto ddmd = pd.diff_dst_desc(), dsmd = pd.diff_src_desc();
    const auto ddv
            = random_values(count(dims), ddmd.get_data_type(), gen, -2, 2);
    const auto expected = softmax_ref::backward(dv, ddv, dims, axis, log);
    const dt odt = dsmd.get_data_type();
    memory md = to_memory(gpu(), dst, dv), mdd = to_memory(gpu(), ddmd, ddv);
    memory mds = in_place ? mdd : memory(dsmd, gpu());
    if (!in_place) fill_padding(mds, 3);
    softmax_backward(pd).execute(strm,
            {{DNNL_ARG_DST, md}, {DNNL_ARG_DIFF_DST, mdd},
                    {DNNL_ARG_DIFF_SRC, mds}});
    strm.wait();
    EXPECT_TRUE(matches(
            from_memory(mds), expected, odt, tol_for(odt, 1e-5, 2e-5)))
            << pd.impl_info_str();
    EXPECT_TRUE(padding_is_zero(mds));
}

class ocl_softmax : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

} // namespace

TEST_F(ocl_softmax, forward_axes_and_layouts) {
    const memory::dims d = {2, 19, 3, 5};
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log})
        for (int axis = 0; axis < 4; ++axis)
            for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
                for (tag td : {t, tag::nchw}) {
                    fwd_problem_t p;
                    p.alg = alg;
                    p.axis = axis;
                    p.src = memory::desc(d, dt::f32, t);
                    p.dst = memory::desc(d, dt::f32, td);
                    check_fwd(p);
                }
}

TEST_F(ocl_softmax, forward_shapes_rows_and_lanes) {
    // Long rows (several elements per lane), lanes (inner >= 16), ranks.
    const std::vector<std::pair<memory::dims, int>> shapes = {{{7, 1000}, 1},
            {{7, 1000}, 0}, {{3, 300, 20}, 1}, {{2, 3000}, 1}, {{1, 1}, 1},
            {{5}, 0}, {{2, 3, 4, 5, 6}, 2}, {{2, 700, 33}, 1},
            {{4, 40, 70}, 2}, {{3, 17, 64}, 1}, {{2, 1100, 20}, 1}};
    for (const auto &s : shapes)
        for (algorithm alg :
                {algorithm::softmax_accurate, algorithm::softmax_log}) {
            fwd_problem_t p;
            p.alg = alg;
            p.axis = s.second;
            p.src = p.dst = memory::desc(s.first, dt::f32, plain_tag(s.first.size()));
            check_fwd(p, 3);
        }
}

TEST_F(ocl_softmax, forward_data_types_and_scales) {
    const memory::dims d = {3, 19, 4, 5};
    struct c_t {
        dt s, d;
        float ss, ds;
    };
    const c_t cases[] = {{dt::bf16, dt::bf16, 0, 0}, {dt::f16, dt::f16, 0, 0},
            {dt::f32, dt::u8, 0, 1.f / 255}, {dt::s8, dt::f32, 0.5f, 0},
            {dt::u8, dt::u8, 0.25f, 1.f / 200}, {dt::s8, dt::s8, 0, 0}};
    for (const c_t &c : cases)
        // Rows (axis 3) for every pair, lanes (axis 1) for the first two.
        for (int axis : {3, 1}) {
            if (axis == 1 && &c > &cases[1]) continue;
            fwd_problem_t p;
            p.axis = axis;
            p.src = memory::desc(d, c.s, tag::nchw);
            p.dst = memory::desc(d, c.d, tag::any);
            p.src_scale = c.ss;
            p.dst_scale = c.ds;
            check_fwd(p, 5);
            if (c.d == dt::u8) continue; // negative results
            p.alg = algorithm::softmax_log;
            check_fwd(p, 5);
        }
}

TEST_F(ocl_softmax, forward_post_ops) {
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
    const std::vector<std::vector<entry_t>> chains
            = {{elt(po_ref::elt_t::linear, 2, 1)},
                    {bin(br::alg_t::mul, {1, 19, 1, 1})},
                    {bin(br::alg_t::add, {2, 19, 3, 5}),
                            elt(po_ref::elt_t::square)}};
    for (const auto &chain : chains)
        for (int axis : {1, 3})
            for (tag t : {tag::nchw, tag::nChw16c}) {
                fwd_problem_t p;
                p.axis = axis;
                p.src = p.dst = memory::desc({2, 19, 3, 5}, dt::f32, t);
                p.po = chain;
                check_fwd(p, 7);
            }
}

TEST_F(ocl_softmax, forward_in_place) {
    for (tag t : {tag::nchw, tag::nChw16c})
        for (int axis : {1, 3}) {
            fwd_problem_t p;
            p.axis = axis;
            p.src = p.dst = memory::desc({2, 19, 3, 5}, dt::f32, t);
            p.in_place = true;
            check_fwd(p, 9);
        }
}

TEST_F(ocl_softmax, backward) {
    const memory::dims d = {2, 19, 3, 6};
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log})
        for (int axis = 0; axis < 4; ++axis)
            for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c}) {
                const memory::desc dst(d, dt::f32, t);
                check_bwd(alg, dst, memory::desc(d, dt::f32, tag::any),
                        memory::desc(d, dt::f32, tag::any), axis);
                if (axis == 1)
                    check_bwd(alg, dst, memory::desc(d, dt::f32, tag::nchw),
                            memory::desc(d, dt::f32, tag::nhwc), axis, false,
                            3);
            }
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
        const memory::desc lanes({2, 50, 40}, dt::f32, tag::abc);
        check_bwd(alg, lanes, lanes, lanes, 1, true, 9);
        const memory::desc long_lanes({2, 1100, 17}, dt::f32, tag::abc);
        check_bwd(alg, long_lanes, long_lanes, long_lanes, 1, false, 9);
        const memory::desc m(d, dt::f32, tag::nchw);
        check_bwd(alg, m, m, m, 3, true, 9);
    }
}

TEST_F(ocl_softmax, any_layouts_queries_and_names) {
    const memory::dims d = {2, 19, 3, 5};
    const memory::desc src(d, dt::f32, tag::nChw16c);
    softmax_forward::primitive_desc fwd(gpu(), prop_kind::forward_inference,
            algorithm::softmax_log, src, memory::desc(d, dt::u8, tag::any), 1);
    EXPECT_EQ(fwd.dst_desc(), memory::desc(d, dt::u8, tag::nChw16c));
    EXPECT_EQ(fwd.get_axis(), 1);
    EXPECT_EQ(fwd.get_algorithm(), algorithm::softmax_log);
    EXPECT_EQ(query_s32(fwd, query::num_of_inputs_s32), 1);
    // Staged tensors take scratchpad space.
    EXPECT_GT(fwd.scratchpad_desc().get_size(), 0u);
    const memory::desc dst(d, dt::f32, tag::nhwc);
    softmax_backward::primitive_desc bwd(gpu(), algorithm::softmax_accurate,
            memory::desc(d, dt::bf16, tag::any),
            memory::desc(d, dt::f32, tag::any), dst, 1, fwd);
    EXPECT_EQ(bwd.diff_dst_desc(), memory::desc(d, dt::f32, tag::nhwc));
    EXPECT_EQ(bwd.diff_src_desc(), memory::desc(d, dt::bf16, tag::nhwc));
    EXPECT_EQ(bwd.scratchpad_desc().get_size(), 0u);
    const memory::desc nchw({2, 19, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(std::string(softmax_forward::primitive_desc(gpu(),
                      prop_kind::forward_inference,
                      algorithm::softmax_accurate, nchw, nchw, 1)
                                  .impl_info_str()),
            "ocl:softmax:lanes");
    EXPECT_EQ(std::string(softmax_forward::primitive_desc(gpu(),
                      prop_kind::forward_inference,
                      algorithm::softmax_accurate, nchw, nchw, 3)
                                  .impl_info_str()),
            "ocl:softmax:rows");
}

TEST_F(ocl_softmax, user_scratchpad) {
    // Staged (blocked) tensors in a scratchpad the user provides.
    stream strm(gpu());
    const memory::dims d = {2, 19, 3, 5};
    const memory::desc md(d, dt::f32, tag::nChw16c);
    primitive_attr attr;
    attr.set_scratchpad_mode(scratchpad_mode::user);
    softmax_forward::primitive_desc pd(gpu(), prop_kind::forward_inference,
            algorithm::softmax_accurate, md, md, 1, attr);
    ASSERT_GT(pd.scratchpad_desc().get_size(), 0u);
    std::mt19937 gen(51);
    const auto sv = random_values(count(dims_of(md)), dt::f32, gen);
    memory src = to_memory(gpu(), md, sv), dst(md, gpu()),
           scratch(pd.scratchpad_desc(), gpu());
    softmax_forward(pd).execute(strm,
            {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                    {DNNL_ARG_SCRATCHPAD, scratch}});
    strm.wait();
    EXPECT_TRUE(matches(from_memory(dst),
            softmax_ref::forward(sv, dims_of(md), 1, false), dt::f32,
            tol_for(dt::f32, 2e-5, 2e-6)));
    EXPECT_TRUE(padding_is_zero(dst));
}

TEST_F(ocl_softmax, new_shapes_reuse_the_program) {
    auto make = [](const memory::dims &d) {
        const memory::desc md(d, dt::f32, tag::ab);
        softmax_forward(softmax_forward::primitive_desc(gpu(),
                prop_kind::forward_inference, algorithm::softmax_log, md, md,
                1));
    };
    // Programs depend on the kernel (rows of vectors or not) and, for
    // rows held in registers on GPUs, on the vectors a lane holds, a power
    // of two (four for rows of 296 to 1024 elements): one program per
    // class, whatever the rows' count and length.
    make({3, 7});
    make({5, 300});
    dnnl_ext_kernel_cache_stats_t a, b;
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&a), dnnl_success);
    make({2, 9});
    make({64, 1000});
    make({7, 296});
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&b), dnnl_success);
    EXPECT_EQ(b.misses, a.misses);
}

TEST_F(ocl_softmax, bad_parameters_are_rejected) {
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    auto fwd = [&](const memory::desc &s, const memory::desc &d, int axis,
                       const primitive_attr &attr = primitive_attr()) {
        return status_of([&] {
            softmax_forward::primitive_desc(gpu(), prop_kind::forward_training,
                    algorithm::softmax_accurate, s, d, axis, attr);
        });
    };
    EXPECT_EQ(fwd(a, a, 4), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({2, 3, 4, 6}, dt::f32, tag::nchw), 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({2, 3, 4, 5}, dt::s32, tag::nchw), 1),
            dnnl_unimplemented);
    primitive_attr scales;
    scales.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(fwd(a, a, 1, scales), dnnl_unimplemented);
    primitive_attr sum_po;
    post_ops po;
    po.append_sum(1.f);
    sum_po.set_post_ops(po);
    EXPECT_EQ(fwd(a, a, 1, sum_po), dnnl_unimplemented);
    // Backward takes no attributes and floating-point data only.
    softmax_forward::primitive_desc hint(gpu(), prop_kind::forward_training,
            algorithm::softmax_accurate, a, a, 1);
    const memory::desc s8({2, 3, 4, 5}, dt::s8, tag::nchw);
    EXPECT_EQ(status_of([&] {
        softmax_backward::primitive_desc(
                gpu(), algorithm::softmax_accurate, a, a, s8, 1, hint);
    }),
            dnnl_unimplemented);
    // A missing argument at execution.
    stream strm(gpu());
    memory m(a, gpu());
    EXPECT_EQ(status_of([&] {
        softmax_forward(hint).execute(strm, {{DNNL_ARG_SRC, m}});
        strm.wait();
    }),
            dnnl_invalid_arguments);
}

TEST_F(ocl_softmax, gpu_geometry) {
    gpu_geometry_t g;
    for (algorithm alg :
            {algorithm::softmax_accurate, algorithm::softmax_log}) {
        // Long rows (vectors in registers), rows too long for registers,
        // short rows (several per group, vectors or not), lanes.
        for (const auto &s : std::vector<std::pair<memory::dims, int>> {
                     {{7, 1000}, 1}, {{3, 20000}, 1}, {{64, 19}, 1},
                     {{33, 12}, 1}, {{2, 300, 20}, 1}}) {
            fwd_problem_t p;
            p.alg = alg;
            p.axis = s.second;
            p.src = p.dst = memory::desc(
                    s.first, dt::f32, plain_tag(s.first.size()));
            check_fwd(p, 41);
            check_bwd(alg, p.src, p.src, p.src, p.axis, false, 42);
        }
    }
    // The vector row kernel with other data types, scales and post-ops.
    fwd_problem_t p;
    p.src = memory::desc({6, 256}, dt::bf16, tag::ab);
    p.dst = memory::desc({6, 256}, dt::f16, tag::ab);
    softmax_forward::primitive_desc pd(gpu(), prop_kind::forward_inference,
            algorithm::softmax_accurate, p.src, p.dst, 1);
    EXPECT_EQ(std::string(pd.impl_info_str()), "ocl:softmax:rows_vec");
    check_fwd(p, 43);
    // Backward holds dst and diff_dst of a row in registers too, in place
    // as well, with mixed data types.
    const memory::desc bd({6, 256}, dt::bf16, tag::ab);
    const memory::desc hd({6, 256}, dt::f16, tag::ab);
    for (algorithm alg :
            {algorithm::softmax_accurate, algorithm::softmax_log}) {
        softmax_forward::primitive_desc hint(gpu(),
                prop_kind::forward_training, alg, bd, bd, 1);
        softmax_backward::primitive_desc bpd(gpu(), alg, hd, bd, bd, 1, hint);
        EXPECT_EQ(std::string(bpd.impl_info_str()), "ocl:softmax:rows_vec");
        check_bwd(alg, bd, bd, hd, 1, false, 45);
        check_bwd(alg, p.src.reshape({3, 512}), p.src.reshape({3, 512}),
                p.src.reshape({3, 512}), 1, true, 46);
    }
    p.src = p.dst = memory::desc({5, 64}, dt::f32, tag::ab);
    p.alg = algorithm::softmax_log;
    po_ref::entry_t lin;
    lin.kind = po_ref::kind_t::eltwise;
    lin.elt = po_ref::elt_t::linear;
    lin.alpha = 2;
    lin.beta = 1;
    p.po = {lin};
    check_fwd(p, 44);
}

#endif
