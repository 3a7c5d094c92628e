// Memory descriptors through the C API: layouts of format tags (every tag is
// checked against a layout derived here from its name), strides, padding,
// sizes, sub-memory, reshape, permutation, equality, queries, blobs and
// argument validation.
//
// Expected values are computed in this file (or written out by hand); the
// library is only asked for descriptors. Everything but the last section
// uses the public API only, so the same tests can be built against the real
// oneDNN with -DDNNL_TEST_AGAINST_REF to check the expectations themselves.

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"

namespace {

using dims_v = std::vector<dnnl_dim_t>;
constexpr dnnl_dim_t RT = DNNL_RUNTIME_DIM_VAL;

// Owns a descriptor handle.
struct md_ptr {
    dnnl_memory_desc_t p = nullptr;
    md_ptr() = default;
    explicit md_ptr(dnnl_memory_desc_t m) : p(m) {}
    md_ptr(const md_ptr &) = delete;
    md_ptr &operator=(const md_ptr &) = delete;
    md_ptr(md_ptr &&o) noexcept : p(o.p) { o.p = nullptr; }
    md_ptr &operator=(md_ptr &&o) noexcept {
        std::swap(p, o.p);
        return *this;
    }
    ~md_ptr() { dnnl_memory_desc_destroy(p); }
    dnnl_memory_desc_t *out() {
        dnnl_memory_desc_destroy(p);
        p = nullptr;
        return &p;
    }
    explicit operator bool() const { return p != nullptr; }
};

md_ptr by_tag(const dims_v &d, dnnl_data_type_t dt, dnnl_format_tag_t tag,
        dnnl_status_t *st = nullptr) {
    md_ptr m;
    dnnl_status_t s = dnnl_memory_desc_create_with_tag(
            m.out(), (int)d.size(), d.data(), dt, tag);
    if (st) *st = s;
    if (s != dnnl_success) m.p = nullptr;
    return m;
}

md_ptr by_strides(const dims_v &d, dnnl_data_type_t dt, const dims_v &strides,
        dnnl_status_t *st = nullptr) {
    md_ptr m;
    dnnl_status_t s = dnnl_memory_desc_create_with_strides(m.out(),
            (int)d.size(), d.data(), dt, strides.empty() ? nullptr : strides.data());
    if (st) *st = s;
    if (s != dnnl_success) m.p = nullptr;
    return m;
}

// Everything a descriptor exposes through queries.
struct md_info {
    int ndims = 0;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    int format_kind = 0;
    dnnl_dim_t offset0 = 0;
    dims_v dims, padded_dims, padded_offsets, strides, blks, idxs;
    size_t size = 0;
};

md_info info(const_dnnl_memory_desc_t md) {
    md_info r;
    EXPECT_EQ(dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &r.ndims),
            dnnl_success);
    const dnnl_dims_t *d = nullptr, *pd = nullptr, *po = nullptr;
    dnnl_memory_desc_query(md, dnnl_query_dims, &d);
    dnnl_memory_desc_query(md, dnnl_query_padded_dims, &pd);
    dnnl_memory_desc_query(md, dnnl_query_padded_offsets, &po);
    dnnl_memory_desc_query(md, dnnl_query_data_type, &r.dt);
    dnnl_memory_desc_query(md, dnnl_query_format_kind, &r.format_kind);
    dnnl_memory_desc_query(md, dnnl_query_submemory_offset_s64, &r.offset0);
    r.dims.assign(*d, *d + r.ndims);
    r.padded_dims.assign(*pd, *pd + r.ndims);
    r.padded_offsets.assign(*po, *po + r.ndims);
    if (r.format_kind == dnnl_blocked) {
        const dnnl_dims_t *st = nullptr, *ib = nullptr, *ii = nullptr;
        int nb = 0;
        dnnl_memory_desc_query(md, dnnl_query_strides, &st);
        dnnl_memory_desc_query(md, dnnl_query_inner_nblks_s32, &nb);
        dnnl_memory_desc_query(md, dnnl_query_inner_blks, &ib);
        dnnl_memory_desc_query(md, dnnl_query_inner_idxs, &ii);
        r.strides.assign(*st, *st + r.ndims);
        r.blks.assign(*ib, *ib + nb);
        r.idxs.assign(*ii, *ii + nb);
    }
    r.size = dnnl_memory_desc_get_size(md);
    return r;
}

// ---------------------------------------------------------------------------
// A layout model built from a tag name, independently of the library:
// lower-case letters are plain dims, upper-case letters the outer part of
// blocked dims (outermost first), and each "<N><letter>" an inner block,
// innermost last.
struct name_layout {
    bool ok = false;
    int ndims = 0;
    std::vector<int> order; // outer dims, outermost first
    std::vector<std::pair<int, dnnl_dim_t>> inner; // (dim, block)
};

name_layout layout_from_name(const std::string &name) {
    name_layout l;
    std::vector<bool> upper(26, false), blocked(26, false), seen(26, false);
    size_t i = 0;
    while (i < name.size()) {
        dnnl_dim_t num = 0;
        bool has_num = false;
        while (i < name.size() && isdigit((unsigned char)name[i])) {
            num = num * 10 + (name[i] - '0');
            has_num = true;
            ++i;
        }
        if (i == name.size()) return l;
        const char c = name[i++];
        if (has_num) {
            if (!islower((unsigned char)c)) return l;
            l.inner.emplace_back(c - 'a', num);
            blocked[c - 'a'] = true;
        } else if (islower((unsigned char)c) || isupper((unsigned char)c)) {
            const int d = islower((unsigned char)c) ? c - 'a' : c - 'A';
            if (seen[d]) return l;
            seen[d] = true;
            upper[d] = isupper((unsigned char)c);
            l.order.push_back(d);
        } else {
            return l;
        }
    }
    l.ndims = (int)l.order.size();
    for (int d = 0; d < 26; ++d) {
        if ((d < l.ndims) != seen[d]) return l;
        if (upper[d] != blocked[d]) return l;
    }
    l.ok = l.ndims > 0 && l.ndims <= DNNL_MAX_NDIMS;
    return l;
}

// Expected descriptor of `dims` in a name layout.
struct expected_md {
    dims_v padded_dims, strides, blks, idxs;
    dnnl_dim_t nelems_padded = 1; // elements including padding
};

expected_md expect(const name_layout &l, const dims_v &dims) {
    expected_md e;
    const int nd = l.ndims;
    dims_v block(nd, 1);
    dnnl_dim_t inner_size = 1;
    for (auto &b : l.inner) {
        block[b.first] *= b.second;
        inner_size *= b.second;
        e.blks.push_back(b.second);
        e.idxs.push_back(b.first);
    }
    e.padded_dims.resize(nd);
    for (int d = 0; d < nd; ++d) {
        e.padded_dims[d] = (dims[d] + block[d] - 1) / block[d] * block[d];
        e.nelems_padded *= e.padded_dims[d];
    }
    e.strides.assign(nd, 0);
    dnnl_dim_t s = inner_size;
    for (int i = nd - 1; i >= 0; --i) {
        const int d = l.order[i];
        e.strides[d] = s;
        if (e.padded_dims[d] != 0) s *= e.padded_dims[d] / block[d];
    }
    return e;
}

