// PReLU on the gpu engine. Weights broadcast along the dims whose bit is
// set in `wmask` (their positions read as 0), so one description serves a
// scalar, per-channel, any-subset or full weights tensor.
//
// prelu_fwd / prelu_bwd_data: one work-item per element of the written
// tensor (dst / diff_src) in its memory order, or VEC consecutive elements
// of its innermost part when every tensor holds them contiguously (the
// weights may instead broadcast along that part: W_LANES 0).
//   dst      = src > 0 ? src : w * src
//   diff_src = src > 0 ? diff_dst : w * diff_dst
//
// diff_weights = sum over the reduced dims (those where diff_weights has
// size 1) of (src > 0 ? 0 : src * diff_dst):
//   prelu_dw_tree: work-group (w, chunk) strides over its share of the
//       reduced positions (in src's memory order), then adds its
//       work-items' sums with a tree in local memory; one chunk per w
//       stores diff_weights, several store partial sums that
//   prelu_dw_final adds (one work-item per w);
//   prelu_dw_serial: one work-item per w adds every reduced position
//       (few of them: tiny reductions);
//   prelu_bwd_planes (+ prelu_planes_final): per-channel weights over
//       contiguous planes, diff_src and diff_weights in one pass
//       (prelu_fwd_planes: the forward over such planes).
#include "ocl_vec_io.clh"
#include "ocl_walk.clh"

typedef struct {
    walk_t walk; // over the written tensor
    tensor_t src, wei, out, dd; // out: dst or diff_src; dd: diff_dst
    long dims[WALK_NDIMS]; // logical dims of src
    long wmask; // bit d: the weights broadcast along dim d
} prelu_conf_t;

typedef struct {
    walk_t wwalk; // over diff_weights (padded)
    walk_t rwalk; // over the reduced dims of src (padded)
    tensor_t src, dd, dw;
    long dims[WALK_NDIMS]; // src
    long wdims[WALK_NDIMS]; // diff_weights
    long groups; // chunks per diff_weights element (tree kernel)
} prelu_dw_conf_t;

// [N, C, S] view of a tensor with contiguous planes (PLANES kernels).
typedef struct {
    long off0, sn, sc;
} plane_view_t;

inline void masked_pos(const widx_t *pos, long mask, widx_t *out) {
#pragma unroll
    for (int d = 0; d < WALK_NDIMS; ++d)
        out[d] = (mask >> d & 1) ? 0 : pos[d];
}

// Weights of the VEC lanes at `pos`.
inline void load_weights(__global const WEI_T *wei, __constant prelu_conf_t *c,
        const widx_t *pos, float *w) {
    widx_t pw[WALK_NDIMS];
    masked_pos(pos, c->wmask, pw);
    const widx_t off = tensor_off(&c->wei, pw);
#if W_LANES
    VLOAD(WEI_DT, wei, off, w);
#else
    const float v = LOAD(WEI_DT, wei, off);
    for (int l = 0; l < VEC; ++l)
        w[l] = v;
#endif
}

// Lane l of the work-item at `pos` lies inside the tensor's dims (checked
// only where the lanes' dim has block padding: LANE_PAD).
inline bool lane_inside(__constant prelu_conf_t *c, const widx_t *pos, int l) {
    widx_t p[WALK_NDIMS];
#pragma unroll
    for (int d = 0; d < WALK_NDIMS; ++d)
        p[d] = pos[d] + (d == c->walk.lane_dim ? l * c->walk.lane_step : 0);
    return pos_inside(p, c->dims);
}

#if IS_FWD
__kernel void prelu_fwd(__global const SRC_T *src, __global const WEI_T *wei,
        __global DST_T *dst, __constant prelu_conf_t *c) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
    float r[VEC];
    for (int l = 0; l < VEC; ++l)
        r[l] = 0.f;
    if (pos_inside(pos, c->dims)) {
        float x[VEC], w[VEC];
        VLOAD(SRC_DT, src, tensor_off(&c->src, pos), x);
        load_weights(wei, c, pos, w);
        for (int l = 0; l < VEC; ++l) {
            r[l] = x[l] > 0.f ? x[l] : w[l] * x[l];
#if LANE_PAD
            if (!lane_inside(c, pos, l)) r[l] = 0.f;
#endif
        }
    }
    VSTORE(DST_DT, dst, tensor_off(&c->out, pos), r);
}

