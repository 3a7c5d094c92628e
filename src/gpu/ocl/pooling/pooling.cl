// Pooling on the gpu engine, as N x C x D x H x W (missing spatial dims
// of size 1). One work-item per element of the written tensor (dst
// forward, diff_src backward), in that tensor's memory order, or VEC
// consecutive channels when every tensor keeps channels contiguous (nhwc,
// nChw16c): the taps then load VEC-wide vectors. Positions in the padding
// of blocks are written as zero.
//
// LANE_DIM says which dim the VEC lanes run along: 1 (channels, above) or
// 4 (w, over nchw-like layouts: VEC consecutive elements of a row; the d
// and h taps are shared; forward, each lane bounds its own w taps and
// loads scalars, so neighbouring lanes reuse the cache lines they share;
// backward, each diff_dst value is loaded once for the lanes whose
// windows take it).
//
// Forward: max (first maximum in kernel order; training writes its kernel
// index to the workspace) or average over the taps inside the source.
// Backward gathers: a diff_src element visits the outputs whose windows
// hold it (per dim, o in [ceil((i + p - ext + 1) / s), (i + p) / s] with
// the tap index divisible by the dilation step), so no atomics are needed.
//
// ROW_CHUNKS (forward, window compiled in, nchw-like rows aligned to
// four elements): the four outputs of a work-item take their taps from
// aligned 4-wide chunks of each source row, loaded once, indexed at
// compile time (ROW_PHASE, ROW_STRIDE, ROW_STEP).
//
// WALK_GENERIC: offsets through layout_t at every tap. Otherwise spatial
// dims are unblocked in every tensor: a tap adds its spatial strides to
// the (n, c) base.
#include "ocl_post_ops.clh"
#include "ocl_vec_io.clh"
#include "ocl_walk.clh"

#define POOL_MAX 0
#define POOL_AVG_INCLUDE 1
#define POOL_AVG_EXCLUDE 2

typedef struct {
    walk_t walk; // over the written tensor
    tensor_t src, dst, ws; // backward: diff_src, diff_dst, ws
    long dims[WALK_NDIMS]; // logical dims of the written tensor
    long in[3], out[3], k[3], stride[3], step[3], pad[3]; // d, h, w
    // Division by the strides without a divide (32-bit index arithmetic,
    // div_magic).
    long smagic[3], sshift[3];
    // Backward in tiles (pool_bwd_tiles): planes (N x C), channels, planes
    // and rows of the tile dim a group takes, tiles a plane, the tile dim
    // (0: d, 1: h) and the points after one of its rows, points of a
    // plane, phases along d, h, w, log2 of the lanes along w and of the
    // channels a group takes (channels last), the outputs after one
    // output row of the tile dim and of a plane, and division
    // by the window's w and h sizes (div_magic).
    long planes, channels, tile_planes, tile_rows, tile_count, tile_dim;
    long tile_inner, plane, phases[3], lanes_w_log2, tile_cbits;
    long tile_out_inner, out_plane;
    long kmagic[2], kshift[2];
} pool_conf_t;

// Offset of the spatial point (d, h, w) at pos's (n, c) in `t`; `base` is
// tensor_base(t, pos) (unused by the generic path).
inline widx_t tap_off(__constant tensor_t *t, widx_t base, const widx_t *pos,
        widx_t d, widx_t h, widx_t w) {
#if WALK_GENERIC
    widx_t p[WALK_NDIMS] = {pos[0], pos[1], d, h, w, 0};
    return tensor_off(t, p);
#else
    return base + d * tensor_stride(t, 2) + h * tensor_stride(t, 3)
            + w * tensor_stride(t, 4);
#endif
}

// The geometry of dim s (d, h, w) in index arithmetic.
typedef struct {
    widx_t in, out, k, stride, step, pad;
    uint smagic, sshift;
} pool_dim_t;

inline pool_dim_t pool_dim(__constant pool_conf_t *c, int s) {
    pool_dim_t g;
    g.in = (widx_t)c->in[s];
    g.out = (widx_t)c->out[s];
    g.k = (widx_t)c->k[s];
    g.stride = (widx_t)c->stride[s];
    g.step = (widx_t)c->step[s];
    g.pad = (widx_t)c->pad[s];
    g.smagic = (uint)c->smagic[s];
    g.sshift = (uint)c->sshift[s];
    return g;
}

// x / g.stride for x >= 0.
inline widx_t div_stride(pool_dim_t g, widx_t x) {
#if WALK_INT32
    return (widx_t)div_magic((uint)x, g.smagic, g.sshift);
#else
    return x / g.stride;
#endif
}

