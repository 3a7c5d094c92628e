// The grouped sparse encoding (dnnl_memory_desc_create_with_grouped_encoding):
// creation with oneDNN 3.13's rules and statuses, queries, buffer sizes,
// equality, memory objects with two buffers, and matmul on it (oneDNN's
// grouped GEMM: operand patterns, results against per-group loops, bad
// offsets).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace {

dnnl_status_t make(dnnl_memory_desc_t *md, std::vector<dnnl_dim_t> dims,
        dnnl_data_type_t dt, int var_idx, dnnl_dim_t groups,
        dnnl_data_type_t offsets_dt = dnnl_s32) {
    dnnl_dims_t d = {};
    for (size_t i = 0; i < dims.size(); ++i) d[i] = dims[i];
    *md = nullptr;
    return dnnl_memory_desc_create_with_grouped_encoding(
            md, (int)dims.size(), d, dt, var_idx, groups, offsets_dt);
}

struct md_guard_t {
    dnnl_memory_desc_t md = nullptr;
    ~md_guard_t() { dnnl_memory_desc_destroy(md); }
};

} // namespace

TEST(GroupedMemory, CreationStatuses) {
    md_guard_t g;
    EXPECT_EQ(make(&g.md, {9, 256}, dnnl_f32, 0, 3), dnnl_success);
    EXPECT_NE(g.md, nullptr);
    md_guard_t h;
    EXPECT_EQ(make(&h.md, {4, 256}, dnnl_f16, 0, 3), dnnl_success);

    dnnl_memory_desc_t md = nullptr;
    // More than 2 dims; a variable dim other than 0: not implemented.
    EXPECT_EQ(make(&md, {4, 256, 10}, dnnl_f32, 0, 2), dnnl_unimplemented);
    EXPECT_EQ(md, nullptr);
    EXPECT_EQ(make(&md, {256, 9}, dnnl_f32, 1, 3), dnnl_unimplemented);
    // Bad arguments.
    EXPECT_EQ(make(&md, {4, 256}, dnnl_f32, -1, 2), dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {4, 256}, dnnl_f32, 2, 2), dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {4, 256}, dnnl_f32, 0, 0), dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {4, 256}, dnnl_f32, 0, -1), dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {4, 256}, dnnl_f32, 0, 2, dnnl_f32),
            dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {DNNL_RUNTIME_DIM_VAL, 256}, dnnl_f32, 0, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {100, DNNL_RUNTIME_DIM_VAL}, dnnl_f32, 0, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {0, 256}, dnnl_f32, 0, 2), dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {100, 0}, dnnl_f32, 0, 2), dnnl_invalid_arguments);
    EXPECT_EQ(make(&md, {4, 256}, dnnl_data_type_undef, 0, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(md, nullptr);
    dnnl_dims_t d = {4, 256};
    EXPECT_EQ(dnnl_memory_desc_create_with_grouped_encoding(
                      nullptr, 2, d, dnnl_f32, 0, 2, dnnl_s32),
            dnnl_invalid_arguments);
    // No dims: the zero descriptor, as for the other encodings.
    EXPECT_EQ(make(&md, {}, dnnl_f32, 0, 2), dnnl_success);
    int nd = -1;
    EXPECT_EQ(dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd),
            dnnl_success);
    EXPECT_EQ(nd, 0);
    dnnl_memory_desc_destroy(md);
}