// Physical offset (in elements) of a logical position in a name layout.
dnnl_dim_t naive_offset(
        const name_layout &l, const expected_md &e, const dims_v &pos) {
    dims_v outer = pos;
    dnnl_dim_t off = 0, inner_stride = 1;
    for (int i = (int)l.inner.size() - 1; i >= 0; --i) {
        const int d = l.inner[i].first;
        const dnnl_dim_t b = l.inner[i].second;
        off += (outer[d] % b) * inner_stride;
        outer[d] /= b;
        inner_stride *= b;
    }
    for (int d = 0; d < l.ndims; ++d)
        off += outer[d] * e.strides[d];
    return off;
}

dims_v row_major(const dims_v &d) {
    dims_v s(d.size(), 1);
    for (int i = (int)d.size() - 2; i >= 0; --i)
        s[i] = s[i + 1] * d[i + 1];
    return s;
}

dims_v first_dims(const dims_v &d, int n) {
    return dims_v(d.begin(), d.begin() + n);
}

const dims_v odd_dims = {5, 3, 7, 2, 9, 4, 3, 2, 5, 3, 2, 3};
const dims_v zero_dims = {2, 0, 5, 3, 1, 3, 2, 2, 0, 1, 2, 3};

} // namespace

// ---------------------------------------------------------------------------
// Every tag

TEST(MemoryDescTags, EveryTagBuildsTheLayoutItsNameSpells) {
    int checked = 0;
    for (int t = dnnl_format_tag_undef + 1; t < dnnl_format_tag_last; ++t) {
        const auto tag = (dnnl_format_tag_t)t;
        const std::string name = dnnl_fmt_tag2str(tag);
        SCOPED_TRACE("tag " + name);
        if (tag == dnnl_format_tag_any) {
            auto m = by_tag({2, 3}, dnnl_f32, tag);
            ASSERT_TRUE(m);
            EXPECT_EQ(info(m.p).format_kind, dnnl_format_kind_any);
            continue;
        }
        const name_layout l = layout_from_name(name);
        ASSERT_TRUE(l.ok) << "name does not parse";
        for (int nd = 1; nd <= DNNL_MAX_NDIMS; ++nd) {
            dnnl_status_t st;
            auto m = by_tag(first_dims(odd_dims, nd), dnnl_f32, tag, &st);
            if (nd != l.ndims) {
                EXPECT_EQ(st, dnnl_invalid_arguments) << "ndims " << nd;
                continue;
            }
            ASSERT_EQ(st, dnnl_success);
            for (const dims_v *pat : {&odd_dims, &zero_dims}) {
                const dims_v dims = first_dims(*pat, nd);
                auto md = by_tag(dims, dnnl_f32, tag);
                ASSERT_TRUE(md);
                const md_info got = info(md.p);
                const expected_md e = expect(l, dims);
                EXPECT_EQ(got.format_kind, dnnl_blocked);
                EXPECT_EQ(got.dims, dims);
                EXPECT_EQ(got.padded_dims, e.padded_dims);
                EXPECT_EQ(got.padded_offsets, dims_v(nd, 0));
                EXPECT_EQ(got.offset0, 0);
                EXPECT_EQ(got.strides, e.strides);
                EXPECT_EQ(got.blks, e.blks);
                EXPECT_EQ(got.idxs, e.idxs);
                bool has_zero = false;
                for (auto v : dims)
                    has_zero |= v == 0;
                EXPECT_EQ(got.size,
                        has_zero ? 0 : (size_t)e.nelems_padded * sizeof(float));
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 800);
}

TEST(MemoryDescTags, AliasesShareTheLayoutOfTheirLetterTag) {
    const std::pair<dnnl_format_tag_t, dnnl_format_tag_t> pairs[] = {
            {dnnl_x, dnnl_a}, {dnnl_nc, dnnl_ab}, {dnnl_cn, dnnl_ba},
            {dnnl_nchw, dnnl_abcd}, {dnnl_nhwc, dnnl_acdb},
            {dnnl_chwn, dnnl_bcda}, {dnnl_ndhwc, dnnl_acdeb},
            {dnnl_oihw, dnnl_abcd}, {dnnl_goihw, dnnl_abcde},
            {dnnl_OIhw16i16o, dnnl_ABcd16b16a},
            {dnnl_OIhw4i16o4i, dnnl_ABcd4b16a4b},
            {dnnl_gOIhw16i16o, dnnl_aBCde16c16b},
            {dnnl_nChw16c, dnnl_aBcd16b}, {dnnl_nCdhw8c, dnnl_aBcde8b}};
    for (auto &p : pairs) {
        EXPECT_EQ((int)p.first, (int)p.second);
        EXPECT_STREQ(dnnl_fmt_tag2str(p.first), dnnl_fmt_tag2str(p.second));
    }
}

// ---------------------------------------------------------------------------
// Families written out by hand

TEST(MemoryDescTags, PlainUpTo12D) {
    const dnnl_format_tag_t plain[] = {dnnl_a, dnnl_ab, dnnl_abc, dnnl_abcd,
            dnnl_abcde, dnnl_abcdef, dnnl_abcdefg, dnnl_abcdefgh,
            dnnl_abcdefghi, dnnl_abcdefghij, dnnl_abcdefghijk,
            dnnl_abcdefghijkl};
    for (int nd = 1; nd <= 12; ++nd) {
        const dims_v dims = first_dims(odd_dims, nd);
        auto m = by_tag(dims, dnnl_bf16, plain[nd - 1]);
        ASSERT_TRUE(m) << nd;
        const md_info i = info(m.p);
        EXPECT_EQ(i.strides, row_major(dims));
        EXPECT_TRUE(i.blks.empty());
        dnnl_dim_t n = 1;
        for (auto v : dims)
            n *= v;
        EXPECT_EQ(i.size, (size_t)n * 2);
    }
}

TEST(MemoryDescTags, ChannelsLast) {
    // nhwc over {N, C, H, W} = {2, 3, 5, 7}
    auto m = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_nhwc);
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, (dims_v {105, 1, 21, 3}));
    m = by_tag({2, 3, 5, 7, 4}, dnnl_f32, dnnl_ndhwc);
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, (dims_v {420, 1, 84, 12, 3}));
    m = by_tag({2, 3, 5}, dnnl_f32, dnnl_nwc);
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, (dims_v {15, 1, 3}));
    m = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_chwn);
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, (dims_v {1, 70, 14, 2}));
    m = by_tag({4, 6}, dnnl_f32, dnnl_ba);
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, (dims_v {1, 4}));
}

