// Sum primitive tests: 1 to 5 sources with scales, mixed layouts (plain,
// channels-last, blocked with padding) and data types, destinations given
// or inferred (null / `any`), in-place, queries, bad parameters and the gpu
// engine; every implementation is compared with tests/reference/sum_ref.*.
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

#include "reference/sum_ref.hpp"

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

// Runs a sum of `srcs` (dst null: inferred) with every implementation.
void check(const std::vector<memory::desc> &srcs,
        const std::vector<float> &scales, const memory::desc *dst,
        bool in_place = false, unsigned seed = 1) {
    std::string trace;
    for (const auto &s : srcs) trace += describe(s) + " | ";
    SCOPED_TRACE(trace);
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    std::vector<std::vector<double>> vals;
    for (const auto &s : srcs)
        vals.push_back(
                random_values(count(dims_of(s)), s.get_data_type(), gen));
    sum::primitive_desc pd = dst ? sum::primitive_desc(eng, *dst, scales, srcs)
                                 : sum::primitive_desc(eng, scales, srcs);
    const auto dmd = pd.dst_desc();
    const dt ddt = dmd.get_data_type();
    std::vector<double> sc(scales.begin(), scales.end());
    const auto expected = sum_ref::compute(vals, sc);
    EXPECT_EQ(query_s32(pd, query::num_of_inputs_s32), (int)srcs.size());
    for (size_t i = 0; i < srcs.size(); ++i)
        EXPECT_EQ(pd.src_desc((int)i), srcs[i]);
    for_each_impl(pd, [&](const sum::primitive_desc &ipd) {
        std::unordered_map<int, memory> args;
        std::vector<memory> ms;
        for (size_t i = 0; i < srcs.size(); ++i) {
            ms.push_back(to_memory(eng, srcs[i], vals[i]));
            args[DNNL_ARG_MULTIPLE_SRC + (int)i] = ms.back();
        }
        memory md = in_place ? ms[0] : memory(dmd, eng);
        if (!in_place) {
            std::memset(md.get_data_handle(), 0x55, dmd.get_size());
            fill_padding(md, 3);
        }
        args[DNNL_ARG_DST] = md;
        sum(ipd).execute(strm, args);
        strm.wait();
        EXPECT_TRUE(
                matches(from_memory(md), expected, ddt, tol_for(ddt, 1e-6)));
        EXPECT_TRUE(padding_is_zero(md));
    });
}

} // namespace

TEST(Sum, LayoutsAndSourceCounts) {
    const memory::dims d = {2, 19, 3, 5};
    const tag tags[] = {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c};
    const std::vector<float> scales = {0.5f, -2.f, 1.25f, 3.f, -0.75f};
    for (int n : {1, 2, 3, 5})
        for (tag t0 : tags)
            for (tag t1 : tags)
                for (tag td : {t0, tag::nhwc, tag::nChw16c}) {
                    std::vector<memory::desc> srcs;
                    for (int i = 0; i < n; ++i)
                        srcs.emplace_back(d, dt::f32, i % 2 ? t1 : t0);
                    memory::desc dst(d, dt::f32, td);
                    check(srcs,
                            std::vector<float>(
                                    scales.begin(), scales.begin() + n),
                            &dst);
                }
}

TEST(Sum, DataTypes) {
    const memory::dims d = {3, 17, 4, 7};
    struct c_t {
        dt a, b, d;
    };
    for (const c_t &c : {c_t{dt::bf16, dt::bf16, dt::bf16},
                 c_t{dt::f16, dt::f16, dt::f16}, c_t{dt::s8, dt::u8, dt::f32},
                 c_t{dt::f32, dt::bf16, dt::s8},
                 c_t{dt::bf16, dt::f32, dt::f32}, c_t{dt::u8, dt::u8, dt::u8},
                 c_t{dt::s32, dt::s8, dt::s32}})
        for (tag t : {tag::nchw, tag::nChw16c}) {
            memory::desc dst(d, c.d, t);
            check({memory::desc(d, c.a, t), memory::desc(d, c.b, tag::nhwc)},
                    {1.f, 0.5f}, &dst, false, 3);
        }
}