TEST(GroupedMemory, Queries) {
    const int groups = 3, K = 256, tokens = 9;
    md_guard_t g;
    ASSERT_EQ(make(&g.md, {tokens, K}, dnnl_f32, 0, groups), dnnl_success);
    int nd = 0;
    EXPECT_EQ(dnnl_memory_desc_query(g.md, dnnl_query_ndims_s32, &nd),
            dnnl_success);
    EXPECT_EQ(nd, 2);
    dnnl_format_kind_t fk = dnnl_format_kind_undef;
    EXPECT_EQ(dnnl_memory_desc_query(g.md, dnnl_query_format_kind, &fk),
            dnnl_success);
    EXPECT_EQ(fk, dnnl_format_kind_sparse);
    dnnl_sparse_encoding_t enc = dnnl_sparse_encoding_undef;
    EXPECT_EQ(dnnl_memory_desc_query_v2(
                      g.md, dnnl_query_sparse_encoding, 0, &enc),
            dnnl_success);
    EXPECT_EQ(enc, dnnl_grouped);
    dnnl_dim_t nnz = -1;
    EXPECT_EQ(dnnl_memory_desc_query_v2(g.md, dnnl_query_nnz_s64, 0, &nnz),
            dnnl_success);
    EXPECT_EQ(nnz, tokens * K);
    int nh = 0;
    EXPECT_EQ(
            dnnl_memory_desc_query_v2(g.md, dnnl_query_num_handles_s32, 0, &nh),
            dnnl_success);
    EXPECT_EQ(nh, 2);
    dnnl_data_type_t dt = dnnl_data_type_undef;
    EXPECT_EQ(dnnl_memory_desc_query_v2(g.md, dnnl_query_data_type, 0, &dt),
            dnnl_success);
    EXPECT_EQ(dt, dnnl_f32);
    EXPECT_EQ(dnnl_memory_desc_query_v2(g.md, dnnl_query_data_type, 1, &dt),
            dnnl_success);
    EXPECT_EQ(dt, dnnl_s32);
    EXPECT_EQ(dnnl_memory_desc_query_v2(g.md, dnnl_query_data_type, 2, &dt),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(g.md, 0),
            (size_t)tokens * K * sizeof(float));
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(g.md, 1),
            (size_t)groups * sizeof(int32_t));
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(g.md, 2), 0u);
    EXPECT_EQ(dnnl_memory_desc_get_size(g.md),
            (size_t)tokens * K * sizeof(float));

    // Sub-byte values: two per byte.
    md_guard_t s4;
    ASSERT_EQ(make(&s4.md, {3, 5}, dnnl_s4, 0, 2), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(s4.md, 0), 8u);
}

TEST(GroupedMemory, Equality) {
    md_guard_t a, b, c, d, e;
    ASSERT_EQ(make(&a.md, {4, 256}, dnnl_f32, 0, 2), dnnl_success);
    ASSERT_EQ(make(&b.md, {4, 256}, dnnl_f32, 0, 2), dnnl_success);
    ASSERT_EQ(make(&c.md, {4, 256}, dnnl_f16, 0, 2), dnnl_success);
    ASSERT_EQ(make(&d.md, {4, 256}, dnnl_f32, 0, 3), dnnl_success);
    dnnl_dims_t dims = {4, 256};
    ASSERT_EQ(dnnl_memory_desc_create_with_coo_encoding(
                      &e.md, 2, dims, dnnl_f32, 4 * 256, dnnl_s32),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(a.md, b.md), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(a.md, c.md), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(a.md, d.md), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(a.md, e.md), 0);
    // A clone is equal.
    dnnl_memory_desc_t cl = nullptr;
    ASSERT_EQ(dnnl_memory_desc_clone(&cl, a.md), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(a.md, cl), 1);
    dnnl_memory_desc_destroy(cl);
}