TEST(MemoryDescTags, BlockedChannelsWithPadding) {
    // aBcd16b: C = 20 is padded to 32.
    auto m = by_tag({2, 20, 5, 7}, dnnl_f32, dnnl_aBcd16b);
    ASSERT_TRUE(m);
    md_info i = info(m.p);
    EXPECT_EQ(i.padded_dims, (dims_v {2, 32, 5, 7}));
    EXPECT_EQ(i.strides, (dims_v {2 * 5 * 7 * 16, 5 * 7 * 16, 7 * 16, 16}));
    EXPECT_EQ(i.blks, (dims_v {16}));
    EXPECT_EQ(i.idxs, (dims_v {1}));
    EXPECT_EQ(i.size, (size_t)2 * 32 * 5 * 7 * 4);

    m = by_tag({2, 20, 5, 7}, dnnl_f32, dnnl_aBcd8b);
    ASSERT_TRUE(m);
    i = info(m.p);
    EXPECT_EQ(i.padded_dims, (dims_v {2, 24, 5, 7}));
    EXPECT_EQ(i.strides, (dims_v {3 * 5 * 7 * 8, 5 * 7 * 8, 7 * 8, 8}));
    EXPECT_EQ(i.size, (size_t)2 * 24 * 5 * 7 * 4);
}

TEST(MemoryDescTags, DoubleBlocked) {
    // ABcd8b8a over {2, 3, 5, 7}: both a and b padded to 8.
    auto m = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_ABcd8b8a);
    ASSERT_TRUE(m);
    md_info i = info(m.p);
    EXPECT_EQ(i.padded_dims, (dims_v {8, 8, 5, 7}));
    EXPECT_EQ(i.strides, (dims_v {2240, 2240, 448, 64}));
    EXPECT_EQ(i.blks, (dims_v {8, 8}));
    EXPECT_EQ(i.idxs, (dims_v {1, 0}));
    EXPECT_EQ(i.size, (size_t)8 * 8 * 5 * 7 * 4);

    // OIhw4i16o4i = ABcd4b16a4b: the input channel is split in two blocks.
    m = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_OIhw4i16o4i);
    ASSERT_TRUE(m);
    i = info(m.p);
    EXPECT_EQ(i.padded_dims, (dims_v {16, 16, 5, 7}));
    EXPECT_EQ(i.strides, (dims_v {8960, 8960, 1792, 256}));
    EXPECT_EQ(i.blks, (dims_v {4, 16, 4}));
    EXPECT_EQ(i.idxs, (dims_v {1, 0, 1}));
    EXPECT_EQ(i.size, (size_t)35840);

    // ABcd16a16b over {33, 17, 1, 1}.
    m = by_tag({33, 17, 1, 1}, dnnl_s8, dnnl_ABcd16a16b);
    ASSERT_TRUE(m);
    i = info(m.p);
    EXPECT_EQ(i.padded_dims, (dims_v {48, 32, 1, 1}));
    EXPECT_EQ(i.strides, (dims_v {512, 256, 256, 256}));
    EXPECT_EQ(i.size, (size_t)48 * 32);
}

TEST(MemoryDescTags, GroupedWeights) {
    // gOIhw16i16o = aBCde16c16b over {G, O, I, H, W} = {2, 3, 5, 7, 4}.
    auto m = by_tag({2, 3, 5, 7, 4}, dnnl_f32, dnnl_gOIhw16i16o);
    ASSERT_TRUE(m);
    const md_info i = info(m.p);
    EXPECT_EQ(i.padded_dims, (dims_v {2, 16, 16, 7, 4}));
    EXPECT_EQ(i.strides, (dims_v {7168, 7168, 7168, 1024, 256}));
    EXPECT_EQ(i.blks, (dims_v {16, 16}));
    EXPECT_EQ(i.idxs, (dims_v {2, 1}));
    EXPECT_EQ(i.size, (size_t)2 * 16 * 16 * 7 * 4 * 4);

    // goihw is plain 5D.
    m = by_tag({2, 3, 5, 7, 4}, dnnl_f32, dnnl_goihw);
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, row_major({2, 3, 5, 7, 4}));
}

TEST(MemoryDescTags, FormatAnyAndUndef) {
    auto m = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_format_tag_any);
    ASSERT_TRUE(m);
    md_info i = info(m.p);
    EXPECT_EQ(i.format_kind, dnnl_format_kind_any);
    EXPECT_EQ(i.padded_dims, (dims_v {2, 3, 5, 7}));
    EXPECT_EQ(i.size, 0u);
    int32_t nb;
    EXPECT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_inner_nblks_s32, &nb),
            dnnl_invalid_arguments);

    // Tag undef yields the zero descriptor.
    dnnl_status_t st;
    m = by_tag({2, 3}, dnnl_f32, dnnl_format_tag_undef, &st);
    ASSERT_EQ(st, dnnl_success);
    i = info(m.p);
    EXPECT_EQ(i.ndims, 0);
    EXPECT_EQ(i.format_kind, dnnl_format_kind_undef);
}

// ---------------------------------------------------------------------------
// Zero descriptor, zero dims, runtime dims

TEST(MemoryDesc, ZeroDescriptor) {
    md_ptr a, b;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(
                      a.out(), 0, nullptr, dnnl_f32, dnnl_nchw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(
                      b.out(), 0, nullptr, dnnl_f32, nullptr),
            dnnl_success);
    const md_info i = info(a.p);
    EXPECT_EQ(i.ndims, 0);
    EXPECT_EQ(i.format_kind, dnnl_format_kind_undef);
    EXPECT_EQ(i.size, 0u);
    EXPECT_EQ(dnnl_memory_desc_equal(a.p, b.p), 1);
    auto c = by_tag({1}, dnnl_f32, dnnl_a);
    EXPECT_EQ(dnnl_memory_desc_equal(a.p, c.p), 0);
}

TEST(MemoryDesc, ZeroSizedDims) {
    auto m = by_tag({2, 0, 5, 7}, dnnl_f32, dnnl_aBcd16b);
    ASSERT_TRUE(m);
    md_info i = info(m.p);
    EXPECT_EQ(i.padded_dims, (dims_v {2, 0, 5, 7}));
    EXPECT_EQ(i.size, 0u);
    m = by_strides({3, 0}, dnnl_f32, {});
    ASSERT_TRUE(m);
    i = info(m.p);
    EXPECT_EQ(i.strides, (dims_v {0, 1}));
    EXPECT_EQ(i.size, 0u);
}

TEST(MemoryDesc, RuntimeDims) {
    auto m = by_tag({2, RT, 5, 7}, dnnl_f32, dnnl_nhwc);
    ASSERT_TRUE(m);
    md_info i = info(m.p);
    EXPECT_EQ(i.padded_dims[1], RT);
    EXPECT_EQ(i.strides, (dims_v {RT, 1, RT, RT}));
    EXPECT_EQ(i.size, DNNL_RUNTIME_SIZE_VAL);

    m = by_tag({2, RT, 5, 7}, dnnl_f32, dnnl_aBcd16b);
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, (dims_v {RT, 560, 112, 16}));

    m = by_strides({2, RT, 5, 7}, dnnl_f32, {});
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, (dims_v {RT, RT, 7, 1}));

    // Explicit runtime strides are accepted as they are.
    m = by_strides({2, 3}, dnnl_f32, {RT, 1});
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).size, DNNL_RUNTIME_SIZE_VAL);

    dnnl_status_t st;
    by_tag({2, RT}, dnnl_f32, dnnl_format_tag_any, &st);
    EXPECT_EQ(st, dnnl_invalid_arguments);
}