// Kernel positions [*lo, *hi) of dim g whose taps from x0 fall inside the
// source (empty when *hi <= *lo).
inline void tap_range(pool_dim_t g, widx_t x0, widx_t *lo, widx_t *hi) {
    if (g.step == 1) {
        *lo = max(-x0, (widx_t)0);
        *hi = min(g.k, g.in - x0);
        return;
    }
    *lo = x0 >= 0 ? 0 : (-x0 + g.step - 1) / g.step;
    *hi = x0 >= g.in ? 0 : min(g.k, (g.in - x0 + g.step - 1) / g.step);
}

#if IS_FWD
// Integer sources keep exact maxima (and sums) in integers.
#if SRC_DT == DT_S32
#define ACC_T long
#define LOAD_TAP(off, v) ((v)[0] = (long)src[off]) // VEC is 1
#define LOAD_TAP1(off) ((long)src[off])
#define ACC_LOWEST ((long)INT_MIN)
#else
#define ACC_T FLT_T // double for f64 (VEC 1, no post-ops)
#define LOAD_TAP(off, v) VLOAD(SRC_DT, src, off, v)
#define LOAD_TAP1(off) LOAD(SRC_DT, src, off)
#if WITH_F64
#define ACC_LOWEST (-DBL_MAX)
#else
#define ACC_LOWEST (-FLT_MAX)
#endif
#endif
// Takes tap value v of lane l (kernel index k) when `in`.
#if ALG == POOL_MAX
#define POOL_TAKE(l, v, in, k) \
    do { \
        if ((in) && (v) > acc[l]) { \
            acc[l] = (v); \
            arg[l] = (k); \
        } \
    } while (0)
#else
#define POOL_TAKE(l, v, in, k) (acc[l] += (in) ? (v) : 0)
#endif
// s32 max into s32 without post-ops: the maximum itself, not its float.
#define EXACT_S32 \
    (SRC_DT == DT_S32 && DST_DT == DT_S32 && ALG == POOL_MAX && PO_COUNT == 0)

// Position of the destination for post-ops: its own dims, not the 5D view.
inline void po_pos(const widx_t *pos, int lane, long *idx) {
    widx_t p[WALK_NDIMS];
    for (int d = 0; d < WALK_NDIMS; ++d)
        p[d] = pos[d] + (d == LANE_DIM ? lane : 0);
    idx[0] = p[0];
    idx[1] = p[1];
    for (int s = 0; s < 4; ++s)
        idx[2 + s] = s < PO_NDIMS - 2 ? p[5 - (PO_NDIMS - 2) + s] : 0;
}

__kernel void pool_fwd(__global const SRC_T *src, __global DST_T *dst,
        __global WS_T *ws, __constant pool_conf_t *c POST_OP_ARGS) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
#if OUT_DENSE
    const widx_t doff = (widx_t)c->dst.offset0 + id * VEC;
#else
    const widx_t doff = tensor_off(&c->dst, pos);
