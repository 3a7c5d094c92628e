// Sparse memory descriptors (CSR, COO, the opaque packed encoding and the
// grouped encoding): their creation with oneDNN's rules
// (sparse_md_create.cpp), how many buffers a sparse memory object holds and
// how large each one is.
//
// Buffer order follows oneDNN's: 0 holds the values; CSR then has the
// column indices (1) and the row pointers (2); COO has one index buffer per
// dimension (1..ndims, row indices first); packed has three opaque buffers;
// grouped has the end offsets of its groups along the variable dimension
// (1, one s32 per group).
#pragma once

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {

inline bool md_is_sparse(const memory_desc_t &md) {
    return md.ndims != 0 && md.format_kind == dnnl_format_kind_sparse;
}
inline int md_sparse_encoding(const memory_desc_t &md) {
    return md_is_sparse(md) ? md.format_desc.sparse_desc.encoding
                            : (int)dnnl_sparse_encoding_undef;
}

status_t md_init_csr(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, dim_t nnz, data_type_t indices_dt,
        data_type_t pointers_dt);
status_t md_init_coo(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, dim_t nnz, data_type_t indices_dt);
status_t md_init_packed(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, dim_t nnz);
// oneDNN's grouped encoding (its experimental grouped-GEMM layout): the
// groups are stacked along dimension `variable_dim_idx` (only 0 is
// supported, as in oneDNN 3.13), every element is stored (nnz = element
// count).
status_t md_init_grouped(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, int variable_dim_idx, dim_t group_count,
        data_type_t offsets_dt);
inline bool md_is_grouped(const memory_desc_t &md) {
    return md_sparse_encoding(md) == dnnl_grouped;
}

// Whether a sparse descriptor read from a blob is one the creators above
// could have made.
bool md_sparse_consistent(const memory_desc_t &md);
// A type whose elements are whole bytes (values and metadata alike;
// sub-byte and unknown types have no per-element byte size).
bool whole_byte_type(data_type_t dt);

// Buffers of a memory object of this descriptor (1 unless sparse).
int md_num_handles(const memory_desc_t &md);
// Bytes of buffer `index`; 0 for an index the descriptor does not have,
// for a packed descriptor (its layout is the implementation's) and for
// an empty tensor.
size_t md_buffer_size(const memory_desc_t &md, int index);
// Data type of buffer `index` (values first, then the metadata).
data_type_t md_buffer_data_type(const memory_desc_t &md, int index);

} // namespace impl
} // namespace dnnl
