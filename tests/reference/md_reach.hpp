// How far a memory descriptor's layout reaches, worked out from what its
// queries report (never from library code): the largest element offset any
// logical position maps to. A descriptor is honest when a buffer of
// dnnl_memory_desc_get_size bytes (after offset0) holds every element;
// tests and fuzz targets check that invariant with md_reach_ok.
#pragma once

#include <cstdint>
#include <cstring>

#include "oneapi/dnnl/dnnl.h"

namespace md_reach {

struct fields_t {
    int ndims = 0, nblks = 0;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    int format_kind = 0;
    dnnl_dim_t offset0 = 0;
    dnnl_dims_t dims {}, pdims {}, poffs {}, strides {}, blks {}, idxs {};
};

inline bool query(const_dnnl_memory_desc_t md, fields_t &f) {
    const dnnl_dims_t *p = nullptr;
    auto dims = [&](dnnl_query_t q, dnnl_dims_t &out) {
        if (dnnl_memory_desc_query(md, q, &p) != dnnl_success) return false;
        std::memcpy(out, *p, sizeof(out));
        return true;
    };
    return dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &f.ndims)
                    == dnnl_success
            && dnnl_memory_desc_query(md, dnnl_query_data_type, &f.dt)
                    == dnnl_success
            && dnnl_memory_desc_query(md, dnnl_query_format_kind, &f.format_kind)
                    == dnnl_success
            && dnnl_memory_desc_query(
                       md, dnnl_query_submemory_offset_s64, &f.offset0)
                    == dnnl_success
            && dims(dnnl_query_dims, f.dims)
            && dims(dnnl_query_padded_dims, f.pdims)
            && dims(dnnl_query_padded_offsets, f.poffs)
            && (f.format_kind != dnnl_blocked
                    || (dims(dnnl_query_strides, f.strides)
                            && dims(dnnl_query_inner_blks, f.blks)
                            && dims(dnnl_query_inner_idxs, f.idxs)
                            && dnnl_memory_desc_query(md,
                                       dnnl_query_inner_nblks_s32, &f.nblks)
                                    == dnnl_success));
}

// Offset (relative to offset0) that dim d contributes at position p: its
// outer block times the stride plus its share of the inner block. False
// when that does not fit in dnnl_dim_t (the arithmetic is checked: a
// descriptor's strides are arbitrary input here).
inline bool dim_offset(const fields_t &f, int d, dnnl_dim_t p, dnnl_dim_t &out) {
    dnnl_dim_t inner_step = 1, off = 0;
    for (int i = f.nblks - 1; i >= 0; --i) {
        if (f.idxs[i] == d) {
            off += (p % f.blks[i]) * inner_step;
            p /= f.blks[i];
        }
        if (__builtin_mul_overflow(inner_step, f.blks[i], &inner_step))
            return false;
    }
    dnnl_dim_t outer = 0;
    return !__builtin_mul_overflow(p, f.strides[d], &outer)
            && !__builtin_add_overflow(off, outer, &out);
}

enum class reach_t { none, ok, overflow };

// Largest relative offset of any element: `none` when the descriptor holds
// none, has runtime values, is not blocked or its blocks are too large to
// walk (then there is nothing this check can say); `overflow` when it does
// not fit in dnnl_dim_t (no buffer size can cover it).
inline reach_t max_offset(const fields_t &f, dnnl_dim_t &out) {
    if (f.format_kind != dnnl_blocked || f.ndims <= 0) return reach_t::none;
    // No element, or runtime values, on any dim: nothing to walk (checked
    // for all dims first: the strides of an empty descriptor are free).
    for (int d = 0; d < f.ndims; ++d)
        if (f.dims[d] == 0 || f.dims[d] == DNNL_RUNTIME_DIM_VAL
                || f.strides[d] == DNNL_RUNTIME_DIM_VAL)
            return reach_t::none;
    dnnl_dim_t total = 0;
    for (int d = 0; d < f.ndims; ++d) {
        dnnl_dim_t block = 1;
        for (int i = 0; i < f.nblks; ++i)
            if (f.idxs[i] == d) block *= f.blks[i];
        if (block > 4096) return reach_t::none;
        // With a stride >= 0 the largest contribution lies in the last
        // (possibly partial) block or the full block before it.
        const dnnl_dim_t first = f.poffs[d];
        const dnnl_dim_t last = f.poffs[d] + f.dims[d] - 1;
        dnnl_dim_t from = last - (last % block) - block;
        if (from < first) from = first;
        dnnl_dim_t best = INT64_MIN;
        for (dnnl_dim_t p = from; p <= last; ++p) {
            dnnl_dim_t o = 0;
            if (!dim_offset(f, d, p, o)) return reach_t::overflow;
            if (o > best) best = o;
        }
        if (__builtin_add_overflow(total, best, &total))
            return reach_t::overflow;
    }
    out = total;
    return reach_t::ok;
}

inline size_t bytes_for(dnnl_data_type_t dt, dnnl_dim_t elems) {
    switch (dt) {
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_f4_e2m1:
        // In size_t: a 4-bit tensor may hold INT64_MAX elements.
        case dnnl_f4_e3m0: return ((size_t)elems + 1) / 2;
        default: return (size_t)elems * dnnl_data_type_size(dt);
    }
}

// The invariant: get_size covers offsets [0, max_offset] after offset0.
inline bool md_reach_ok(const_dnnl_memory_desc_t md) {
    fields_t f;
    if (!query(md, f)) return true;
    dnnl_dim_t mo = 0;
    switch (max_offset(f, mo)) {
        case reach_t::none: return true;
        case reach_t::overflow: return false;
        case reach_t::ok: break;
    }
    return dnnl_memory_desc_get_size(md) >= bytes_for(f.dt, mo + 1);
}

} // namespace md_reach
