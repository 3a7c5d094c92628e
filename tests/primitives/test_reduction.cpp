// Reduction primitive tests: every algorithm (with p and eps for the
// norms), every set of reduced dims (inner, outer, mixed, all), plain /
// channels-last / blocked layouts with padding, data types, post-ops
// (eltwise, sum, binary), `any` destinations, large reductions split over
// threads, queries, bad parameters and the gpu engine; compared with
// tests/reference/reduction_ref.*.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/compare.hpp"
#include "reference/reorder_ref.hpp"
#include <unordered_map>

#include "reference/binary_ref.hpp"
#include "reference/reduction_ref.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
namespace rr = reorder_ref;

rr::dtype ref_dt(dt d) {
    switch (d) {
    case dt::f32:
        return rr::dtype::f32;
    case dt::bf16:
        return rr::dtype::bf16;
    case dt::f16:
        return rr::dtype::f16;
    case dt::s32:
        return rr::dtype::s32;
    case dt::s8:
        return rr::dtype::s8;
    default:
        return rr::dtype::u8;
    }
}

// The reference's view of a descriptor, from the public queries only.
rr::layout_t layout_of(const memory::desc &md) {
    rr::layout_t l;
    l.ndims = md.get_ndims();
    const auto dims = md.get_dims(), padded = md.get_padded_dims(),
               poffs = md.get_padded_offsets(), strides = md.get_strides();
    for (int d = 0; d < l.ndims; ++d) {
        l.dims[d] = dims[d];
        l.padded[d] = padded[d];
        l.padded_offsets[d] = poffs[d];
        l.strides[d] = strides[d];
    }
    l.offset0 = md.get_submemory_offset();
    l.nblks = md.get_inner_nblks();
    const auto blks = md.get_inner_blks(), idxs = md.get_inner_idxs();
    for (int k = 0; k < l.nblks; ++k) {
        l.blks[k] = blks[k];
        l.idxs[k] = (int)idxs[k];
    }
    return l;
}

std::vector<int64_t> dims_of(const memory::desc &md) {
    const auto d = md.get_dims();
    return std::vector<int64_t>(d.begin(), d.end());
}

int64_t count(const std::vector<int64_t> &d) {
    int64_t n = 1;
    for (auto v : d) n *= v;
    return n;
}

// Random values exactly representable in `d`: quarter steps in [lo, hi]
// for floating types, integers for s8/u8/s32 (clamped to the type).
std::vector<double> random_values(
        int64_t n, dt d, std::mt19937 &gen, double lo = -8, double hi = 8) {
    std::vector<double> v((size_t)n);
    if (d == dt::s8 || d == dt::u8 || d == dt::s32) {
        if (d == dt::u8 && lo < 0) lo = 0;
        if (d == dt::s8) {
            lo = std::max(lo, -128.0);
            hi = std::min(hi, 127.0);
        }
        std::uniform_int_distribution<int> u((int)lo, (int)hi);
        for (auto &x : v) x = u(gen);
    } else {
        std::uniform_int_distribution<int> u((int)(lo * 4), (int)(hi * 4));
        for (auto &x : v) x = u(gen) / 4.0;
    }
    return v;
}

// Memory of `md` holding logical values `vals` (row-major), zeros in the
// padding and a pattern elsewhere.
memory to_memory(const engine &eng, const memory::desc &md,
        const std::vector<double> &vals, uint8_t pattern = 0) {
    memory m(md, eng);
    uint8_t *p = static_cast<uint8_t *>(m.get_data_handle());
    std::memset(p, pattern, md.get_size());
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    // Zero the padded area, then write the values.
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        rr::store(d, p, rr::offset(l, pos), 0.0);
    });
    int64_t i = 0;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        rr::store(d, p, rr::offset(l, pos), vals[(size_t)i++]);
    });
    return m;
}

std::vector<double> from_memory(const memory &m) {
    const memory::desc md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    const uint8_t *p = static_cast<const uint8_t *>(m.get_data_handle());
    std::vector<double> v;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        v.push_back(rr::load(d, p, rr::offset(l, pos)));
    });
    return v;
}

// True when every padding element (inside padded dims, outside dims) is 0.
bool padding_is_zero(const memory &m) {
    const memory::desc md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    const uint8_t *p = static_cast<const uint8_t *>(m.get_data_handle());
    bool ok = true;
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        bool pad = false;
        for (int k = 0; k < l.ndims; ++k) pad = pad || pos[k] >= l.dims[k];
        if (pad && rr::load(d, p, rr::offset(l, pos)) != 0) ok = false;
    });
    return ok;
}

