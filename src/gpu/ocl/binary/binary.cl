// Binary on the gpu engine:
//   dst = op(scale0 * src0, scale1 * src1 [, src2]) then the post-ops,
// computed in float. Tensor slots: 0 dst, 1 src0, 2 src1, 3 src2 (the s8
// condition of select).
//
// NEST: every tensor is linear in dst's loop nest (ocl_nest.clh) and dst
// has no padding; a work-item takes VEC consecutive elements of the
// innermost part, loading each source as a vector (CONTIG_<slot> 1) or
// one broadcast value (0). Binary post-ops need logical positions, which
// this path does not compute, so the host sends them to the other one.
// Otherwise (offset tables, ocl_offset_table.clh): one work-item per
// element of dst's padded volume; padding gets zeros.
#define NEST_TENSORS 4
#include "ocl_nest.clh"
#include "ocl_offset_table.clh"
#include "ocl_post_ops.clh"
#include "ocl_vec_io.clh"

#define BIN_SELECT 131068

inline float binary_apply(float a, float b, float c) {
#if ALG == BIN_SELECT
    return c != 0.f ? a : b;
#else
    return binary_op(ALG, a, b);
#endif
}

// The scales, read once per work-item (the buffers hold one value).
#define READ_SCALES(s0, s1) \
    float s0 = 1.f, s1 = 1.f; \
    if (WITH_SCALE0) s0 = LOAD(SC0_DT, scale0, 0); \
    if (WITH_SCALE1) s1 = LOAD(SC1_DT, scale1, 0)

#if NEST
__kernel void binary_vec(__global const SRC0_T *src0,
        __global const SRC1_T *src1, __global const char *src2,
        __global DST_T *dst, nest_t n, __global const SC0_T *scale0,
        __global const SC1_T *scale1 POST_OP_ARGS) {
    const nest_idx_t e = (nest_idx_t)get_global_id(0) * VEC;
    if (e >= (nest_idx_t)n.volume) return;
    nest_idx_t off[NEST_TENSORS];
    nest_offsets(&n, e, off);
    READ_SCALES(s0, s1);
    float a[VEC], b[VEC], c[VEC], prev[VEC];
    VLOAD_OR_BCAST(SRC0_DT, src0, off[1], a, CONTIG_1);
    VLOAD_OR_BCAST(SRC1_DT, src1, off[2], b, CONTIG_2);
    for (int k = 0; k < VEC; ++k)
        c[k] = prev[k] = 0.f;
#if IS_SELECT
    VLOAD_OR_BCAST(DT_S8, src2, off[3], c, CONTIG_3);
#endif
#if WITH_SUM
    VLOAD(PREV_DT, (__global const PREV_T *)dst, off[0], prev);
#endif
    const long idx[TABLE_MAX_NDIMS] = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < VEC; ++k) {
        float r = binary_apply(s0 * a[k], s1 * b[k], c[k]);
        APPLY_POST_OPS(r, prev[k], idx);
        a[k] = r;
    }
    VSTORE(DST_DT, dst, off[0], a);
}

#else
// tab: the tables of dst, src0, src1 (and src2) over dst's padded space.
__kernel void binary_any(__global const SRC0_T *src0,
        __global const SRC1_T *src1, __global const char *src2,
        __global DST_T *dst, __global const long *tab, table_space_t sp,
        __global const SC0_T *scale0,
        __global const SC1_T *scale1 POST_OP_ARGS) {
    const long i = get_global_id(0);
    if (i >= table_volume(&sp)) return;
    long idx[TABLE_MAX_NDIMS];
    const bool inside = table_unravel(&sp, i, idx);
    const long len = table_length(&sp);
    const long od = table_offset(tab, &sp, idx);
    if (!inside) {
        STORE(DST_DT, dst, od, 0.f);
        return;
    }
    READ_SCALES(s0, s1);
    const float a = LOAD(SRC0_DT, src0, table_offset(tab + len, &sp, idx));
    const float b = LOAD(SRC1_DT, src1, table_offset(tab + 2 * len, &sp, idx));
    float c = 0.f, prev = 0.f;
#if IS_SELECT
    c = LOAD(DT_S8, src2, table_offset(tab + 3 * len, &sp, idx));
#endif
#if WITH_SUM
    prev = LOAD(PREV_DT, (__global const PREV_T *)dst, od);
#endif
    float r = binary_apply(s0 * a, s1 * b, c);
    APPLY_POST_OPS(r, prev, idx);
    STORE(DST_DT, dst, od, r);
}
#endif
