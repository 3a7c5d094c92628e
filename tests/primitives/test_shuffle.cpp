// Shuffle primitive tests: forward and backward, every axis and group size
// dividing it, plain / channels-last / blocked layouts with padding, data
// types of every size, the backward descriptor's use of the forward hint
// (layout, and its place in the primitive cache key), queries, bad
// parameters and the gpu engine; compared with tests/reference/shuffle_ref.*.
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

#include "reference/shuffle_ref.hpp"

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

// Forward then backward of one problem: dst = shuffle(src, G) and
// diff_src = shuffle(diff_dst, C / G).
void check(const memory::desc &src, const memory::desc &dst, int axis,
        memory::dim group, unsigned seed = 1) {
    SCOPED_TRACE("axis " + std::to_string(axis) + " group "
                 + std::to_string(group) + " src " + describe(src) + " dst "
                 + describe(dst));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const auto dims = dims_of(src);
    const dt d = src.get_data_type();
    const auto sv = random_values(count(dims), d, gen);
    shuffle_forward::primitive_desc fwd(
            eng, prop_kind::forward_training, src, dst, axis, group);
    EXPECT_EQ(fwd.get_axis(), axis);
    EXPECT_EQ(fwd.get_group_size(), group);
    const auto expected = shuffle_ref::compute(sv, dims, axis, group);
    for_each_impl(fwd, [&](const shuffle_forward::primitive_desc &ipd) {
        memory ms = to_memory(eng, src, sv), md(ipd.dst_desc(), eng);
        fill_padding(md, 3);
        shuffle_forward(ipd).execute(
                strm, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(md), expected, d,
                ref::exact_tolerance((dnnl_data_type_t)d)));
        EXPECT_TRUE(padding_is_zero(md));
    });
    const memory::desc any(src.get_dims(), d, tag::any);
    shuffle_backward::primitive_desc bwd(eng, any, any, axis, group, fwd);
    // diff_src follows the hint's dst, diff_dst follows diff_src.
    EXPECT_EQ(bwd.diff_src_desc(), fwd.dst_desc());
    EXPECT_EQ(bwd.diff_dst_desc(), fwd.dst_desc());
    const auto ddv = random_values(count(dims), d, gen);
    const auto bexp = shuffle_ref::compute(ddv, dims, axis, dims[axis] / group);
    for_each_impl(bwd, [&](const shuffle_backward::primitive_desc &ipd) {
        memory mdd = to_memory(eng, ipd.diff_dst_desc(), ddv),
               mds(ipd.diff_src_desc(), eng);
        fill_padding(mds, 3);
        shuffle_backward(ipd).execute(
                strm, {{DNNL_ARG_DIFF_DST, mdd}, {DNNL_ARG_DIFF_SRC, mds}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(mds), bexp, d,
                ref::exact_tolerance((dnnl_data_type_t)d)));
        EXPECT_TRUE(padding_is_zero(mds));
    });
}

} // namespace

TEST(Shuffle, AxesGroupsAndLayouts) {
    const memory::dims d = {2, 12, 6, 4};
    for (int axis = 0; axis < 4; ++axis)
        for (memory::dim g = 1; g <= d[axis]; ++g) {
            if (d[axis] % g) continue;
            for (tag t : {tag::nchw, tag::nhwc, tag::nChw8c})
                check(memory::desc(d, dt::f32, t),
                        memory::desc(d, dt::f32, tag::any), axis, g);
        }
}

TEST(Shuffle, PaddedBlockedAndMixedLayouts) {
    const memory::dims d = {3, 18, 5, 7};
    for (int axis : {1, 2, 3})
        for (memory::dim g : {3, 6}) {
            if (d[axis] % g) continue;
            check(memory::desc(d, dt::f32, tag::nChw16c),
                    memory::desc(d, dt::f32, tag::nChw16c), axis, g, 3);
            check(memory::desc(d, dt::f32, tag::nchw),
                    memory::desc(d, dt::f32, tag::nhwc), axis, g, 3);
            check(memory::desc(d, dt::f32, tag::nChw8c),
                    memory::desc(d, dt::f32, tag::nchw), axis, g, 3);
        }
}

