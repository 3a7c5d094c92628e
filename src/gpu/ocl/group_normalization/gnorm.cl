// Group normalization kernels. Tensors are [N, C, spatial] (view3_t with
// the spatial dims merged); a unit is (n, g), the cpg x S elements of its
// channel group, walked as an O x I space whose inner part is the
// contiguous one: spatial points (nchw: o = channel j, i = point) or
// channels (nhwc and 2-D: o = point, i = j), `ch_inner` telling which.
// Statistics are the dense N x G f32 tensors oneDNN fixes (index = unit).
//
// GN_KERNEL 1 (forward; rows geometry; VEC 4 when each unit is one
//     contiguous, aligned run in src and dst, VEC 1 otherwise):
//  gnorm_fwd, phase 0: one work-group per unit: statistics (Welford,
//     merged across lanes) unless given, saved when training, then
//     dst = src_scale * (scale * (x - mean) / sqrt(var + eps) + shift),
//     post-ops, / dst_scale;
//  phase 1: chunks of long units write partial statistics, which
//     gnorm_stats_final merges (Chan) into mean / variance;
//  phase 2: chunks apply the normalization from those statistics.
//  gnorm_fwd_cached (built with UNIT_CACHE, VEC 4): computed statistics
//     with the unit held on chip (registers, and local memory with
//     UNIT_LOCAL), src read once; see there.
//  gnorm_fwd_parts (+ held_parts_reset; built with UNIT_CACHE and
//     GN_PARTS): channels-last images held on chip in parts of whole
//     points by groups that wait for one another; see there.
// GN_KERNEL 2 (backward sums): gnorm_bwd_nc: per (n, c) over the points,
//     A = sum diff_dst, B = sum diff_dst * (x - mean) (VEC > 1: vectors
//     along the points, or with NC_CVEC along channels-last channels, a
//     unit then VEC channels); chunks' partials added by
//     gnorm_bwd_nc_final.
// GN_KERNEL 3 (backward finish, rows geometry): gnorm_bwd_dss (diff
//     scale / shift from A and B), gnorm_bwd_unit (per unit sums of
//     scale * A and scale * B) and gnorm_bwd_apply (diff_src).
#include "ocl_types.clh"
#include "ocl_unit_loop.clh"
#if GN_KERNEL == 1
#include "ocl_held_parts.clh"
#include "ocl_post_ops.clh"
#endif
#include "ocl_vec_io.clh"

#define F_GLOBAL 1
#define F_SAVE 2

// The base of unit (n, g) and the strides of its O x I space.
typedef struct {
    long off0, sn, sg, so, si;
} gn_view_t;

inline long gn_base(const gn_view_t *v, long n, long g) {
    return v->off0 + n * v->sn + g * v->sg;
}

#if GN_KERNEL == 1
#if PO_COUNT
#define GN_POST_OPS(z, c, pt) \
    do { \
        idx[1] = (c); \
        ul_unravel(&dims, (pt), 2, ndims, idx); \
        const float prev_ = 0.f; \
        APPLY_POST_OPS(z, prev_, idx); \
    } while (0)
#else
#define GN_POST_OPS(z, c, pt) (void)0
#endif

// Forward kernels over runs of vectors: normalizes the VEC values y of
// unit (n, g) in place, e0 (a multiple of VEC) their first element's
// place in a run at point p. Its channel and point come from one
// division; later elements step through channels (nhwc) or points,
// wrapping into the next channel (nchw). Uses the kernel's statistics
// (m, inv), scales, shifts, post-op arguments and layout (ch_inner,
// points: S for nchw).
#define GN_NORMALIZE_VEC(y, e0, p) \
    do { \
        int ch_ = ch_inner ? (e0) : (e0) / points; \
        int pt_ = ch_inner ? (p) : (e0) - ch_ * points; \
        for (int j_ = 0; j_ < VEC; ++j_) { \
            const long c_ = g * cpg + ch_; \
            float z_ = ((y)[j_] - m) * inv; \
            if (scale) z_ *= scale[c_]; \
            if (shift) z_ += shift[c_]; \
            z_ *= ss; \
            GN_POST_OPS(z_, c_, pt_); \
            (y)[j_] = z_ * rds; \
            if (ch_inner) { \
                ++ch_; \
            } else if (++pt_ == points) { \
                pt_ = 0; \
                ++ch_; \
            } \
        } \
    } while (0)

