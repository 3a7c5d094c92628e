// Sparse memory descriptors: creation with oneDNN's rules (verbose lines
// say why a descriptor is refused).
#include "common/sparse_md.hpp"

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {

// The part every encoding shares: known sizes (no runtime dims, sparse
// layouts are fixed when the data is), `nnz` within the element count.
status_t init_common(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, dim_t nnz, int encoding, const char *what) {
    if (dims == nullptr || ndims < 0 || ndims > max_ndims) {
        verbose_error("memory", "%s: bad ndims %d", what, ndims);
        return dnnl_invalid_arguments;
    }
    if (!whole_byte_type(dt)) {
        verbose_error("memory", "%s: unsupported value data type", what);
        return dnnl_invalid_arguments;
    }
    dim_t nelems = 1;
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] < 0) {
            verbose_error("memory", "%s: dimension %d is negative or runtime",
                    what, d);
            return dnnl_invalid_arguments;
        }
        if (__builtin_mul_overflow(nelems, dims[d], &nelems)) {
            verbose_error("memory", "%s: element count overflows", what);
            return dnnl_invalid_arguments;
        }
    }
    if (nnz < 0 || nnz > nelems) {
        verbose_error("memory",
                "%s: nnz %lld outside [0, %lld] (the element count)", what,
                (long long)nnz, (long long)nelems);
        return dnnl_invalid_arguments;
    }
    md = zero_md();
    md.ndims = ndims;
    md.data_type = dt;
    for (int d = 0; d < ndims; ++d) md.dims[d] = md.padded_dims[d] = dims[d];
    md.format_kind = dnnl_format_kind_sparse;
    md.format_desc.sparse_desc.encoding = encoding;
    md.format_desc.sparse_desc.nnz = nnz;
    return dnnl_success;
}

// CSR and COO describe matrices (or vectors) only, as in oneDNN.
status_t check_matrix_ndims(int ndims, const char *what) {
    if (ndims > 2) {
        verbose_error("memory", "%s: %d dimensions (at most 2 supported)", what,
                ndims);
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

status_t check_metadata_type(data_type_t dt, const char *what) {
    if (!whole_byte_type(dt)) {
        verbose_error("memory", "%s: unsupported metadata data type", what);
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

} // namespace

status_t md_init_csr(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, dim_t nnz, data_type_t indices_dt,
        data_type_t pointers_dt) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    const char *what = "csr encoding";
    DNNL_CHECK(check_matrix_ndims(ndims, what));
    DNNL_CHECK(check_metadata_type(indices_dt, what));
    DNNL_CHECK(check_metadata_type(pointers_dt, what));
    memory_desc_t tmp;
    DNNL_CHECK(init_common(tmp, ndims, dims, dt, nnz, dnnl_csr, what));
    tmp.format_desc.sparse_desc.metadata_types[0] = indices_dt;
    tmp.format_desc.sparse_desc.metadata_types[1] = pointers_dt;
    md = tmp;
    return dnnl_success;
}

status_t md_init_coo(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, dim_t nnz, data_type_t indices_dt) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    const char *what = "coo encoding";
    DNNL_CHECK(check_matrix_ndims(ndims, what));
    DNNL_CHECK(check_metadata_type(indices_dt, what));
    memory_desc_t tmp;
    DNNL_CHECK(init_common(tmp, ndims, dims, dt, nnz, dnnl_coo, what));
    tmp.format_desc.sparse_desc.metadata_types[0] = indices_dt;
    md = tmp;
    return dnnl_success;
}

status_t md_init_packed(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, dim_t nnz) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    memory_desc_t tmp;
    DNNL_CHECK(init_common(
            tmp, ndims, dims, dt, nnz, dnnl_packed, "packed encoding"));
    md = tmp;
    return dnnl_success;
}

status_t md_init_grouped(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, int variable_dim_idx, dim_t group_count,
        data_type_t offsets_dt) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    // oneDNN's order of checks, with its statuses.
    const char *what = "grouped encoding";
    if (ndims > 2) {
        verbose_error("memory", "%s: %d dimensions (at most 2 supported)",
                what, ndims);
        return dnnl_unimplemented;
    }
    if (dims == nullptr || ndims < 0
            || data_type_size(dt) == (size_t)-1) {
        verbose_error("memory", "%s: bad ndims or data type", what);
        return dnnl_invalid_arguments;
    }
    for (int d = 0; d < ndims; ++d)
        if (dims[d] < 0 && dims[d] != DNNL_RUNTIME_DIM_VAL) {
            verbose_error("memory", "%s: dimension %d is negative", what, d);
            return dnnl_invalid_arguments;
        }
    if (group_count <= 0) {
        verbose_error("memory", "%s: bad group_count %lld", what,
                (long long)group_count);
        return dnnl_invalid_arguments;
    }
    if (offsets_dt != dnnl_s32) {
        verbose_error("memory", "%s: offsets must be s32", what);
        return dnnl_invalid_arguments;
    }
    if (variable_dim_idx < 0 || variable_dim_idx >= ndims) {
        verbose_error("memory", "%s: bad variable_dim_idx %d", what,
                variable_dim_idx);
        return dnnl_invalid_arguments;
    }
    if (variable_dim_idx != 0) {
        verbose_error("memory",
                "%s: only dimension 0 may vary between groups", what);
        return dnnl_unimplemented;
    }
    dim_t nelems = 1;
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] == DNNL_RUNTIME_DIM_VAL) {
            verbose_error("memory", "%s: runtime dimensions", what);
            return dnnl_invalid_arguments;
        }
        if (dims[d] == 0) {
            verbose_error("memory", "%s: dimension %d is zero", what, d);
            return dnnl_invalid_arguments;
        }
        if (__builtin_mul_overflow(nelems, dims[d], &nelems)) {
            verbose_error("memory", "%s: element count overflows", what);
            return dnnl_invalid_arguments;
        }
    }
    memory_desc_t tmp = zero_md();
    tmp.ndims = ndims;
    tmp.data_type = dt;
    for (int d = 0; d < ndims; ++d) tmp.dims[d] = tmp.padded_dims[d] = dims[d];
    tmp.format_kind = dnnl_format_kind_sparse;
    auto &s = tmp.format_desc.sparse_desc;
    s.encoding = dnnl_grouped;
    s.nnz = nelems;
    s.metadata_types[0] = offsets_dt;
    s.grouped_desc.group_count = group_count;
    s.grouped_desc.variable_dim_idx = variable_dim_idx;
    md = tmp;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
