// Glue shared by the primitive tests, between the library's memory objects
// and the naive references in tests/reference/.
//
// Two families, because the tests use two ways of moving data in and out:
// - element-exact access through the reference's layout model
//   (reorder_ref::layout_t): `to_memory` / `from_memory` read and write the
//   logical values of any layout and data type without calling the library,
//   so a test of a primitive never relies on the reorder it would also test;
//   with value generators, tolerances, comparison and padding checks;
// - plain f32 round trips through the library's reorder (`to_mem` /
//   `from_mem`), for tests that already trust the reorder and only care
//   about f32 values;
// plus small helpers for C++ API calls that must fail and for walking every
// implementation of a primitive descriptor.
//
// Everything is inline in namespace tensor_glue; a test brings it in with
// `using namespace tensor_glue;` inside its own anonymous namespace.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/compare.hpp"

// The library's test hook: next_impl over reorder, sum and concat too
// (the public call ends at once for them, as oneDNN's).
dnnl_status_t dnnl_test_primitive_desc_next_impl(dnnl_primitive_desc_t pd);
#include "reference/reorder_ref.hpp"

namespace tensor_glue {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;
namespace rr = reorder_ref;

// ---- the reference's view of a memory descriptor

// A type the tests do not use is a bug of the test, not of the library.
inline rr::dtype ref_dt(dt d) {
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
    case dt::u8:
        return rr::dtype::u8;
    case dt::f8_e5m2:
        return rr::dtype::f8_e5m2;
    case dt::f8_e4m3:
        return rr::dtype::f8_e4m3;
    case dt::f64:
        return rr::dtype::f64;
    default:
        ADD_FAILURE() << "unexpected data type";
        return rr::dtype::f32;
    }
}

inline const char *dt_name(dt d) {
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
    case dt::f8_e5m2:
        return "f8_e5m2";
    case dt::f8_e4m3:
        return "f8_e4m3";
    case dt::f64:
        return "f64";
    default:
        return "?";
    }
}

// Built from the public queries only, so that the tests check what the
// library tells its users, not its internals.
inline rr::layout_t layout_of(const dnnl::memory::desc &md) {
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

// One line for a failure message: everything that tells two layouts apart.
inline std::string describe(const dnnl::memory::desc &md) {
    std::string s = dt_name(md.get_data_type());
    auto list = [&](const char *title, const dnnl::memory::dims &v) {
        s += std::string(" ") + title + ":";
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? "x" : "") + std::to_string(v[i]);
    };
    list("dims", md.get_dims());
    list("strides", md.get_strides());
    list("blocks", md.get_inner_blks());
    list("idxs", md.get_inner_idxs());
    s += " off0:" + std::to_string(md.get_submemory_offset());
    return s;
}

inline std::vector<int64_t> dims_of(const dnnl::memory::desc &md) {
    const auto d = md.get_dims();
    return std::vector<int64_t>(d.begin(), d.end());
}

// Number of elements of a tensor of dims `d`.
inline int64_t count(const std::vector<int64_t> &d) {
    int64_t n = 1;
    for (auto v : d) n *= v;
    return n;
}

// Dense row-major f32 descriptor of dims `d` (by strides, so that any
// rank works; binary post-op sources use it).
inline dnnl::memory::desc plain_f32(const std::vector<int64_t> &d) {
    dnnl::memory::dims dims(d.begin(), d.end());
    dnnl::memory::dims strides(d.size(), 1);
    for (int k = (int)d.size() - 2; k >= 0; --k)
        strides[k] = strides[k + 1] * d[k + 1];
    return dnnl::memory::desc(dims, dt::f32, strides);
}

// ---- element-exact data movement

// Random values exactly representable in `d`: quarter steps in [lo, hi]
// for floating types, integers for s8/u8/s32 (clamped to the type).
inline std::vector<double> random_values(
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
        // Quarter steps, exact in the 16-bit types; f8 keeps 2-3 mantissa
        // bits, so its values are rounded to the type here.
        std::uniform_int_distribution<int> u((int)(lo * 4), (int)(hi * 4));
        const bool f8 = d == dt::f8_e5m2 || d == dt::f8_e4m3;
        for (auto &x : v)
            x = f8 ? rr::round_to(ref_dt(d), u(gen) / 4.0) : u(gen) / 4.0;
    }
    return v;
}

