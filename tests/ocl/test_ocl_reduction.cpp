// Reduction on the gpu engine against tests/reference/reduction_ref: every
// algorithm (p and eps for the norms) over inner / outer / mixed / all
// reduced dims, rows and lanes kernels, chunked long reductions, plain /
// channels-last / blocked (staged) layouts, data types, eltwise / sum /
// binary post-ops, empty sources, `any` destinations, queries and
// rejected parameters.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <algorithm>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/post_op_glue.hpp"
#include "../primitives/tensor_glue.hpp"
#include "ocl_unit_geometry.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "reference/reduction_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

namespace br = binary_ref;
using ralg = reduction_ref::alg_t;

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

struct alg_pair_t {
    algorithm lib;
    ralg ref;
};
const alg_pair_t algs[] = {{algorithm::reduction_max, ralg::max},
        {algorithm::reduction_min, ralg::min},
        {algorithm::reduction_sum, ralg::sum},
        {algorithm::reduction_mul, ralg::mul},
        {algorithm::reduction_mean, ralg::mean},
        {algorithm::reduction_norm_lp_max, ralg::norm_lp_max},
        {algorithm::reduction_norm_lp_sum, ralg::norm_lp_sum},
        {algorithm::reduction_norm_lp_power_p_max, ralg::norm_lp_power_p_max},
        {algorithm::reduction_norm_lp_power_p_sum, ralg::norm_lp_power_p_sum}};

struct problem_t {
    alg_pair_t alg = algs[2];
    memory::desc src, dst;
    float p = 2, eps = 0;
    std::vector<po_ref::entry_t> po;
};

std::string check(problem_t pr, unsigned seed = 1) {
    SCOPED_TRACE("src " + describe(pr.src) + " dst " + describe(pr.dst) + " p "
            + std::to_string(pr.p) + " eps " + std::to_string(pr.eps));
    stream strm(gpu());
    std::mt19937 gen(seed);
    const auto sd = dims_of(pr.src), dd = dims_of(pr.dst);
    std::vector<double> sv;
    if (pr.alg.ref == ralg::mul) {
        sv = random_values(count(sd), dt::f32, gen, 0.75, 1.25);
        for (auto &x : sv)
            x = rr::round_to(ref_dt(pr.src.get_data_type()), x);
    } else {
        sv = random_values(count(sd), pr.src.get_data_type(), gen, -4, 4);
    }
    primitive_attr attr;
    post_ops po;
    for (auto &e : pr.po) {
        switch (e.kind) {
            case po_ref::kind_t::eltwise:
                po.append_eltwise(
                        elt_alg(e.elt), (float)e.alpha, (float)e.beta);
                break;
            case po_ref::kind_t::sum: po.append_sum((float)e.scale); break;
            case po_ref::kind_t::binary:
                e.src = random_values(count(e.dims), dt::f32, gen, -2, 2);
                po.append_binary(algorithm::binary_add, plain_f32(e.dims));
                break;
        }
    }
    attr.set_post_ops(po);
    reduction::primitive_desc pd(
            gpu(), pr.alg.lib, pr.src, pr.dst, pr.p, pr.eps, attr);
    EXPECT_EQ(pd.get_algorithm(), pr.alg.lib);
    EXPECT_EQ(pd.get_p(), pr.p);
    EXPECT_EQ(pd.get_epsilon(), pr.eps);
    const auto dmd = pd.dst_desc();
    const dt ddt = dmd.get_data_type();
    const auto dinit = random_values(count(dd), ddt, gen);
    auto expected = reduction_ref::compute(pr.alg.ref, sv, sd, dd, pr.p, pr.eps);
    int64_t i = 0;
    br::for_each(dd, [&](const int64_t *pos) {
        expected[i] = po_ref::apply(pr.po, pos, expected[i], dinit[i]);
        ++i;
    });
    const double n_red
            = (double)count(sd) / (double)std::max<int64_t>(count(dd), 1);
    memory ms = to_memory(gpu(), pr.src, sv), md = to_memory(gpu(), dmd, dinit);
    fill_padding(md, 3);
    std::unordered_map<int, memory> args {
            {DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}};
    add_binary_post_op_args(args, pr.po, gpu());
    reduction(pd).execute(strm, args);
    strm.wait();
    EXPECT_TRUE(matches(from_memory(md), expected, ddt,
            tol_for(ddt, 2e-6 * (1 + n_red / 64), 1e-5 * (1 + n_red / 64))))
            << pd.impl_info_str();
    EXPECT_TRUE(padding_is_zero(md));
    return pd.impl_info_str();
}