// ---------------------------------------------------------------------------
// Strides

TEST(MemoryDescStrides, DenseGapsBroadcastAndOverlap) {
    dnnl_status_t st;
    auto m = by_strides({2, 3, 5, 7}, dnnl_f32, {});
    ASSERT_TRUE(m);
    EXPECT_EQ(info(m.p).strides, row_major({2, 3, 5, 7}));
    EXPECT_EQ(info(m.p).size, (size_t)2 * 3 * 5 * 7 * 4);

    // Column-major-like order.
    m = by_strides({2, 3, 5, 7}, dnnl_f32, {1, 2, 6, 30}, &st);
    ASSERT_EQ(st, dnnl_success);
    EXPECT_EQ(info(m.p).size, (size_t)7 * 30 * 4);

    // Gaps between rows: size covers the last element.
    m = by_strides({3, 4}, dnnl_f32, {10, 1}, &st);
    ASSERT_EQ(st, dnnl_success);
    EXPECT_EQ(info(m.p).size, (size_t)30 * 4);

    // Broadcast (stride 0).
    m = by_strides({2, 3, 5, 7}, dnnl_f32, {0, 35, 7, 1}, &st);
    ASSERT_EQ(st, dnnl_success);
    EXPECT_EQ(info(m.p).size, (size_t)105 * 4);

    // Overlapping and negative strides are rejected.
    by_strides({2, 3, 5, 7}, dnnl_f32, {105, 34, 7, 1}, &st);
    EXPECT_EQ(st, dnnl_invalid_arguments);
    by_strides({2, 3, 5, 7}, dnnl_f32, {-105, 35, 7, 1}, &st);
    EXPECT_EQ(st, dnnl_invalid_arguments);
    by_strides({4, 4}, dnnl_f32, {1, 1}, &st);
    EXPECT_EQ(st, dnnl_invalid_arguments);

    // Unit dims may carry any stride.
    m = by_strides({1, 5, 1}, dnnl_f32, {-1, 34, 22}, &st);
    EXPECT_EQ(st, dnnl_success);
}

TEST(MemoryDescStrides, EqualToTagBuilt) {
    const dims_v dims = {2, 3, 5, 7};
    auto t = by_tag(dims, dnnl_f32, dnnl_nhwc);
    auto s = by_strides(dims, dnnl_f32, {105, 1, 21, 3});
    ASSERT_TRUE(t && s);
    EXPECT_EQ(dnnl_memory_desc_equal(t.p, s.p), 1);
    auto n = by_tag(dims, dnnl_f32, dnnl_nchw);
    EXPECT_EQ(dnnl_memory_desc_equal(t.p, n.p), 0);
    auto other_dt = by_tag(dims, dnnl_s8, dnnl_nhwc);
    EXPECT_EQ(dnnl_memory_desc_equal(t.p, other_dt.p), 0);

    // Unit dims: their strides do not matter for equality.
    auto a = by_tag({2, 1, 5, 7}, dnnl_f32, dnnl_nchw);
    auto b = by_tag({2, 1, 5, 7}, dnnl_f32, dnnl_nhwc);
    auto c = by_strides({2, 1, 5, 7}, dnnl_f32, {35, 1000, 7, 1});
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(dnnl_memory_desc_equal(a.p, b.p), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(a.p, c.p), 1);
}

TEST(MemoryDescStrides, SubByteTypes) {
    dnnl_status_t st;
    // Two s4 values per byte; sizes round up.
    auto m = by_tag({3}, dnnl_s4, dnnl_a, &st);
    ASSERT_EQ(st, dnnl_success);
    EXPECT_EQ(info(m.p).size, 2u);
    m = by_tag({2, 3, 5, 8}, dnnl_u4, dnnl_abcd, &st);
    ASSERT_EQ(st, dnnl_success);
    EXPECT_EQ(info(m.p).size, (size_t)2 * 3 * 5 * 8 / 2);
    m = by_tag({3, 5}, dnnl_f4_e2m1, dnnl_AB16b16a, &st);
    ASSERT_EQ(st, dnnl_success);
    EXPECT_EQ(info(m.p).size, 128u);
    // Rows that would start inside a byte are rejected.
    by_tag({3, 7}, dnnl_s4, dnnl_ab, &st);
    EXPECT_EQ(st, dnnl_invalid_arguments);
    by_strides({3, 7}, dnnl_s4, {7, 1}, &st);
    EXPECT_EQ(st, dnnl_invalid_arguments);
    m = by_strides({3, 7}, dnnl_s4, {8, 1}, &st);
    ASSERT_EQ(st, dnnl_success);
    EXPECT_EQ(info(m.p).size, 12u);
    m = by_tag({4, 7}, dnnl_s4, dnnl_ba, &st);
    EXPECT_EQ(st, dnnl_success);
}

// ---------------------------------------------------------------------------
// Validation

TEST(MemoryDescValidation, BadArguments) {
    const dims_v d = {2, 3, 5, 7};
    md_ptr m;
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      nullptr, 4, d.data(), dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(
                      nullptr, 4, d.data(), dnnl_f32, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), 4, nullptr, dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), 13, d.data(), dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), -1, d.data(), dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(
                      m.out(), 13, d.data(), dnnl_f32, nullptr),
            dnnl_invalid_arguments);
    // Tag for another number of dims.
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), 3, d.data(), dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    // Bad tags.
    for (int t : {(int)dnnl_format_tag_last, 12345, -3})
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(m.out(), 4, d.data(),
                          dnnl_f32, (dnnl_format_tag_t)t),
                dnnl_invalid_arguments)
                << t;
    // Bad dims.
    const dims_v neg = {2, -1, 5, 7};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), 4, neg.data(), dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(
                      m.out(), 4, neg.data(), dnnl_f32, nullptr),
            dnnl_invalid_arguments);
    // Bad data types.
    for (int dt : {(int)dnnl_data_type_undef, (int)dnnl_boolean, 999, -1})
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(m.out(), 4, d.data(),
                          (dnnl_data_type_t)dt, dnnl_nchw),
                dnnl_invalid_arguments)
                << dt;
    EXPECT_EQ(m.p, nullptr);
}

TEST(MemoryDescValidation, AcceptedDataTypes) {
    const std::pair<dnnl_data_type_t, size_t> ok[] = {{dnnl_f16, 2},
            {dnnl_bf16, 2}, {dnnl_f32, 4}, {dnnl_s32, 4}, {dnnl_s8, 1},
            {dnnl_u8, 1}, {dnnl_f64, 8}, {dnnl_f8_e5m2, 1}, {dnnl_f8_e4m3, 1},
            {dnnl_e8m0, 1}, {dnnl_s64, 8}};
    for (auto &p : ok) {
        auto m = by_tag({2, 3, 5, 7}, p.first, dnnl_nchw);
        ASSERT_TRUE(m) << dnnl_dt2str(p.first);
        EXPECT_EQ(info(m.p).size, 210 * p.second) << dnnl_dt2str(p.first);
        EXPECT_EQ(info(m.p).dt, p.first);
    }
}