__kernel void gnorm_fwd(__global const SRC_T *src, gn_view_t sv,
        __global DST_T *dst, gn_view_t dv, __global float *mean,
        long mean_off, __global float *var, long var_off,
        __global const float *scale,
        __global const float *shift, unit_space_t sp, long groups, long cpg,
        int ch_inner, float eps, int flags, int phase,
        __global float *partial, long partial_off,
        __global const SSC_T *src_scale, __global const DSC_T *dst_scale,
        dims6_t dims, int ndims, __local float *buf POST_OP_ARGS) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const long n = valid ? u / groups : 0, g = valid ? u % groups : 0;
    const long sb = gn_base(&sv, n, g), db = gn_base(&dv, n, g);
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);

    // Every work-item reaches the tree, whatever the phase (PoCL
    // mishandles barriers under run-time conditions, uniform or not).
    const bool given = phase == 2 || (flags & F_GLOBAL);
    stats_t st = stats_zero();
#if VEC > 1
    // Runs of VEC-wide vectors, `so` apart: nchw, one run of the unit's
    // cpg x S elements (space [1, cpg * S / VEC]); nhwc, a run of the cpg
    // channels per point (space [S, cpg / VEC]).
    if (valid && !given)
        UL_FOR_EACH(o0, o1, i0, i1, o, i, {
            float x[VEC];
            VLOAD(SRC_DT, src, sb + o * sv.so + i * VEC, x);
            stats_add_n(&st, x, VEC);
        });
#else
    if (valid && !given)
        UL_FOR_EACH(o0, o1, i0, i1, o, i, {
            stats_add(&st, LOAD(SRC_DT, src, sb + o * sv.so + i * sv.si));
        });
#endif
    st = wg_stats(st, buf);
    if (phase == 1) {
        if (valid)
            ul_store_partial_stats(partial + partial_off, u, sp.units, st);
        return;
    }
    float m = st.mean, v = st.n > 0.f ? st.m2 / st.n : 0.f;
    if (given && valid) {
        m = mean[mean_off + u];
        v = var[var_off + u];
    } else if (valid && (flags & F_SAVE) && ul_lane() == 0) {
        mean[mean_off + u] = m;
        var[var_off + u] = v;
    }
    if (!valid) return;
    const float inv = 1.f / sqrt(v + eps);
    // Absent scales come as null buffers.
    const float ss = src_scale ? LOAD(SSC_DT, src_scale, 0) : 1.f;
    const float rds = dst_scale ? 1.f / LOAD(DSC_DT, dst_scale, 0) : 1.f;
    long idx[6] = {n, 0, 0, 0, 0, 0};
#if VEC > 1
    const int points = ch_inner ? 1 : (int)(sp.i * VEC / cpg);
    UL_FOR_EACH(o0, o1, i0, i1, o, i, {
        float y[VEC];
        VLOAD(SRC_DT, src, sb + o * sv.so + i * VEC, y);
        // The host keeps units below 2^31 elements.
        GN_NORMALIZE_VEC(y, (int)i * VEC, (int)o);
        VSTORE(DST_DT, dst, db + o * dv.so + i * VEC, y);
    });
#else
    UL_FOR_EACH(o0, o1, i0, i1, o, i, {
        const long c = g * cpg + (ch_inner ? i : o);
        float y = (LOAD(SRC_DT, src, sb + o * sv.so + i * sv.si) - m) * inv;
        if (scale) y *= scale[c];
        if (shift) y += shift[c];
        y *= ss;
#if PO_COUNT
        idx[1] = c;
        ul_unravel(&dims, ch_inner ? o : i, 2, ndims, idx);
        const float prev = 0.f;
        APPLY_POST_OPS(y, prev, idx);
#endif
        STORE(DST_DT, dst, db + o * dv.so + i * dv.si, y * rds);
    });
#endif
}

