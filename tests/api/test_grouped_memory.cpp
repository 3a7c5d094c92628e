// The grouped sparse encoding (dnnl_memory_desc_create_with_grouped_encoding):
// creation with oneDNN 3.13's rules and statuses, queries, buffer sizes,
// equality, memory objects with two buffers, verbose, and the matmul
// refusal (no grouped GEMM implementation here).
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
    return dnnl_memory_desc_create_with_grouped_encoding(md, (int)dims.size(),
            d, dt, var_idx, groups, offsets_dt);
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
    EXPECT_EQ(dnnl_memory_desc_query_v2(
                      g.md, dnnl_query_num_handles_s32, 0, &nh),
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

TEST(GroupedMemory, MatmulIsUnimplemented) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    const int groups = 3, M = 100, K = 16, N = 8;
    md_guard_t src, dst;
    ASSERT_EQ(make(&src.md, {M, K}, dnnl_f32, 0, groups), dnnl_success);
    ASSERT_EQ(make(&dst.md, {M, N}, dnnl_f32, 0, groups), dnnl_success);
    memory::desc wei({groups, K, N}, memory::data_type::f32,
            memory::format_tag::abc);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng.get(), src.md,
                      wei.get(), nullptr, dst.md, nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
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
