// Row-wise view of CSR and COO memory, with the index checks.
#include "cpu/matmul/sparse_rows.hpp"

#include <algorithm>
#include <exception>
#include <new>

#include "common/sparse_md.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

status_t bad(const char *what) {
    verbose_error("matmul", "sparse operand: %s", what);
    return dnnl_invalid_arguments;
}

bool indices_in_range(const int32_t *idx, dim_t n, dim_t bound) {
    for (dim_t i = 0; i < n; ++i)
        if (idx[i] < 0 || idx[i] >= bound) return false;
    return true;
}

} // namespace

status_t sparse_rows_t::init(const memory_t &mem, dim_t nrows, dim_t ncols) {
    const memory_desc_t &md = mem.md();
    const dim_t nnz = md.format_desc.sparse_desc.nnz;
    values = mem.host_ptr(0);
    dt = md.data_type;
    const auto *buf1 = static_cast<const int32_t *>(mem.host_ptr(1));
    const auto *buf2 = static_cast<const int32_t *>(mem.host_ptr(2));
    if (nnz > 0 && (!values || !buf1 || !buf2))
        return bad("a values or index buffer is missing");

    if (md_sparse_encoding(md) == dnnl_csr) {
        if (!buf2) return bad("the row pointer buffer is missing");
        ptr = buf2;
        col = buf1;
        if (ptr[0] != 0) return bad("csr row pointers do not start at 0");
        for (dim_t r = 0; r < nrows; ++r)
            if (ptr[r + 1] < ptr[r]) return bad("csr row pointers decrease");
        if (ptr[nrows] != nnz) return bad("csr row pointers do not end at nnz");
        if (!indices_in_range(col, nnz, ncols))
            return bad("a csr column index is out of range");
        return dnnl_success;
    }

    // COO: buffer 1 holds row indices, buffer 2 column indices.
    const int32_t *row = buf1;
    col = buf2;
    if (!indices_in_range(row, nnz, nrows))
        return bad("a coo row index is out of range");
    if (!indices_in_range(col, nnz, ncols))
        return bad("a coo column index is out of range");
    // The row starts, the permutation and a cursor per row: an allocation
    // that fails is dnnl_out_of_memory, never an exception.
    auto take = [](dim_t n) {
        const bool fits = n >= 0 && (uint64_t)n < ((uint64_t)1 << 61);
        return std::unique_ptr<int32_t[]>(
                fits ? new (std::nothrow) int32_t[(size_t)n + 1] : nullptr);
    };
    own_ptr_ = take(nrows + 1);
    own_order_ = take(nnz);
    std::unique_ptr<int32_t[]> cursor = take(nrows);
    if (!own_ptr_ || !own_order_ || !cursor) {
        verbose_error("matmul",
                "sparse operand: no memory for the row index of %lld rows",
                (long long)nrows);
        own_ptr_.reset();
        own_order_.reset();
        return dnnl_out_of_memory;
    }
    std::fill(own_ptr_.get(), own_ptr_.get() + nrows + 1, 0);
    for (dim_t i = 0; i < nnz; ++i) ++own_ptr_[row[i] + 1];
    for (dim_t r = 0; r < nrows; ++r) own_ptr_[r + 1] += own_ptr_[r];
    // Entries of each row keep their input order (stable).
    std::copy(own_ptr_.get(), own_ptr_.get() + nrows, cursor.get());
    for (dim_t i = 0; i < nnz; ++i) own_order_[cursor[row[i]]++] = (int32_t)i;
    ptr = own_ptr_.get();
    order = own_order_.get();
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