#if UNIT_CACHE
// The unit held on chip, so src is read from memory once: UNIT_CACHE
// vectors of VEC per lane in registers and UNIT_LOCAL more in the lane's
// own slots of local memory (`held`: no barrier guards them, each lane
// reads back only what it wrote), statistics in two exact passes over
// them, then the normalization. A unit is `runs` runs of `run_vecs`
// VEC-wide vectors, contiguous within a run and `so` apart (nchw: one run
// of cpg x S elements; nhwc: S runs of the cpg channels). Lane r holds
// the unit's vectors r + k * lanes. The slots of the range loop over the
// units (the host may launch fewer groups than units: one group that
// fills a compute unit then starts its next unit without a new launch of
// a group); the loop count is the same for every work-item, so all of
// them reach every tree. Vector indices stay in 32 bits (the host bounds
// the unit).
#if VEC == 1
#error "the held-unit kernel reads vectors"
#endif
#define GN_HELD (UNIT_CACHE + UNIT_LOCAL)

// Steps a vector index (run p, vector w of the run) by `lanes` vectors:
// dp runs and dw vectors, with one carry.
#define GN_STEP(p, w) \
    do { \
        w += dw; \
        p += dp; \
        if (w >= run_vecs) { \
            w -= run_vecs; \
            ++p; \
        } \
    } while (0)

// Steps the nchw (channel c, point q) of a vector's first value by the
// lanes' vectors: dc channels and dq (< points) points, with one carry.
#define GN_STEP_POINTS(c, q) \
    do { \
        c += dc; \
        q += dq; \
        if (q >= points) { \
            q -= points; \
            ++c; \
        } \
    } while (0)

// Post-ops and the dst scale after z of unit channel c, point pt (the dst
// scale is in the coefficients when no post-op follows).
#if PO_COUNT
#define GN_HELD_POST_OPS(z, c, pt) \
    do { \
        GN_POST_OPS(z, g * cpg + (c), pt); \
        (z) *= rds; \
    } while (0)
#else
#define GN_HELD_POST_OPS(z, c, pt) (void)0
#endif

// Vector k of this lane's share into y (k known when compiling).
#define GN_HELD_VEC(y, k) \
    do { \
        if ((k) < UNIT_CACHE) { \
            for (int j_ = 0; j_ < VEC; ++j_) \
                (y)[j_] = x[k][j_]; \
        } else { \
            VFN(vstore)(mine[((k)-UNIT_CACHE) * l], 0, y); \
        } \
    } while (0)