TEST(GroupedMemory, MemoryObjectBuffers) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    const int groups = 2, K = 4, tokens = 3;
    md_guard_t g;
    ASSERT_EQ(make(&g.md, {tokens, K}, dnnl_f32, 0, groups), dnnl_success);
    std::vector<float> values(tokens * K);
    for (size_t i = 0; i < values.size(); ++i) values[i] = 0.5f * (float)i;
    std::vector<int32_t> offsets = {1, 3};
    void *handles[2] = {values.data(), offsets.data()};
    dnnl_memory_t mem = nullptr;
    ASSERT_EQ(dnnl_memory_create_v2(&mem, g.md, eng.get(), 2, handles),
            dnnl_success);
    void *h = nullptr;
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(mem, &h, 0), dnnl_success);
    EXPECT_EQ(h, values.data());
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(mem, &h, 1), dnnl_success);
    EXPECT_EQ(h, offsets.data());
    void *mapped = nullptr;
    ASSERT_EQ(dnnl_memory_map_data_v2(mem, &mapped, 1), dnnl_success);
    EXPECT_EQ(((int32_t *)mapped)[1], 3);
    EXPECT_EQ(dnnl_memory_unmap_data_v2(mem, mapped, 1), dnnl_success);
    dnnl_memory_destroy(mem);

    // Buffers the library allocates, sized by the descriptor.
    void *alloc[2] = {DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_ALLOCATE};
    ASSERT_EQ(dnnl_memory_create_v2(&mem, g.md, eng.get(), 2, alloc),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(mem, &h, 1), dnnl_success);
    EXPECT_NE(h, nullptr);
    dnnl_memory_destroy(mem);
}

// Which operand combinations a grouped matmul takes, as oneDNN 3.13's
// grouped GEMM: a grouped source and destination with [G, K, N] weights.
TEST(GroupedMatmul, OperandPatterns) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    const int G = 3, M = 100, K = 16, N = 8;
    md_guard_t src, dst, dst4, wei_grouped;
    ASSERT_EQ(make(&src.md, {M, K}, dnnl_f32, 0, G), dnnl_success);
    ASSERT_EQ(make(&dst.md, {M, N}, dnnl_f32, 0, G), dnnl_success);
    ASSERT_EQ(make(&dst4.md, {M, N}, dnnl_f32, 0, 4), dnnl_success);
    ASSERT_EQ(make(&wei_grouped.md, {K, N}, dnnl_f32, 0, G), dnnl_success);
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    memory::desc wei({G, K, N}, f32, tag::abc), wei_t({G, K, N}, f32, tag::acb),
            wei4({4, K, N}, f32, tag::abc), wei2({K, N}, f32, tag::ab),
            dense_src({M, K}, f32, tag::ab), dense_dst({M, N}, f32, tag::ab),
            bias({G, N}, f32, tag::ab), bias1({1, N}, f32, tag::ab);
    auto status = [&](const_dnnl_memory_desc_t s, const_dnnl_memory_desc_t w,
                          const_dnnl_memory_desc_t b,
                          const_dnnl_memory_desc_t d) {
        dnnl_primitive_desc_t pd = nullptr;
        const dnnl_status_t st = dnnl_matmul_primitive_desc_create(
                &pd, eng.get(), s, w, b, d, nullptr);
        dnnl_primitive_desc_destroy(pd);
        return st;
    };
    EXPECT_EQ(status(src.md, wei.get(), nullptr, dst.md), dnnl_success);
    EXPECT_EQ(status(src.md, wei_t.get(), nullptr, dst.md), dnnl_success);
    EXPECT_EQ(status(src.md, wei.get(), bias.get(), dst.md), dnnl_success);
    // Refused as oneDNN refuses them.
    EXPECT_EQ(status(src.md, wei2.get(), nullptr, dst.md), dnnl_unimplemented);
    EXPECT_EQ(status(src.md, wei.get(), nullptr, dst4.md), dnnl_unimplemented);
    EXPECT_EQ(status(src.md, wei4.get(), nullptr, dst.md), dnnl_unimplemented);
    EXPECT_EQ(status(src.md, wei.get(), nullptr, dense_dst.get()),
            dnnl_unimplemented);
    EXPECT_EQ(status(dense_src.get(), wei.get(), nullptr, dst.md),
            dnnl_unimplemented);
    EXPECT_EQ(status(src.md, wei_grouped.md, nullptr, dst.md),
            dnnl_unimplemented);
    EXPECT_EQ(
            status(src.md, wei.get(), bias1.get(), dst.md), dnnl_unimplemented);
    // Attributes (oneDNN's reference takes quantization ones): refused.
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(
                      &pd, eng.get(), src.md, wei.get(), nullptr, dst.md, attr),
            dnnl_unimplemented);
    dnnl_post_ops_destroy(po);
    dnnl_primitive_attr_destroy(attr);
}