const memory::dims sdims = {2, 19, 3, 5};
const memory::dims dst_patterns[] = {{1, 19, 1, 1}, {2, 1, 3, 5},
        {1, 1, 1, 1}, {2, 19, 1, 1}, {1, 19, 3, 5}, {2, 19, 3, 1},
        {2, 1, 1, 5}, {1, 1, 3, 1}};

class ocl_reduction : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

} // namespace

TEST_F(ocl_reduction, every_algorithm_and_pattern) {
    for (const auto &a : algs)
        for (const auto &dd : dst_patterns) {
            problem_t p;
            p.alg = a;
            p.src = memory::desc(sdims, dt::f32, tag::nchw);
            p.dst = memory::desc(dd, dt::f32, tag::any);
            p.p = 3;
            p.eps = 0.5f;
            check(p);
        }
}

TEST_F(ocl_reduction, layouts) {
    for (const auto &dd : dst_patterns)
        for (tag t : {tag::nhwc, tag::nChw16c})
            for (tag td : {tag::nchw, tag::nChw8c}) {
                problem_t p;
                p.alg = algs[0]; // max
                p.src = memory::desc(sdims, dt::f32, t);
                p.dst = memory::desc(dd, dt::f32, td);
                check(p, 3);
                p.alg = algs[6]; // norm_lp_sum
                p.p = 2;
                p.eps = 1;
                check(p, 3);
            }
}

TEST_F(ocl_reduction, norm_parameters) {
    for (float pp : {1.f, 2.f, 2.5f, 4.f})
        for (float eps : {0.f, 0.25f, 1000.f})
            for (int ai : {5, 6, 7, 8}) {
                problem_t p;
                p.alg = algs[ai];
                p.src = memory::desc(sdims, dt::f32, tag::nhwc);
                p.dst = memory::desc({2, 1, 1, 5}, dt::f32, tag::any);
                p.p = pp;
                p.eps = eps;
                check(p, 5);
            }
}

TEST_F(ocl_reduction, data_types) {
    struct c_t {
        dt s, d;
    };
    for (const c_t &c : {c_t {dt::bf16, dt::bf16}, c_t {dt::f16, dt::f32},
                 c_t {dt::s8, dt::s32}, c_t {dt::u8, dt::f32},
                 c_t {dt::f32, dt::s8}, c_t {dt::s32, dt::s32},
                 c_t {dt::f8_e5m2, dt::f32}, c_t {dt::f8_e4m3, dt::f8_e4m3},
                 c_t {dt::f32, dt::f8_e5m2}})
        for (int ai : {0, 1, 2, 4, 6}) {
            if (ai == 6 && (c.s == dt::s8 || c.s == dt::u8 || c.s == dt::s32))
                continue;
            problem_t p;
            p.alg = algs[ai];
            p.src = memory::desc(sdims, c.s, tag::nchw);
            p.dst = memory::desc({1, 19, 1, 1}, c.d, tag::any);
            check(p, 7);
        }
}

TEST_F(ocl_reduction, post_ops) {
    using po_ref::entry_t;
    entry_t relu, lin, sum, bin_c, bin_full;
    relu.elt = po_ref::elt_t::relu;
    lin.elt = po_ref::elt_t::linear;
    lin.alpha = 2;
    lin.beta = -1;
    sum.kind = po_ref::kind_t::sum;
    sum.scale = 0.5;
    bin_c.kind = bin_full.kind = po_ref::kind_t::binary;
    bin_c.dims = {1, 19, 1, 1};
    bin_full.dims = {2, 19, 1, 1};
    for (const auto &chain : {std::vector<entry_t> {relu},
                 std::vector<entry_t> {sum}, std::vector<entry_t> {bin_c, lin},
                 std::vector<entry_t> {lin, bin_full, sum, relu}})
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c}) {
            problem_t p;
            p.alg = algs[4]; // mean
            p.src = memory::desc(sdims, dt::f32, t);
            p.dst = memory::desc({2, 19, 1, 1}, dt::f32, tag::any);
            p.po = chain;
            check(p, 9);
        }
    // A binary post-op on a dst whose kept dims merge out of order.
    problem_t p;
    p.alg = algs[2];
    p.src = memory::desc(sdims, dt::f32, tag::nhwc);
    p.dst = memory::desc({2, 19, 3, 1}, dt::f32, tag::nhwc);
    p.po = {bin_full};
    p.po[0].dims = {2, 19, 3, 1};
    check(p, 10);
}