#if !GN_PARTS
__kernel void gnorm_fwd_cached(__global const SRC_T *src, gn_view_t sv,
        __global DST_T *dst, gn_view_t dv, __global float *mean,
        long mean_off, __global float *var, long var_off,
        __global const float *scale, __global const float *shift,
        long units, long groups, int cpg, int points, int run_vecs,
        int runs, int ch_inner, float eps, int flags,
        __global const SSC_T *src_scale, __global const DSC_T *dst_scale,
        dims6_t dims, int ndims, __local float *buf,
        __local VTYPE(float) *held POST_OP_ARGS) {
    const int r = ul_lane(), l = ul_lanes();
    const int vecs = run_vecs * runs;
    const int dp = l / run_vecs, dw = l - dp * run_vecs;
    const int p0 = r / run_vecs, w0 = r - p0 * run_vecs;
    // This slot's vectors in local memory, lane-interleaved (a group's
    // accesses are consecutive 16-byte pieces). `held` is declared as
    // vectors so that the runtime aligns it for them (as a float pointer
    // NVIDIA's placed it 4-byte aligned and the vector accesses faulted).
    __local VTYPE(float) *mine = held + ul_slot() * UNIT_LOCAL * l + r;
    const long stride = get_global_size(UL_DIM_U);
    const long trips = (units + stride - 1) / stride;
    const float ss = src_scale ? LOAD(SSC_DT, src_scale, 0) : 1.f;
    const float rds = dst_scale ? 1.f / LOAD(DSC_DT, dst_scale, 0) : 1.f;
    const float cnt = (float)vecs * VEC;
#if !CH_INNER
    // nchw (one run a unit): the channel pc and point pq of the first value
    // of this lane's vector k, stepped with k like (p, w). A division in
    // the normalization loop (a vector's channel) made the kernel 1.7x
    // slower on an H100.
    const int c0 = r * VEC / points, q0 = r * VEC - c0 * points;
    const int dc = l * VEC / points, dq = l * VEC - dc * points;
#endif

    for (long t = 0; t < trips; ++t) {
        const long u = ul_unit() + t * stride;
        const bool valid = u < units;
        const long n = valid ? u / groups : 0, g = valid ? u % groups : 0;
        const long sb = gn_base(&sv, n, g), db = gn_base(&dv, n, g);
        // Every load is issued before any of them is used: a use between
        // two loads (storing a held vector into local memory) made each
        // later load wait for the earlier one's data, a memory round trip
        // per local vector (H100: 0.31 ms against 0.17 for this order).
        const int lim = valid ? vecs : 0;
        float x[GN_HELD][VEC];
        int p = p0, w = w0;
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j)
                x[k][j] = 0.f;
            if (r + k * l < lim)
                VLOAD(SRC_DT, src, sb + p * sv.so + w * VEC, x[k]);
            GN_STEP(p, w);
        }
        float sum = 0.f;
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j)
                sum += x[k][j];
            if (k >= UNIT_CACHE)
                mine[(k - UNIT_CACHE) * l] = VFN(vload)(0, x[k]);
        }
        float m = wg_sum(sum, buf) / cnt;
        float sq = 0.f;
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k)
            if (valid && r + k * l < vecs) {
                float y[VEC];
                GN_HELD_VEC(y, k);
                for (int j = 0; j < VEC; ++j)
                    sq += (y[j] - m) * (y[j] - m);
            }
        float va = wg_sum(sq, buf) / cnt;
        if (valid && (flags & F_SAVE) && r == 0) {
            mean[mean_off + u] = m;
            var[var_off + u] = va;
        }
        const float inv = 1.f / sqrt(va + eps);
        // The unit's channel coefficients, a[cpg] then b[cpg], in the
        // tree's buffer (the host keeps 2 cpg within the lanes), so that
        // z = (x - m) * a + b with no global load in the normalization
        // loop (loading scale and shift there, with a division a vector
        // for the channel, ran at 0.285 ms on an H100, this form at
        // 0.18).
        __local float *coef = ul_slice(buf);
        for (int c = r; c < cpg; c += l) {
            const long gc = g * cpg + c;
            const float a = (scale ? scale[gc] : 1.f) * inv * ss;
            const float b = (shift ? shift[gc] : 0.f) * ss;
            coef[c] = PO_COUNT ? a : a * rds;
            coef[cpg + c] = PO_COUNT ? b : b * rds;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        long idx[6] = {n, 0, 0, 0, 0, 0};
        p = p0;
        w = w0;
#if CH_INNER
        // Coefficients loaded between the stores cost as much as the
        // divisions did (H100: 0.30 ms against 0.21 without them).
        float ca[VEC], cb[VEC];
        for (int j = 0; j < VEC; ++j) {
            ca[j] = coef[w0 * VEC + j];
            cb[j] = coef[cpg + w0 * VEC + j];
        }
#else
        int pc = c0, pq = q0;
#endif
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k) {
            if (valid && r + k * l < vecs) {
                float y[VEC];
                GN_HELD_VEC(y, k);
#if CH_INNER
                // nhwc: VEC channels of point p, the lane's own channels
                // throughout where its w does not move.
                if (dw == 0) {
                    for (int j = 0; j < VEC; ++j) {
                        y[j] = (y[j] - m) * ca[j] + cb[j];
                        GN_HELD_POST_OPS(y[j], w0 * VEC + j, p);
                    }
                } else {
                    for (int j = 0; j < VEC; ++j) {
                        const int c = w * VEC + j;
                        y[j] = (y[j] - m) * coef[c] + coef[cpg + c];
                        GN_HELD_POST_OPS(y[j], c, p);
                    }
                }
#else
                if (pq + VEC <= points) {
                    // The vector within one channel.
                    const float a = coef[pc], b = coef[cpg + pc];
                    for (int j = 0; j < VEC; ++j) {
                        y[j] = (y[j] - m) * a + b;
                        GN_HELD_POST_OPS(y[j], pc, pq + j);
                    }
                } else {
                    // Across a channel's end.
                    int c = pc, q = pq;
                    for (int j = 0; j < VEC; ++j) {
                        y[j] = (y[j] - m) * coef[c] + coef[cpg + c];
                        GN_HELD_POST_OPS(y[j], c, q);
                        if (++q == points) {
                            q = 0;
                            ++c;
                        }
                    }
                }
#endif
                VSTORE(DST_DT, dst, db + p * dv.so + w * VEC, y);
            }
            GN_STEP(p, w);
#if !CH_INNER
            GN_STEP_POINTS(pc, pq);
#endif
        }
        // The next unit's tree overwrites the coefficients.
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#else

