// Resampling on the gpu engine, as N x C x D x H x W (missing spatial
// dims of size 1). One work-item per element of the written tensor in its
// memory order, or VEC consecutive channels when every tensor keeps them
// contiguous; positions in block padding get zero.
//
// The host computes every output index's taps once (taps_t rows: the two
// source indices, clamped, and the weight of the second; nearest has one
// tap), and for backward every input index's range of outputs whose taps
// reach it, so kernels do no division and match the reference's float
// rounding of the source coordinate exactly.
//   forward:  dst = sum over the taps of w * src, then the post-ops;
//   backward: diff_src(i) gathers w(o -> i) * diff_dst(o) over the
//             outputs o of its range (no atomics).
#include "ocl_post_ops.clh"
#include "ocl_vec_io.clh"
#include "ocl_walk.clh"

typedef struct {
    walk_t walk; // over the written tensor
    tensor_t src, dst; // backward: diff_src, diff_dst
    long dims[WALK_NDIMS]; // logical dims of the written tensor
    long taps_at[3]; // d, h, w: first row of the dim's taps in `tab`
    long range_at[3]; // d, h, w: first row of the dim's output ranges
} rs_conf_t;

// A row of the tap table holds i0, i1 and the bits of w1 (w0 = 1 - w1).
typedef struct {
    int i0, i1;
    float w0, w1;
} taps_t;

inline taps_t taps_of(__global const long *tab, long at, widx_t o) {
    __global const long *r = tab + at + 3 * (long)o;
    taps_t t;
    t.i0 = (int)r[0];
    t.i1 = (int)r[1];
    t.w1 = as_float((uint)r[2]);
    t.w0 = 1.f - t.w1;
    return t;
}

// Offset of the spatial point (d, h, w) at pos's (n, c); `base` is
// tensor_base(t, pos) (unused by the generic path).
inline widx_t sp_off(__constant tensor_t *t, widx_t base, const widx_t *pos,
        widx_t d, widx_t h, widx_t w) {
#if WALK_GENERIC
    widx_t p[WALK_NDIMS] = {pos[0], pos[1], d, h, w, 0};
    return tensor_off(t, p);
#else
    return base + d * tensor_stride(t, 2) + h * tensor_stride(t, 3)
            + w * tensor_stride(t, 4);
#endif
}

#if IS_FWD
// Position of the destination for post-ops: its own dims, not the 5D view.
inline void po_pos(const widx_t *pos, int lane, long *idx) {
    idx[0] = pos[0];
    idx[1] = pos[1] + lane;
    for (int s = 0; s < 4; ++s)
        idx[2 + s] = s < PO_NDIMS - 2 ? pos[5 - (PO_NDIMS - 2) + s] : 0;
}

__kernel void resampling_fwd(__global const SRC_T *src, __global DST_T *dst,
        __constant rs_conf_t *c, __global const long *tab POST_OP_ARGS) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
#if OUT_DENSE
    const widx_t doff = (widx_t)c->dst.offset0 + id * VEC;
#else
    const widx_t doff = tensor_off(&c->dst, pos);
#endif
    float out[VEC];
    for (int l = 0; l < VEC; ++l)
        out[l] = 0.f;
    if (pos_inside(pos, c->dims)) {
        const taps_t td = taps_of(tab, c->taps_at[0], pos[2]),
                     th = taps_of(tab, c->taps_at[1], pos[3]),
                     tw = taps_of(tab, c->taps_at[2], pos[4]);
#if WALK_GENERIC
        const widx_t base = 0;
#else
        const widx_t base = tensor_base(&c->src, pos);
#endif
        float acc[VEC];
        for (int l = 0; l < VEC; ++l)
            acc[l] = 0.f;
        for (int a = 0; a < NTAPS; ++a)
            for (int b = 0; b < NTAPS; ++b)
                for (int e = 0; e < NTAPS; ++e) {
                    const float w = (a ? td.w1 : td.w0) * (b ? th.w1 : th.w0)
                            * (e ? tw.w1 : tw.w0);
                    float v[VEC];
                    VLOAD(SRC_DT, src,
                            sp_off(&c->src, base, pos, a ? td.i1 : td.i0,
                                    b ? th.i1 : th.i0, e ? tw.i1 : tw.i0),
                            v);
                    for (int l = 0; l < VEC; ++l)
                        acc[l] += NTAPS == 1 ? v[l] : w * v[l];
                }
#if WITH_SUM
        float prev[VEC];
        VLOAD(DST_DT, dst, doff, prev);
#endif
        for (int l = 0; l < VEC; ++l) {
            float r = acc[l];
#if PO_COUNT > 0
            long idx[6];
            po_pos(pos, l, idx);
#if WITH_SUM
            const float p = prev[l];
#else
            const float p = 0.f;
#endif
            APPLY_POST_OPS(r, p, idx);
#endif
            // Lanes past the channels are block padding.
            out[l] = VEC == 1 || pos[1] + l < c->dims[1] ? r : 0.f;
        }
    }
    VSTORE(DST_DT, dst, doff, out);
}

#else

// Weight of input i in output o's taps of one dim.
inline float weight_of(taps_t t, widx_t i) {
#if NTAPS == 1
    return t.i0 == i ? 1.f : 0.f;
#else
    return (t.i0 == i ? t.w0 : 0.f) + (t.i1 == i ? t.w1 : 0.f);
#endif
}

__kernel void resampling_bwd(__global DIFF_SRC_T *diff_src,
        __global const DIFF_DST_T *diff_dst, __constant rs_conf_t *c,
        __global const long *tab) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
#if OUT_DENSE
    const widx_t soff = (widx_t)c->src.offset0 + id * VEC;
#else
    const widx_t soff = tensor_off(&c->src, pos);
#endif
    float acc[VEC];
    for (int l = 0; l < VEC; ++l)
        acc[l] = 0.f;
    if (pos_inside(pos, c->dims)) {
#if WALK_GENERIC
        const widx_t base = 0;
#else
        const widx_t base = tensor_base(&c->dst, pos);
#endif
        __global const long *rd = tab + c->range_at[0] + 2 * (long)pos[2];
        __global const long *rh = tab + c->range_at[1] + 2 * (long)pos[3];
        __global const long *rw = tab + c->range_at[2] + 2 * (long)pos[4];
        for (widx_t od = rd[0]; od <= rd[1]; ++od) {
            const float wd = weight_of(taps_of(tab, c->taps_at[0], od), pos[2]);
            for (widx_t oh = rh[0]; oh <= rh[1]; ++oh) {
                const float wh
                        = wd * weight_of(taps_of(tab, c->taps_at[1], oh), pos[3]);
                for (widx_t ow = rw[0]; ow <= rw[1]; ++ow) {
                    const float w = wh
                            * weight_of(taps_of(tab, c->taps_at[2], ow), pos[4]);
                    float g[VEC];
                    VLOAD(DIFF_DST_DT, diff_dst,
                            sp_off(&c->dst, base, pos, od, oh, ow), g);
                    for (int l = 0; l < VEC; ++l)
                        acc[l] += w * g[l];
                }
            }
        }
        for (int l = 0; l < VEC; ++l)
            if (VEC > 1 && pos[1] + l >= c->dims[1]) acc[l] = 0.f;
    }
    VSTORE(DIFF_SRC_DT, diff_src, soff, acc);
}
#endif