TEST_F(ocl_reduction, large_and_other_ranks) {
    const std::vector<std::pair<memory::dims, memory::dims>> shapes
            = {{{100000}, {1}}, {{64, 2000}, {1, 2000}},
                    {{64, 2000}, {64, 1}}, {{3, 4000, 5}, {1, 1, 5}},
                    {{2, 3, 4, 5, 6}, {1, 3, 1, 5, 1}},
                    {{1000, 1, 3}, {1, 1, 3}}, {{5, 7}, {5, 1}}};
    for (const auto &s : shapes)
        for (int ai : {0, 2, 4}) {
            problem_t p;
            p.alg = algs[ai];
            const tag t = plain_tag(s.first.size());
            p.src = memory::desc(s.first, dt::f32, t);
            p.dst = memory::desc(s.second, dt::f32, tag::any);
            check(p, 11);
        }
    problem_t lanes;
    lanes.src = memory::desc({64, 2000}, dt::f32, tag::ab);
    lanes.dst = memory::desc({1, 2000}, dt::f32, tag::ab);
    EXPECT_EQ(check(lanes, 12), "ocl:reduction:lanes");
    lanes.dst = memory::desc({64, 1}, dt::f32, tag::ab);
    EXPECT_EQ(check(lanes, 12), "ocl:reduction:rows");
}

TEST_F(ocl_reduction, empty_source) {
    stream strm(gpu());
    const memory::desc src({0, 5}, dt::f32, tag::ab),
            dst({1, 5}, dt::f32, tag::ab);
    for (algorithm a : {algorithm::reduction_sum, algorithm::reduction_mean}) {
        reduction::primitive_desc pd(gpu(), a, src, dst, 0, 0);
        memory ms(src, gpu());
        memory md = to_memory(gpu(), dst, std::vector<double>(5, 7));
        reduction(pd).execute(strm, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
        strm.wait();
        EXPECT_EQ(from_memory(md), std::vector<double>(5, 0.0));
    }
}

TEST_F(ocl_reduction, any_layouts_queries_and_bad_parameters) {
    reduction::primitive_desc pd(gpu(), algorithm::reduction_max,
            memory::desc({2, 19, 4, 5}, dt::f32, tag::nChw16c),
            memory::desc({2, 1, 4, 5}, dt::f32, tag::any), 0, 0);
    EXPECT_EQ(pd.dst_desc(), memory::desc({2, 1, 4, 5}, dt::f32, tag::nChw16c));
    EXPECT_GT(pd.scratchpad_desc().get_size(), 0u) << "staged";
    reduction::primitive_desc pd2(gpu(), algorithm::reduction_sum,
            memory::desc({2, 19, 4, 5}, dt::f32, tag::nhwc),
            memory::desc({1, 19, 1, 5}, dt::s8, tag::any), 0, 0);
    EXPECT_EQ(pd2.dst_desc().get_strides(), (memory::dims {95, 1, 95, 19}));
    EXPECT_EQ(query_s32(pd2, query::num_of_inputs_s32), 1);
    const memory::desc a(sdims, dt::f32, tag::nchw),
            r({1, 19, 1, 1}, dt::f32, tag::nchw);
    auto create = [&](const memory::desc &s, const memory::desc &d,
                          const primitive_attr &attr = primitive_attr()) {
        return status_of([&] {
            reduction::primitive_desc(
                    gpu(), algorithm::reduction_sum, s, d, 0, 0, attr);
        });
    };
    EXPECT_EQ(create(a, a), dnnl_invalid_arguments);
    primitive_attr scales;
    scales.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(create(a, r, scales), dnnl_unimplemented);
    // f64 is not loaded by the gpu kernels.
    EXPECT_EQ(create(memory::desc(sdims, dt::f64, tag::nchw), r),
            dnnl_unimplemented);
    // A missing destination at execution.
    stream strm(gpu());
    memory ms(a, gpu());
    EXPECT_EQ(status_of([&] {
        reduction(reduction::primitive_desc(
                          gpu(), algorithm::reduction_sum, a, r, 0, 0))
                .execute(strm, {{DNNL_ARG_SRC, ms}});
        strm.wait();
    }),
            dnnl_invalid_arguments);
}

TEST_F(ocl_reduction, gpu_geometry) {
    gpu_geometry_t g;
    const std::vector<std::pair<memory::dims, memory::dims>> shapes
            = {{{100000}, {1}}, {{64, 2000}, {1, 2000}},
                    {{64, 2000}, {64, 1}}, {{2, 19, 3, 5}, {1, 19, 1, 1}}};
    for (const auto &s : shapes)
        for (int ai : {0, 3, 6}) {
            problem_t p;
            p.alg = algs[ai];
            p.src = memory::desc(s.first, dt::f32, plain_tag(s.first.size()));
            p.dst = memory::desc(s.second, dt::f32, tag::any);
            check(p, 41);
        }
}

#endif