// The sum of v over the lanes of this lane's group (every lane gets its
// group's): lane r's vector is channels VEC * (r % cq) .. of its point,
// gq lanes per group within a point (cq, gq and the lanes powers of two,
// cq dividing the lanes). Rows of points fold first, then each group's
// gq lanes; the group's sum ends at its first lane of row 0.
inline float gn_group_sum(float v, __local float *b, int cq, int gq, int grp) {
    const int r = ul_lane(), l = ul_lanes();
    b[r] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = l / 2; h >= cq; h >>= 1) {
        if (r < h) b[r] += b[r + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int h = gq / 2; h >= 1; h >>= 1) {
        if (r < cq && (r & (gq - 1)) < h) b[r] += b[r + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float res = b[grp * gq];
    barrier(CLK_LOCAL_MEM_FENCE);
    return res;
}

// Channels-last images whose points follow one another (point stride C)
// cut into parts of whole points, each part held on chip by one group
// (GN_HELD vectors a lane, as gnorm_fwd_cached holds a unit) that reads
// it as one contiguous run: the strided runs of a unit (cpg channels a
// point, C apart) read at most 0.78 of the copy bandwidth on an H100,
// contiguous runs near 0.9. Lane r holds the part's vectors r + k *
// lanes; the lanes are a multiple of the C / VEC vectors of a point, so
// a lane's channels, and so its group of channels, never change. The
// group computes every channel group's statistics of its part,
// publishes them, waits for the image's other parts (ocl_held_parts.clh:
// tickets, words preset by held_parts_reset; the host keeps an image's
// parts within the groups that run at once), merges them (Chan) and
// normalizes what it holds, so src is read from memory once. Item
// (image, part) is ticket image * parts + part; its statistics are the
// words 3 * (item * groups + group). Every group draws `trips` tickets,
// so its work-items all reach every barrier.
__kernel void gnorm_fwd_parts(__global const SRC_T *src, long s_off,
        long s_img, __global DST_T *dst, long d_off, long d_img,
        __global float *mean, long mean_off, __global float *var,
        long var_off, __global const float *scale,
        __global const float *shift, int images, int channels, int groups,
        int points, int ppp, int parts, int trips, float eps, int flags,
        __global const SSC_T *src_scale, __global const DSC_T *dst_scale,
        dims6_t dims, int ndims, __global int *sync, long sync_off,
        __global float *partial, long partial_off, __local float *buf,
        __local VTYPE(float) *held, __local int *ticket POST_OP_ARGS) {
    sync += sync_off;
    __global int *words = (__global int *)(partial + partial_off);
    const int r = ul_lane(), l = ul_lanes();
    const int cq = channels / VEC, cpg = channels / groups, gq = cpg / VEC;
    const int lc = r % cq, grp = lc / gq;
    __local VTYPE(float) *mine = held + r;
    __local float *bn = buf, *bm = buf + l, *bq = buf + 2 * l;
    const float ss = src_scale ? LOAD(SSC_DT, src_scale, 0) : 1.f;
    const float rds = dst_scale ? 1.f / LOAD(DSC_DT, dst_scale, 0) : 1.f;
    // The lane's channel coefficients without 1 / sigma (the dst scale in
    // them when no post-op follows).
    float ca[VEC], cb[VEC];
    for (int j = 0; j < VEC; ++j) {
        const int c = lc * VEC + j;
        ca[j] = (scale ? scale[c] : 1.f) * ss * (PO_COUNT ? 1.f : rds);
        cb[j] = (shift ? shift[c] : 0.f) * ss * (PO_COUNT ? 1.f : rds);
    }
    const long items = (long)images * parts;
    for (int t = 0; t < trips; ++t) {
        const long item = held_next_ticket(sync, ticket);
        const bool valid = item < items;
        const long img = valid ? item / parts : 0;
        const int part = valid ? (int)(item - img * parts) : 0;
        const int p0 = part * ppp;
        const int np = valid ? min(points, p0 + ppp) - p0 : 0;
        const int vecs = np * cq;
        const long sb = s_off + img * s_img + (long)p0 * channels;
        const long db = d_off + img * d_img + (long)p0 * channels;
        // Every load is issued before any of them is used (see
        // gnorm_fwd_cached).
        float x[GN_HELD][VEC];
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j)
                x[k][j] = 0.f;
            if (r + k * l < vecs)
                VLOAD(SRC_DT, src, sb + (long)(r + k * l) * VEC, x[k]);
        }
        float sum = 0.f;
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j)
                sum += x[k][j];
            if (k >= UNIT_CACHE)
                mine[(k - UNIT_CACHE) * l] = VFN(vload)(0, x[k]);
        }
        const float cnt = (float)np * cpg;
        const float gs = gn_group_sum(sum, bm, cq, gq, grp);
        const float pm = np > 0 ? gs / cnt : 0.f;
        float sq = 0.f;
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k)
            if (r + k * l < vecs) {
                float y[VEC];
                GN_HELD_VEC(y, k);
                for (int j = 0; j < VEC; ++j)
                    sq += (y[j] - pm) * (y[j] - pm);
            }
        const float pq = gn_group_sum(sq, bm, cq, gq, grp);
        // The first lane of each group in row 0 publishes the group's
        // statistics of this part.
        if (valid && r < cq && (r & (gq - 1)) == 0) {
            __global int *w = words + 3 * (item * groups + grp);
            held_publish(w, cnt);
            held_publish(w + 1, pm);
            held_publish(w + 2, pq);
        }
        // Every lane publishes before any waits: a lane may wait for a
        // word of its own group (devices that run a group's work-items
        // one after another between barriers, as PoCL does, would
        // otherwise wait for a lane that has not run yet).
        barrier(CLK_GLOBAL_MEM_FENCE);
        // Lane r merges parts r / groups, r / groups + l / groups, ... of
        // group r % groups (the lanes are a multiple of the groups), then
        // a tree over lanes groups apart leaves group g's merge at g.
        // Four triples at a time, read together.
        stats_t st = stats_zero();
        if (valid)
            for (int i = r; i < parts * groups; i += 4 * l) {
                const int n4 = min(4, (parts * groups - i + l - 1) / l);
                float w[4][3];
                held_read_triples(words + 3 * (img * parts * groups + i),
                        3L * l, n4, w);
                for (int j = 0; j < n4; ++j) {
                    const stats_t b = {w[j][0], w[j][1], w[j][2]};
                    st = stats_merge(st, b);
                }
            }
        bn[r] = st.n;
        bm[r] = st.mean;
        bq[r] = st.m2;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int h = l / 2; h >= groups; h >>= 1) {
            if (r < h) {
                const stats_t a = {bn[r], bm[r], bq[r]};
                const stats_t b = {bn[r + h], bm[r + h], bq[r + h]};
                const stats_t c = stats_merge(a, b);
                bn[r] = c.n;
                bm[r] = c.mean;
                bq[r] = c.m2;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const float m = bm[grp];
        const float v = bn[grp] > 0.f ? bq[grp] / bn[grp] : 0.f;
        if (valid && part == 0 && r < groups && (flags & F_SAVE)) {
            mean[mean_off + img * groups + r] = bm[r];
            var[var_off + img * groups + r] = bn[r] > 0.f ? bq[r] / bn[r] : 0.f;
        }
        // The next part's trees reuse the buffer.
        barrier(CLK_LOCAL_MEM_FENCE);
        const float inv = 1.f / sqrt(v + eps);
        float a[VEC], b[VEC];
        for (int j = 0; j < VEC; ++j) {
            a[j] = ca[j] * inv;
            b[j] = cb[j];
        }
#if PO_COUNT
        long idx[6] = {img, 0, 0, 0, 0, 0};
#endif
#pragma unroll
        for (int k = 0; k < GN_HELD; ++k) {
            if (r + k * l < vecs) {
                float y[VEC];
                GN_HELD_VEC(y, k);
                for (int j = 0; j < VEC; ++j) {
                    y[j] = (y[j] - m) * a[j] + b[j];
#if PO_COUNT
                    GN_POST_OPS(y[j], lc * VEC + j, p0 + (r + k * l) / cq);
                    y[j] *= rds;
#endif
                }
                VSTORE(DST_DT, dst, db + (long)(r + k * l) * VEC, y);
            }
        }
    }
}
#endif
#endif

