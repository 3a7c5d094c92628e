// Sparse memory (CSR, COO, packed descriptors; memory objects with several
// buffers) and matmul with a sparse source or sparse weights, checked
// against a dense triple loop over the same matrices; bad sparse input
// and the cases oneDNN's sparse matmul refuses.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
using enc = memory::sparse_encoding;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// A sparse matrix as entries plus its dense form.
struct sparse_case_t {
    memory::dim rows, cols;
    std::vector<float> dense; // row-major
    std::vector<float> values;
    std::vector<int32_t> row_idx, col_idx; // one per entry (row-major order)
    std::vector<int32_t> row_ptr;          // CSR pointers
};

sparse_case_t make_sparse(
        memory::dim rows, memory::dim cols, float density, unsigned seed) {
    sparse_case_t s{
            rows, cols, std::vector<float>(rows * cols, 0.f), {}, {}, {}, {0}};
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> val(-2.f, 2.f), coin(0.f, 1.f);
    for (memory::dim r = 0; r < rows; ++r) {
        for (memory::dim c = 0; c < cols; ++c) {
            if (coin(gen) >= density) continue;
            const float v = val(gen);
            s.dense[r * cols + c] = v;
            s.values.push_back(v);
            s.row_idx.push_back((int32_t)r);
            s.col_idx.push_back((int32_t)c);
        }
        s.row_ptr.push_back((int32_t)s.values.size());
    }
    return s;
}

std::vector<float> random_dense(memory::dim n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> val(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto &x : v) x = val(gen);
    return v;
}

// dst = a (M x K) * b (K x N), all row-major, in double.
std::vector<float> dense_matmul(const std::vector<float> &a,
        const std::vector<float> &b, memory::dim M, memory::dim K,
        memory::dim N) {
    std::vector<float> c(M * N);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            double acc = 0;
            for (memory::dim k = 0; k < K; ++k)
                acc += (double)a[m * K + k] * b[k * N + n];
            c[m * N + n] = (float)acc;
        }
    return c;
}

memory::desc sparse_desc(enc e, const sparse_case_t &s, dt values_dt = dt::f32,
        dt index_dt = dt::s32) {
    const memory::dim nnz = (memory::dim)s.values.size();
    if (e == enc::csr)
        return memory::desc::csr(
                {s.rows, s.cols}, values_dt, nnz, index_dt, index_dt);
    return memory::desc::coo({s.rows, s.cols}, values_dt, nnz, index_dt);
}

// A sparse memory over the case's buffers (which must outlive it).
memory sparse_memory(enc e, sparse_case_t &s) {
    const memory::desc md = sparse_desc(e, s);
    if (e == enc::csr)
        return memory(md, eng(),
                {s.values.data(), s.col_idx.data(), s.row_ptr.data()});
    return memory(
            md, eng(), {s.values.data(), s.row_idx.data(), s.col_idx.data()});
}

void expect_close(
        const std::vector<float> &got, const std::vector<float> &want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-4f * (1.f + std::abs(want[i])))
                << "at " << i;
}

TEST(SparseMemory, CsrDescriptorQueries) {
    const memory::desc md =
            memory::desc::csr({6, 8}, dt::f32, 10, dt::s32, dt::s32);
    EXPECT_EQ(md.get_format_kind(), memory::format_kind::sparse);
    EXPECT_EQ(md.get_sparse_encoding(), enc::csr);
    EXPECT_EQ(md.get_nnz(), 10);
    EXPECT_EQ(md.get_num_handles(), 3);
    EXPECT_EQ(md.get_data_type(0), dt::f32);
    EXPECT_EQ(md.get_data_type(1), dt::s32);
    EXPECT_EQ(md.get_data_type(2), dt::s32);
    EXPECT_EQ(md.get_data_type(3), dt::undef); // no such buffer
    EXPECT_EQ(md.get_size(0), 10 * sizeof(float));
    EXPECT_EQ(md.get_size(1), 10 * sizeof(int32_t));
    EXPECT_EQ(md.get_size(2), 7 * sizeof(int32_t)); // rows + 1 pointers
    EXPECT_EQ(md.get_size(3), 0u);
    EXPECT_EQ(md.get_size(), md.get_size(0));
    EXPECT_TRUE(md.get_strides().empty()); // not a blocked layout

    // Equality covers the encoding, nnz and metadata types.
    EXPECT_EQ(md, memory::desc::csr({6, 8}, dt::f32, 10, dt::s32, dt::s32));
    EXPECT_NE(md, memory::desc::csr({6, 8}, dt::f32, 11, dt::s32, dt::s32));
    EXPECT_NE(md, memory::desc::coo({6, 8}, dt::f32, 10, dt::s32));
    EXPECT_NE(md, memory::desc::csr({6, 8}, dt::f32, 10, dt::s32, dt::s8));
    // A blob brings the same descriptor back.
    EXPECT_EQ(memory::desc(md.get_blob()), md);
}