TEST(Shuffle, DataTypesAndRanks) {
    for (dt t : {dt::bf16, dt::f16, dt::s8, dt::u8, dt::s32})
        check(memory::desc({2, 12, 6, 4}, t, tag::nchw),
                memory::desc({2, 12, 6, 4}, t, tag::any), 1, 4, 5);
    check(memory::desc({24}, dt::f32, tag::a),
            memory::desc({24}, dt::f32, tag::a), 0, 6, 7);
    check(memory::desc({10, 24}, dt::f32, tag::ab),
            memory::desc({10, 24}, dt::f32, tag::ab), 1, 2, 7);
    check(memory::desc({10, 24}, dt::f32, tag::ab),
            memory::desc({10, 24}, dt::f32, tag::ab), 0, 5, 7);
    check(memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::ncdhw),
            memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::any), 1, 3, 7);
    check(memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::ndhwc),
            memory::desc({2, 6, 3, 4, 5}, dt::f32, tag::any), 2, 3, 7);
}

TEST(Shuffle, BackwardHintIsPartOfTheCacheKey) {
    engine eng(engine::kind::cpu, 0);
    const memory::dims d = {2, 6, 4, 5};
    const memory::desc any(d, dt::f32, tag::any);
    shuffle_forward::primitive_desc f1(eng, prop_kind::forward_training,
            memory::desc(d, dt::f32, tag::nchw), any, 1, 3);
    shuffle_forward::primitive_desc f2(eng, prop_kind::forward_training,
            memory::desc(d, dt::f32, tag::nhwc), any, 1, 3);
    shuffle_backward::primitive_desc b1(eng, any, any, 1, 3, f1);
    shuffle_backward::primitive_desc b2(eng, any, any, 1, 3, f2);
    EXPECT_EQ(b1.diff_src_desc(), memory::desc(d, dt::f32, tag::nchw));
    EXPECT_EQ(b2.diff_src_desc(), memory::desc(d, dt::f32, tag::nhwc));
    // Same operation descriptor, different hints: different primitives,
    // each with its descriptor's layouts.
    shuffle_backward p1(b1), p2(b2);
    auto diff_src_of = [](const shuffle_backward &p) {
        return dnnl_primitive_desc_query_md(
                p.get_primitive_desc(), dnnl_query_diff_src_md, 0);
    };
    EXPECT_EQ(dnnl_memory_desc_equal(diff_src_of(p1), b1.diff_src_desc().get()),
            1);
    EXPECT_EQ(dnnl_memory_desc_equal(diff_src_of(p2), b2.diff_src_desc().get()),
            1);
    // Without a hint an `any` diff_src is plain.
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_shuffle_backward_primitive_desc_create(&pd, eng.get(),
                      any.get(), any.get(), 1, 3, nullptr, nullptr),
            dnnl_success);
    shuffle_backward::primitive_desc b3(pd);
    EXPECT_EQ(b3.diff_src_desc(), memory::desc(d, dt::f32, tag::nchw));
    EXPECT_EQ(b3.get_prop_kind(), prop_kind::backward_data);
    // Repeated creation with the same hint gives equal descriptors.
    shuffle_backward::primitive_desc b4(eng, any, any, 1, 3, f2);
    EXPECT_EQ(b4.diff_dst_desc(), b2.diff_dst_desc());
}

TEST(Shuffle, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a({2, 6, 4, 5}, dt::f32, tag::nchw);
    auto fwd = [&](const memory::desc &s, const memory::desc &d, int axis,
                       memory::dim g,
                       prop_kind pk = prop_kind::forward_training) {
        return status_of([&] {
            shuffle_forward::primitive_desc(eng, pk, s, d, axis, g);
        });
    };
    EXPECT_EQ(fwd(a, a, 1, 3), dnnl_success);
    EXPECT_EQ(fwd(a, a, 1, 4), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 1, 0), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 1, -2), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 1, 12), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, a, 4, 1), dnnl_invalid_arguments);
    EXPECT_EQ(
            fwd(a, a, 1, 3, prop_kind::backward_data), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({2, 6, 4, 6}, dt::f32, tag::nchw), 1, 3),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(memory::desc({2, 6, 4, 5}, dt::f32, tag::any), a, 1, 3),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({2, 6, 4, 5}, dt::bf16, tag::nchw), 1, 3),
            dnnl_unimplemented);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(status_of([&] {
        shuffle_forward::primitive_desc(
                eng, prop_kind::forward_training, a, a, 1, 3, attr);
    }),
            dnnl_unimplemented);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(&pd, eng.get(),
                      dnnl_forward_training, nullptr, a.get(), 1, 3, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_shuffle_backward_primitive_desc_create(
                      &pd, eng.get(), a.get(), nullptr, 1, 3, nullptr, nullptr),
            dnnl_invalid_arguments);
}

TEST(Shuffle, GpuEngineIsUnimplemented) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a({2, 6, 4, 5}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        shuffle_forward::primitive_desc(
                eng, prop_kind::forward_training, a, a, 1, 3);
    }),
            dnnl_unimplemented);
}
