// C API of memory descriptors: dnnl_memory_desc_* of dnnl.h.
//
// Descriptors are plain heap objects handed out as dnnl_memory_desc_t; the
// arithmetic lives in common/memory_desc.cpp. Nothing here throws: every
// allocation is nothrow and failures come back as status codes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "oneapi/dnnl/dnnl.h"

#include "api/c_enum.hpp"
#include "common/c_types.hpp"
#include "common/memory_desc.hpp"
#include "common/sparse_md.hpp"

using namespace dnnl::impl;

namespace {

// Creates a descriptor with `init` and hands it out through `out`; nothing
// is allocated on failure.
template <typename F>
status_t create_md(memory_desc_t **out, F &&init) {
    if (out == nullptr) return dnnl_invalid_arguments;
    std::unique_ptr<memory_desc_t> md(new (std::nothrow) memory_desc_t);
    if (!md) return dnnl_out_of_memory;
    *md = zero_md();
    DNNL_CHECK(init(*md));
    *out = md.release();
    return dnnl_success;
}

// Arguments as the internals may take them: values that cannot name a data
// type or tag become ones the internals reject (undef / format_tag_last).
format_tag_t checked_tag(const format_tag_t &tag) {
    const int v = raw_value(tag);
    return (v >= 0 && v <= (int)dnnl_format_tag_last) ? (format_tag_t)v
                                                      : dnnl_format_tag_last;
}

bool known_format_kind(int kind) {
    switch (kind) {
        case dnnl_format_kind_undef:
        case dnnl_format_kind_any:
        case dnnl_blocked:
        case dnnl_format_kind_opaque:
        case dnnl_format_kind_sparse:
        case dnnl_format_kind_host_scalar: return true;
        default: return false;
    }
}

} // namespace