TEST(SparseMemory, CooDescriptorQueries) {
    const memory::desc md = memory::desc::coo({5, 7}, dt::f16, 4, dt::s32);
    EXPECT_EQ(md.get_sparse_encoding(), enc::coo);
    EXPECT_EQ(md.get_num_handles(), 3); // values, row and column indices
    EXPECT_EQ(md.get_data_type(0), dt::f16);
    EXPECT_EQ(md.get_data_type(1), dt::s32);
    EXPECT_EQ(md.get_data_type(2), dt::s32);
    EXPECT_EQ(md.get_size(0), 4 * 2u);
    EXPECT_EQ(md.get_size(1), 4 * 4u);
    EXPECT_EQ(md.get_size(2), 4 * 4u);
    const memory::desc vec = memory::desc::coo({9}, dt::f32, 2, dt::s32);
    EXPECT_EQ(vec.get_num_handles(), 2);
}

TEST(SparseMemory, BadDescriptors) {
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t d2 = {4, 5}, d3 = {2, 3, 4}, neg = {4, -1};
    // More than two dimensions: not supported (as oneDNN).
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      &md, 3, d3, dnnl_f32, 3, dnnl_s32, dnnl_s32),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_memory_desc_create_with_coo_encoding(
                      &md, 3, d3, dnnl_f32, 3, dnnl_s32),
            dnnl_unimplemented);
    // nnz outside [0, elements], negative or runtime dims, bad types.
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      &md, 2, d2, dnnl_f32, -1, dnnl_s32, dnnl_s32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_coo_encoding(
                      &md, 2, d2, dnnl_f32, 21, dnnl_s32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_packed_encoding(
                      &md, 2, neg, dnnl_f32, 1),
            dnnl_invalid_arguments);
    const dnnl_dims_t rt = {4, DNNL_RUNTIME_DIM_VAL};
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      &md, 2, rt, dnnl_f32, 1, dnnl_s32, dnnl_s32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      &md, 2, d2, dnnl_data_type_undef, 1, dnnl_s32, dnnl_s32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_coo_encoding(
                      &md, 2, d2, dnnl_f32, 1, dnnl_s4),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      nullptr, 2, d2, dnnl_f32, 1, dnnl_s32, dnnl_s32),
            dnnl_invalid_arguments);
    EXPECT_EQ(md, nullptr);
    // Sparse descriptors have no blocked layout to reshape or cut.
    ASSERT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      &md, 2, d2, dnnl_f32, 2, dnnl_s32, dnnl_s32),
            dnnl_success);
    dnnl_memory_desc_t out = nullptr;
    const dnnl_dims_t r = {20};
    EXPECT_NE(dnnl_memory_desc_reshape(&out, md, 1, r), dnnl_success);
    EXPECT_EQ(out, nullptr);
    // Only the data type is asked per buffer.
    int n = 0;
    EXPECT_EQ(dnnl_memory_desc_query_v2(md, dnnl_query_ndims_s32, 1, &n),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(md);
}

TEST(SparseMemory, PackedDescriptorCannotBackMemory) {
    const memory::desc md = memory::desc::packed({16, 8}, dt::s8, 20);
    EXPECT_EQ(md.get_sparse_encoding(), enc::packed);
    EXPECT_EQ(md.get_num_handles(), 3);
    EXPECT_EQ(md.get_nnz(), 20);
    EXPECT_EQ(md.get_size(0), 0u); // the layout is an implementation's
    try {
        memory m(md, eng());
        FAIL() << "a packed descriptor backed a memory object";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_invalid_arguments);
    }
}