#endif
    FLT_T out[VEC];
    float wsv[VEC];
    for (int l = 0; l < VEC; ++l)
        out[l] = wsv[l] = 0.f;
    const bool inside = pos_inside(pos, c->dims);
    if (inside) {
        const pool_dim_t gd = pool_dim(c, 0), gh = pool_dim(c, 1),
                         gw = pool_dim(c, 2);
        ACC_T acc[VEC];
        int arg[VEC];
        for (int l = 0; l < VEC; ++l) {
            acc[l] = ALG == POOL_MAX ? ACC_LOWEST : 0;
            arg[l] = 0;
        }
#if WALK_GENERIC
        const widx_t base = 0;
#else
        const widx_t base = tensor_base(&c->src, pos);
#endif
        const widx_t d0 = pos[2] * gd.stride - gd.pad,
                     h0 = pos[3] * gh.stride - gh.pad,
                     w0 = pos[4] * gw.stride - gw.pad;
        // Only the taps inside the source: no bounds checks in the loops.
        widx_t dlo, dhi, hlo, hhi, wlo, whi;
        tap_range(gd, d0, &dlo, &dhi);
        tap_range(gh, h0, &hlo, &hhi);
        tap_range(gw, w0, &wlo, &whi);
        const int cdh = (int)(max(dhi - dlo, (widx_t)0) * max(hhi - hlo, (widx_t)0));
        int cnt[VEC];
#if POOL_KH
        // The window's size is compiled in (POOL_KH x POOL_KW, at most two
        // spatial dims): every tap is loaded, from a clamped address when
        // it falls outside the source, and masked, so the loop unrolls and
        // all of a work-item's loads are in flight at once (with run-time
        // bounds each tap waited for the one before).
        for (int l = 0; l < VEC; ++l) {
#if LANE_DIM == 4
            tap_range(gw, w0 + l * gw.stride, &wlo, &whi);
#endif
            cnt[l] = cdh * (int)max(whi - wlo, (widx_t)0);
        }
        const widx_t shs = tensor_stride(&c->src, 3);
        const widx_t sws = tensor_stride(&c->src, 4);
#if ROW_CHUNKS
#if VEC != 4 || LANE_DIM != 4
#error "source row chunks need four outputs along w per work-item"
#endif
        // The first chunk's w: ROW_LEAD chunks before the first output's
        // window start would be without padding.
        const widx_t wc0 = pos[4] * ROW_STRIDE - 4 * ROW_LEAD;
#endif
#pragma unroll
        for (int kh = 0; kh < POOL_KH; ++kh) {
            const widx_t sh = h0 + kh * gh.step;
            const bool hin = sh >= 0 && sh < gh.in;
            const widx_t row = base + (hin ? sh : 0) * shs;
#if ROW_CHUNKS
            // Rows are 4-aligned and a multiple of 4 long, so a chunk is
            // wholly inside the row or wholly outside (then loaded from
            // the row's start and masked).
            ACC_T x[4 * ROW_CHUNKS];
#pragma unroll
            for (int q = 0; q < ROW_CHUNKS; ++q) {
                const widx_t wq = wc0 + 4 * q;
                const bool qin = wq >= 0 && wq < gw.in;
                VLOAD(SRC_DT, src, row + (qin ? wq : 0), x + 4 * q);
            }
#pragma unroll
            for (int kw = 0; kw < POOL_KW; ++kw) {
#pragma unroll
                for (int l = 0; l < VEC; ++l) {
                    const int t = ROW_PHASE + l * ROW_STRIDE + kw * ROW_STEP;
                    const widx_t sw = wc0 + t;
                    const bool in = hin && sw >= 0 && sw < gw.in;
                    POOL_TAKE(l, x[t], in, kh * POOL_KW + kw);
                }
            }
#else
#pragma unroll
            for (int kw = 0; kw < POOL_KW; ++kw) {
#if LANE_DIM == 4
#pragma unroll
                for (int l = 0; l < VEC; ++l) {
                    const widx_t sw = w0 + l * gw.stride + kw * gw.step;
                    const bool in = hin && sw >= 0 && sw < gw.in;
                    const ACC_T v = LOAD_TAP1(row + (in ? sw : 0) * sws);
                    POOL_TAKE(l, v, in, kh * POOL_KW + kw);
                }
#else
                const widx_t sw = w0 + kw * gw.step;
                const bool in = hin && sw >= 0 && sw < gw.in;
                ACC_T v[VEC];
                LOAD_TAP(row + (in ? sw : 0) * sws, v);
                for (int l = 0; l < VEC; ++l)
                    POOL_TAKE(l, v[l], in, kh * POOL_KW + kw);
#endif
            }
#endif // ROW_CHUNKS
        }
#elif LANE_DIM == 4
        widx_t wl[VEC]; // each lane's first w tap
        for (int l = 0; l < VEC; ++l) {
            wl[l] = w0 + l * gw.stride;
            tap_range(gw, wl[l], &wlo, &whi);
            cnt[l] = cdh * (int)max(whi - wlo, (widx_t)0);
        }
        const widx_t sws = tensor_stride(&c->src, 4);
        for (widx_t kd = dlo; kd < dhi; ++kd) {
            const widx_t sd = d0 + kd * gd.step;
            for (widx_t kh = hlo; kh < hhi; ++kh) {
                const widx_t row = tap_off(&c->src, base, pos, sd,
                        h0 + kh * gh.step, 0);
                for (widx_t kw = 0; kw < gw.k; ++kw) {
                    for (int l = 0; l < VEC; ++l) {
                        const widx_t sw = wl[l] + kw * gw.step;
                        if (sw < 0 || sw >= gw.in) continue;
                        const ACC_T v = LOAD_TAP1(row + sw * sws);
#if ALG == POOL_MAX
                        if (v > acc[l]) {
                            acc[l] = v;
                            arg[l] = (int)((kd * gh.k + kh) * gw.k + kw);
                        }
#else
                        acc[l] += v;
#endif
                    }
                }
            }
        }
#else
        for (int l = 0; l < VEC; ++l)
            cnt[l] = cdh * (int)max(whi - wlo, (widx_t)0);
        for (widx_t kd = dlo; kd < dhi; ++kd) {
            const widx_t sd = d0 + kd * gd.step;
            for (widx_t kh = hlo; kh < hhi; ++kh) {
                const widx_t sh = h0 + kh * gh.step;
                for (widx_t kw = wlo; kw < whi; ++kw) {
                    const widx_t sw = w0 + kw * gw.step;
                    ACC_T v[VEC];
                    LOAD_TAP(tap_off(&c->src, base, pos, sd, sh, sw), v);
                    for (int l = 0; l < VEC; ++l) {
#if ALG == POOL_MAX
                        if (v[l] > acc[l]) {
                            acc[l] = v[l];
                            arg[l] = (int)((kd * gh.k + kh) * gw.k + kw);
                        }
#else
                        acc[l] += v[l];
#endif
                    }
                }
            }
        }
#endif
#if EXACT_S32
        dst[doff] = (int)acc[0];
#endif
        const int kvol = gd.k * gh.k * gw.k;
#if WITH_SUM
        FLT_T prev[VEC];
        VLOAD(DST_DT, dst, doff, prev);
#endif
        for (int l = 0; l < VEC; ++l) {
            FLT_T r = (FLT_T)acc[l];
            const int ndiv = ALG == POOL_AVG_INCLUDE ? kvol : cnt[l];
            if (ALG != POOL_MAX) r = ndiv ? r / (FLT_T)ndiv : 0.f;
#if PO_COUNT > 0
            long idx[6];
            po_pos(pos, l, idx);
#if WITH_SUM
            const FLT_T p = prev[l];
#else
            const FLT_T p = 0.f;
#endif
            APPLY_POST_OPS(r, p, idx);
#endif
            // Lanes past the channels are block padding.
            const bool lane_in = VEC == 1 || pos[LANE_DIM] + l < c->dims[LANE_DIM];
            out[l] = lane_in ? r : 0.f;
            wsv[l] = lane_in ? (float)arg[l] : 0.f;
        }
    }