extern "C" {

dnnl_status_t DNNL_API dnnl_memory_desc_create_with_tag(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, dnnl_format_tag_t tag) {
    return create_md(memory_desc, [&](memory_desc_t &md) {
        return md_init_by_tag(
                md, ndims, dims, checked(data_type, dnnl_data_type_undef),
                checked_tag(tag));
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_create_with_strides(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, const dnnl_dims_t strides) {
    return create_md(memory_desc, [&](memory_desc_t &md) {
        return md_init_by_strides(
                md, ndims, dims, checked(data_type, dnnl_data_type_undef),
                strides);
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_create_with_csr_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, dnnl_dim_t nnz,
        dnnl_data_type_t indices_dt, dnnl_data_type_t pointers_dt) {
    return create_md(memory_desc, [&](memory_desc_t &md) {
        return md_init_csr(md, ndims, dims,
                checked(data_type, dnnl_data_type_undef), nnz,
                checked(indices_dt, dnnl_data_type_undef),
                checked(pointers_dt, dnnl_data_type_undef));
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_create_with_coo_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, dnnl_dim_t nnz,
        dnnl_data_type_t indices_dt) {
    return create_md(memory_desc, [&](memory_desc_t &md) {
        return md_init_coo(md, ndims, dims,
                checked(data_type, dnnl_data_type_undef), nnz,
                checked(indices_dt, dnnl_data_type_undef));
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_create_with_packed_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, dnnl_dim_t nnz) {
    return create_md(memory_desc, [&](memory_desc_t &md) {
        return md_init_packed(md, ndims, dims,
                checked(data_type, dnnl_data_type_undef), nnz);
    });
}

// Grouped memory (oneDNN's experimental encoding for grouped GEMM):
// descriptors, queries and memory objects; no primitive takes it yet
// (doc/conformance.md).
dnnl_status_t DNNL_API dnnl_memory_desc_create_with_grouped_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, int variable_dim_idx,
        dnnl_dim_t group_count, dnnl_data_type_t offsets_dt) {
    return create_md(memory_desc, [&](memory_desc_t &md) {
        return md_init_grouped(md, ndims, dims,
                checked(data_type, dnnl_data_type_undef), variable_dim_idx,
                group_count, checked(offsets_dt, dnnl_data_type_undef));
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_create_host_scalar(
        dnnl_memory_desc_t *memory_desc, dnnl_data_type_t data_type) {
    return create_md(memory_desc, [&](memory_desc_t &md) {
        // A single value passed by the host; only its data type matters.
        const dims_t one = {1};
        const data_type_t dt = checked(data_type, dnnl_data_type_undef);
        memory_desc_t probe;
        DNNL_CHECK(md_init_by_strides(probe, 1, one, dt, nullptr));
        md.ndims = 1;
        md.dims[0] = 1;
        md.data_type = dt;
        md.format_kind = dnnl_format_kind_host_scalar;
        return dnnl_success;
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_create_submemory(
        dnnl_memory_desc_t *memory_desc,
        const_dnnl_memory_desc_t parent_memory_desc, const dnnl_dims_t dims,
        const dnnl_dims_t offsets) {
    if (parent_memory_desc == nullptr) return dnnl_invalid_arguments;
    return create_md(memory_desc, [&](memory_desc_t &md) {
        return md_init_submemory(md, *parent_memory_desc, dims, offsets);
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_reshape(
        dnnl_memory_desc_t *out_memory_desc,
        const_dnnl_memory_desc_t in_memory_desc, int ndims,
        const dnnl_dims_t dims) {
    if (in_memory_desc == nullptr) return dnnl_invalid_arguments;
    return create_md(out_memory_desc, [&](memory_desc_t &md) {
        return md_reshape(md, *in_memory_desc, ndims, dims);
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_permute_axes(
        dnnl_memory_desc_t *out_memory_desc,
        const_dnnl_memory_desc_t in_memory_desc, const int *permutation) {
    if (in_memory_desc == nullptr) return dnnl_invalid_arguments;
    return create_md(out_memory_desc, [&](memory_desc_t &md) {
        return md_permute_axes(md, *in_memory_desc, permutation);
    });
}

} // extern "C"

namespace {
// The enum fields of a sparse descriptor's slot (the metadata types; the
// encoding is kept as an int), as integers: a blob may hold any bytes.
bool sparse_enums_known(const memory_desc_t &md) {
    if (raw_value(md.format_kind) != dnnl_format_kind_sparse) return true;
    const auto &sp = md.format_desc.sparse_desc;
    return known(sp.metadata_types[0]) && known(sp.metadata_types[1]);
}

status_t query_md(const memory_desc_t *md, int what, void *result) {
    if (md == nullptr || result == nullptr) return dnnl_invalid_arguments;
    const bool blocked = md->format_kind == dnnl_blocked;
    switch (what) {
        case dnnl_query_ndims_s32: *(int32_t *)result = md->ndims; break;
        case dnnl_query_dims: *(const dims_t **)result = &md->dims; break;
        case dnnl_query_data_type:
            *(data_type_t *)result = md->data_type;
            break;
        case dnnl_query_submemory_offset_s64:
            *(dim_t *)result = md->offset0;
            break;
        case dnnl_query_padded_dims:
            *(const dims_t **)result = &md->padded_dims;
            break;
        case dnnl_query_padded_offsets:
            *(const dims_t **)result = &md->padded_offsets;
            break;
        case dnnl_query_format_kind:
            *(format_kind_t *)result = md->format_kind;
            break;
        case dnnl_query_strides:
            if (!blocked) return dnnl_invalid_arguments;
            *(const dims_t **)result = &md->format_desc.blocking.strides;
            break;
        case dnnl_query_inner_nblks_s32:
            if (!blocked) return dnnl_invalid_arguments;
            *(int32_t *)result = md->format_desc.blocking.inner_nblks;
            break;
        case dnnl_query_inner_blks:
            if (!blocked) return dnnl_invalid_arguments;
            *(const dims_t **)result = &md->format_desc.blocking.inner_blks;
            break;
        case dnnl_query_inner_idxs:
            if (!blocked) return dnnl_invalid_arguments;
            *(const dims_t **)result = &md->format_desc.blocking.inner_idxs;
            break;
        // Not a memory descriptor query (as the pinned library answers).
        default: return dnnl_unimplemented;
    }
    return dnnl_success;
}

} // namespace

extern "C" {

dnnl_status_t DNNL_API dnnl_memory_desc_query(
        const_dnnl_memory_desc_t md, dnnl_query_t what, void *result) {
    return query_md(md, raw_value(what), result);
}

dnnl_status_t DNNL_API dnnl_memory_desc_query_v2(
        const_dnnl_memory_desc_t md, dnnl_query_t what, int index,
        void *result) {
    if (md == nullptr || result == nullptr) return dnnl_invalid_arguments;
    const bool sparse = md_is_sparse(*md);
    // Only sparse descriptors have buffers past 0, and of those only the
    // data type is asked per buffer.
    if (index < 0 || (index > 0 && (!sparse || what != dnnl_query_data_type)))
        return dnnl_invalid_arguments;
    switch (raw_value(what)) {
        case dnnl_query_sparse_encoding:
            if (!sparse) return dnnl_invalid_arguments;
            *(dnnl_sparse_encoding_t *)result = (dnnl_sparse_encoding_t)
                    md->format_desc.sparse_desc.encoding;
            break;
        case dnnl_query_nnz_s64:
            if (!sparse) return dnnl_invalid_arguments;
            *(dim_t *)result = md->format_desc.sparse_desc.nnz;
            break;
        case dnnl_query_data_type:
            if (index >= md_num_handles(*md)) return dnnl_invalid_arguments;
            *(data_type_t *)result = md_buffer_data_type(*md, index);
            break;
        case dnnl_query_num_handles_s32:
            *(int *)result = md_num_handles(*md);
            break;
        default: return query_md(md, raw_value(what), result);
    }
    return dnnl_success;
}

int DNNL_API dnnl_memory_desc_equal(
        const_dnnl_memory_desc_t lhs, const_dnnl_memory_desc_t rhs) {
    if (lhs == rhs) return 1;
    if (lhs == nullptr || rhs == nullptr) return 0;
    return md_equal(*lhs, *rhs) ? 1 : 0;
}

size_t DNNL_API dnnl_memory_desc_get_size(const_dnnl_memory_desc_t md) {
    if (md == nullptr) return 0;
    return md_size(*md);
}

size_t DNNL_API dnnl_memory_desc_get_size_v2(
        const_dnnl_memory_desc_t md, int index) {
    if (md == nullptr) return 0;
    return md_buffer_size(*md, index);
}

dnnl_status_t DNNL_API dnnl_memory_desc_destroy(dnnl_memory_desc_t md) {
    delete md;
    return dnnl_success;
}

dnnl_status_t DNNL_API dnnl_memory_desc_clone(dnnl_memory_desc_t *memory_desc,
        const_dnnl_memory_desc_t existing_memory_desc) {
    if (existing_memory_desc == nullptr) return dnnl_invalid_arguments;
    return create_md(memory_desc, [&](memory_desc_t &md) {
        md = *existing_memory_desc;
        return dnnl_success;
    });
}

dnnl_status_t DNNL_API dnnl_memory_desc_get_blob(
        uint8_t *blob, size_t *size, const_dnnl_memory_desc_t md) {
    if (md == nullptr || size == nullptr) return dnnl_invalid_arguments;
    if (blob == nullptr) {
        *size = sizeof(memory_desc_t);
        return dnnl_success;
    }
    const size_t n = *size < sizeof(memory_desc_t) ? *size : sizeof(memory_desc_t);
    std::memcpy(blob, md, n);
    return dnnl_success;
}

dnnl_status_t DNNL_API dnnl_memory_desc_create_with_blob(
        dnnl_memory_desc_t *memory_desc, const uint8_t *blob) {
    if (blob == nullptr) return dnnl_invalid_arguments;
    return create_md(memory_desc, [&](memory_desc_t &md) {
        // The base-class slot holds true in every descriptor written out
        // (here and by oneDNN); anything else is not a descriptor, and its
        // byte must not be read as a bool.
        if (blob[offsetof(memory_desc_t, base_initialized_slot)] != 1)
            return dnnl_invalid_arguments;
        memory_desc_t tmp;
        std::memcpy(static_cast<void *>(&tmp), blob, sizeof(tmp));
        // Enum fields are checked as integers before anything reads them
        // as enums; then the blob passes the check every creator ends with.
        if (!known_format_kind(raw_value(tmp.format_kind))
                || !known(tmp.data_type) || !sparse_enums_known(tmp)
                || !md_consistent(tmp))
            return dnnl_invalid_arguments;
        if (tmp.ndims == 0) tmp = zero_md(); // empty whatever else it holds
        md = tmp;
        return dnnl_success;
    });
}

} // extern "C"