#if PLANES
// Per-channel weights over contiguous planes of whole vectors (PLANES,
// VEC 4): work-group (c, q) (dimensions 1 and 2) takes images [q * ipc,
// (q + 1) * ipc) of channel c, its lanes walking each plane's vectors
// with the channel's weight loaded once (no offset computation per
// element).
__kernel void prelu_fwd_planes(__global const SRC_T *src, plane_view_t sv,
        __global const WEI_T *wei, long w_off, long w_stride,
        __global DST_T *dst, plane_view_t dv, long images, long points,
        long ipc) {
    const long c = get_group_id(1), q = get_group_id(2);
    const int lid = get_local_id(0), lws = get_local_size(0);
    const float w = LOAD(WEI_DT, wei, w_off + c * w_stride);
    const long n0 = q * ipc, n1 = min(images, n0 + ipc);
    for (long n = n0; n < n1; ++n) {
        const long xs = sv.off0 + n * sv.sn + c * sv.sc;
        const long ys = dv.off0 + n * dv.sn + c * dv.sc;
        for (long v = lid * VEC; v < points; v += lws * VEC) {
            float x[VEC];
            VLOAD(SRC_DT, src, xs + v, x);
            for (int l = 0; l < VEC; ++l)
                x[l] = x[l] > 0.f ? x[l] : w * x[l];
            VSTORE(DST_DT, dst, ys + v, x);
        }
    }
}
#endif

#else
__kernel void prelu_bwd_data(__global const SRC_T *src,
        __global const WEI_T *wei, __global const DIFF_DST_T *diff_dst,
        __global DIFF_SRC_T *diff_src, __constant prelu_conf_t *c) {
    const widx_t id = get_global_id(0);
    if (id >= c->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->walk, id, pos);
    float r[VEC];
    for (int l = 0; l < VEC; ++l)
        r[l] = 0.f;
    if (pos_inside(pos, c->dims)) {
        float x[VEC], w[VEC], g[VEC];
        VLOAD(SRC_DT, src, tensor_off(&c->src, pos), x);
        VLOAD(DIFF_DST_DT, diff_dst, tensor_off(&c->dd, pos), g);
        load_weights(wei, c, pos, w);
        for (int l = 0; l < VEC; ++l) {
            r[l] = x[l] > 0.f ? g[l] : w[l] * g[l];
#if LANE_PAD
            if (!lane_inside(c, pos, l)) r[l] = 0.f;
#endif
        }
    }
    VSTORE(DIFF_SRC_DT, diff_src, tensor_off(&c->out, pos), r);
}

// The contribution of reduced position r to the diff_weights element at
// pos_w.
inline float dw_term(__global const SRC_T *src,
        __global const DIFF_DST_T *diff_dst, __constant prelu_dw_conf_t *c,
        const widx_t *pos_w, widx_t r) {
    widx_t pos[WALK_NDIMS];
    walk_pos(&c->rwalk, r, pos);
#pragma unroll
    for (int d = 0; d < WALK_NDIMS; ++d)
        pos[d] += pos_w[d];
    if (!pos_inside(pos, c->dims)) return 0.f;
    const float x = LOAD(SRC_DT, src, tensor_off(&c->src, pos));
    const float g = LOAD(DIFF_DST_DT, diff_dst, tensor_off(&c->dd, pos));
    return x > 0.f ? 0.f : x * g;
}

// The sum of the group's `v` (1D groups of a power of two lanes, all of
// them calling), valid in lane 0.
inline float group_sum(float v, __local float *sums) {
    const int lid = get_local_id(0);
    sums[lid] = v;
    for (int h = get_local_size(0) / 2; h > 0; h /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < h) sums[lid] += sums[lid + h];
    }
    return sums[0];
}

__kernel void prelu_dw_tree(__global const SRC_T *src,
        __global const DIFF_DST_T *diff_dst, __global DIFF_WEI_T *dw,
        __global float *partial, __constant prelu_dw_conf_t *c,
        __local float *sums) {
    const widx_t groups = (widx_t)c->groups;
    const widx_t gid = get_group_id(0);
    const widx_t w = gid / groups, chunk = gid % groups;
    const int lid = get_local_id(0), lws = get_local_size(0);
    widx_t pos_w[WALK_NDIMS];
    walk_pos(&c->wwalk, w, pos_w);
    const bool inside = pos_inside(pos_w, c->wdims);
    float acc = 0.f;
    if (inside) {
        const widx_t n = (widx_t)c->rwalk.volume, step = groups * lws;
        for (widx_t r = chunk * lws + lid; r < n; r += step)
            acc += dw_term(src, diff_dst, c, pos_w, r);
    }
    const float sum = group_sum(acc, sums);
    if (lid != 0) return;
    if (groups == 1)
        STORE(DIFF_WEI_DT, dw, tensor_off(&c->dw, pos_w), sum);
    else
        partial[gid] = sum;
}