// One work-item per unit: merges the chunks' statistics.
__kernel void gnorm_stats_final(__global const float *partial,
        long partial_off, long units, long chunks, __global float *mean,
        long mean_off, __global float *var, long var_off) {
    const long u = get_global_id(0);
    if (u >= units) return;
    stats_t s = stats_zero();
    for (long q = 0; q < chunks; ++q) {
        __global const float *p = partial + partial_off + 3 * (q * units + u);
        stats_t b = {p[0], p[1], p[2]};
        s = stats_merge(s, b);
    }
    mean[mean_off + u] = s.mean;
    var[var_off + u] = s.n > 0.f ? s.m2 / s.n : 0.f;
}

#elif GN_KERNEL == 2
// Unit (n, c) over the points ([N, C, S] views). The sums of chunk q go
// to ab[ab_off + 2 * (q * units + u)].
__kernel void gnorm_bwd_nc(__global const SRC_T *src, view3_t sv,
        __global const DD_T *dd, view3_t ddv, __global const float *mean,
        unit_space_t sp, long channels, long cpg, __global float *ab,
        long ab_off, __local float *buf) {
#if NC_CVEC
    // Channels-last: unit u is VEC neighbouring channels of one image,
    // read as vectors at every point (neighbouring units in neighbouring
    // work-items, so a group's loads are consecutive 16-byte pieces).
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const long cvs = channels / VEC;
    const long n = valid ? u / cvs : 0, c0 = valid ? (u % cvs) * VEC : 0;
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    float m[VEC], sa[VEC], sb[VEC];
    for (int j = 0; j < VEC; ++j) {
        m[j] = valid ? mean[n * (channels / cpg) + (c0 + j) / cpg] : 0.f;
        sa[j] = sb[j] = 0.f;
    }
    if (valid) {
        const long xb = v3_off(&sv, n, c0, 0), gb = v3_off(&ddv, n, c0, 0);
        UL_FOR_EACH(o0, o1, i0, i1, o, i, {
            float g[VEC];
            float x[VEC];
            VLOAD(DD_DT, dd, gb + i * ddv.s2, g);
            VLOAD(SRC_DT, src, xb + i * sv.s2, x);
            for (int j = 0; j < VEC; ++j) {
                sa[j] += g[j];
                sb[j] += g[j] * (x[j] - m[j]);
            }
        });
    }
    // Sums of (n, c) at ab[ab_off + 2 * (chunk * N * C + n * C + c)].
    for (int j = 0; j < VEC; ++j) {
        const float2 t = wg_sum2((float2)(sa[j], sb[j]), buf);
        if (valid && ul_lane() == 0) {
            __global float *p = ab + ab_off
                    + 2 * (ul_chunk_id() * sp.units * VEC + n * channels + c0
                            + j);
            p[0] = t.x;
            p[1] = t.y;
        }
    }
#else
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const long n = valid ? u / channels : 0, c = valid ? u % channels : 0;
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    float2 acc = (float2)(0.f, 0.f);
    if (valid) {
        const float m = mean[n * (channels / cpg) + c / cpg];
        const long sb = v3_off(&sv, n, c, 0), gb = v3_off(&ddv, n, c, 0);
        // VEC > 1: i counts aligned vectors of contiguous points.
        UL_FOR_EACH(o0, o1, i0, i1, o, i, {
            float g[VEC];
            float x[VEC];
            VLOAD(DD_DT, dd, gb + i * (VEC > 1 ? VEC : ddv.s2), g);
            VLOAD(SRC_DT, src, sb + i * (VEC > 1 ? VEC : sv.s2), x);
            for (int j = 0; j < VEC; ++j) {
                acc.x += g[j];
                acc.y += g[j] * (x[j] - m);
            }
        });
    }
    acc = wg_sum2(acc, buf);
    if (!valid || ul_lane() != 0) return;
    __global float *p = ab + ab_off + 2 * (ul_chunk_id() * sp.units + u);
    p[0] = acc.x;
    p[1] = acc.y;
#endif
}