TEST(SparseMemory, BuffersByIndex) {
    sparse_case_t s = make_sparse(5, 6, 0.4f, 1);
    memory m = sparse_memory(enc::csr, s);
    EXPECT_EQ(m.get_data_handle(0), s.values.data());
    EXPECT_EQ(m.get_data_handle(1), s.col_idx.data());
    EXPECT_EQ(m.get_data_handle(2), s.row_ptr.data());
    std::vector<int32_t> other(s.row_ptr);
    m.set_data_handle(other.data(), 2);
    EXPECT_EQ(m.get_data_handle(2), other.data());
    EXPECT_EQ(m.get_data_handle(0), s.values.data());
    EXPECT_THROW(m.get_data_handle(3), error);
    EXPECT_THROW(m.set_data_handle(other.data(), -1), error);
    void *mapped = m.map_data<void>(1);
    EXPECT_EQ(mapped, s.col_idx.data());
    m.unmap_data(mapped, 1);

    // Buffers the library allocates, one per handle, each of its size.
    const memory::desc md = sparse_desc(enc::coo, s);
    memory owned(md, eng());
    for (int i = 0; i < 3; ++i) EXPECT_NE(owned.get_data_handle(i), nullptr);
    std::memset(owned.get_data_handle(1), 0, md.get_size(1));

    // Any number of handles from one on, as oneDNN takes them: a sparse
    // memory given fewer lacks the other buffers; a dense descriptor's
    // further handles are extra buffers addressed by index.
    dnnl_memory_t c = nullptr;
    void *two[2] = {s.values.data(), s.col_idx.data()};
    EXPECT_EQ(dnnl_memory_create_v2(&c, md.get(), eng().get(), 0, two),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_memory_create_v2(&c, md.get(), eng().get(), 2, two),
            dnnl_success);
    void *h = nullptr;
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(c, &h, 1), dnnl_success);
    EXPECT_EQ(h, s.col_idx.data());
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(c, &h, 2), dnnl_invalid_arguments);
    dnnl_memory_destroy(c);
    const memory::desc dense({2, 2}, dt::f32, tag::ab);
    float buf[4];
    void *dh[2] = {buf, s.values.data()};
    ASSERT_EQ(dnnl_memory_create_v2(&c, dense.get(), eng().get(), 2, dh),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(c, &h, 0), dnnl_success);
    EXPECT_EQ(h, (void *)buf);
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(c, &h, 1), dnnl_success);
    EXPECT_EQ(h, s.values.data());
    EXPECT_EQ(dnnl_memory_set_data_handle_v2(c, buf, 1), dnnl_success);
    EXPECT_EQ(dnnl_memory_get_data_handle_v2(c, &h, 2), dnnl_invalid_arguments);
    dnnl_memory_destroy(c);
}

// oneDNN takes nnz from the memory at execution: a memory with fewer
// entries than the primitive descriptor's sparse descriptor runs; one that
// lacks a buffer of its encoding is refused.
TEST(SparseMatmulBadInput, NnzFromTheMemory) {
    const memory::dim M = 9, K = 16, N = 5;
    sparse_case_t big = make_sparse(M, K, 0.6f, 21),
                  small = make_sparse(M, K, 0.2f, 22);
    ASSERT_LT(small.values.size(), big.values.size());
    std::vector<float> wei = random_dense(K * N, 23);
    const memory::desc w_md({K, N}, dt::f32, tag::ab),
            d_md({M, N}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng(), sparse_desc(enc::csr, big), w_md, d_md);
    memory sp = sparse_memory(enc::csr, small), wm(w_md, eng(), wei.data());
    std::vector<float> out(M * N, 7.f);
    memory dm(d_md, eng(), out.data());
    stream st(eng());
    matmul prim(pd);
    prim.execute(st, {{DNNL_ARG_SRC, sp}, {DNNL_ARG_WEIGHTS, wm},
                             {DNNL_ARG_DST, dm}});
    st.wait();
    expect_close(out, dense_matmul(small.dense, wei, M, K, N));

    dnnl_memory_t partial = nullptr;
    void *two[2] = {small.values.data(), small.col_idx.data()};
    ASSERT_EQ(dnnl_memory_create_v2(&partial,
                      sparse_desc(enc::csr, small).get(), eng().get(), 2, two),
            dnnl_success);
    const dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, partial},
            {DNNL_ARG_WEIGHTS, wm.get()}, {DNNL_ARG_DST, dm.get()}};
    EXPECT_EQ(dnnl_primitive_execute(prim.get(), st.get(), 3, args),
            dnnl_invalid_arguments);
    dnnl_memory_destroy(partial);
}