namespace {

// Runs a grouped matmul of `groups` groups ending at `src_ends` (and
// `dst_ends` in the destination) and returns the status; `out` receives
// the destination values.
dnnl_status_t run_grouped(dnnl_data_type_t dt, dnnl_format_tag_t wei_tag,
        bool with_bias, const std::vector<int32_t> &src_ends,
        const std::vector<int32_t> &dst_ends, const std::vector<float> &x,
        const std::vector<float> &w, const std::vector<float> &b, int M, int K,
        int N, std::vector<float> &out) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const int G = (int)src_ends.size();
    md_guard_t src, dst;
    make(&src.md, {M, K}, dt, 0, G);
    make(&dst.md, {M, N}, dnnl_f32, 0, G);
    dnnl_memory_desc_t wei_md = nullptr, bias_md = nullptr;
    const dnnl_dims_t wd = {G, K, N}, bd = {G, N};
    dnnl_memory_desc_create_with_tag(&wei_md, 3, wd, dt, wei_tag);
    dnnl_memory_desc_create_with_tag(&bias_md, 2, bd, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    dnnl_status_t st = dnnl_matmul_primitive_desc_create(&pd, eng.get(), src.md,
            wei_md, with_bias ? bias_md : nullptr, dst.md, nullptr);
    if (st != dnnl_success) return st;
    // Data in the requested type (f32 or f16 values that are exact).
    auto convert = [&](const std::vector<float> &v) {
        std::vector<uint16_t> h(v.size());
        if (dt == dnnl_f32)
            return std::vector<uint8_t>((const uint8_t *)v.data(),
                    (const uint8_t *)(v.data() + v.size()));
        for (size_t i = 0; i < v.size(); ++i) {
            // Small integers: exact in f16.
            const int iv = (int)v[i];
            const uint16_t sign = iv < 0 ? 0x8000 : 0;
            unsigned a = (unsigned)(iv < 0 ? -iv : iv);
            uint16_t bits = 0;
            if (a != 0) {
                int e = 31 - __builtin_clz(a);
                bits = (uint16_t)(((e + 15) << 10) | ((a << (10 - e)) & 0x3ff));
            }
            h[i] = sign | bits;
        }
        return std::vector<uint8_t>((const uint8_t *)h.data(),
                (const uint8_t *)(h.data() + h.size()));
    };
    std::vector<uint8_t> xs = convert(x), ws;
    // Weights given as [g][k][n] logical values; lay them out per tag.
    std::vector<float> wl(w.size());
    for (int g = 0; g < G; ++g)
        for (int k = 0; k < K; ++k)
            for (int n = 0; n < N; ++n)
                wl[wei_tag == dnnl_abc ? (g * K + k) * N + n
                                       : (g * N + n) * K + k] =
                        w[(g * K + k) * N + n];
    ws = convert(wl);
    std::vector<float> bias_v = b;
    std::vector<int32_t> se = src_ends, de = dst_ends;
    out.assign((size_t)M * N, -7.f);
    dnnl_memory_t ms, mw, mb, md;
    void *sh[2] = {xs.data(), se.data()}, *dh[2] = {out.data(), de.data()};
    dnnl_memory_create_v2(&ms, src.md, eng.get(), 2, sh);
    dnnl_memory_create_v2(&md, dst.md, eng.get(), 2, dh);
    dnnl_memory_create(&mw, wei_md, eng.get(), ws.data());
    dnnl_memory_create(&mb, bias_md, eng.get(), bias_v.data());
    dnnl_primitive_t prim = nullptr;
    dnnl_primitive_create(&prim, pd);
    std::vector<dnnl_exec_arg_t> args = {
            {DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, md}};
    if (with_bias) args.push_back({DNNL_ARG_BIAS, mb});
    st = dnnl_primitive_execute(
            prim, strm.get(), (int)args.size(), args.data());
    if (st == dnnl_success) st = dnnl_stream_wait(strm.get());
    for (dnnl_memory_t m : {ms, mw, mb, md}) dnnl_memory_destroy(m);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(wei_md);
    dnnl_memory_desc_destroy(bias_md);
    return st;
}

} // namespace