// One work-item per (n, c): adds the chunks' sums into chunk 0's place.
__kernel void gnorm_bwd_nc_final(
        __global float *ab, long ab_off, long units, long chunks) {
    const long u = get_global_id(0);
    if (u >= units) return;
    float a = 0.f, b = 0.f;
    for (long q = 0; q < chunks; ++q) {
        a += ab[ab_off + 2 * (q * units + u)];
        b += ab[ab_off + 2 * (q * units + u) + 1];
    }
    ab[ab_off + 2 * u] = a;
    ab[ab_off + 2 * u + 1] = b;
}

#else
// One work-item per channel.
__kernel void gnorm_bwd_dss(__global const float *ab, long ab_off,
        __global const float *var, long batch, long channels, long cpg,
        float eps, __global float *dscale, __global float *dshift) {
    const long c = get_global_id(0);
    if (c >= channels) return;
    const long groups = channels / cpg;
    float a = 0.f, b = 0.f;
    for (long n = 0; n < batch; ++n) {
        const float inv = 1.f / sqrt(var[n * groups + c / cpg] + eps);
        a += ab[ab_off + 2 * (n * channels + c)];
        b += ab[ab_off + 2 * (n * channels + c) + 1] * inv;
    }
    if (dscale) dscale[c] = b;
    if (dshift) dshift[c] = a;
}