#if EXACT_S32
    if (!inside) dst[doff] = 0;
#else
    VSTORE(DST_DT, dst, doff, out);
#endif
#if WITH_WS
#if WS_DENSE
    const widx_t woff = (widx_t)c->ws.offset0 + id * VEC;
#else
    const widx_t woff = tensor_off(&c->ws, pos);
#endif
    VSTORE(WS_DT, ws, woff, wsv);
#endif
}

#else

// Kernel positions of dim g inside the source for output o.
inline widx_t taps_inside(pool_dim_t g, widx_t o) {
    widx_t lo, hi;
    tap_range(g, o * g.stride - g.pad, &lo, &hi);
    return hi - lo;
}

// Outputs of dim g whose windows may hold input i: [*lo, *hi].
inline void out_range(pool_dim_t g, widx_t i, widx_t *lo, widx_t *hi) {
    const widx_t first = i + g.pad - (g.k - 1) * g.step;
    *lo = first <= 0 ? 0 : div_stride(g, first + g.stride - 1);
    *hi = min(div_stride(g, i + g.pad), g.out - 1);
}

// The kernel position of input i in the window of output o, or -1.
inline int tap_of(pool_dim_t g, widx_t i, widx_t o) {
    const widx_t t = i + g.pad - o * g.stride;
    if (g.step == 1) return (int)t;
    if (t % g.step != 0) return -1;
    return (int)(t / g.step);
}

__kernel void pool_bwd(__global DIFF_SRC_T *diff_src,
        __global const DIFF_DST_T *diff_dst, __global const WS_T *ws,
        __constant pool_conf_t *c) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
#if OUT_DENSE
    const widx_t soff = (widx_t)c->src.offset0 + id * VEC;
#else
    const widx_t soff = tensor_off(&c->src, pos);
