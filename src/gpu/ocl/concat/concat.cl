// Concat on the gpu engine: each source is copied into its slice of dst
// by its own launch; a final launch zeroes dst's padding.
//
// RAW: same data type and no scale, so elements move as ELEM_T bits;
// otherwise through float (scale, conversion to dst's type).
// concat_vec: source and slice linear in the source's loop nest (slots:
// 0 source, 1 slice); a work-item moves VEC consecutive elements.
// concat_any: offset tables over the source's dims (the source's table,
// then dst's shifted to the slice, from entry `tab_start`).
#define NEST_TENSORS 2
#include "ocl_nest.clh"
#include "ocl_offset_table.clh"
#include "ocl_vec_io.clh"

#if RAW
#define MOVE(os, od) (dst_raw[od] = src_raw[os])
#else
#define MOVE(os, od) \
    STORE(DST_DT, dst, od, scale * LOAD(SRC_DT, src, os))
#endif

#define READ_SCALE() \
    float scale = 1.f; \
    if (WITH_SCALE) scale = LOAD(SC_DT, scale_ptr, 0)

__kernel void concat_vec(__global const SRC_T *src, __global DST_T *dst,
        nest_t n, __global const SC_T *scale_ptr) {
    const nest_idx_t e = (nest_idx_t)get_global_id(0) * VEC;
    if (e >= (nest_idx_t)n.volume) return;
    nest_idx_t off[NEST_TENSORS];
    nest_offsets(&n, e, off);
#if RAW
    __global const ELEM_T *src_raw = (__global const ELEM_T *)src;
    __global ELEM_T *dst_raw = (__global ELEM_T *)dst;
#if VEC == 1
    MOVE(off[0], off[1]);
#else
    VPTR(ELEM_T, dst_raw, off[1]) = VCPTR(ELEM_T, src_raw, off[0]);
#endif
#else
    READ_SCALE();
    float v[VEC];
    VLOAD(SRC_DT, src, off[0], v);
    for (int k = 0; k < VEC; ++k)
        v[k] *= scale;
    VSTORE(DST_DT, dst, off[1], v);
#endif
}

__kernel void concat_any(__global const SRC_T *src, __global DST_T *dst,
        __global const long *tab, long tab_start, table_space_t sp,
        __global const SC_T *scale_ptr) {
    tab += tab_start;
    const long i = get_global_id(0);
    if (i >= table_volume(&sp)) return;
    long idx[TABLE_MAX_NDIMS];
    table_unravel(&sp, i, idx);
    const long os = table_offset(tab, &sp, idx);
    const long od = table_offset(tab + table_length(&sp), &sp, idx);
#if RAW
    __global const ELEM_T *src_raw = (__global const ELEM_T *)src;
    __global ELEM_T *dst_raw = (__global ELEM_T *)dst;
#else
    READ_SCALE();
#endif
    MOVE(os, od);
}

// Zeroes the padding of dst (table over its padded dims).
__kernel void concat_zero_pad(__global DST_T *dst, __global const long *tab,
        long tab_start, table_space_t sp) {
    tab += tab_start;
    const long i = get_global_id(0);
    if (i >= table_volume(&sp)) return;
    long idx[TABLE_MAX_NDIMS];
    if (table_unravel(&sp, i, idx)) return;
    STORE(DST_DT, dst, table_offset(tab, &sp, idx), 0.f);
}