TEST(MemoryDescValidation, NullHandles) {
    auto m = by_tag({2, 3}, dnnl_f32, dnnl_ab);
    const dims_v d = {1, 1}, off = {0, 0};
    const int perm[] = {1, 0};
    md_ptr out;
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      out.out(), nullptr, d.data(), off.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      nullptr, m.p, d.data(), off.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), nullptr, 2, d.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_reshape(nullptr, m.p, 2, d.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_permute_axes(out.out(), nullptr, perm),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_permute_axes(nullptr, m.p, perm),
            dnnl_invalid_arguments);
    int32_t v;
    EXPECT_EQ(dnnl_memory_desc_query(nullptr, dnnl_query_ndims_s32, &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_ndims_s32, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_query_v2(nullptr, dnnl_query_ndims_s32, 0, &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_equal(nullptr, nullptr), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(m.p, nullptr), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(nullptr, m.p), 0);
    EXPECT_EQ(dnnl_memory_desc_get_size(nullptr), 0u);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(nullptr, 0), 0u);
    EXPECT_EQ(dnnl_memory_desc_destroy(nullptr), dnnl_success);
    EXPECT_EQ(out.p, nullptr);
#ifndef DNNL_TEST_AGAINST_REF
    // The pinned library dereferences these; this one refuses them.
    EXPECT_EQ(dnnl_memory_desc_clone(out.out(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_clone(nullptr, m.p), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      out.out(), m.p, nullptr, off.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), m.p, 2, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_permute_axes(out.out(), m.p, nullptr),
            dnnl_invalid_arguments);
#endif
}

// ---------------------------------------------------------------------------
// Sub-memory

TEST(MemoryDescSubmemory, PlainOffsets) {
    auto p = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_nchw);
    const dims_v d = {1, 3, 2, 7}, off = {1, 0, 3, 0};
    md_ptr s;
    ASSERT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), p.p, d.data(), off.data()),
            dnnl_success);
    const md_info i = info(s.p);
    EXPECT_EQ(i.dims, d);
    EXPECT_EQ(i.padded_dims, d);
    EXPECT_EQ(i.strides, (dims_v {105, 35, 7, 1}));
    EXPECT_EQ(i.offset0, 1 * 105 + 3 * 7);
    // The size is the span of the outer strides (3 * 35 here) and does not
    // include offset0.
    EXPECT_EQ(i.size, (size_t)3 * 35 * 4);

    // Sub-memory of a sub-memory accumulates the offsets.
    const dims_v d2 = {1, 1, 1, 7}, off2 = {0, 2, 1, 0};
    md_ptr s2;
    ASSERT_EQ(dnnl_memory_desc_create_submemory(
                      s2.out(), s.p, d2.data(), off2.data()),
            dnnl_success);
    EXPECT_EQ(info(s2.p).offset0, 1 * 105 + 3 * 7 + 2 * 35 + 1 * 7);
}

TEST(MemoryDescSubmemory, BlockedDims) {
    // aBcd16b with C = 40 (padded to 48).
    auto p = by_tag({2, 40, 5, 7}, dnnl_f32, dnnl_aBcd16b);
    const md_info pi = info(p.p);
    md_ptr s;
    // Whole blocks in the middle.
    dims_v d = {2, 16, 5, 7}, off = {0, 16, 0, 0};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), p.p, d.data(), off.data()),
            dnnl_success);
    md_info i = info(s.p);
    EXPECT_EQ(i.offset0, 1 * pi.strides[1]);
    EXPECT_EQ(i.padded_dims, (dims_v {2, 16, 5, 7}));
    EXPECT_EQ(i.blks, (dims_v {16}));

    // Up to the right border: keeps the parent's padding.
    d = {1, 8, 3, 7};
    off = {1, 32, 2, 0};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), p.p, d.data(), off.data()),
            dnnl_success);
    i = info(s.p);
    EXPECT_EQ(i.padded_dims, (dims_v {1, 16, 3, 7}));
    EXPECT_EQ(i.offset0,
            1 * pi.strides[0] + 2 * pi.strides[1] + 2 * pi.strides[2]);

    // A piece smaller than a block at a block start.
    d = {2, 8, 5, 7};
    off = {0, 16, 0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), p.p, d.data(), off.data()),
            dnnl_success);

    // Not at a block boundary.
    off = {0, 8, 0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), p.p, d.data(), off.data()),
            dnnl_unimplemented);
    // Out of bounds.
    d = {2, 16, 5, 7};
    off = {0, 32, 0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), p.p, d.data(), off.data()),
            dnnl_invalid_arguments);
    d = {2, 16, 5, -1};
    off = {0, 0, 0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), p.p, d.data(), off.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(s.p, nullptr);

    // Format any has no layout to cut.
    auto a = by_tag({2, 40}, dnnl_f32, dnnl_format_tag_any);
    d = {1, 40};
    off = {0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(
                      s.out(), a.p, d.data(), off.data()),
            dnnl_unimplemented);
}

// ---------------------------------------------------------------------------
// Reshape

TEST(MemoryDescReshape, PlainMergeSplitAndUnitDims) {
    auto p = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_nchw);
    md_ptr r;
    dims_v d = {6, 35};
    ASSERT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 2, d.data()),
            dnnl_success);
    md_info i = info(r.p);
    EXPECT_EQ(i.dims, d);
    EXPECT_EQ(i.strides, (dims_v {35, 1}));
    EXPECT_EQ(i.size, (size_t)210 * 4);
    auto expect_same = by_tag(d, dnnl_f32, dnnl_ab);
    EXPECT_EQ(dnnl_memory_desc_equal(r.p, expect_same.p), 1);

    d = {1, 2, 3, 1, 35, 1};
    ASSERT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 6, d.data()),
            dnnl_success);
    EXPECT_EQ(info(r.p).strides[4], 1);
    EXPECT_EQ(info(r.p).strides[2], 35);
    EXPECT_EQ(info(r.p).strides[1], 105);

    // Splitting the innermost dim of nhwc (channels) works, merging channels
    // with spatial dims does not.
    auto q = by_tag({2, 6, 5, 7}, dnnl_f32, dnnl_nhwc);
    d = {2, 2, 3, 5, 7};
    ASSERT_EQ(dnnl_memory_desc_reshape(r.out(), q.p, 5, d.data()),
            dnnl_success);
    EXPECT_EQ(info(r.p).strides, (dims_v {210, 3, 1, 42, 6}));
    d = {2, 210};
    EXPECT_EQ(dnnl_memory_desc_reshape(r.out(), q.p, 2, d.data()),
            dnnl_invalid_arguments);
    // Spatial dims of nhwc are dense together.
    d = {2, 6, 35};
    ASSERT_EQ(dnnl_memory_desc_reshape(r.out(), q.p, 3, d.data()),
            dnnl_success);
    EXPECT_EQ(info(r.p).strides, (dims_v {210, 1, 6}));

    // Volume must not change.
    d = {2, 3, 5, 8};
    EXPECT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 4, d.data()),
            dnnl_invalid_arguments);
}