// Host view of a memory object's bytes on any engine: CPU memory maps to
// its own buffer, gpu memory is copied to the host and back on release.
struct mapped_t {
    explicit mapped_t(const dnnl::memory &m) : mem(m) {
        ptr = static_cast<uint8_t *>(mem.get_data_handle()
                        ? mem.map_data()
                        : nullptr);
    }
    ~mapped_t() {
        if (ptr) mem.unmap_data(ptr);
    }
    mapped_t(const mapped_t &) = delete;
    mapped_t &operator=(const mapped_t &) = delete;
    dnnl::memory mem;
    uint8_t *ptr = nullptr;
};

// A host copy of a memory object's bytes (any engine).
inline std::vector<uint8_t> host_bytes(const dnnl::memory &m) {
    mapped_t map(m);
    const size_t n = m.get_desc().get_size();
    return map.ptr ? std::vector<uint8_t>(map.ptr, map.ptr + n)
                   : std::vector<uint8_t>();
}

// Memory of `md` holding logical values `vals` (row-major), zeros in the
// padding and `pattern` in every other byte (gaps of strided layouts), so
// that a primitive reading outside the tensor shows up.
inline dnnl::memory to_memory(const dnnl::engine &eng,
        const dnnl::memory::desc &md, const std::vector<double> &vals,
        uint8_t pattern = 0) {
    dnnl::memory m(md, eng);
    mapped_t map(m);
    uint8_t *p = map.ptr;
    if (!p) return m; // zero-size tensor: no buffer
    std::memset(p, pattern, md.get_size());
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        rr::store(d, p, rr::offset(l, pos), 0.0);
    });
    int64_t i = 0;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        rr::store(d, p, rr::offset(l, pos), vals[(size_t)i++]);
    });
    return m;
}

// The logical values of `m`, row-major.
inline std::vector<double> from_memory(const dnnl::memory &m) {
    const dnnl::memory::desc md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    mapped_t map(m);
    const uint8_t *p = map.ptr;
    std::vector<double> v;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        v.push_back(rr::load(d, p, rr::offset(l, pos)));
    });
    return v;
}

// True when every padding element (inside padded dims, outside dims) is 0.
inline bool padding_is_zero(const dnnl::memory &m) {
    const dnnl::memory::desc md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    mapped_t map(m);
    const uint8_t *p = map.ptr;
    bool ok = true;
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        bool pad = false;
        for (int k = 0; k < l.ndims; ++k) pad = pad || pos[k] >= l.dims[k];
        if (pad && rr::load(d, p, rr::offset(l, pos)) != 0) ok = false;
    });
    return ok;
}

// Writes `v` into every padding element (to check that outputs zero it).
inline void fill_padding(dnnl::memory &m, double v) {
    const dnnl::memory::desc md = m.get_desc();
    const rr::layout_t l = layout_of(md);
    const rr::dtype d = ref_dt(md.get_data_type());
    mapped_t map(m);
    uint8_t *p = map.ptr;
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        bool pad = false;
        for (int k = 0; k < l.ndims; ++k) pad = pad || pos[k] >= l.dims[k];
        if (pad) rr::store(d, p, rr::offset(l, pos), v);
    });
}

// ---- comparison with the reference

// Tolerance of a result computed in f32 and rounded to `d` once:
// relative `rel` (f32 arithmetic) plus one unit of the output type.
inline ref::tolerance_t tol_for(dt d, double rel = 1e-6, double abs_ = 1e-6) {
    ref::tolerance_t t;
    t.rel = rel;
    t.abs = abs_;
    t.ulps = 1;
    if (d == dt::s8 || d == dt::u8 || d == dt::s32) t.abs = std::max(abs_, 1.0);
    return t;
}

