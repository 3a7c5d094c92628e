// PReLU primitive tests: forward and backward with every broadcast kind of
// the weights (scalar, per channel, across channels, any subset, full),
// diff_weights reduced over their own broadcast dims, plain /
// channels-last / blocked layouts with padding, data types, `any`
// layouts, queries, bad parameters and the gpu engine; compared with
// tests/reference/prelu_ref.*.
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

#include "reference/prelu_ref.hpp"

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

void check(const memory::desc &src, const memory::desc &w,
        const memory::desc &dst, const memory::desc *dw = nullptr,
        unsigned seed = 1) {
    SCOPED_TRACE("src " + describe(src) + " w " + describe(w));
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const auto dims = dims_of(src), wd = dims_of(w);
    const auto sv = random_values(count(dims), src.get_data_type(), gen);
    const auto wv = random_values(count(wd), w.get_data_type(), gen, -2, 2);
    prelu_forward::primitive_desc fwd(
            eng, prop_kind::forward_training, src, w, dst);
    const auto wmd = fwd.weights_desc(), dmd = fwd.dst_desc();
    const dt ddt = dmd.get_data_type();
    const auto expected = prelu_ref::forward(sv, dims, wv, wd);
    for_each_impl(fwd, [&](const prelu_forward::primitive_desc &ipd) {
        memory ms = to_memory(eng, src, sv), mw = to_memory(eng, wmd, wv),
               md(dmd, eng);
        fill_padding(md, 3);
        prelu_forward(ipd).execute(
                strm, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw},
                              {DNNL_ARG_DST, md}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(md), expected, ddt, tol_for(ddt)));
        EXPECT_TRUE(padding_is_zero(md));
    });

    // Backward: diff tensors follow src and weights (or the given dw).
    const dt bdt =
            src.get_data_type() == dt::s8 || src.get_data_type() == dt::u8
                    ? dt::f32
                    : src.get_data_type();
    const memory::desc any(src.get_dims(), bdt, tag::any);
    const memory::desc dwd =
            dw ? *dw : memory::desc(w.get_dims(), dt::f32, tag::any);
    prelu_backward::primitive_desc bwd(eng, src, wmd, any, dwd, any, fwd);
    const auto ddmd = bwd.diff_dst_desc(), dsmd = bwd.diff_src_desc(),
               dwmd = bwd.diff_weights_desc();
    const auto ddv =
            random_values(count(dims), ddmd.get_data_type(), gen, -2, 2);
    std::vector<double> eds, edw;
    prelu_ref::backward(sv, dims, wv, wd, ddv, dims_of(dwmd), eds, edw);
    // diff_weights sums many products: allow for f32 accumulation.
    const double n_red = (double)count(dims) / (double)count(dims_of(dwmd));
    for_each_impl(bwd, [&](const prelu_backward::primitive_desc &ipd) {
        memory ms = to_memory(eng, src, sv), mw = to_memory(eng, wmd, wv),
               mdd = to_memory(eng, ddmd, ddv), mds(dsmd, eng), mdw(dwmd, eng);
        fill_padding(mds, 3);
        fill_padding(mdw, 3);
        prelu_backward(ipd).execute(strm,
                {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw},
                        {DNNL_ARG_DIFF_DST, mdd}, {DNNL_ARG_DIFF_SRC, mds},
                        {DNNL_ARG_DIFF_WEIGHTS, mdw}});
        strm.wait();
        EXPECT_TRUE(matches(from_memory(mds), eds, dsmd.get_data_type(),
                tol_for(dsmd.get_data_type())));
        EXPECT_TRUE(matches(from_memory(mdw), edw, dwmd.get_data_type(),
                tol_for(dwmd.get_data_type(), 1e-6 * n_red, 1e-5 * n_red)));
        EXPECT_TRUE(padding_is_zero(mds));
        EXPECT_TRUE(padding_is_zero(mdw));
    });
}

const memory::dims src_dims = {2, 19, 3, 5};
const memory::dims weight_dims[] = {{1, 1, 1, 1}, {1, 19, 1, 1}, {2, 19, 3, 5},
        {2, 1, 3, 5}, {1, 19, 3, 1}, {2, 1, 1, 5}, {1, 1, 3, 5}};

} // namespace

TEST(Prelu, BroadcastKindsAndLayouts) {
    for (const auto &wd : weight_dims)
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw8c, tag::nChw16c})
            for (tag wt : {tag::any, tag::nchw}) {
                const memory::desc src(src_dims, dt::f32, t);
                check(src, memory::desc(wd, dt::f32, wt),
                        memory::desc(src_dims, dt::f32, tag::any));
            }
}

TEST(Prelu, DataTypes) {
    struct c_t {
        dt s, w, d;
    };
    for (const c_t &c : {c_t{dt::bf16, dt::bf16, dt::bf16},
                 c_t{dt::f16, dt::f32, dt::f16},
                 c_t{dt::f32, dt::bf16, dt::bf16}, c_t{dt::s8, dt::f32, dt::s8},
                 c_t{dt::u8, dt::f32, dt::f32}})
        for (int wi : {0, 1, 2})
            check(memory::desc(src_dims, c.s, tag::nchw),
                    memory::desc(weight_dims[wi], c.w, tag::any),
                    memory::desc(src_dims, c.d, tag::any), nullptr, 3);
}