TEST(GroupedMatmul, MatchesPerGroupLoops) {
    const int M = 9, K = 5, N = 4;
    const std::vector<int32_t> ends = {2, 2, 9}; // an empty middle group
    const int G = (int)ends.size();
    std::vector<float> x(M * K), w(G * K * N), b(G * N);
    for (size_t i = 0; i < x.size(); ++i) x[i] = (float)((int)(i % 7) - 3);
    for (size_t i = 0; i < w.size(); ++i) w[i] = (float)((int)(i % 5) - 2);
    for (size_t i = 0; i < b.size(); ++i) b[i] = (float)i;
    for (dnnl_data_type_t dt : {dnnl_f32, dnnl_f16})
        for (dnnl_format_tag_t tag : {dnnl_abc, dnnl_acb})
            for (bool with_bias : {false, true}) {
                SCOPED_TRACE(std::to_string(dt) + " " + std::to_string(tag)
                             + (with_bias ? " bias" : ""));
                std::vector<float> out;
                ASSERT_EQ(run_grouped(dt, tag, with_bias, ends, ends, x, w, b,
                                  M, K, N, out),
                        dnnl_success);
                for (int g = 0; g < G; ++g)
                    for (int m = g ? ends[g - 1] : 0; m < ends[g]; ++m)
                        for (int n = 0; n < N; ++n) {
                            float ref = with_bias ? b[g * N + n] : 0.f;
                            for (int k = 0; k < K; ++k)
                                ref += x[m * K + k] * w[(g * K + k) * N + n];
                            EXPECT_EQ(out[m * N + n], ref) << g << " " << m;
                        }
            }
}

TEST(GroupedMatmul, BadOffsetsAreInvalidArguments) {
    const int M = 6, K = 2, N = 2;
    std::vector<float> x(M * K, 1.f), w(2 * K * N, 1.f), b(2 * N, 0.f), out;
    const std::vector<int32_t> good = {3, 6};
    EXPECT_EQ(run_grouped(dnnl_f32, dnnl_abc, false, good, good, x, w, b, M, K,
                      N, out),
            dnnl_success);
    for (const std::vector<int32_t> &bad : {std::vector<int32_t>{4, 3},
                 std::vector<int32_t>{3, 7}, std::vector<int32_t>{-1, 6}})
        EXPECT_EQ(run_grouped(dnnl_f32, dnnl_abc, false, bad, bad, x, w, b, M,
                          K, N, out),
                dnnl_invalid_arguments);
    // Groups of different sizes in the source and the destination.
    EXPECT_EQ(run_grouped(dnnl_f32, dnnl_abc, false, good, {2, 6}, x, w, b, M,
                      K, N, out),
            dnnl_invalid_arguments);
}

// The C++ wrapper's view of a grouped descriptor (memory::desc::grouped
// itself is compiled only with DNNL_EXPERIMENTAL_GROUPED_MEMORY, as in
// oneDNN, whose default build leaves it out).
TEST(GroupedMemory, CppWrapperView) {
    using namespace dnnl;
    md_guard_t g;
    ASSERT_EQ(make(&g.md, {9, 256}, dnnl_bf16, 0, 3), dnnl_success);
    dnnl_memory_desc_t cl = nullptr;
    ASSERT_EQ(dnnl_memory_desc_clone(&cl, g.md), dnnl_success);
    memory::desc md(cl);
    EXPECT_EQ(md.get_format_kind(), memory::format_kind::sparse);
    EXPECT_EQ((int)md.get_sparse_encoding(), (int)dnnl_grouped);
    EXPECT_EQ(md.get_nnz(), 9 * 256);
    EXPECT_EQ(md.get_size(1), 3 * sizeof(int32_t));
    EXPECT_EQ(md.get_data_type(1), memory::data_type::s32);
}