// Tolerance of a result computed in f32 and rounded to `d` once:
// relative `rel` (f32 arithmetic) plus one unit of the output type.
ref::tolerance_t tol_for(dt d, double rel = 1e-6, double abs_ = 1e-6) {
    ref::tolerance_t t;
    t.rel = rel;
    t.abs = abs_;
    t.ulps = 1;
    if (d == dt::s8 || d == dt::u8 || d == dt::s32) t.abs = std::max(abs_, 1.0);
    return t;
}

::testing::AssertionResult matches(const std::vector<double> &got,
        const std::vector<double> &expected, dt d,
        const ref::tolerance_t &tol) {
    if (got.size() != expected.size())
        return ::testing::AssertionFailure()
               << "size " << got.size() << " vs " << expected.size();
    std::vector<float> g(got.begin(), got.end());
    ref::compare_opts_t o;
    o.tol = tol;
    const auto r = ref::compare(
            g.data(), expected.data(), g.size(), (dnnl_data_type_t)d, o);
    if (r.ok()) return ::testing::AssertionSuccess();
    auto f = ::testing::AssertionFailure() << r.summary();
    for (const auto &e : r.first_errors)
        f << " [" << e.index << "] got " << e.got << " expected " << e.expected;
    return f;
}

const char *dt_name(dt d) {
    switch (d) {
    case dt::f32:
        return "f32";
    case dt::bf16:
        return "bf16";
    case dt::f16:
        return "f16";
    case dt::s32:
        return "s32";
    case dt::s8:
        return "s8";
    case dt::u8:
        return "u8";
    default:
        return "?";
    }
}

std::string describe(const memory::desc &md) {
    std::string s = dt_name(md.get_data_type());
    s += " dims:";
    for (auto v : md.get_dims()) s += std::to_string(v) + ",";
    s += " strides:";
    for (auto v : md.get_strides()) s += std::to_string(v) + ",";
    s += " blks:";
    for (auto v : md.get_inner_blks()) s += std::to_string(v) + ",";
    return s;
}

// Status of a C++ API call that must fail.
template <typename F>
dnnl_status_t status_of(F f) {
    try {
        f();
    } catch (const error &e) {
        return e.status;
    }
    return dnnl_success;
}

// Runs f(pd) for every implementation the library offers for `pd`.
template <typename PD, typename F>
int for_each_impl(PD pd, F f) {
    int n = 0;
    do {
        SCOPED_TRACE(std::string("impl ") + pd.impl_info_str());
        f(pd);
        ++n;
    } while (dnnl_primitive_desc_next_impl(pd.get()) == dnnl_success);
    return n;
}

int query_s32(const primitive_desc_base &pd, query what) {
    return dnnl_primitive_desc_query_s32(pd.get(), (dnnl_query_t)what, 0);
}

// Writes `v` into every padding element (to check that outputs zero it).
void fill_padding(memory &m, double v) {
    const memory::desc md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    uint8_t *p = static_cast<uint8_t *>(m.get_data_handle());
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        bool pad = false;
        for (int k = 0; k < l.ndims; ++k) pad = pad || pos[k] >= l.dims[k];
        if (pad) rr::store(d, p, rr::offset(l, pos), v);
    });
}

namespace br = binary_ref;
using ralg = reduction_ref::alg_t;

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

memory::desc plain_f32(const std::vector<int64_t> &d) {
    memory::dims dims(d.begin(), d.end());
    memory::dims strides(d.size(), 1);
    for (int k = (int)d.size() - 2; k >= 0; --k)
        strides[k] = strides[k + 1] * d[k + 1];
    return memory::desc(dims, dt::f32, strides);
}

struct problem_t {
    alg_pair_t alg = algs[2];
    memory::desc src, dst;
    float p = 2, eps = 0;
    std::vector<po_ref::entry_t> po;
};

