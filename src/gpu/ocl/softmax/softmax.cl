// Softmax forward and backward on the gpu engine. A unit is one softmax:
// the axis_len elements at (outer, *, inner); unit u is (u / inner,
// u % inner). Tensors come as [outer, axis, inner] views (view3_t).
//  forward:  one pass keeps a running max and a sum of exponentials
//            rescaled to it, the lanes merge theirs, a second pass
//            writes exp(x - max) / sum (or x - max - log(sum)) times the
//            src scale, the post-ops, over the dst scale;
//  backward: a pass sums diff_dst * dst (diff_dst for log), a second
//            writes dst * (diff_dst - sum) (diff_dst - exp(dst) * sum);
//            contiguous rows that fit the registers are held there
//            between the two (softmax_bwd_rows).
#include "ocl_types.clh"
#include "ocl_unit_loop.clh"
#if IS_FWD
#include "ocl_post_ops.clh"
#endif
#if ROW_CACHE
#include "ocl_vec_io.clh"
#endif

#if IS_FWD
__kernel void softmax_fwd(__global const SRC_T *src, view3_t sv,
        __global DST_T *dst, view3_t dv, unit_space_t sp, long inner,
        int is_log, __local float *buf, __global const SSC_T *src_scale,
        __global const DSC_T *dst_scale, dims6_t dims,
        int axis POST_OP_ARGS) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const long uo = valid ? u / inner : 0, ui = valid ? u % inner : 0;
    const long sb = v3_off(&sv, uo, 0, ui), db = v3_off(&dv, uo, 0, ui);

    float m = -INFINITY, s = 0.f;
    if (valid)
        UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
            const float x = LOAD(SRC_DT, src, sb + c * sv.s1);
            if (x > m) {
                s = s * exp(m - x) + 1.f;
                m = x;
            } else {
                s += exp(x - m);
            }
        });
    const float mx = wg_max(m, buf);
    const float sum = wg_sum(m == -INFINITY ? 0.f : s * exp(m - mx), buf);
    if (!valid) return;

    const float log_sum = log(sum), inv_sum = 1.f / sum;
    // Absent scales come as null buffers.
    const float ss = src_scale ? LOAD(SSC_DT, src_scale, 0) : 1.f;
    const float rds = dst_scale ? 1.f / LOAD(DSC_DT, dst_scale, 0) : 1.f;
    long idx[6] = {0, 0, 0, 0, 0, 0};
#if BINARY_PO
    ul_unravel(&dims, uo, 0, axis, idx);
    ul_unravel(&dims, ui, axis + 1, 6, idx);
#endif
    UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
        const float x = LOAD(SRC_DT, src, sb + c * sv.s1);
        float v = is_log ? x - mx - log_sum : exp(x - mx) * inv_sum;
        v *= ss;
        idx[axis] = c;
        const float prev = 0.f;
        APPLY_POST_OPS(v, prev, idx);
        v *= rds;
        STORE(DST_DT, dst, db + c * dv.s1, v);
    });
}

#if ROW_CACHE
// Forward over contiguous rows read as VEC-wide vectors, the row held in
// registers between the passes (ROW_CACHE vectors per lane: the host
// picks it so that the row fits), so src is read from memory once. The
// unit space counts vectors (sp.i = axis_len / VEC); inner is 1.
__kernel void softmax_fwd_rows(__global const SRC_T *src, view3_t sv,
        __global DST_T *dst, view3_t dv, unit_space_t sp, long inner,
        int is_log, __local float *buf, __global const SSC_T *src_scale,
        __global const DSC_T *dst_scale, dims6_t dims,
        int axis POST_OP_ARGS) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const long sb = v3_off(&sv, valid ? u : 0, 0, 0);
    const long db = v3_off(&dv, valid ? u : 0, 0, 0);
    const int r = ul_lane(), l = ul_lanes();

    float x[ROW_CACHE][VEC];
    float m = -INFINITY;
    VLOAD_HELD_ROW(SRC_DT, src, sb, sp.i, valid, x, ROW_CACHE, -INFINITY);
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k)
        for (int j = 0; j < VEC; ++j)
            m = fmax(m, x[k][j]);
    const float mx = wg_max(m, buf);
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k)
        for (int j = 0; j < VEC; ++j) {
            const float e = exp(x[k][j] - mx);
            s += e;
            if (!is_log) x[k][j] = e;
        }
    const float sum = wg_sum(s, buf);
    if (!valid) return;

    const float log_sum = log(sum), inv_sum = 1.f / sum;
    const float ss = src_scale ? LOAD(SSC_DT, src_scale, 0) : 1.f;
    const float rds = dst_scale ? 1.f / LOAD(DSC_DT, dst_scale, 0) : 1.f;
    long idx[6] = {0, 0, 0, 0, 0, 0};