struct sparse_mm_param_t {
    enc encoding;
    bool sparse_src; // else sparse weights
};

class SparseMatmul : public ::testing::TestWithParam<sparse_mm_param_t> {};

TEST_P(SparseMatmul, MatchesDenseProduct) {
    const auto p = GetParam();
    const memory::dim M = 13, K = 37, N = 9;
    sparse_case_t s = p.sparse_src ? make_sparse(M, K, 0.2f, 7)
                                   : make_sparse(K, N, 0.25f, 8);
    std::vector<float> dense = random_dense(p.sparse_src ? K * N : M * K, 9);
    const memory::desc sp_md = sparse_desc(p.encoding, s);
    const memory::desc dense_md(
            p.sparse_src ? memory::dims{K, N} : memory::dims{M, K}, dt::f32,
            tag::any);
    const memory::desc dst_md({M, N}, dt::f32, tag::any);
    matmul::primitive_desc pd =
            p.sparse_src
                    ? matmul::primitive_desc(eng(), sp_md, dense_md, dst_md)
                    : matmul::primitive_desc(eng(), dense_md, sp_md, dst_md);
    EXPECT_EQ(pd.src_desc(), p.sparse_src ? sp_md : pd.src_desc());
    EXPECT_EQ(pd.dst_desc(), memory::desc({M, N}, dt::f32, tag::ab));
    const memory::desc resolved_dense =
            p.sparse_src ? pd.weights_desc() : pd.src_desc();
    memory sp = sparse_memory(p.encoding, s);
    memory dn(resolved_dense, eng(), dense.data());
    std::vector<float> out(M * N, 123.f);
    memory dst(pd.dst_desc(), eng(), out.data());
    stream st(eng());
    matmul(pd).execute(st, {{DNNL_ARG_SRC, p.sparse_src ? sp : dn},
                                   {DNNL_ARG_WEIGHTS, p.sparse_src ? dn : sp},
                                   {DNNL_ARG_DST, dst}});
    st.wait();
    const std::vector<float> want =
            p.sparse_src ? dense_matmul(s.dense, dense, M, K, N)
                         : dense_matmul(dense, s.dense, M, K, N);
    expect_close(out, want);
}

INSTANTIATE_TEST_SUITE_P(Encodings, SparseMatmul,
        ::testing::Values(sparse_mm_param_t{enc::csr, true},
                sparse_mm_param_t{enc::coo, true},
                sparse_mm_param_t{enc::csr, false},
                sparse_mm_param_t{enc::coo, false}));

// COO entries in any order, repeated coordinates adding up.
TEST(SparseMatmulCoo, UnsortedEntries) {
    const memory::dim M = 4, K = 3, N = 2;
    std::vector<float> values = {1.f, 2.f, 3.f, 4.f, 0.5f};
    std::vector<int32_t> rows = {3, 0, 2, 0, 3}, cols = {1, 2, 0, 2, 1};
    std::vector<float> wei = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f};
    const memory::desc sp_md = memory::desc::coo({M, K}, dt::f32, 5, dt::s32);
    const memory::desc w_md({K, N}, dt::f32, tag::ab),
            d_md({M, N}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng(), sp_md, w_md, d_md);
    memory sp(sp_md, eng(), {values.data(), rows.data(), cols.data()});
    memory w(w_md, eng(), wei.data());
    std::vector<float> out(M * N, -1.f);
    memory d(d_md, eng(), out.data());
    stream st(eng());
    matmul(pd).execute(
            st, {{DNNL_ARG_SRC, sp}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, d}});
    std::vector<float> a(M * K, 0.f);
    for (size_t i = 0; i < values.size(); ++i)
        a[rows[i] * K + cols[i]] += values[i];
    expect_close(out, dense_matmul(a, wei, M, K, N));
}