// One work-item per unit (n, g): sums of scale * A and scale * B.
__kernel void gnorm_bwd_unit(__global float *ab, long ab_off,
        __global const float *scale, long units, long channels, long cpg,
        long us_off) {
    const long u = get_global_id(0);
    if (u >= units) return;
    const long groups = channels / cpg, n = u / groups, g = u % groups;
    float s1 = 0.f, s2 = 0.f;
    for (long j = 0; j < cpg; ++j) {
        const long c = g * cpg + j;
        const float w = scale ? scale[c] : 1.f;
        s1 += w * ab[ab_off + 2 * (n * channels + c)];
        s2 += w * ab[ab_off + 2 * (n * channels + c) + 1];
    }
    ab[us_off + 2 * u] = s1;
    ab[us_off + 2 * u + 1] = s2;
}

// diff_src over the units' (chunked) O x I spaces.
__kernel void gnorm_bwd_apply(__global const SRC_T *src, gn_view_t sv,
        __global const DD_T *dd, gn_view_t ddv, __global DS_T *ds,
        gn_view_t dsv, __global const float *mean, __global const float *var,
        __global const float *scale, __global const float *us, long us_off,
        unit_space_t sp, long groups, long cpg, int ch_inner, float eps,
        int flags) {
    const long u = ul_unit();
    if (u >= sp.units) return;
    const long n = u / groups, g = u % groups;
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    const float m = mean[u], inv = 1.f / sqrt(var[u] + eps);
    const float cnt = (float)(sp.o * sp.i * VEC);
    float k1 = 0.f, k2 = 0.f;
    if (!(flags & F_GLOBAL)) {
        k1 = us[us_off + 2 * u] / cnt;
        k2 = us[us_off + 2 * u + 1] * inv * inv / cnt;
    }
    const long sb = gn_base(&sv, n, g), gb = gn_base(&ddv, n, g),
               db = gn_base(&dsv, n, g);
#if VEC > 1
    // Vectors along the contiguous inner part: nchw planes (o the unit's
    // channel, i a vector of its points) or channels-last points (o the
    // point, i a vector of the group's channels).
    UL_FOR_EACH(o0, o1, i0, i1, o, i, {
        float gr[VEC];
        float x[VEC];
        VLOAD(DD_DT, dd, gb + o * ddv.so + i * VEC, gr);
        VLOAD(SRC_DT, src, sb + o * sv.so + i * VEC, x);
        for (int j = 0; j < VEC; ++j) {
            const long c = g * cpg + (ch_inner ? i * VEC + j : o);
            const float w = scale ? scale[c] : 1.f;
            x[j] = inv * (gr[j] * w - k1 - (x[j] - m) * k2);
        }
        VSTORE(DS_DT, ds, db + o * dsv.so + i * VEC, x);
    });
#else
    UL_FOR_EACH(o0, o1, i0, i1, o, i, {
        const long c = g * cpg + (ch_inner ? i : o);
        float gr = LOAD(DD_DT, dd, gb + o * ddv.so + i * ddv.si);
        if (scale) gr *= scale[c];
        const float x = LOAD(SRC_DT, src, sb + o * sv.so + i * sv.si);
        STORE(DS_DT, ds, db + o * dsv.so + i * dsv.si,
                inv * (gr - k1 - (x - m) * k2));
    });
#endif
}
#endif
