// Sum on the gpu engine: dst = sum_k scale_k * src_k in float. One launch
// adds up to 8 sources (NSRC of them, types SRC<k>_DT); more sources run
// in batches through a float accumulator `acc` (scratchpad) that a launch
// reads (acc_in) and writes instead of dst (acc_out) - sources are read
// before the last launch writes dst, so any of them may alias it.
//
// NEST: every tensor is linear in dst's loop nest (slots: 0 dst, 1 acc,
// 2.. the batch's sources); a work-item adds VEC consecutive elements.
// Otherwise offset tables over dst's padded space (tables of dst, then of
// every source; the batch starts at source `first`); padding gets zeros.
#define NEST_TENSORS 10
#include "ocl_nest.clh"
#include "ocl_offset_table.clh"
#include "ocl_vec_io.clh"

typedef struct {
    float s[8];
} sum_scales_t;

#define SRC_PARAMS \
    __global const SRC0_T *src0, __global const SRC1_T *src1, \
            __global const SRC2_T *src2, __global const SRC3_T *src3, \
            __global const SRC4_T *src4, __global const SRC5_T *src5, \
            __global const SRC6_T *src6, __global const SRC7_T *src7

#if NEST
// Adds source k of the batch (slot 2 + k) to r[VEC].
#define ADD_SRC(k) \
    if (k < NSRC) { \
        float x_[VEC]; \
        VLOAD(SRC##k##_DT, src##k, off[2 + k], x_); \
        for (int j_ = 0; j_ < VEC; ++j_) \
            r[j_] += sc.s[k] * x_[j_]; \
    }

__kernel void sum_vec(__global DST_T *dst, __global float *acc, SRC_PARAMS,
        nest_t n, sum_scales_t sc, int acc_in, int acc_out) {
    const nest_idx_t e = (nest_idx_t)get_global_id(0) * VEC;
    if (e >= (nest_idx_t)n.volume) return;
    nest_idx_t off[NEST_TENSORS];
    nest_offsets(&n, e, off);
    float r[VEC];
    if (acc_in) {
        VLOAD(DT_F32, acc, off[1], r);
    } else {
        for (int j = 0; j < VEC; ++j)
            r[j] = 0.f;
    }
    ADD_SRC(0) ADD_SRC(1) ADD_SRC(2) ADD_SRC(3)
    ADD_SRC(4) ADD_SRC(5) ADD_SRC(6) ADD_SRC(7)
    if (acc_out)
        VSTORE(DT_F32, acc, off[1], r);
    else
        VSTORE(DST_DT, dst, off[0], r);
}

#else
#define ADD_SRC(k) \
    if (k < NSRC) \
        r += sc.s[k] \
                * LOAD(SRC##k##_DT, src##k, \
                        table_offset(tab + (1 + first + k) * len, &sp, idx));

__kernel void sum_any(__global DST_T *dst, __global float *acc, SRC_PARAMS,
        __global const long *tab, table_space_t sp, long first,
        sum_scales_t sc, int acc_in, int acc_out) {
    const long i = get_global_id(0);
    if (i >= table_volume(&sp)) return;
    long idx[TABLE_MAX_NDIMS];
    const bool inside = table_unravel(&sp, i, idx);
    const long len = table_length(&sp);
    if (!inside) {
        if (!acc_out) STORE(DST_DT, dst, table_offset(tab, &sp, idx), 0.f);
        return;
    }
    float r = acc_in ? acc[i] : 0.f;
    ADD_SRC(0) ADD_SRC(1) ADD_SRC(2) ADD_SRC(3)
    ADD_SRC(4) ADD_SRC(5) ADD_SRC(6) ADD_SRC(7)
    if (acc_out)
        acc[i] = r;
    else
        STORE(DST_DT, dst, table_offset(tab, &sp, idx), r);
}
#endif