TEST(SparseMatmulF16, CsrSource) {
    const memory::dim M = 6, K = 10, N = 5;
    sparse_case_t s = make_sparse(M, K, 0.3f, 3);
    // Values exactly representable in f16.
    for (auto &v : s.values) v = std::round(v * 8.f) / 8.f;
    std::fill(s.dense.begin(), s.dense.end(), 0.f);
    for (size_t i = 0; i < s.values.size(); ++i)
        s.dense[s.row_idx[i] * K + s.col_idx[i]] = s.values[i];
    std::vector<float> w(K * N);
    for (size_t i = 0; i < w.size(); ++i)
        w[i] = (float)((int)(i % 7) - 3) / 4.f;
    // f16 buffers through f32 -> f16 reorders of the dense parts.
    const memory::desc sp_md = memory::desc::csr(
            {M, K}, dt::f16, (memory::dim)s.values.size(), dt::s32, dt::s32);
    const memory::desc w16({K, N}, dt::f16, tag::ab),
            d16({M, N}, dt::f16, tag::ab);
    matmul::primitive_desc pd(eng(), sp_md, w16, d16);
    memory vals32({{(memory::dim)s.values.size()}, dt::f32, tag::a}, eng(),
            s.values.data());
    memory vals16({{(memory::dim)s.values.size()}, dt::f16, tag::a}, eng());
    memory w32m({{K, N}, dt::f32, tag::ab}, eng(), w.data());
    memory w16m(w16, eng());
    stream st(eng());
    reorder(vals32, vals16).execute(st, vals32, vals16);
    reorder(w32m, w16m).execute(st, w32m, w16m);
    memory sp(sp_md, eng(),
            {vals16.get_data_handle(), s.col_idx.data(), s.row_ptr.data()});
    memory d(d16, eng());
    matmul(pd).execute(st,
            {{DNNL_ARG_SRC, sp}, {DNNL_ARG_WEIGHTS, w16m}, {DNNL_ARG_DST, d}});
    std::vector<float> out(M * N);
    memory d32({{M, N}, dt::f32, tag::ab}, eng(), out.data());
    reorder(d, d32).execute(st, d, d32);
    st.wait();
    const auto want = dense_matmul(s.dense, w, M, K, N);
    for (size_t i = 0; i < out.size(); ++i)
        EXPECT_NEAR(out[i], want[i], 1e-2f * (1.f + std::abs(want[i])));
}

dnnl_status_t try_matmul_pd(const memory::desc &a, const memory::desc &b,
        const memory::desc &c, const memory::desc &bias = memory::desc(),
        const primitive_attr &attr = primitive_attr()) {
    try {
        matmul::primitive_desc pd(eng(), a, b, bias, c, attr);
        return dnnl_success;
    } catch (const error &e) {
        return e.status;
    }
}