void check(problem_t pr, unsigned seed = 1) {
    SCOPED_TRACE("src " + describe(pr.src) + " dst " + describe(pr.dst) + " p "
                 + std::to_string(pr.p) + " eps " + std::to_string(pr.eps));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const auto sd = dims_of(pr.src), dd = dims_of(pr.dst);
    // Products and powers stay in range with values near 1.
    std::vector<double> sv;
    if (pr.alg.ref == ralg::mul) {
        sv = random_values(count(sd), dt::f32, gen, 0.75, 1.25);
        for (auto &x : sv) x = rr::round_to(ref_dt(pr.src.get_data_type()), x);
    } else {
        sv = random_values(count(sd), pr.src.get_data_type(), gen, -4, 4);
    }
    primitive_attr attr;
    post_ops po;
    for (auto &e : pr.po) {
        switch (e.kind) {
        case po_ref::kind_t::eltwise:
            po.append_eltwise(e.elt == po_ref::elt_t::relu
                                      ? algorithm::eltwise_relu
                                      : algorithm::eltwise_linear,
                    (float)e.alpha, (float)e.beta);
            break;
        case po_ref::kind_t::sum:
            po.append_sum((float)e.scale);
            break;
        case po_ref::kind_t::binary:
            e.src = random_values(count(e.dims), dt::f32, gen, -2, 2);
            po.append_binary(algorithm::binary_add, plain_f32(e.dims));
            break;
        }
    }
    attr.set_post_ops(po);
    reduction::primitive_desc pd(
            eng, pr.alg.lib, pr.src, pr.dst, pr.p, pr.eps, attr);
    EXPECT_EQ(pd.get_algorithm(), pr.alg.lib);
    EXPECT_EQ(pd.get_p(), pr.p);
    EXPECT_EQ(pd.get_epsilon(), pr.eps);
    const auto dmd = pd.dst_desc();
    const dt ddt = dmd.get_data_type();
    const auto dinit = random_values(count(dd), ddt, gen);
    auto expected =
            reduction_ref::compute(pr.alg.ref, sv, sd, dd, pr.p, pr.eps);
    {
        int64_t i = 0;
        br::for_each(dd, [&](const int64_t *pos) {
            expected[i] = po_ref::apply(pr.po, pos, expected[i], dinit[i]);
            ++i;
        });
    }
    const double n_red =
            (double)count(sd) / (double)std::max<int64_t>(count(dd), 1);
    for_each_impl(pd, [&](const reduction::primitive_desc &ipd) {
        memory ms = to_memory(eng, pr.src, sv), md = to_memory(eng, dmd, dinit);
        fill_padding(md, 3);
        std::unordered_map<int, memory> args{
                {DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}};
        for (size_t k = 0; k < pr.po.size(); ++k)
            if (pr.po[k].kind == po_ref::kind_t::binary)
                args[DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)k) | DNNL_ARG_SRC_1] =
                        to_memory(eng, plain_f32(pr.po[k].dims), pr.po[k].src);
        reduction(ipd).execute(strm, args);
        strm.wait();
        // f32 accumulation over n_red values.
        EXPECT_TRUE(matches(from_memory(md), expected, ddt,
                tol_for(ddt, 2e-6 * (1 + n_red / 64),
                        1e-5 * (1 + n_red / 64))));
        EXPECT_TRUE(padding_is_zero(md));
    });
}

// Reduced dims patterns against src 2x19x3x5.
const memory::dims sdims = {2, 19, 3, 5};
const memory::dims dst_patterns[] = {{1, 19, 1, 1}, {2, 1, 3, 5}, {1, 1, 1, 1},
        {2, 19, 1, 1}, {1, 19, 3, 5}, {2, 19, 3, 1}, {2, 1, 1, 5},
        {1, 1, 3, 1}};

} // namespace

TEST(Reduction, EveryAlgorithmAndPattern) {
    for (const auto &a : algs)
        for (const auto &dd : dst_patterns)
            for (tag t : {tag::nchw, tag::nChw16c}) {
                problem_t p;
                p.alg = a;
                p.src = memory::desc(sdims, dt::f32, t);
                p.dst = memory::desc(dd, dt::f32, tag::any);
                p.p = 3;
                p.eps = 0.5f;
                check(p);
            }
}