TEST(MemoryDescReshape, BlockedDims) {
    auto p = by_tag({2, 32, 5, 7}, dnnl_f32, dnnl_aBcd16b);
    md_ptr r;
    dims_v d = {2, 32, 35};
    ASSERT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 3, d.data()),
            dnnl_success);
    md_info i = info(r.p);
    EXPECT_EQ(i.strides, (dims_v {1120, 560, 16}));
    EXPECT_EQ(i.blks, (dims_v {16}));
    EXPECT_EQ(i.idxs, (dims_v {1}));
    auto same = by_tag(d, dnnl_f32, dnnl_aBc16b);
    EXPECT_EQ(dnnl_memory_desc_equal(r.p, same.p), 1);

    // Leading unit dim moves the block index.
    d = {1, 2, 32, 5, 7};
    ASSERT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 5, d.data()),
            dnnl_success);
    EXPECT_EQ(info(r.p).idxs, (dims_v {2}));

    // The blocked dim cannot be merged or split.
    d = {64, 5, 7};
    EXPECT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 3, d.data()),
            dnnl_invalid_arguments);
    d = {2, 2, 16, 35};
    EXPECT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 4, d.data()),
            dnnl_invalid_arguments);
}

TEST(MemoryDescReshape, FormatAny) {
    auto p = by_tag({2, 3, 4, 5}, dnnl_f32, dnnl_format_tag_any);
    md_ptr r;
    const dims_v d = {6, 20};
    ASSERT_EQ(dnnl_memory_desc_reshape(r.out(), p.p, 2, d.data()),
            dnnl_success);
    const md_info i = info(r.p);
    EXPECT_EQ(i.format_kind, dnnl_format_kind_any);
    EXPECT_EQ(i.dims, d);
}

// ---------------------------------------------------------------------------
// Permutation

TEST(MemoryDescPermute, PlainAndBlocked) {
    // perm[i] is where logical dim i goes: nchw data seen as {N, H, W, C}.
    auto p = by_tag({2, 3, 5, 7}, dnnl_f32, dnnl_nchw);
    const int perm[] = {0, 3, 1, 2};
    md_ptr r;
    ASSERT_EQ(dnnl_memory_desc_permute_axes(r.out(), p.p, perm),
            dnnl_success);
    md_info i = info(r.p);
    EXPECT_EQ(i.dims, (dims_v {2, 5, 7, 3}));
    EXPECT_EQ(i.strides, (dims_v {105, 7, 1, 35}));
    // By decreasing stride that is a, d, b, c: tag "adbc".
    auto same = by_tag({2, 5, 7, 3}, dnnl_f32, dnnl_adbc);
    EXPECT_EQ(dnnl_memory_desc_equal(r.p, same.p), 1);

    // Swapping the dims of a blocked layout moves the block index too.
    auto b = by_tag({4, 32, 3}, dnnl_f32, dnnl_aBc16b);
    const int swap[] = {1, 0, 2};
    ASSERT_EQ(dnnl_memory_desc_permute_axes(r.out(), b.p, swap),
            dnnl_success);
    i = info(r.p);
    EXPECT_EQ(i.dims, (dims_v {32, 4, 3}));
    EXPECT_EQ(i.strides, (dims_v {48, 96, 16}));
    EXPECT_EQ(i.blks, (dims_v {16}));
    EXPECT_EQ(i.idxs, (dims_v {0}));
    // Permuting back restores the original.
    md_ptr back;
    ASSERT_EQ(dnnl_memory_desc_permute_axes(back.out(), r.p, swap),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(back.p, b.p), 1);

    // Not permutations.
    const int dup[] = {0, 0, 1, 2};
    const int oob[] = {0, 1, 2, 4};
    const int neg[] = {0, 1, -1, 3};
    for (const int *bad : {dup, oob, neg})
        EXPECT_EQ(dnnl_memory_desc_permute_axes(r.out(), p.p, bad),
                dnnl_invalid_arguments);
}

// ---------------------------------------------------------------------------
// Queries, sizes, clone, blob

TEST(MemoryDescQuery, AllMemoryQueries) {
    auto m = by_tag({2, 20, 5, 7}, dnnl_bf16, dnnl_aBcd8b);
    ASSERT_TRUE(m);
    int32_t nd = 0, nb = 0;
    dnnl_data_type_t dt;
    dnnl_format_kind_t fk;
    dnnl_dim_t off = -1;
    const dnnl_dims_t *dims, *pdims, *poffs, *strides, *blks, *idxs;
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_ndims_s32, &nd),
            dnnl_success);
    EXPECT_EQ(nd, 4);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_data_type, &dt),
            dnnl_success);
    EXPECT_EQ(dt, dnnl_bf16);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_format_kind, &fk),
            dnnl_success);
    EXPECT_EQ(fk, dnnl_blocked);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_submemory_offset_s64, &off),
            dnnl_success);
    EXPECT_EQ(off, 0);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_dims, &dims),
            dnnl_success);
    EXPECT_EQ((*dims)[1], 20);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_padded_dims, &pdims),
            dnnl_success);
    EXPECT_EQ((*pdims)[1], 24);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_padded_offsets, &poffs),
            dnnl_success);
    EXPECT_EQ((*poffs)[1], 0);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_strides, &strides),
            dnnl_success);
    EXPECT_EQ((*strides)[0], 3 * 5 * 7 * 8);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_inner_nblks_s32, &nb),
            dnnl_success);
    EXPECT_EQ(nb, 1);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_inner_blks, &blks),
            dnnl_success);
    EXPECT_EQ((*blks)[0], 8);
    ASSERT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_inner_idxs, &idxs),
            dnnl_success);
    EXPECT_EQ((*idxs)[0], 1);

    // Queries that are not about memory descriptors.
    int32_t v;
    EXPECT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_engine, &v),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_src_md, &v),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_memory_desc_query(m.p, dnnl_query_num_handles_s32, &v),
            dnnl_unimplemented);
}