TEST(Prelu, OtherRanksAndSizes) {
    check(memory::desc({37}, dt::f32, tag::a),
            memory::desc({1}, dt::f32, tag::a),
            memory::desc({37}, dt::f32, tag::a));
    check(memory::desc({64, 300}, dt::f32, tag::ab),
            memory::desc({1, 300}, dt::f32, tag::ab),
            memory::desc({64, 300}, dt::f32, tag::ab));
    check(memory::desc({64, 300}, dt::f32, tag::ab),
            memory::desc({64, 1}, dt::f32, tag::ab),
            memory::desc({64, 300}, dt::f32, tag::ab));
    check(memory::desc({2, 3, 4, 5, 6}, dt::f32, tag::ndhwc),
            memory::desc({1, 3, 1, 1, 1}, dt::f32, tag::any),
            memory::desc({2, 3, 4, 5, 6}, dt::f32, tag::any));
    check(memory::desc({4, 64, 30, 30}, dt::f32, tag::nChw16c),
            memory::desc({1, 64, 1, 1}, dt::f32, tag::any),
            memory::desc({4, 64, 30, 30}, dt::f32, tag::any), nullptr, 5);
}

TEST(Prelu, DiffWeightsWithTheirOwnBroadcast) {
    // diff_weights reduced further than the weights broadcast.
    const memory::desc src(src_dims, dt::f32, tag::nchw);
    const memory::desc dw({1, 1, 1, 1}, dt::f32, tag::nchw);
    check(src, memory::desc({1, 19, 1, 1}, dt::f32, tag::nchw), src, &dw, 7);
    const memory::desc dw2({1, 19, 1, 1}, dt::bf16, tag::nchw);
    check(src, memory::desc({2, 19, 3, 5}, dt::f32, tag::nchw), src, &dw2, 7);
}

TEST(Prelu, AnyLayoutsAndQueries) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc src(src_dims, dt::f32, tag::nChw16c);
    prelu_forward::primitive_desc fwd(eng, prop_kind::forward_inference, src,
            memory::desc({1, 19, 1, 1}, dt::f32, tag::any),
            memory::desc(src_dims, dt::f32, tag::any));
    EXPECT_EQ(fwd.weights_desc(),
            memory::desc({1, 19, 1, 1}, dt::f32, tag::nChw16c));
    EXPECT_EQ(fwd.dst_desc(), src);
    EXPECT_EQ(fwd.get_prop_kind(), prop_kind::forward_inference);
    EXPECT_EQ(query_s32(fwd, query::num_of_inputs_s32), 2);
    const memory::desc nhwc(src_dims, dt::f32, tag::nhwc);
    const memory::desc any(src_dims, dt::f32, tag::any);
    const memory::desc wany({1, 19, 1, 1}, dt::f32, tag::any);
    prelu_backward::primitive_desc bwd(eng, nhwc, wany, any, wany, any, fwd);
    EXPECT_EQ(bwd.diff_src_desc(), nhwc);
    EXPECT_EQ(bwd.diff_dst_desc(), nhwc);
    EXPECT_EQ(bwd.weights_desc().get_strides(), (memory::dims{19, 1, 19, 19}));
    EXPECT_EQ(bwd.diff_weights_desc(), bwd.weights_desc());
    EXPECT_EQ(bwd.get_prop_kind(), prop_kind::backward);
    EXPECT_EQ(query_s32(bwd, query::num_of_inputs_s32), 3);
    EXPECT_EQ(query_s32(bwd, query::num_of_outputs_s32), 2);
}

TEST(Prelu, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    const memory::desc a(src_dims, dt::f32, tag::nchw),
            w({1, 19, 1, 1}, dt::f32, tag::nchw);
    auto fwd = [&](const memory::desc &s, const memory::desc &ww,
                       const memory::desc &d,
                       prop_kind pk = prop_kind::forward_training) {
        return status_of(
                [&] { prelu_forward::primitive_desc(eng, pk, s, ww, d); });
    };
    EXPECT_EQ(fwd(a, w, a), dnnl_success);
    EXPECT_EQ(fwd(a, memory::desc({1, 2, 1, 1}, dt::f32, tag::nchw), a),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, memory::desc({19}, dt::f32, tag::a), a),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, w, memory::desc({2, 19, 3, 6}, dt::f32, tag::nchw)),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(a, w, a, prop_kind::backward), dnnl_invalid_arguments);
    EXPECT_EQ(fwd(memory::desc(src_dims, dt::f32, tag::any), w, a),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(memory::desc(src_dims, dt::f64, tag::nchw), w, a),
            dnnl_unimplemented);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(status_of([&] {
        prelu_forward::primitive_desc(
                eng, prop_kind::forward_training, a, w, a, attr);
    }),
            dnnl_unimplemented);
    prelu_forward::primitive_desc hint(
            eng, prop_kind::forward_training, a, w, a);
    EXPECT_EQ(status_of([&] {
        prelu_backward::primitive_desc(eng, a, w, a,
                memory::desc({1, 2, 1, 1}, dt::f32, tag::nchw), a, hint);
    }),
            dnnl_invalid_arguments);
    EXPECT_EQ(status_of([&] {
        prelu_backward::primitive_desc(eng, a, w,
                memory::desc({2, 19, 3, 4}, dt::f32, tag::nchw), w, a, hint);
    }),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(
            dnnl_prelu_forward_primitive_desc_create(&pd, eng.get(),
                    dnnl_forward_training, a.get(), nullptr, a.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, eng.get(), a.get(),
                      w.get(), a.get(), nullptr, a.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    // Backward without a hint is accepted.
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, eng.get(), a.get(),
                      w.get(), a.get(), w.get(), a.get(), nullptr, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
}

TEST(Prelu, GpuEngineIsUnimplemented) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const memory::desc a(src_dims, dt::f32, tag::nchw),
            w({1, 19, 1, 1}, dt::f32, tag::nchw);
    EXPECT_EQ(status_of([&] {
        prelu_forward::primitive_desc(
                eng, prop_kind::forward_training, a, w, a);
    }),
            dnnl_unimplemented);
}
