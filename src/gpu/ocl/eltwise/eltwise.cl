// Eltwise forward and backward on the gpu engine. One work-item per
// element. DENSE: every tensor has one dense layout, so an element's offset
// is its linear index (padding included). Otherwise work-items cover the
// output's padded volume, each tensor addressed through its layout_t at the
// element's logical position, and padding positions get zero. Values are
// FLT_T: double when a tensor is f64 (then VEC is 1, no post-ops).
#include "ocl_layout.clh"
#include "ocl_post_ops.clh"
#ifndef VEC
#define VEC 1
#endif
#include "ocl_vec_io.clh"

#if IS_FWD
__kernel void eltwise_fwd_kernel(__global const SRC_T *src, __global DST_T *dst,
        long n, layout_t src_l, layout_t dst_l, float alpha, float beta
                POST_OP_ARGS) {
#if DENSE
    // VEC elements a work-item: one wide access each way (offsets aligned
    // by the host); the last work-item takes the tail one by one.
    const long first = (long)get_global_id(0) * VEC;
    if (first >= n) return;
    const long o0 = first + src_l.offset0, o1 = first + dst_l.offset0;
    if (first + VEC <= n) {
        FLT_T v[VEC];
        VLOAD(SRC_DT, src, o0, v);
        for (int k = 0; k < VEC; ++k)
            v[k] = eltwise_fwd(ALG, v[k], alpha, beta);
        VSTORE(DST_DT, dst, o1, v);
    } else {
        for (long k = 0; first + k < n; ++k)
            STORE(DST_DT, dst, o1 + k,
                    eltwise_fwd(ALG, LOAD(SRC_DT, src, o0 + k), alpha, beta));
    }
}
#else
    const long i = get_global_id(0);
    if (i >= n) return;
    // Over dst's padded volume: padding positions are written as zero.
    long idx[LAYOUT_MAX_NDIMS];
    const bool inside = layout_unravel_padded(&dst_l, i, idx);
    const long o1 = layout_off(&dst_l, idx);
    if (!inside) {
        STORE(DST_DT, dst, o1, 0.f);
        return;
    }
    const long o0 = layout_off(&src_l, idx);
    FLT_T v = eltwise_fwd(ALG, LOAD(SRC_DT, src, o0), alpha, beta);
    const float prev = 0.f;
    APPLY_POST_OPS(v, prev, idx);
    STORE(DST_DT, dst, o1, v);
}
#endif

#else
// `data` is src, or dst for the algorithms that differentiate from dst.
__kernel void eltwise_bwd_kernel(__global const DATA_T *data,
        __global const DIFF_DST_T *diff_dst, __global DIFF_SRC_T *diff_src,
        long n, layout_t data_l, layout_t dd_l, layout_t ds_l, float alpha,
        float beta) {
    const long i = get_global_id(0);
    if (i >= n) return;
#if DENSE
    const long od = i + data_l.offset0, odd = i + dd_l.offset0,
               ods = i + ds_l.offset0;
#else
    long idx[LAYOUT_MAX_NDIMS];
    const bool inside = layout_unravel_padded(&ds_l, i, idx);
    const long ods = layout_off(&ds_l, idx);
    if (!inside) {
        STORE(DIFF_SRC_DT, diff_src, ods, 0.f);
        return;
    }
    const long od = layout_off(&data_l, idx), odd = layout_off(&dd_l, idx);
#endif
    FLT_T r = eltwise_bwd(ALG, LOAD(DIFF_DST_DT, diff_dst, odd),
            LOAD(DATA_DT, data, od), alpha, beta);
    STORE(DIFF_SRC_DT, diff_src, ods, r);
}
#endif
