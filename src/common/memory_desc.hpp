// The memory descriptor behind the opaque dnnl_memory_desc_t handle and the
// arithmetic on it (sizes, strides, offsets of plain and blocked layouts).
//
// The struct has the field layout of the pinned oneDNN's own descriptor, so
// code that looks inside descriptors reads ours the same way.
#pragma once

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {

// Layout of a blocked memory format: strides of the outer dimensions, then
// inner blocks (innermost last) that are always dense.
struct blocking_desc_t {
    dims_t strides;
    int inner_nblks;
    dims_t inner_blks;
    dims_t inner_idxs;
};

// The grouped encoding's parameters: how many groups the variable
// dimension is split into (the split itself travels in the offsets buffer).
struct grouped_desc_t {
    dim_t group_count;
    int variable_dim_idx;
};

// Sparse formats: values plus metadata (index) buffers; see sparse_md.hpp.
// `encoding` holds a dnnl_sparse_encoding_t; packed_desc is oneDNN's slot
// for a resolved packed layout (unused here: no implementation takes one).
// The grouped encoding keeps its parameters in the same slot, so the
// descriptor keeps the pinned oneDNN's size (its own experimental build
// appends them after packed_desc instead).
struct sparse_desc_t {
    int encoding;
    dim_t nnz;
    data_type_t metadata_types[2];
    union {
        blocking_desc_t packed_desc;
        grouped_desc_t grouped_desc;
    };
};

// Extra information on weights (compensations) kept with the descriptor.
struct memory_extra_desc_t {
    uint64_t flags;
    int compensation_mask;
    float scale_adjust;
    int asymm_compensation_mask;
    dim_t idhw[3];
    dim_t odhw[3];
    dim_t pdhw[3];
    dim_t ddhw[3];
    dim_t dst_size;
};

} // namespace impl
} // namespace dnnl

struct dnnl_memory_desc {
    // oneDNN's descriptor derives from a base class holding one bool (an
    // allocation flag, true in every live object); it puts ndims at offset 4.
    // We keep the slot with the same value so that code compiled against
    // oneDNN's struct reads every field of ours at its own offset. Nothing
    // in the library reads it, and hash/equality/printing ignore it.
    bool base_initialized_slot = true;
    int ndims;
    dnnl::impl::dims_t dims;
    dnnl::impl::data_type_t data_type;
    dnnl::impl::dims_t padded_dims;
    dnnl::impl::dims_t padded_offsets;
    dnnl::impl::dim_t offset0;
    dnnl::impl::format_kind_t format_kind;
    union {
        dnnl::impl::blocking_desc_t blocking;
        dnnl::impl::sparse_desc_t sparse_desc;
    } format_desc;
    dnnl::impl::memory_extra_desc_t extra;

    // The one list of fields that hashing, equality and printing use.
    template <typename V>
    void visit(V &v) const {
        v("ndims", ndims);
        // A zero descriptor (ndims 0) is empty whatever its other fields
        // hold: two of them are equal, and they hash alike.
        if (ndims == 0) return;
        v("dims", dims, ndims);
        v("data_type", data_type);
        v("padded_dims", padded_dims, ndims);
        v("padded_offsets", padded_offsets, ndims);
        v("offset0", offset0);
        v("format_kind", format_kind);
        if (format_kind == dnnl_blocked) {
            v("strides", format_desc.blocking.strides, ndims);
            v("inner_nblks", format_desc.blocking.inner_nblks);
            v("inner_blks", format_desc.blocking.inner_blks,
                    format_desc.blocking.inner_nblks);
            v("inner_idxs", format_desc.blocking.inner_idxs,
                    format_desc.blocking.inner_nblks);
        }
        if (format_kind == dnnl_format_kind_sparse) {
            v("encoding", format_desc.sparse_desc.encoding);
            v("nnz", format_desc.sparse_desc.nnz);
            v("metadata_types", format_desc.sparse_desc.metadata_types, 2);
            if (format_desc.sparse_desc.encoding == dnnl_grouped) {
                const auto &g = format_desc.sparse_desc.grouped_desc;
                v("group_count", g.group_count);
                v("variable_dim_idx", g.variable_dim_idx);
            }
        }
        v("extra_flags", extra.flags);
        v("compensation_mask", extra.compensation_mask);
        v("scale_adjust", extra.scale_adjust);
        v("asymm_compensation_mask", extra.asymm_compensation_mask);
    }
};

namespace dnnl {
namespace impl {

// A zero (empty) descriptor: ndims 0, format_kind undef.
memory_desc_t zero_md();
inline bool is_zero_md(const memory_desc_t &md) { return md.ndims == 0; }

size_t data_type_size(data_type_t dt);

// Bits per element of the types packed several to a byte (s4, u4, the f4
// kinds); 0 for the types a byte or more wide.
inline int sub_byte_bits(data_type_t dt) {
    switch (dt) {
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return 4;
        default: return 0;
    }
}

// Layout described by a format tag, derived from the tag's name.
// Returns false for tags that name no layout (undef, any, format_tag_last).
struct tag_layout_t {
    int ndims = 0; // number of logical dimensions the tag spells
    int outer_order[max_ndims] = {}; // dims from outermost to innermost
    int inner_nblks = 0;
    dim_t inner_blks[max_ndims] = {};
    int inner_idxs[max_ndims] = {};
};
bool tag_layout(format_tag_t tag, tag_layout_t &layout);
// The same from a tag name spelt out ("aBcd16b": capitals for blocked dims,
// outermost first, then `<size><letter>` inner blocks, innermost last).
bool parse_tag_name(const char *name, tag_layout_t &layout);
const char *format_tag_name(format_tag_t tag); // canonical name, "undef" if unknown

status_t md_init_by_tag(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, format_tag_t tag);
status_t md_init_by_layout(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, const tag_layout_t &layout);
status_t md_init_by_strides(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, const dims_t strides /* may be null: dense row-major */);
// Fills blocking for a descriptor with format_kind any, following `tag`.
status_t md_set_format_by_tag(memory_desc_t &md, format_tag_t tag);
status_t md_init_submemory(memory_desc_t &md, const memory_desc_t &parent,
        const dims_t dims, const dims_t offsets);
status_t md_reshape(memory_desc_t &out, const memory_desc_t &in, int ndims,
        const dims_t dims);
status_t md_permute_axes(
        memory_desc_t &out, const memory_desc_t &in, const int *perm);

// Whether `md` is a descriptor the library could have made (dims, padding,
// blocks, strides and extras consistent, every size fits): every creator
// above ends with it, and a descriptor read from a blob must pass it.
bool md_consistent(const memory_desc_t &md);

bool md_equal(const memory_desc_t &a, const memory_desc_t &b);
size_t md_size(const memory_desc_t &md); // bytes incl. padding, 0 for zero md
dim_t md_nelems(const memory_desc_t &md, bool with_padding = false);
bool md_is_blocked(const memory_desc_t &md);
bool md_has_runtime_dims_or_strides(const memory_desc_t &md);
// True when the tag's layout equals the descriptor's (same blocking).
bool md_matches_tag(const memory_desc_t &md, format_tag_t tag);
// True when the elements (no padding) fill [offset0, offset0 + nelems) densely.
bool md_is_dense(const memory_desc_t &md);

// Offset in elements (not bytes) of the logical position `pos` (ndims
// entries), including offset0 and inner blocks.
dim_t md_off_v(const memory_desc_t &md, const dim_t *pos);
// Same for a linear index over the logical dims in row-major order.
dim_t md_off_l(const memory_desc_t &md, dim_t linear);

} // namespace impl
} // namespace dnnl