__kernel void prelu_dw_final(__global DIFF_WEI_T *dw,
        __global const float *partial, __constant prelu_dw_conf_t *c) {
    const widx_t w = get_global_id(0);
    if (w >= c->wwalk.volume) return;
    widx_t pos_w[WALK_NDIMS];
    walk_pos(&c->wwalk, w, pos_w);
    float acc = 0.f;
    for (widx_t k = 0; k < (widx_t)c->groups; ++k)
        acc += partial[w * (widx_t)c->groups + k];
    STORE(DIFF_WEI_DT, dw, tensor_off(&c->dw, pos_w),
            pos_inside(pos_w, c->wdims) ? acc : 0.f);
}

__kernel void prelu_dw_serial(__global const SRC_T *src,
        __global const DIFF_DST_T *diff_dst, __global DIFF_WEI_T *dw,
        __constant prelu_dw_conf_t *c) {
    const widx_t w = get_global_id(0);
    if (w >= c->wwalk.volume) return;
    widx_t pos_w[WALK_NDIMS];
    walk_pos(&c->wwalk, w, pos_w);
    float acc = 0.f;
    if (pos_inside(pos_w, c->wdims))
        for (widx_t r = 0; r < (widx_t)c->rwalk.volume; ++r)
            acc += dw_term(src, diff_dst, c, pos_w, r);
    STORE(DIFF_WEI_DT, dw, tensor_off(&c->dw, pos_w), acc);
}

#if PLANES
// Backward with per-channel weights over [N, C, S] views whose planes are
// contiguous and aligned (nchw-like; PLANES, VEC 4): work-group (c, q)
// (dimensions 1 and 2) takes images [q * ipc, (q + 1) * ipc) of channel
// c, its lanes walking each plane's vectors; it writes diff_src and sums
// the channel's diff weight, src and diff_dst read once (the generic
// kernels read them twice, with an offset computation per position).
// One chunk stores diff_weights; several store partial sums that
// prelu_planes_final adds.
__kernel void prelu_bwd_planes(__global const SRC_T *src, plane_view_t sv,
        __global const WEI_T *wei, long w_off, long w_stride,
        __global const DIFF_DST_T *diff_dst, plane_view_t gv,
        __global DIFF_SRC_T *diff_src, plane_view_t dv,
        __global DIFF_WEI_T *dw, long dw_off, long dw_stride,
        __global float *partial, long images, long points, long ipc,
        __local float *sums) {
    const long c = get_group_id(1), q = get_group_id(2);
    const long chunks = get_num_groups(2);
    const int lid = get_local_id(0), lws = get_local_size(0);
    const float w = LOAD(WEI_DT, wei, w_off + c * w_stride);
    const long n0 = q * ipc, n1 = min(images, n0 + ipc);
    float acc = 0.f;
    for (long n = n0; n < n1; ++n) {
        const long xs = sv.off0 + n * sv.sn + c * sv.sc;
        const long gs = gv.off0 + n * gv.sn + c * gv.sc;
        const long ds = dv.off0 + n * dv.sn + c * dv.sc;
        for (long v = lid * VEC; v < points; v += lws * VEC) {
            float x[VEC], g[VEC];
            VLOAD(SRC_DT, src, xs + v, x);
            VLOAD(DIFF_DST_DT, diff_dst, gs + v, g);
            for (int l = 0; l < VEC; ++l) {
                acc += x[l] > 0.f ? 0.f : x[l] * g[l];
                g[l] = x[l] > 0.f ? g[l] : w * g[l];
            }
            VSTORE(DIFF_SRC_DT, diff_src, ds + v, g);
        }
    }
    const float sum = group_sum(acc, sums);
    if (lid != 0) return;
    if (chunks == 1)
        STORE(DIFF_WEI_DT, dw, dw_off + c * dw_stride, sum);
    else
        partial[c * chunks + q] = sum;
}

// One work-item per channel: the chunks' partial sums in order.
__kernel void prelu_planes_final(__global DIFF_WEI_T *dw, long dw_off,
        long dw_stride, __global const float *partial, long channels,
        long chunks) {
    const long c = get_global_id(0);
    if (c >= channels) return;
    float acc = 0.f;
    for (long q = 0; q < chunks; ++q)
        acc += partial[c * chunks + q];
    STORE(DIFF_WEI_DT, dw, dw_off + c * dw_stride, acc);
}
#endif
#endif