#endif
    FLT_T acc[VEC]; // double for f64 (VEC 1, LANE_DIM 1)
    for (int l = 0; l < VEC; ++l)
        acc[l] = 0.f;
    if (pos_inside(pos, c->dims)) {
        const pool_dim_t gd = pool_dim(c, 0), gh = pool_dim(c, 1),
                         gw = pool_dim(c, 2);
#if WALK_GENERIC
        const widx_t dbase = 0, wbase = 0;
#else
        const widx_t dbase = tensor_base(&c->dst, pos);
        const widx_t wbase = ALG == POOL_MAX ? tensor_base(&c->ws, pos) : 0;
#endif
        const int ksize = gd.k * gh.k * gw.k;
        widx_t lod, hid, loh, hih, low, hiw;
        out_range(gd, pos[2], &lod, &hid);
        out_range(gh, pos[3], &loh, &hih);
        out_range(gw, pos[4], &low, &hiw);
#if LANE_DIM == 4
        // VEC elements along w: the outputs whose windows hold any of
        // them, each diff_dst (and workspace) value loaded once and
        // given to the lanes inside its window.
        widx_t low_last;
        out_range(gw, pos[4] + VEC - 1, &low_last, &hiw);
#endif
        for (widx_t od = lod; od <= hid; ++od) {
            const int kd = tap_of(gd, pos[2], od);
            if (kd < 0) continue;
            const int cd = ALG == POOL_AVG_EXCLUDE ? taps_inside(gd, od) : 1;
            for (widx_t oh = loh; oh <= hih; ++oh) {
                const int kh = tap_of(gh, pos[3], oh);
                if (kh < 0) continue;
                const int ch = ALG == POOL_AVG_EXCLUDE ? taps_inside(gh, oh) : 1;
#if LANE_DIM == 4
                for (widx_t ow = low; ow <= hiw; ++ow) {
                    const widx_t off = tap_off(&c->dst, dbase, pos, od, oh, ow);
                    const float g = LOAD(DIFF_DST_DT, diff_dst, off);
#if ALG == POOL_MAX
                    const int wk = (int)LOAD(WS_DT, ws,
                            tap_off(&c->ws, wbase, pos, od, oh, ow));
                    const int kdh = (kd * gh.k + kh) * gw.k;
                    for (int l = 0; l < VEC; ++l) {
                        const int kw = tap_of(gw, pos[4] + l, ow);
                        acc[l] += kw >= 0 && kw < gw.k && wk == kdh + kw
                                ? g
                                : 0.f;
                    }
#else
                    const int n = ALG == POOL_AVG_INCLUDE
                            ? ksize
                            : cd * ch * (int)taps_inside(gw, ow);
                    for (int l = 0; l < VEC; ++l) {
                        const int kw = tap_of(gw, pos[4] + l, ow);
                        acc[l] += kw >= 0 && kw < gw.k ? g / (float)n : 0.f;
                    }
#endif
                }
#else
                for (widx_t ow = low; ow <= hiw; ++ow) {
                    const int kw = tap_of(gw, pos[4], ow);
                    if (kw < 0) continue;
                    FLT_T g[VEC];
                    VLOAD(DIFF_DST_DT, diff_dst,
                            tap_off(&c->dst, dbase, pos, od, oh, ow), g);
#if ALG == POOL_MAX
                    float w[VEC];
                    VLOAD(WS_DT, ws, tap_off(&c->ws, wbase, pos, od, oh, ow),
                            w);
                    const float k = (float)((kd * gh.k + kh) * gw.k + kw);
                    for (int l = 0; l < VEC; ++l)
                        acc[l] += w[l] == k ? g[l] : 0.f;
#else
                    const int n = ALG == POOL_AVG_INCLUDE
                            ? ksize
                            : cd * ch * (int)taps_inside(gw, ow);
                    for (int l = 0; l < VEC; ++l)
                        acc[l] += g[l] / (FLT_T)n;
#endif
                }
#endif
            }
        }
        for (int l = 0; l < VEC; ++l)
            if (VEC > 1 && LANE_DIM == 1 && pos[1] + l >= c->dims[1])
                acc[l] = 0.f;
    }
    VSTORE(DIFF_SRC_DT, diff_src, soff, acc);
}

#if POOL_TILES
// x / d for 0 <= x < 2^22, rcp = 1.f / d: the float quotient is off by at
// most one, corrected from the remainder.
inline int div_small(int x, int d, float rcp) {
    int q = (int)((float)x * rcp);
    const int r = x - q * d;
    return q + (r >= d ? 1 : r < 0 ? -1 : 0);
}

// x / k for 0 <= x < 2^31 with a divider of the conf (0: w, 1: h).
inline int div_window(__constant pool_conf_t *c, int i, int x) {
    return (int)div_magic((uint)x, c->kmagic[i], c->kshift[i]);
}

