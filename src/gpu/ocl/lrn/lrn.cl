// Local response normalization on the gpu engine, as N x C x D x H x W
// (missing spatial dims of size 1). One work-item per element of the
// written tensor, in its memory order; positions in block padding get 0.
//
// The window of an element is a box: channels [c - lo, c + hi] across
// channels (ACROSS), or the spatial box [s - lo, s + hi] per dim within a
// channel, clipped to the tensor. With N = k + alpha / S * sum of src^2
// over the window (`as` = alpha / S):
//   forward:  dst = src * N^-beta; training keeps N in the workspace;
//   backward: the window is symmetric, so element m collects from the
//             elements i whose windows hold it (the elements of its own):
//     diff_src_m = dd_m N_m^-beta
//                - 2 as beta src_m sum_{i in W(m)} dd_i src_i N_i^(-beta-1),
//             N_i read from the workspace (WITH_WS) or recomputed.
#include "ocl_types.clh"
#include "ocl_walk.clh"

typedef struct {
    walk_t walk; // over dst (forward) or diff_src (backward)
    tensor_t src, out, ws, dd; // out: dst or diff_src; dd: diff_dst
    long dims[WALK_NDIMS];
    long lo, hi;
} lrn_conf_t;

// The window box of `pos`: [b0[d], b1[d]] for dims 1..4.
inline void window(__constant lrn_conf_t *c, const widx_t *pos, widx_t *b0,
        widx_t *b1) {
    for (int d = 1; d < 5; ++d) {
#if ACROSS
        const bool win = d == 1;
#else
        const bool win = d >= 2;
#endif
        b0[d] = win ? max(pos[d] - (widx_t)c->lo, (widx_t)0) : pos[d];
        b1[d] = win ? min(pos[d] + (widx_t)c->hi, (widx_t)c->dims[d] - 1)
                    : pos[d];
    }
}

// Calls BODY with q (a position) set to every position in the window of
// `pos`.
#define FOR_WINDOW(pos, q, BODY) \
    do { \
        widx_t b0_[5], b1_[5]; \
        window(c, pos, b0_, b1_); \
        widx_t q[WALK_NDIMS] = {pos[0], 0, 0, 0, 0, 0}; \
        for (q[1] = b0_[1]; q[1] <= b1_[1]; ++q[1]) \
            for (q[2] = b0_[2]; q[2] <= b1_[2]; ++q[2]) \
                for (q[3] = b0_[3]; q[3] <= b1_[3]; ++q[3]) \
                    for (q[4] = b0_[4]; q[4] <= b1_[4]; ++q[4]) { \
                        BODY; \
                    } \
    } while (0)

inline float norm_of(__global const SRC_T *src, __constant lrn_conf_t *c,
        const widx_t *pos, float k, float as) {
    float sum = 0.f;
    FOR_WINDOW(pos, q, {
        const float x = LOAD(SRC_DT, src, tensor_off(&c->src, q));
        sum += x * x;
    });
    return k + as * sum;
}

#if PLANES
// Forward (and backward, lrn_bwd_planes) across channels over [N, C, S] views with contiguous planes
// (nchw, ncdhw, nc): a work-item takes VEC neighbouring points of one
// image and walks a block of channels with the window in registers, so
// each source value is loaded once (plus the block's halo). The window
// holds channels c - LO .. c + HI (WL of them, zeros outside the tensor)
// and PF more loaded ahead, to keep loads in flight while a step
// computes. The sum runs in channel order, as the generic kernel's.
#define UNITS_INNER 0 // for view3_t only
#include "ocl_unit_loop.clh"
#include "ocl_vec_io.clh"
#define WIN (WL + PF)

inline void load_channel(__global const SRC_T *src, const view3_t *sv,
        long n, long c, long channels, long s, float *out) {
    if (c >= 0 && c < channels) {
        VLOAD(SRC_DT, src, v3_off(sv, n, c, s), out);
    } else {
        for (int j = 0; j < VEC; ++j)
            out[j] = 0.f;
    }
}