TEST(SparseMatmulRefusals, AsOneDnnRefuses) {
    const memory::desc csr =
            memory::desc::csr({4, 6}, dt::f32, 5, dt::s32, dt::s32);
    const memory::desc wei({6, 3}, dt::f32, tag::ab),
            dst({4, 3}, dt::f32, tag::ab);
    EXPECT_EQ(try_matmul_pd(csr, wei, dst), dnnl_success);
    // Bias, post-ops and scales.
    EXPECT_EQ(try_matmul_pd(
                      csr, wei, dst, memory::desc({1, 3}, dt::f32, tag::ab)),
            dnnl_unimplemented);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr with_relu;
    with_relu.set_post_ops(po);
    EXPECT_EQ(try_matmul_pd(csr, wei, dst, memory::desc(), with_relu),
            dnnl_unimplemented);
    // Both operands sparse; s8 indices; mixed data types.
    const memory::desc csr_w =
            memory::desc::csr({6, 3}, dt::f32, 5, dt::s32, dt::s32);
    EXPECT_EQ(try_matmul_pd(csr, csr_w, dst), dnnl_unimplemented);
    const memory::desc csr_s8 =
            memory::desc::csr({4, 6}, dt::f32, 5, dt::s8, dt::s32);
    EXPECT_EQ(try_matmul_pd(csr_s8, wei, dst), dnnl_unimplemented);
    EXPECT_EQ(try_matmul_pd(csr, wei, memory::desc({4, 3}, dt::bf16, tag::ab)),
            dnnl_unimplemented);
    // A sparse destination is not a matmul.
    const memory::desc csr_dst =
            memory::desc::csr({4, 3}, dt::f32, 5, dt::s32, dt::s32);
    EXPECT_EQ(try_matmul_pd(csr, wei, csr_dst), dnnl_invalid_arguments);
    // Packed weights (oneDNN compresses them only on AMX machines).
    const memory::desc src8({4, 64}, dt::u8, tag::any),
            dst8({4, 32}, dt::u8, tag::any);
    EXPECT_EQ(try_matmul_pd(
                      src8, memory::desc::packed({64, 32}, dt::s8, 100), dst8),
            dnnl_unimplemented);
}

// Index buffers that point outside the matrix are refused at execution.
TEST(SparseMatmulBadInput, IndicesOutOfRange) {
    const memory::dim M = 3, K = 4, N = 2;
    std::vector<float> values = {1.f, 2.f, 3.f};
    std::vector<float> wei(K * N, 1.f), out(M * N);
    const memory::desc w_md({K, N}, dt::f32, tag::ab),
            d_md({M, N}, dt::f32, tag::ab);
    memory w(w_md, eng(), wei.data()), d(d_md, eng(), out.data());
    stream st(eng());
    auto run = [&](const memory::desc &sp_md, std::vector<void *> handles) {
        matmul::primitive_desc pd(eng(), sp_md, w_md, d_md);
        memory sp(sp_md, eng(), handles);
        try {
            matmul(pd).execute(st, {{DNNL_ARG_SRC, sp}, {DNNL_ARG_WEIGHTS, w},
                                           {DNNL_ARG_DST, d}});
            return dnnl_success;
        } catch (const error &e) {
            return e.status;
        }
    };
    const memory::desc csr =
            memory::desc::csr({M, K}, dt::f32, 3, dt::s32, dt::s32);
    std::vector<int32_t> cols = {0, 3, 1}, ptr = {0, 1, 2, 3};
    EXPECT_EQ(run(csr, {values.data(), cols.data(), ptr.data()}), dnnl_success);
    std::vector<int32_t> bad_cols = {0, 4, 1};
    EXPECT_EQ(run(csr, {values.data(), bad_cols.data(), ptr.data()}),
            dnnl_invalid_arguments);
    std::vector<int32_t> decreasing = {0, 2, 1, 3}, short_end = {0, 1, 2, 2},
                         late_start = {1, 1, 2, 3};
    for (auto *p : {&decreasing, &short_end, &late_start})
        EXPECT_EQ(run(csr, {values.data(), cols.data(), p->data()}),
                dnnl_invalid_arguments);
    const memory::desc coo = memory::desc::coo({M, K}, dt::f32, 3, dt::s32);
    std::vector<int32_t> rows = {0, 2, 1}, bad_rows = {0, 3, 1},
                         neg_cols = {0, -1, 2};
    EXPECT_EQ(
            run(coo, {values.data(), rows.data(), cols.data()}), dnnl_success);
    EXPECT_EQ(run(coo, {values.data(), bad_rows.data(), cols.data()}),
            dnnl_invalid_arguments);
    EXPECT_EQ(run(coo, {values.data(), rows.data(), neg_cols.data()}),
            dnnl_invalid_arguments);
}