// Backward over dense tensors in tiles held in local memory. A group
// takes a block of planes ((n, c) pairs) and rows [t0, t1) of the tile dim
// (d for 3D, else h) of each: it copies the diff_dst values (and workspace
// indices) of the outputs whose windows may reach the tile into local
// memory, every load in flight at once, zeroes the tile, scatters each
// value into it, and writes the tile out with consecutive lanes on
// consecutive elements. A diff_dst value costs a few operations here (max:
// the window's decomposition; avg: its taps), where the gather above
// spends them on every diff_src element for each window that may hold it.
//
// TILE_DIM (compiled in, so that the per-dim arrays stay in registers)
// is the tile dim.
// POOL_TILES 1 (nchw-like): whole planes, as many as local memory holds
// (tile_planes), or one plane's rows; local tiles plane-major.
// POOL_TILES 2 (channels last): 2^tile_cbits channels of one image; local
// tiles channel-minor, as in memory, and the lanes of a group run along
// those channels first.
//
// Windows of outputs a multiple of `phases` apart along each dim do not
// overlap, so the outputs go in phases of such outputs with a barrier
// between them: no two lanes add to one element at once, and the result
// does not depend on the lanes' timing. Lanes are laid out as rows of
// 2^lanes_w_log2 lanes along w (within each channel, channels last).
__kernel void pool_bwd_tiles(__global DIFF_SRC_T *diff_src,
        __global const DIFF_DST_T *diff_dst, __global const WS_T *ws,
        __constant pool_conf_t *c, __local float *acc, __local float *sg,
        __local uchar *sk) {
    const int lid = get_local_id(0), nl = get_local_size(0);
    const widx_t group = get_group_id(0), ntiles = (widx_t)c->tile_count;
    const widx_t tile = group % ntiles, block = group / ntiles;
    const widx_t ch = (widx_t)c->channels;
#if POOL_TILES == 1
    const widx_t q0 = block * (widx_t)c->tile_planes;
    const int np = (int)min((widx_t)c->tile_planes, (widx_t)c->planes - q0);
    const int cbits = 0;
#else
    const int cbits = (int)c->tile_cbits;
    const widx_t cblocks = (ch + (1 << cbits) - 1) >> cbits;
    const widx_t img = block / cblocks;
    const widx_t c0 = (block - img * cblocks) << cbits;
    const int np = (int)min((widx_t)1 << cbits, ch - c0);
#endif
    const pool_dim_t g[3] = {pool_dim(c, 0), pool_dim(c, 1), pool_dim(c, 2)};
    const int td = TILE_DIM;
    const widx_t inner = (widx_t)c->tile_inner;
    const widx_t t0 = tile * (widx_t)c->tile_rows;
    const widx_t t1 = min(t0 + (widx_t)c->tile_rows, g[td].in);
    const int ts = (int)((t1 - t0) * inner); // points of a plane's tile
    const widx_t first = t0 * inner; // the tile's first spatial index

    // The outputs whose windows may reach the tile: all of them along the
    // other dims (and along the tile dim for whole planes), those of rows
    // [t0, t1) along the tile dim.
    widx_t lo[3], n[3];
    for (int x = 0; x < 3; ++x) {
        lo[x] = 0;
        n[x] = g[x].out;
    }
    if (ntiles > 1) {
        widx_t a, b, unused;
        out_range(g[td], t0, &a, &unused);
        out_range(g[td], t1 - 1, &unused, &b);
        lo[td] = a;
        n[td] = max(b - a + 1, (widx_t)0);
    }
    // Staged outputs of a plane, and where they start in diff_dst and the
    // workspace (both dense in diff_src's order).
    const int nrow = (int)(n[td] * (widx_t)c->tile_out_inner);
    const widx_t oplane = (widx_t)c->out_plane;
#if POOL_TILES == 1
#define TILE_AT(p, e) ((p) * ts + (e))
#define STAGED_AT(p, e) ((p) * nrow + (e))
    const int nacc = np * ts, nout = np * nrow;
    const widx_t orel = q0 * oplane + lo[td] * (widx_t)c->tile_out_inner;
#define STAGED_OFF(i) (orel + (i))
#else
#define TILE_AT(p, e) (((e) << cbits) + (p))
#define STAGED_AT(p, e) (((e) << cbits) + (p))
    const int nacc = ts << cbits, nout = nrow << cbits;
    const widx_t orel
            = (img * oplane + lo[td] * (widx_t)c->tile_out_inner) * ch + c0;
#define STAGED_OFF(i) (orel + (widx_t)((i) >> cbits) * ch + ((i) & cmask))
#endif
    const int cmask = (1 << cbits) - 1;
    const widx_t d0 = (widx_t)c->dst.offset0;
#if ALG == POOL_MAX
    const widx_t w0 = (widx_t)c->ws.offset0;
#endif
#pragma unroll 4
    for (int i = lid; i < nout; i += nl) {
        if ((i & cmask) >= np) continue; // channels past the last
        sg[i] = LOAD(DIFF_DST_DT, diff_dst, d0 + STAGED_OFF(i));
#if ALG == POOL_MAX
        sk[i] = (uchar)LOAD(WS_DT, ws, w0 + STAGED_OFF(i));
#endif
    }
    for (int e = lid; e < nacc; e += nl)
        acc[e] = 0.f;
    barrier(CLK_LOCAL_MEM_FENCE);

    const int wbits = (int)c->lanes_w_log2;
    const int lp = lid & cmask; // this lane's channel (channels last)
    const int lane = lid >> cbits;
    const int lw = lane & ((1 << wbits) - 1), lr = lane >> wbits;
    const int rows_step = nl >> (wbits + cbits);
    const widx_t ph[3] = {(widx_t)c->phases[0], (widx_t)c->phases[1],
            (widx_t)c->phases[2]};
    for (widx_t rd = 0; rd < ph[0]; ++rd)
        for (widx_t rh = 0; rh < ph[1]; ++rh)
            for (widx_t rw = 0; rw < ph[2]; ++rw) {
                const widx_t r[3] = {rd, rh, rw};
                int cnt[3];
                for (int x = 0; x < 3; ++x)
                    cnt[x] = n[x] > r[x]
                            ? (int)((n[x] - r[x] + ph[x] - 1) / ph[x])
                            : 0;
#if POOL_TILES == 1
                const int rows = np * cnt[0] * cnt[1];
#else
                const int rows = lp < np ? cnt[0] * cnt[1] : 0;
#endif
                const float rcp_h = 1.f / (float)max(cnt[1], 1),
                            rcp_d = 1.f / (float)max(cnt[0], 1);
                for (int row = lr; row < rows; row += rows_step) {
                    const int dp = div_small(row, cnt[1], rcp_h);
                    const int jh = row - dp * cnt[1];
                    const int pp = div_small(dp, cnt[0], rcp_d);
                    const int jd = dp - pp * cnt[0];
                    const int p = lp + pp; // one of pp and lp is 0
                    const widx_t od = lo[0] + rd + ph[0] * jd;
                    const widx_t oh = lo[1] + rh + ph[1] * jh;
                    // The staged index of (od, oh, 0) relative to lo.
                    const int srow = (int)(((od - lo[0]) * n[1] + oh - lo[1])
                            * n[2]);
#if ALG != POOL_MAX
                    widx_t klo[3], khi[3];
                    tap_range(g[0], od * g[0].stride - g[0].pad, &klo[0],
                            &khi[0]);
                    tap_range(g[1], oh * g[1].stride - g[1].pad, &klo[1],
                            &khi[1]);
#endif
                    for (int jw = lw; jw < cnt[2]; jw += 1 << wbits) {
                        const widx_t ow = lo[2] + rw + ph[2] * jw;
                        const int si = STAGED_AT(p, srow + (int)(ow - lo[2]));
                        const float gv = sg[si];
#if ALG == POOL_MAX
                        const int k = sk[si];
                        const int kdh = div_window(c, 0, k);
                        const int kw = k - kdh * (int)g[2].k;
                        const int kd = div_window(c, 1, kdh);
                        const int kh = kdh - kd * (int)g[1].k;
                        const widx_t id = od * g[0].stride - g[0].pad
                                + kd * g[0].step;
                        const widx_t ih = oh * g[1].stride - g[1].pad
                                + kh * g[1].step;
                        const widx_t iw = ow * g[2].stride - g[2].pad
                                + kw * g[2].step;
                        const widx_t e = (id * g[1].in + ih) * g[2].in + iw
                                - first;
                        if (id >= 0 && id < g[0].in && ih >= 0 && ih < g[1].in
                                && iw >= 0 && iw < g[2].in && e >= 0 && e < ts)
                            acc[TILE_AT(p, (int)e)] += gv;
#else
                        tap_range(g[2], ow * g[2].stride - g[2].pad, &klo[2],
                                &khi[2]);
                        const widx_t nt = ALG == POOL_AVG_INCLUDE
                                ? g[0].k * g[1].k * g[2].k
                                : (khi[0] - klo[0]) * (khi[1] - klo[1])
                                        * (khi[2] - klo[2]);
                        const float v = nt > 0 ? gv / (float)nt : 0.f;
                        for (widx_t kd = klo[0]; kd < khi[0]; ++kd) {
                            const widx_t id = od * g[0].stride - g[0].pad
                                    + kd * g[0].step;
                            for (widx_t kh = klo[1]; kh < khi[1]; ++kh) {
                                const widx_t ih = oh * g[1].stride - g[1].pad
                                        + kh * g[1].step;
                                const widx_t e0 = (id * g[1].in + ih) * g[2].in
                                        + ow * g[2].stride - g[2].pad - first;
                                for (widx_t kw = klo[2]; kw < khi[2]; ++kw) {
                                    const widx_t e = e0 + kw * g[2].step;
                                    if (e >= 0 && e < ts)
                                        acc[TILE_AT(p, (int)e)] += v;
                                }
                            }
                        }
#endif
                    }
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }

    const widx_t s0 = (widx_t)c->src.offset0;
#if POOL_TILES == 1
    const widx_t out0 = s0 + q0 * (widx_t)c->plane + first;
    for (int e = lid; e < nacc; e += nl)
        STORE(DIFF_SRC_DT, diff_src, out0 + e, acc[e]);
#else
    const widx_t out0 = s0 + (img * (widx_t)c->plane + first) * ch + c0;
    for (int e = lid; e < nacc; e += nl)
        if ((e & cmask) < np)
            STORE(DIFF_SRC_DT, diff_src,
                    out0 + (widx_t)(e >> cbits) * ch + (e & cmask), acc[e]);
#endif
#undef TILE_AT
#undef STAGED_AT
#undef STAGED_OFF
}
#endif // POOL_TILES

#if POOL_PHASED
// Backward over dense nchw-like tensors without dilation, the window's
// geometry compiled in (PH_K*, PH_S*, PH_P*: d, h, w). A work-item writes
// a block of diff_src: PH_SD x PH_SH x (PH_SW * PH_V) elements, the
// block's first element a multiple of those along each dim. Element j of
// a block along a dim (stride S, padding P) has j + P = S * q + r, so
// the outputs whose windows hold it are block * V + q - t for the t with
// S * t + r < K, at kernel position S * t + r: every index is known when
// compiling, so the gather does no index arithmetic per element. The
// work-item loads the diff_dst values (and workspace indices) of the
// outputs block * V + [PH_T*_LO, PH_T*_HI] once, into registers, and
// writes its rows VEC elements at a time (VEC divides the row).
#define PH_CW (PH_SW * PH_V)
#define PH_ND (PH_TD_HI - PH_TD_LO + 1)
#define PH_NH (PH_TH_HI - PH_TH_LO + 1)
#define PH_NW (PH_TW_HI - PH_TW_LO + 1)

// Taps of a window at output o inside [0, in) along a dim, no dilation.
inline int ph_inside(int o, int s, int p, int k, int in) {
    const int x0 = o * s - p;
    return min(x0 + k, in) - max(x0, 0);
}

__kernel void pool_bwd_phased(__global DIFF_SRC_T *diff_src,
        __global const DIFF_DST_T *diff_dst, __global const WS_T *ws,
        long s_off, long d_off, long w_off, int id, int ih, int iw, int od,
        int oh, int ow, int nbw, int nbh, int nbd, int items, long bw_magic,
        long bw_shift, long bh_magic, long bh_shift, long bd_magic,
        long bd_shift) {
    if (get_global_id(0) >= (size_t)items) return;
    uint t = (uint)get_global_id(0), q;
    q = div_magic(t, bw_magic, bw_shift);
    const int bw = (int)(t - q * nbw);
    t = q;
    q = div_magic(t, bh_magic, bh_shift);
    const int bh = (int)(t - q * nbh);
    t = q;
    q = div_magic(t, bd_magic, bd_shift);
    const int bd = (int)(t - q * nbd);
    const long plane = q;
    const long sbase = s_off + plane * id * ih * iw;
    const long dbase = plane * od * oh * ow;
    const int o0d = bd + PH_TD_LO, o0h = bh + PH_TH_LO,
              o0w = bw * PH_V + PH_TW_LO;
    float g[PH_ND][PH_NH][PH_NW];
#if ALG == POOL_MAX
    int k[PH_ND][PH_NH][PH_NW];
#endif
#pragma unroll
    for (int a = 0; a < PH_ND; ++a)
#pragma unroll
        for (int b = 0; b < PH_NH; ++b)
#pragma unroll
            for (int e = 0; e < PH_NW; ++e) {
                const int xd = o0d + a, xh = o0h + b, xw = o0w + e;
                const bool in = xd >= 0 && xd < od && xh >= 0 && xh < oh
                        && xw >= 0 && xw < ow;
                const long off = dbase + ((long)xd * oh + xh) * ow + xw;
                g[a][b][e] = in ? LOAD(DIFF_DST_DT, diff_dst, d_off + off)
                                : 0.f;
#if ALG == POOL_MAX
                k[a][b][e] = in ? (int)LOAD(WS_DT, ws, w_off + off) : -1;
#elif ALG == POOL_AVG_INCLUDE
                g[a][b][e] /= (float)(PH_KD * PH_KH * PH_KW);
#else
                if (in)
                    g[a][b][e] /= (float)(ph_inside(xd, PH_SD, PH_PD, PH_KD,
                                                  id)
                            * ph_inside(xh, PH_SH, PH_PH, PH_KH, ih)
                            * ph_inside(xw, PH_SW, PH_PW, PH_KW, iw));
#endif
            }
#pragma unroll
    for (int jd = 0; jd < PH_SD; ++jd) {
        const int xd = bd * PH_SD + jd;
        const int qd = (jd + PH_PD) / PH_SD, rd = (jd + PH_PD) % PH_SD;
#pragma unroll
        for (int jh = 0; jh < PH_SH; ++jh) {
            const int xh = bh * PH_SH + jh;
            const int qh = (jh + PH_PH) / PH_SH, rh = (jh + PH_PH) % PH_SH;
            if (xd >= id || xh >= ih) continue;
            const long row = sbase + ((long)xd * ih + xh) * iw;
#pragma unroll
            for (int v = 0; v < PH_CW / VEC; ++v) {
                const int xw = bw * PH_CW + v * VEC;
                float acc[VEC];
#pragma unroll
                for (int l = 0; l < VEC; ++l) {
                    const int jw = v * VEC + l;
                    const int qw = (jw + PH_PW) / PH_SW,
                              rw = (jw + PH_PW) % PH_SW;
                    float sum = 0.f;
#pragma unroll
                    for (int td = 0; PH_SD * td + rd < PH_KD; ++td)
#pragma unroll
                        for (int th = 0; PH_SH * th + rh < PH_KH; ++th)
#pragma unroll
                            for (int tw = 0; PH_SW * tw + rw < PH_KW; ++tw) {
                                const int a = qd - td - PH_TD_LO,
                                          b = qh - th - PH_TH_LO,
                                          e = qw - tw - PH_TW_LO;
#if ALG == POOL_MAX
                                const int tap = ((PH_SD * td + rd) * PH_KH
                                                        + PH_SH * th + rh)
                                                * PH_KW
                                        + PH_SW * tw + rw;
                                sum += k[a][b][e] == tap ? g[a][b][e] : 0.f;
#else
                                sum += g[a][b][e];
#endif
                            }
                    acc[l] = sum;
                }
                if (xw < iw) VSTORE(DIFF_SRC_DT, diff_src, row + xw, acc);
            }
        }
    }
}
#endif // POOL_PHASED
#endif
