// A sparse matrix (CSR or COO memory) seen row by row: for row r, walk
// positions p in [ptr[r], ptr[r + 1]); the entry at p is entry(p) of the
// value and column buffers. CSR is already row-ordered; COO entries are
// put in row order by a stable counting sort (an index permutation, the
// values are not moved), so unsorted COO input works too.
#pragma once

#include <memory>

#include <cstdint>
#include <vector>

#include "common/memory.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct sparse_rows_t {
    const void *values = nullptr;
    data_type_t dt = dnnl_f32;
    const int32_t *ptr = nullptr; // nrows + 1 row starts
    const int32_t *col = nullptr; // column of each entry
    dim_t entry(dim_t p) const { return order ? order[p] : p; }

    // Reads `mem` (an nrows x ncols sparse matrix) and checks every index:
    // dnnl_invalid_arguments, with a verbose line, for row pointers that
    // do not start at 0, decrease or end elsewhere than at nnz, and for
    // row or column indices out of range; dnnl_out_of_memory when the row
    // index of COO input cannot be allocated.
    status_t init(const memory_t &mem, dim_t nrows, dim_t ncols);

private:
    const int32_t *order = nullptr;
    // Allocated with nothrow new: a request that cannot be met gives null
    // (also under AddressSanitizer, which aborts instead of throwing
    // bad_alloc from a throwing new).
    std::unique_ptr<int32_t[]> own_ptr_, own_order_;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