TEST(Sum, OtherRanksAndLargeRows) {
    for (const memory::dims &d :
            {memory::dims{1}, memory::dims{1000}, memory::dims{3, 5000},
                    memory::dims{2, 3, 4, 5, 6}, memory::dims{70000}}) {
        const tag t = d.size() == 1   ? tag::a
                      : d.size() == 2 ? tag::ab
                      : d.size() == 4 ? tag::abcd
                                      : tag::abcde;
        memory::desc s(d, dt::f32, t);
        check({s, s, s}, {1.f, 2.f, -1.f}, &s, false, 5);
    }
}

TEST(Sum, InferredDestination) {
    engine eng(engine::kind::cpu, 0);
    const memory::dims d = {2, 19, 3, 5};
    // Plain sources: the layout and data type of the first.
    {
        memory::desc a(d, dt::bf16, tag::nhwc), b(d, dt::f32, tag::nchw);
        sum::primitive_desc pd(eng, {1.f, 1.f}, {a, b});
        EXPECT_EQ(pd.dst_desc(), a);
        check({a, b}, {1.f, -1.f}, nullptr);
    }
    // The first blocked source gives the layout; dst keeps its own type.
    {
        memory::desc a(d, dt::f32, tag::nhwc), b(d, dt::bf16, tag::nChw8c);
        sum::primitive_desc pd(eng, {1.f, 1.f}, {a, b});
        EXPECT_EQ(pd.dst_desc(), memory::desc(d, dt::f32, tag::nChw8c));
        memory::desc any(d, dt::bf16, tag::any);
        sum::primitive_desc pd2(eng, any, {1.f, 1.f}, {a, b});
        EXPECT_EQ(pd2.dst_desc(), memory::desc(d, dt::bf16, tag::nChw8c));
        check({a, b}, {2.f, 0.5f}, &any);
    }
}

TEST(Sum, InPlace) {
    const memory::dims d = {2, 19, 3, 5};
    for (tag t : {tag::nchw, tag::nChw16c}) {
        memory::desc s(d, dt::f32, t);
        check({s, s, s}, {1.f, 2.f, 3.f}, &s, true, 7);
    }
}

TEST(Sum, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    const memory::desc b({2, 3, 4, 6}, dt::f32, tag::nchw);
    const float scales[] = {1.f, 1.f};
    dnnl_primitive_desc_t pd = nullptr;
    const_dnnl_memory_desc_t srcs[] = {a.get(), a.get()};
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 2, scales, srcs, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), nullptr, 2, scales, srcs, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 2, nullptr, srcs, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 0, scales, srcs, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), a.get(), 2, scales, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      nullptr, eng.get(), a.get(), 2, scales, srcs, nullptr),
            dnnl_invalid_arguments);
    const_dnnl_memory_desc_t mixed[] = {a.get(), b.get()};
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), nullptr, 2, scales, mixed, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), b.get(), 2, scales, srcs, nullptr),
            dnnl_invalid_arguments);
    const memory::desc any({2, 3, 4, 5}, dt::f32, tag::any);
    const_dnnl_memory_desc_t with_any[] = {a.get(), any.get()};
    EXPECT_EQ(dnnl_sum_primitive_desc_create(
                      &pd, eng.get(), nullptr, 2, scales, with_any, nullptr),
            dnnl_invalid_arguments);
    primitive_attr sc;
    sc.set_scales_mask(DNNL_ARG_MULTIPLE_SRC, 0);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a}, sc);
    }),
            dnnl_unimplemented);
    primitive_attr po_attr;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po_attr.set_post_ops(po);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a}, po_attr);
    }),
            dnnl_unimplemented);
    primitive_attr user_scratch;
    user_scratch.set_scratchpad_mode(scratchpad_mode::user);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a}, user_scratch);
    }),
            dnnl_success);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f},
                {a, memory::desc({2, 3, 4, 5}, dt::f64, tag::nchw)});
    }),
            dnnl_unimplemented);
}

TEST(Sum, GpuEngineIsUnimplemented) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a({2, 3, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        sum::primitive_desc(eng, {1.f, 1.f}, {a, a});
    }),
            dnnl_unimplemented);
}