TEST(MemoryDescQuery, QueryV2AndSizeV2) {
    auto m = by_tag({2, 3}, dnnl_f32, dnnl_ab);
    int32_t v = 0;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m.p, dnnl_query_num_handles_s32, 0, &v),
            dnnl_success);
    EXPECT_EQ(v, 1);
    ASSERT_EQ(dnnl_memory_desc_query_v2(m.p, dnnl_query_ndims_s32, 0, &v),
            dnnl_success);
    EXPECT_EQ(v, 2);
    const dnnl_dims_t *strides;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m.p, dnnl_query_strides, 0, &strides),
            dnnl_success);
    EXPECT_EQ((*strides)[0], 3);
    // Only sparse descriptors have more than one buffer.
    EXPECT_EQ(dnnl_memory_desc_query_v2(m.p, dnnl_query_ndims_s32, 1, &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_query_v2(m.p, dnnl_query_sparse_encoding, 0, &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_query_v2(m.p, dnnl_query_nnz_s64, 0, &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(m.p, 0), 24u);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(m.p, 1), 0u);
}

TEST(MemoryDescQuery, CloneAndBlob) {
    auto m = by_tag({2, 20, 5, 7}, dnnl_f32, dnnl_aBcd16b);
    md_ptr c;
    ASSERT_EQ(dnnl_memory_desc_clone(c.out(), m.p), dnnl_success);
    EXPECT_NE(c.p, m.p);
    EXPECT_EQ(dnnl_memory_desc_equal(c.p, m.p), 1);

    size_t size = 0;
    ASSERT_EQ(dnnl_memory_desc_get_blob(nullptr, &size, m.p), dnnl_success);
    ASSERT_GT(size, 0u);
    EXPECT_EQ(dnnl_memory_desc_get_blob(nullptr, nullptr, m.p),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_blob(nullptr, &size, nullptr),
            dnnl_invalid_arguments);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_memory_desc_get_blob(blob.data(), &size, m.p),
            dnnl_success);
    md_ptr b;
    ASSERT_EQ(dnnl_memory_desc_create_with_blob(b.out(), blob.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(b.p, m.p), 1);
    EXPECT_EQ(dnnl_memory_desc_create_with_blob(b.out(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_blob(nullptr, blob.data()),
            dnnl_invalid_arguments);
}

TEST(MemoryDescQuery, HostScalar) {
    md_ptr m;
    ASSERT_EQ(dnnl_memory_desc_create_host_scalar(m.out(), dnnl_f32),
            dnnl_success);
    int32_t nd = 0;
    dnnl_format_kind_t fk;
    dnnl_memory_desc_query(m.p, dnnl_query_ndims_s32, &nd);
    dnnl_memory_desc_query(m.p, dnnl_query_format_kind, &fk);
    EXPECT_EQ(nd, 1);
    EXPECT_EQ(fk, dnnl_format_kind_host_scalar);
    EXPECT_EQ(dnnl_memory_desc_get_size(m.p), 4u);
    EXPECT_EQ(dnnl_memory_desc_create_host_scalar(
                      m.out(), dnnl_data_type_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_host_scalar(nullptr, dnnl_f32),
            dnnl_invalid_arguments);
}

#ifndef DNNL_TEST_AGAINST_REF
// Sparse descriptors: tests/primitives/test_matmul_sparse.cpp. The grouped
// encoding is not implemented.
// A grouped descriptor (tests/api/test_grouped_memory.cpp) survives a blob
// round trip with its group count.
TEST(MemoryDescQuery, GroupedEncodingBlobRoundTrip) {
    const dims_v d = {4, 5};
    md_ptr m, m3;
    ASSERT_EQ(dnnl_memory_desc_create_with_grouped_encoding(
                      m.out(), 2, d.data(), dnnl_f32, 0, 2, dnnl_s32),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_grouped_encoding(
                      m3.out(), 2, d.data(), dnnl_f32, 0, 3, dnnl_s32),
            dnnl_success);
    size_t size = 0;
    ASSERT_EQ(dnnl_memory_desc_get_blob(nullptr, &size, m.p), dnnl_success);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_memory_desc_get_blob(blob.data(), &size, m.p),
            dnnl_success);
    md_ptr back;
    ASSERT_EQ(dnnl_memory_desc_create_with_blob(back.out(), blob.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(back.p, m.p), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(back.p, m3.p), 0);
}

TEST(MemoryDescQuery, MalformedBlobIsRejected) {
    auto m = by_tag({2, 3}, dnnl_f32, dnnl_ab);
    size_t size = 0;
    ASSERT_EQ(dnnl_memory_desc_get_blob(nullptr, &size, m.p), dnnl_success);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_memory_desc_get_blob(blob.data(), &size, m.p),
            dnnl_success);
    int bad_ndims = 40;
    // ndims sits at offset 4, after oneDNN's 4-byte base-class slot.
    std::memcpy(blob.data() + 4, &bad_ndims, sizeof(bad_ndims));
    md_ptr b;
    EXPECT_EQ(dnnl_memory_desc_create_with_blob(b.out(), blob.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(b.p, nullptr);
}
#endif

// ---------------------------------------------------------------------------
// Library internals (offsets, density, tag matching). The shared library
// hides them, so this binary compiles its own copy of the source.
#if !defined(DNNL_TEST_AGAINST_REF) && !defined(DNNL_TEST_NO_INTERNALS)
#include "common/memory_desc.cpp"
#include "common/sparse_md.cpp" // sizes of sparse descriptors

namespace {
using namespace dnnl::impl;

memory_desc_t internal_md(const dims_v &d, dnnl_format_tag_t tag,
        dnnl_data_type_t dt = dnnl_f32) {
    memory_desc_t md;
    EXPECT_EQ(md_init_by_tag(md, (int)d.size(), d.data(), dt, tag),
            dnnl_success);
    return md;
}
} // namespace

TEST(MemoryDescInternals, OffsetsFollowTheNamedLayout) {
    const dnnl_format_tag_t tags[] = {dnnl_abcd, dnnl_acdb, dnnl_aBcd8b,
            dnnl_aBcd16b, dnnl_ABcd8b8a, dnnl_ABcd16a16b, dnnl_OIhw4i16o4i,
            dnnl_ABcd2b8a4b, dnnl_bcda, dnnl_BAcd16a16b};
    const dims_v dims = {18, 20, 3, 5};
    for (auto tag : tags) {
        const std::string name = dnnl_fmt_tag2str(tag);
        SCOPED_TRACE(name);
        const name_layout l = layout_from_name(name);
        ASSERT_TRUE(l.ok);
        const expected_md e = expect(l, dims);
        const memory_desc_t md = internal_md(dims, tag);
        dnnl_dim_t linear = 0;
        for (dnnl_dim_t a = 0; a < dims[0]; ++a)
            for (dnnl_dim_t b = 0; b < dims[1]; ++b)
                for (dnnl_dim_t c = 0; c < dims[2]; ++c)
                    for (dnnl_dim_t d = 0; d < dims[3]; ++d, ++linear) {
                        const dims_v pos = {a, b, c, d};
                        const dnnl_dim_t want = naive_offset(l, e, pos);
                        ASSERT_EQ(md_off_v(md, pos.data()), want);
                        ASSERT_EQ(md_off_l(md, linear), want);
                    }
    }
}

TEST(MemoryDescInternals, SubmemoryOffsetsIncludeOffset0) {
    const memory_desc_t p = internal_md({2, 40, 5, 7}, dnnl_aBcd16b);
    memory_desc_t s;
    const dims_v d = {1, 16, 2, 7}, off = {1, 16, 3, 0};
    ASSERT_EQ(md_init_submemory(s, p, d.data(), off.data()), dnnl_success);
    for (dnnl_dim_t b = 0; b < 16; ++b)
        for (dnnl_dim_t c = 0; c < 2; ++c) {
            const dims_v sp = {0, b, c, 4};
            const dims_v pp = {1, 16 + b, 3 + c, 4};
            EXPECT_EQ(md_off_v(s, sp.data()), md_off_v(p, pp.data()));
        }
}

TEST(MemoryDescInternals, DensityBlockingAndRuntime) {
    EXPECT_TRUE(md_is_dense(internal_md({2, 3, 5, 7}, dnnl_nhwc)));
    EXPECT_TRUE(md_is_dense(internal_md({2, 32, 5, 7}, dnnl_aBcd16b)));
    // Padding makes it non-dense.
    EXPECT_FALSE(md_is_dense(internal_md({2, 20, 5, 7}, dnnl_aBcd16b)));
    memory_desc_t g;
    const dims_v d = {3, 4}, gaps = {10, 1}, bcast = {0, 1};
    ASSERT_EQ(md_init_by_strides(g, 2, d.data(), dnnl_f32, gaps.data()),
            dnnl_success);
    EXPECT_FALSE(md_is_dense(g));
    ASSERT_EQ(md_init_by_strides(g, 2, d.data(), dnnl_f32, bcast.data()),
            dnnl_success);
    EXPECT_FALSE(md_is_dense(g));
    EXPECT_FALSE(md_is_dense(internal_md({3, 4}, dnnl_format_tag_any)));

    EXPECT_TRUE(md_is_blocked(internal_md({3, 4}, dnnl_ab)));
    EXPECT_FALSE(md_is_blocked(internal_md({3, 4}, dnnl_format_tag_any)));
    EXPECT_FALSE(md_is_blocked(zero_md()));

    const dims_v rt = {3, RT};
    memory_desc_t r;
    ASSERT_EQ(md_init_by_tag(r, 2, rt.data(), dnnl_f32, dnnl_ab),
            dnnl_success);
    EXPECT_TRUE(md_has_runtime_dims_or_strides(r));
    EXPECT_EQ(md_nelems(r), RT);
    EXPECT_EQ(md_size(r), DNNL_RUNTIME_SIZE_VAL);
    EXPECT_FALSE(md_has_runtime_dims_or_strides(internal_md({3, 4}, dnnl_ab)));

    const memory_desc_t p = internal_md({2, 20, 5, 7}, dnnl_aBcd16b);
    EXPECT_EQ(md_nelems(p), 2 * 20 * 5 * 7);
    EXPECT_EQ(md_nelems(p, true), 2 * 32 * 5 * 7);
    EXPECT_EQ(md_nelems(zero_md()), 0);
    EXPECT_EQ(md_size(zero_md()), 0u);
}

TEST(MemoryDescInternals, MatchesTagAndSetFormat) {
    const memory_desc_t m = internal_md({2, 3, 5, 7}, dnnl_nhwc);
    EXPECT_TRUE(md_matches_tag(m, dnnl_acdb));
    EXPECT_FALSE(md_matches_tag(m, dnnl_abcd));
    EXPECT_FALSE(md_matches_tag(m, dnnl_ab));
    // Unit dims: several tags describe the same layout.
    const memory_desc_t u = internal_md({2, 1, 5, 7}, dnnl_nchw);
    EXPECT_TRUE(md_matches_tag(u, dnnl_nhwc));

    memory_desc_t any = internal_md({2, 20, 5, 7}, dnnl_format_tag_any);
    EXPECT_FALSE(md_matches_tag(any, dnnl_nchw));
    ASSERT_EQ(md_set_format_by_tag(any, dnnl_aBcd8b), dnnl_success);
    EXPECT_EQ(any.format_kind, dnnl_blocked);
    EXPECT_TRUE(md_matches_tag(any, dnnl_aBcd8b));
    EXPECT_EQ(any.padded_dims[1], 24);
    EXPECT_TRUE(md_equal(any, internal_md({2, 20, 5, 7}, dnnl_nChw8c)));
    EXPECT_EQ(md_set_format_by_tag(any, dnnl_abc), dnnl_invalid_arguments);
}

TEST(MemoryDescInternals, TagLayoutAndNames) {
    tag_layout_t l;
    EXPECT_FALSE(tag_layout(dnnl_format_tag_undef, l));
    EXPECT_FALSE(tag_layout(dnnl_format_tag_any, l));
    EXPECT_FALSE(tag_layout(dnnl_format_tag_last, l));
    // Past the table but inside the enum's range (0..1023): a cast to an
    // out-of-range value would itself be undefined (UBSan: -fsanitize=enum);
    // C callers' arbitrary ints are checked in src/api/c_enum.hpp.
    EXPECT_FALSE(tag_layout((dnnl_format_tag_t)1000, l));
    ASSERT_TRUE(tag_layout(dnnl_OIhw4i16o4i, l));
    EXPECT_EQ(l.ndims, 4);
    EXPECT_EQ(l.inner_nblks, 3);
    EXPECT_EQ(l.inner_blks[0], 4);
    EXPECT_EQ(l.inner_idxs[0], 1);
    EXPECT_EQ(l.inner_blks[1], 16);
    EXPECT_EQ(l.inner_idxs[1], 0);
    const int order[] = {0, 1, 2, 3};
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(l.outer_order[i], order[i]);
    ASSERT_TRUE(tag_layout(dnnl_chwn, l));
    const int chwn[] = {1, 2, 3, 0};
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(l.outer_order[i], chwn[i]);

    EXPECT_STREQ(format_tag_name(dnnl_nchw), "abcd");
    EXPECT_STREQ(format_tag_name(dnnl_OIhw16i16o), "ABcd16b16a");
    EXPECT_STREQ(format_tag_name((dnnl_format_tag_t)1000), "undef"); // in range

    EXPECT_EQ(data_type_size(dnnl_f32), 4u);
    EXPECT_EQ(data_type_size(dnnl_bf16), 2u);
    EXPECT_EQ(data_type_size(dnnl_s64), 8u);
    EXPECT_EQ(data_type_size(dnnl_s4), 1u);
    EXPECT_EQ(data_type_size(dnnl_f4_e2m1), 1u);
    EXPECT_EQ(data_type_size(dnnl_e8m0), 1u);
    EXPECT_EQ(data_type_size(dnnl_data_type_undef), (size_t)-1);
}

TEST(MemoryDescInternals, SizesThatOverflowAreRejected) {
    memory_desc_t md;
    const dims_v huge = {dnnl_dim_t(1) << 40, dnnl_dim_t(1) << 40};
    EXPECT_EQ(md_init_by_tag(md, 2, huge.data(), dnnl_f32, dnnl_ab),
            dnnl_invalid_arguments);
    EXPECT_EQ(md_init_by_strides(md, 2, huge.data(), dnnl_f32, nullptr),
            dnnl_invalid_arguments);
    const dims_v max = {INT64_MAX, 2};
    EXPECT_EQ(md_init_by_tag(md, 2, max.data(), dnnl_f32, dnnl_Ab8a),
            dnnl_invalid_arguments);
}

TEST(MemoryDescInternals, EqualityIgnoresUnusedFields) {
    memory_desc_t a = internal_md({2, 3}, dnnl_ab);
    memory_desc_t b = a;
    b.dims[5] = 42; // past ndims
    b.format_desc.blocking.inner_blks[3] = 7; // past inner_nblks
    EXPECT_TRUE(md_equal(a, b));
    b.offset0 = 1;
    EXPECT_FALSE(md_equal(a, b));
    b = a;
    b.extra.flags = 1;
    EXPECT_FALSE(md_equal(a, b));
}
#endif