// n^-beta without the special cases of pow, which cost it most of its
// time on GPUs, for n > 0 (always, unless k <= 0): beta 0.75 (the usual
// one) as 1 / sqrt(n sqrt(n)), others through log2 and exp2.
inline float neg_pow(float n, float beta) {
    if (!(n > 0.f)) return pow(n, -beta);
    if (beta == 0.75f) return rsqrt(n * sqrt(n));
    return exp2(-beta * log2(n));
}

// This work-item's image n, first point s and channels [c0, c1): point
// vectors fastest (coalesced), then channel blocks (dimension 0), images
// (dimension 1). False past the work.
inline bool planes_item(long points, long channels, long block, long blocks,
        long *n, long *s, long *c0, long *c1) {
    const long vecs = points / VEC;
    const long id = get_global_id(0);
    if (id >= vecs * blocks) return false;
    const long b = id / vecs;
    *n = get_global_id(1);
    *s = (id - b * vecs) * VEC;
    *c0 = b * block;
    *c1 = min(*c0 + block, channels);
    return true;
}

__kernel void lrn_fwd_planes(__global const SRC_T *src, view3_t sv,
        __global DST_T *dst, view3_t dv, __global float *ws, view3_t wv,
        long points, long channels, long block, long blocks, float k,
        float as, float beta) {
    long n, s, c0, c1;
    if (!planes_item(points, channels, block, blocks, &n, &s, &c0, &c1))
        return;
    float win[WIN][VEC];
#pragma unroll
    for (int i = 0; i < WIN; ++i)
        load_channel(src, &sv, n, c0 - LO + i, channels, s, win[i]);
    for (long c = c0; c < c1; ++c) {
        float y[VEC], nrm[VEC];
        for (int j = 0; j < VEC; ++j) {
            float sum = 0.f;
#pragma unroll
            for (int i = 0; i < WL; ++i)
                sum += win[i][j] * win[i][j];
            nrm[j] = k + as * sum;
            y[j] = win[LO][j] * neg_pow(nrm[j], beta);
        }
        VSTORE(DST_DT, dst, v3_off(&dv, n, c, s), y);
#if WITH_WS
        VSTORE(1, ws, v3_off(&wv, n, c, s), nrm);
#endif
#pragma unroll
        for (int i = 0; i + 1 < WIN; ++i)
            for (int j = 0; j < VEC; ++j)
                win[i][j] = win[i + 1][j];
        load_channel(src, &sv, n, c + 1 - LO + WIN - 1, channels, s,
                win[WIN - 1]);
    }
}

// Backward across channels over the same views, with the workspace: a
// work-item walks a block of channels of VEC points as the forward does.
// Channel i contributes t_i = dd_i x_i N_i^-beta / N_i to the elements
// of its window; the window is symmetric, so element m takes the t of
// channels m - LO .. m + LO, kept in registers (T) as the walk moves, and
// each of src, diff_dst and the workspace is loaded once a channel (the
// generic kernel loads them for every window position). X, G and N hold
// the loaded channels m - LO .. m + LO + PF (PF loaded ahead).
// src, diff_dst and the norms of channel c at VEC points (zeros, and
// norms of 1, outside the tensor).
inline void load_bwd_channel(__global const SRC_T *src, const view3_t *sv,
        __global const SRC_T *dd, const view3_t *gv, __global const float *ws,
        const view3_t *wv, long n, long c, long channels, long s, float *x,
        float *g, float *nrm) {
    load_channel(src, sv, n, c, channels, s, x);
    load_channel(dd, gv, n, c, channels, s, g);
    if (c >= 0 && c < channels) {
        VLOAD(1, ws, v3_off(wv, n, c, s), nrm);
    } else {
        for (int j = 0; j < VEC; ++j)
            nrm[j] = 1.f;
    }
}