// Compares with tests/reference/compare.hpp and names the first mismatches.
inline ::testing::AssertionResult matches(const std::vector<double> &got,
        const std::vector<double> &expected, dt d,
        const ref::tolerance_t &tol) {
    if (got.size() != expected.size())
        return ::testing::AssertionFailure()
               << "size " << got.size() << " vs " << expected.size();
    if (d == dt::f64) { // compare's values pass through float
        for (size_t i = 0; i < got.size(); ++i)
            if (!ref::within_tolerance(got[i], expected[i], dnnl_f64, tol))
                return ::testing::AssertionFailure()
                       << "[" << i << "] got " << got[i] << " expected "
                       << expected[i];
        return ::testing::AssertionSuccess();
    }
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

// ---- plain f32 data through the library's reorder

// The plain (row-major) tag of a rank; undef, which no descriptor accepts,
// for ranks the tests do not use.
inline tag plain_tag(size_t ndims) {
    switch (ndims) {
    case 1:
        return tag::a;
    case 2:
        return tag::ab;
    case 3:
        return tag::abc;
    case 4:
        return tag::abcd;
    case 5:
        return tag::abcde;
    case 6:
        return tag::abcdef;
    case 7:
        return tag::abcdefg;
    case 8:
        return tag::abcdefgh;
    case 9:
        return tag::abcdefghi;
    case 10:
        return tag::abcdefghij;
    case 11:
        return tag::abcdefghijk;
    case 12:
        return tag::abcdefghijkl;
    default:
        return tag::undef;
    }
}

// `n` floats uniform in [lo, hi) from a fixed seed.
inline std::vector<float> random_f32(
        size_t n, unsigned seed, float lo = -4, float hi = 4) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v) x = u(g);
    return v;
}

// Memory of `md` (any layout and type) holding the logical row-major f32
// values `v`, converted by a reorder.
inline dnnl::memory to_mem(const std::vector<float> &v,
        const dnnl::memory::desc &md, const dnnl::engine &eng,
        dnnl::stream &s) {
    dnnl::memory::desc pmd(
            md.get_dims(), dt::f32, plain_tag(md.get_dims().size()));
    dnnl::memory p(pmd, eng), m(md, eng);
    {
        mapped_t map(p);
        std::copy(v.begin(), v.end(), reinterpret_cast<float *>(map.ptr));
    }
    dnnl::reorder(p, m).execute(s, p, m);
    s.wait();
    return m;
}

// The logical row-major values of `m` as f32, converted by a reorder.
inline std::vector<float> from_mem(
        const dnnl::memory &m, const dnnl::engine &eng, dnnl::stream &s) {
    const auto md = m.get_desc();
    dnnl::memory::desc pmd(
            md.get_dims(), dt::f32, plain_tag(md.get_dims().size()));
    dnnl::memory p(pmd, eng);
    dnnl::reorder(m, p).execute(s, const_cast<dnnl::memory &>(m), p);
    s.wait();
    mapped_t map(p);
    const float *f = reinterpret_cast<const float *>(map.ptr);
    return std::vector<float>(f, f + count(md.get_dims()));
}

// Memory of an f32 plain `md` holding `v` as is (no reorder).
inline dnnl::memory f32_memory(const dnnl::memory::desc &md,
        const dnnl::engine &eng, const std::vector<float> &v) {
    dnnl::memory m(md, eng);
    mapped_t map(m);
    std::copy(v.begin(), v.end(), reinterpret_cast<float *>(map.ptr));
    return m;
}

// The first `n` floats of the buffer of `m`, as stored.
inline std::vector<float> raw_f32(const dnnl::memory &m, size_t n) {
    mapped_t map(m);
    const float *p = reinterpret_cast<const float *>(map.ptr);
    return std::vector<float>(p, p + n);
}

// |got - ref| <= tol * (1 + |ref|) for every element.
inline void expect_near(const std::vector<float> &got,
        const std::vector<double> &ref, double tol, const char *what) {
    ASSERT_EQ(got.size(), ref.size()) << what;
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], ref[i], tol * (1 + std::fabs(ref[i])))
                << what << " at " << i;
}

// ---- C++ API helpers

// Status of a C++ API call that must fail (dnnl_success if it did not).
template <typename F>
dnnl_status_t status_of(F f) {
    try {
        f();
    } catch (const dnnl::error &e) {
        return e.status;
    }
    return dnnl_success;
}

// Runs f(pd) for every implementation the library offers for `pd`; returns
// how many there were.
template <typename PD, typename F>
int for_each_impl(PD pd, F f) {
    int n = 0;
    do {
        SCOPED_TRACE(std::string("impl ") + pd.impl_info_str());
        f(pd);
        ++n;
    } while (dnnl_test_primitive_desc_next_impl(pd.get()) == dnnl_success);
    return n;
}

inline int query_s32(const dnnl::primitive_desc_base &pd, dnnl::query what) {
    return dnnl_primitive_desc_query_s32(pd.get(), (dnnl_query_t)what, 0);
}

} // namespace tensor_glue