TEST(Reduction, Layouts) {
    for (const auto &dd : dst_patterns)
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c})
            for (tag td : {tag::nchw, tag::nhwc, tag::nChw8c}) {
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

TEST(Reduction, NormParameters) {
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

TEST(Reduction, DataTypes) {
    struct c_t {
        dt s, d;
    };
    for (const c_t &c : {c_t{dt::bf16, dt::bf16}, c_t{dt::f16, dt::f16},
                 c_t{dt::bf16, dt::f32}, c_t{dt::s8, dt::s8},
                 c_t{dt::u8, dt::f32}, c_t{dt::s8, dt::s32},
                 c_t{dt::f32, dt::s8}, c_t{dt::s32, dt::s32}})
        for (int ai : {0, 1, 2, 4, 6}) {
            if (ai == 6 && (c.s == dt::s8 || c.s == dt::u8 || c.s == dt::s32))
                continue;
            for (const auto &dd :
                    {memory::dims{1, 19, 1, 1}, memory::dims{2, 1, 3, 5}}) {
                problem_t p;
                p.alg = algs[ai];
                p.src = memory::desc(sdims, c.s, tag::nchw);
                p.dst = memory::desc(dd, c.d, tag::any);
                check(p, 7);
            }
        }
}

TEST(Reduction, PostOps) {
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
    for (const auto &chain : {std::vector<entry_t>{relu},
                 std::vector<entry_t>{sum}, std::vector<entry_t>{bin_c, lin},
                 std::vector<entry_t>{lin, bin_full, sum, relu}})
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
            for (dt d : {dt::f32, dt::bf16, dt::s8}) {
                problem_t p;
                p.alg = algs[4]; // mean
                p.src = memory::desc(sdims, dt::f32, t);
                p.dst = memory::desc({2, 19, 1, 1}, d, tag::any);
                p.po = chain;
                check(p, 9);
            }
}

TEST(Reduction, LargeAndOtherRanks) {
    // Few outputs and many inputs: the reduced range is split over threads.
    const std::vector<std::pair<memory::dims, memory::dims>> shapes = {
            {{100000}, {1}}, {{64, 2000}, {1, 2000}}, {{64, 2000}, {64, 1}},
            {{3, 4000, 5}, {1, 1, 5}}, {{2, 3, 4, 5, 6}, {1, 3, 1, 5, 1}},
            {{1000, 1, 3}, {1, 1, 3}}, {{5, 7}, {5, 1}}};
    for (const auto &s : shapes)
        for (int ai : {0, 2, 4}) {
            problem_t p;
            p.alg = algs[ai];
            const int nd = (int)s.first.size();
            const tag t = nd == 1   ? tag::a
                          : nd == 2 ? tag::ab
                          : nd == 3 ? tag::abc
                                    : tag::abcde;
            p.src = memory::desc(s.first, dt::f32, t);
            p.dst = memory::desc(s.second, dt::f32, tag::any);
            check(p, 11);
        }
}

TEST(Reduction, AnyLayoutsAndQueries) {
    engine eng(engine::kind::cpu, 0);
    reduction::primitive_desc pd(eng, algorithm::reduction_max,
            memory::desc({2, 19, 4, 5}, dt::f32, tag::nChw16c),
            memory::desc({2, 1, 4, 5}, dt::f32, tag::any), 0, 0);
    // A reduced blocked dim stays blocked, padded to one block.
    EXPECT_EQ(pd.dst_desc(), memory::desc({2, 1, 4, 5}, dt::f32, tag::nChw16c));
    reduction::primitive_desc pd2(eng, algorithm::reduction_sum,
            memory::desc({2, 19, 4, 5}, dt::f32, tag::nhwc),
            memory::desc({1, 19, 1, 5}, dt::s8, tag::any), 0, 0);
    EXPECT_EQ(pd2.dst_desc().get_strides(), (memory::dims{95, 1, 95, 19}));
    EXPECT_EQ(query_s32(pd2, query::num_of_inputs_s32), 1);
}

TEST(Reduction, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a(sdims, dt::f32, tag::nchw),
            r({1, 19, 1, 1}, dt::f32, tag::nchw);
    auto create = [&](algorithm alg, const memory::desc &s,
                          const memory::desc &d, float p, float eps,
                          const primitive_attr &attr = primitive_attr()) {
        return status_of([&] {
            reduction::primitive_desc(eng, alg, s, d, p, eps, attr);
        });
    };
    EXPECT_EQ(create(algorithm::reduction_sum, a, r, 0, 0), dnnl_success);
    EXPECT_EQ(create(algorithm::reduction_sum, a, a, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::reduction_sum, a,
                      memory::desc({1, 2, 1, 1}, dt::f32, tag::nchw), 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::reduction_sum, a,
                      memory::desc({19}, dt::f32, tag::a), 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            create(algorithm::binary_add, a, r, 0, 0), dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::reduction_norm_lp_sum, a, r, 0.5f, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::reduction_norm_lp_sum, a, r, INFINITY, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::reduction_norm_lp_max,
                      memory::desc(sdims, dt::s8, tag::nchw), r, 2, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::reduction_sum,
                      memory::desc(sdims, dt::f32, tag::any), r, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(create(algorithm::reduction_sum,
                      memory::desc(sdims, dt::f64, tag::nchw), r, 0, 0),
            dnnl_unimplemented);
    primitive_attr scales;
    scales.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(create(algorithm::reduction_sum, a, r, 0, 0, scales),
            dnnl_unimplemented);
    primitive_attr prelu;
    post_ops po;
    po.append_prelu(0);
    prelu.set_post_ops(po);
    EXPECT_EQ(create(algorithm::reduction_sum, a, r, 0, 0, prelu),
            dnnl_unimplemented);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, eng.get(),
                      dnnl_reduction_sum, nullptr, r.get(), 0, 0, nullptr),
            dnnl_invalid_arguments);
}

TEST(Reduction, GpuEngineIsUnimplemented) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a(sdims, dt::f32, tag::nchw),
            r({1, 19, 1, 1}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        reduction::primitive_desc(eng, algorithm::reduction_sum, a, r, 0, 0);
    }),
            dnnl_unimplemented);
}