#if BINARY_PO
    ul_unravel(&dims, u, 0, axis, idx);
#endif
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k) {
        const long v = r + (long)k * l;
        if (v >= sp.i) break;
        float y[VEC];
        for (int j = 0; j < VEC; ++j) {
            float t = is_log ? x[k][j] - mx - log_sum : x[k][j] * inv_sum;
            t *= ss;
            idx[axis] = v * VEC + j;
            const float prev = 0.f;
            APPLY_POST_OPS(t, prev, idx);
            y[j] = t * rds;
        }
        VSTORE(DST_DT, dst, db + v * VEC, y);
    }
}
#endif

#else
__kernel void softmax_bwd(__global const DST_T *dst, view3_t dv,
        __global const DD_T *ddst, view3_t ddv, __global DS_T *dsrc,
        view3_t dsv, unit_space_t sp, long inner, int is_log,
        __local float *buf) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const long uo = valid ? u / inner : 0, ui = valid ? u % inner : 0;
    const long b0 = v3_off(&dv, uo, 0, ui), b1 = v3_off(&ddv, uo, 0, ui),
               b2 = v3_off(&dsv, uo, 0, ui);
    float s = 0.f;
    if (valid)
        UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
            const float g = LOAD(DD_DT, ddst, b1 + c * ddv.s1);
            s += is_log ? g : g * LOAD(DST_DT, dst, b0 + c * dv.s1);
        });
    const float sum = wg_sum(s, buf);
    if (!valid) return;
    UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
        const float d = LOAD(DST_DT, dst, b0 + c * dv.s1);
        const float g = LOAD(DD_DT, ddst, b1 + c * ddv.s1);
        const float r = is_log ? g - exp(d) * sum : d * (g - sum);
        STORE(DS_DT, dsrc, b2 + c * dsv.s1, r);
    });
}

#if ROW_CACHE
// Backward over contiguous rows read as VEC-wide vectors, dst and
// diff_dst of the row held in registers between the sum and the
// gradient (ROW_CACHE vectors of each per lane), so each is read from
// memory once (softmax_bwd reads both twice). The unit space counts
// vectors; inner is 1.
__kernel void softmax_bwd_rows(__global const DST_T *dst, view3_t dv,
        __global const DD_T *ddst, view3_t ddv, __global DS_T *dsrc,
        view3_t dsv, unit_space_t sp, long inner, int is_log,
        __local float *buf) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const long b0 = v3_off(&dv, valid ? u : 0, 0, 0);
    const long b1 = v3_off(&ddv, valid ? u : 0, 0, 0);
    const long b2 = v3_off(&dsv, valid ? u : 0, 0, 0);
    const int r = ul_lane(), l = ul_lanes();
    float d[ROW_CACHE][VEC], g[ROW_CACHE][VEC];
    // Every load is issued before any is used.
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k) {
        const long v = r + (long)k * l;
        for (int j = 0; j < VEC; ++j)
            d[k][j] = g[k][j] = 0.f;
        if (valid && v < sp.i) {
            VLOAD(DST_DT, dst, b0 + v * VEC, d[k]);
            VLOAD(DD_DT, ddst, b1 + v * VEC, g[k]);
        }
    }
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k)
        for (int j = 0; j < VEC; ++j)
            s += is_log ? g[k][j] : g[k][j] * d[k][j];
    const float sum = wg_sum(s, buf);
    if (!valid) return;
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k) {
        const long v = r + (long)k * l;
        if (v >= sp.i) break;
        float y[VEC];
        for (int j = 0; j < VEC; ++j)
            y[j] = is_log ? g[k][j] - exp(d[k][j]) * sum
                          : d[k][j] * (g[k][j] - sum);
        VSTORE(DS_DT, dsrc, b2 + v * VEC, y);
    }
}
#endif
#endif