__kernel void lrn_bwd_planes(__global const SRC_T *src, view3_t sv,
        __global const SRC_T *dd, view3_t gv, __global SRC_T *ds,
        view3_t dv, __global const float *ws, view3_t wv, long points,
        long channels, long block, long blocks, float k, float as,
        float beta) {
    long n, s, c0, c1;
    if (!planes_item(points, channels, block, blocks, &n, &s, &c0, &c1))
        return;
    float X[WIN][VEC], G[WIN][VEC], N[WIN][VEC], T[WL][VEC];
#pragma unroll
    for (int i = 0; i < WIN; ++i) {
        const long ch = c0 - LO + i;
        load_bwd_channel(src, &sv, dd, &gv, ws, &wv, n, ch, channels, s,
                X[i], G[i], N[i]);
    }
#pragma unroll
    for (int i = 0; i + 1 < WL; ++i)
        for (int j = 0; j < VEC; ++j)
            T[i][j] = G[i][j] * X[i][j] * neg_pow(N[i][j], beta) / N[i][j];
    for (long c = c0; c < c1; ++c) {
        float y[VEC];
        for (int j = 0; j < VEC; ++j) {
            T[WL - 1][j] = G[WL - 1][j] * X[WL - 1][j]
                    * neg_pow(N[WL - 1][j], beta) / N[WL - 1][j];
            float acc = 0.f;
#pragma unroll
            for (int i = 0; i < WL; ++i)
                acc += T[i][j];
            y[j] = G[LO][j] * neg_pow(N[LO][j], beta)
                    - 2.f * as * beta * X[LO][j] * acc;
        }
        VSTORE(SRC_DT, ds, v3_off(&dv, n, c, s), y);
#pragma unroll
        for (int i = 0; i + 1 < WL; ++i)
            for (int j = 0; j < VEC; ++j)
                T[i][j] = T[i + 1][j];
#pragma unroll
        for (int i = 0; i + 1 < WIN; ++i)
            for (int j = 0; j < VEC; ++j) {
                X[i][j] = X[i + 1][j];
                G[i][j] = G[i + 1][j];
                N[i][j] = N[i + 1][j];
            }
        const long ch = c + 1 - LO + WIN - 1;
        load_bwd_channel(src, &sv, dd, &gv, ws, &wv, n, ch, channels, s,
                X[WIN - 1], G[WIN - 1], N[WIN - 1]);
    }
}

#elif IS_FWD
__kernel void lrn_fwd(__global const SRC_T *src, __global DST_T *dst,
        __global float *ws, __constant lrn_conf_t *c, float k, float as,
        float beta) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
    const bool inside = pos_inside(pos, c->dims);
    float r = 0.f, n = 0.f;
    if (inside) {
        n = norm_of(src, c, pos, k, as);
        r = LOAD(SRC_DT, src, tensor_off(&c->src, pos)) * pow(n, -beta);
    }
    STORE(DST_DT, dst, tensor_off(&c->out, pos), r);
#if WITH_WS
    // The workspace has src's dims: no padding positions to write.
    if (inside) ws[tensor_off(&c->ws, pos)] = n;
#endif
}

#else
__kernel void lrn_bwd(__global const SRC_T *src,
        __global const DIFF_DST_T *diff_dst, __global DIFF_SRC_T *diff_src,
        __global const float *ws, __constant lrn_conf_t *c, float k, float as,
        float beta) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
    float r = 0.f;
    if (pos_inside(pos, c->dims)) {
        float acc = 0.f;
        FOR_WINDOW(pos, q, {
#if WITH_WS
            const float n = ws[tensor_off(&c->ws, q)];
#else
            const float n = norm_of(src, c, q, k, as);
#endif
            const float x = LOAD(SRC_DT, src, tensor_off(&c->src, q));
            const float g = LOAD(DIFF_DST_DT, diff_dst, tensor_off(&c->dd, q));
            acc += g * x * pow(n, -beta - 1.f);
        });
#if WITH_WS
        const float nm = ws[tensor_off(&c->ws, pos)];
#else
        const float nm = norm_of(src, c, pos, k, as);
#endif
        const float xm = LOAD(SRC_DT, src, tensor_off(&c->src, pos));
        const float gm = LOAD(DIFF_DST_DT, diff_dst, tensor_off(&c->dd, pos));
        r = gm * pow(nm, -beta) - 2.f * as * beta * xm * acc;
    }
    STORE(DIFF_SRC_DT, diff_src, tensor_off(&c->out, pos), r);
}
#endif
