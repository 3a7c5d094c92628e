// Sparse memory descriptors: buffer counts, sizes and types, and the
// consistency check of descriptors read from blobs. Nothing here prints;
// the creators are in sparse_md_create.cpp.
#include "common/sparse_md.hpp"

namespace dnnl {
namespace impl {

bool whole_byte_type(data_type_t dt) {
    if (dt == dnnl_s4 || dt == dnnl_u4 || dt == dnnl_f4_e2m1
            || dt == dnnl_f4_e3m0)
        return false;
    return data_type_size(dt) != (size_t)-1;
}

namespace {

// A grouped descriptor as md_init_grouped makes them.
bool grouped_consistent(const memory_desc_t &md) {
    const auto &s = md.format_desc.sparse_desc;
    if (md.ndims < 1 || md.ndims > 2 || md.offset0 != 0 || md.extra.flags != 0
            || data_type_size(md.data_type) == (size_t)-1)
        return false;
    dim_t nelems = 1;
    for (int d = 0; d < md.ndims; ++d) {
        if (md.dims[d] <= 0 || md.padded_dims[d] != md.dims[d]
                || md.padded_offsets[d] != 0
                || __builtin_mul_overflow(nelems, md.dims[d], &nelems))
            return false;
    }
    return s.nnz == nelems && s.metadata_types[0] == dnnl_s32
            && s.metadata_types[1] == dnnl_data_type_undef
            && s.grouped_desc.group_count > 0
            && s.grouped_desc.variable_dim_idx == 0;
}

} // namespace

bool md_sparse_consistent(const memory_desc_t &md) {
    const auto &s = md.format_desc.sparse_desc;
    const int enc = s.encoding;
    if (enc == dnnl_grouped) return grouped_consistent(md);
    if (enc != dnnl_csr && enc != dnnl_coo && enc != dnnl_packed) return false;
    if (md.ndims < 1 || md.ndims > max_ndims
            || (enc != dnnl_packed && md.ndims > 2))
        return false;
    if (!whole_byte_type(md.data_type) || md.offset0 != 0
            || md.extra.flags != 0)
        return false;
    dim_t nelems = 1;
    for (int d = 0; d < md.ndims; ++d) {
        if (md.dims[d] < 0 || md.padded_dims[d] != md.dims[d]
                || md.padded_offsets[d] != 0
                || __builtin_mul_overflow(nelems, md.dims[d], &nelems))
            return false;
    }
    if (s.nnz < 0 || s.nnz > nelems) return false;
    // Metadata types where the encoding has them, none elsewhere.
    const int nmeta = enc == dnnl_csr ? 2 : (enc == dnnl_coo ? 1 : 0);
    for (int i = 0; i < 2; ++i) {
        const data_type_t t = s.metadata_types[i];
        if (i < nmeta ? !whole_byte_type(t) : t != dnnl_data_type_undef)
            return false;
    }
    return true;
}

int md_num_handles(const memory_desc_t &md) {
    if (!md_is_sparse(md)) return 1;
    switch (md.format_desc.sparse_desc.encoding) {
    case dnnl_csr:
    case dnnl_coo:
        return md.ndims + 1;
    case dnnl_packed:
        return 3;
    case dnnl_grouped:
        return 2;
    default:
        return 0;
    }
}

data_type_t md_buffer_data_type(const memory_desc_t &md, int index) {
    if (index == 0 || !md_is_sparse(md)) return md.data_type;
    const auto &s = md.format_desc.sparse_desc;
    if (index < 0 || index >= md_num_handles(md)) return dnnl_data_type_undef;
    switch (s.encoding) {
    case dnnl_csr:
        return s.metadata_types[index - 1];
    case dnnl_coo:
    case dnnl_grouped:
        return s.metadata_types[0]; // one type for every index
    default:
        return dnnl_data_type_undef;
    }
}

size_t md_buffer_size(const memory_desc_t &md, int index) {
    if (!md_is_sparse(md)) return index == 0 ? md_size(md) : 0;
    if (index < 0 || index >= md_num_handles(md)) return 0;
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 0) return 0;
    const auto &s = md.format_desc.sparse_desc;
    const size_t elem = data_type_size(md_buffer_data_type(md, index));
    switch (s.encoding) {
    case dnnl_csr:
        // Row pointers: one per row and one past the last.
        if (index == 2) return (size_t)(md.dims[0] + 1) * elem;
        return (size_t)s.nnz * elem;
    case dnnl_coo:
        return (size_t)s.nnz * elem;
    case dnnl_grouped:
        if (index == 1) return (size_t)s.grouped_desc.group_count * elem;
        // Values: two 4-bit types share a byte.
        return whole_byte_type(md.data_type) ? (size_t)s.nnz * elem
                                             : ((size_t)s.nnz + 1) / 2;
    default:
        return 0; // packed: the implementation's own layout
    }
}

} // namespace impl
} // namespace dnnl