// Memory of another encoding than the primitive descriptor's.
TEST(SparseMatmulBadInput, MemoryOfAnotherEncoding) {
    const memory::dim M = 3, K = 4, N = 2;
    std::vector<float> values = {1.f, 2.f, 3.f}, wei(K * N, 1.f), out(M * N);
    std::vector<int32_t> rows = {0, 1, 2}, cols = {0, 3, 1};
    const memory::desc csr =
            memory::desc::csr({M, K}, dt::f32, 3, dt::s32, dt::s32);
    const memory::desc coo = memory::desc::coo({M, K}, dt::f32, 3, dt::s32);
    const memory::desc w_md({K, N}, dt::f32, tag::ab),
            d_md({M, N}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng(), csr, w_md, d_md);
    memory sp(coo, eng(), {values.data(), rows.data(), cols.data()});
    memory w(w_md, eng(), wei.data()), d(d_md, eng(), out.data());
    stream st(eng());
    try {
        matmul(pd).execute(st,
                {{DNNL_ARG_SRC, sp}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, d}});
        FAIL() << "coo memory accepted for a csr argument";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_invalid_arguments);
    }
}

// Buffers the execution allocates (the row index of COO input, the
// accumulation rows) that cannot exist: dnnl_out_of_memory, never a crash.
// The shapes are valid descriptors whose user-given buffers are never
// read past what the failed allocation would have indexed.
TEST(SparseMatmulBadInput, ImpossibleAllocationsAreOutOfMemory) {
    stream st(eng());
    auto run = [&](const memory::desc &src_md, const memory::desc &w_md,
                       const memory::desc &d_md, memory src, memory w,
                       void *dst) {
        matmul::primitive_desc pd(eng(), src_md, w_md, d_md);
        memory d(d_md, eng(), dst);
        try {
            matmul(pd).execute(st, {{DNNL_ARG_SRC, src},
                                           {DNNL_ARG_WEIGHTS, w},
                                           {DNNL_ARG_DST, d}});
            return dnnl_success;
        } catch (const error &e) {
            return e.status;
        }
    };
    std::vector<float> values = {1.f}, small(64, 1.f), out(64);
    std::vector<int32_t> zero = {0};
    {
        // COO source of 2^50 rows: its row index (2^50 row starts) cannot
        // be allocated.
        const memory::dim M = (memory::dim)1 << 50, K = 4, N = 3;
        const memory::desc coo = memory::desc::coo({M, K}, dt::f32, 1, dt::s32);
        const memory::desc w_md({K, N}, dt::f32, tag::ab),
                d_md({M, N}, dt::f32, tag::ab);
        memory sp(coo, eng(), {values.data(), zero.data(), zero.data()});
        memory w(w_md, eng(), small.data());
        EXPECT_EQ(run(coo, w_md, d_md, sp, w, out.data()),
                dnnl_out_of_memory);
    }
    {
        // CSR weights with 2^45 columns: one accumulation row of 2^45
        // floats cannot be allocated.
        const memory::dim M = 1, K = 2, N = (memory::dim)1 << 45;
        const memory::desc csr
                = memory::desc::csr({K, N}, dt::f32, 1, dt::s32, dt::s32);
        const memory::desc s_md({M, K}, dt::f32, tag::ab),
                d_md({M, N}, dt::f32, tag::ab);
        std::vector<int32_t> ptr = {0, 1, 1};
        memory sp(csr, eng(), {values.data(), zero.data(), ptr.data()});
        memory s(s_md, eng(), small.data());
        EXPECT_EQ(run(s_md, csr, d_md, s, sp, out.data()), dnnl_out_of_memory);
    }
}

// The gpu engine has no sparse memory and no sparse matmul.
TEST(SparseGpu, Unimplemented) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine g(engine::kind::gpu, 0);
    const memory::desc csr =
            memory::desc::csr({4, 6}, dt::f32, 5, dt::s32, dt::s32);
    try {
        memory m(csr, g);
        FAIL() << "sparse memory on the gpu engine";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
    try {
        matmul::primitive_desc pd(g, csr,
                memory::desc({6, 3}, dt::f32, tag::ab),
                memory::desc({4, 3}, dt::f32, tag::ab));
        FAIL() << "sparse matmul on the gpu engine";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
}

} // namespace
