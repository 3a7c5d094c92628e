// Batch normalization kernels. A unit is one channel: its N x S elements,
// walked as an O x I space (bn_view_t: the channel's base, then the
// strides of O and I). nchw: rows geometry, o = image, i = point
// (contiguous); nhwc and 2-D: units in neighbouring work-items, o = every
// (image, point), i empty. Channels with few siblings are split into
// chunks (dimension 2 of the range).
//  bnorm_fwd   phase 0: statistics of the whole channel in one group
//              (Welford, merged across lanes) unless given, saved when
//              asked, then dst = scale * (x - mean) / sqrt(var + eps)
//              + shift (+ src_1), ReLU with its workspace when fused;
//              phase 1: partial statistics of a chunk, merged by
//              bnorm_stats_final; phase 2: normalization of a chunk
//              from given statistics.
//  bnorm_bwd   phase 0: per-channel sums of g (diff_dst, zero where the
//              workspace says the ReLU was off) and of g * (x - mean),
//              diff scale / shift, then diff_src (and diff_src_1 = g);
//              phase 1: partial sums of a chunk, added by bnorm_sums_final
//              (which also writes diff scale / shift); phase 2: diff_src
//              of a chunk from those sums.
//  bnorm_fwd_dense: given statistics over one dense plain layout, an
//              elementwise kernel (see there); with computed statistics
//              it replaces phase 2 over such layouts. Always built with
//              VEC 4 (a program of its own when the unit kernels take
//              another VEC).
//  bnorm_fwd_held (+ held_parts_reset; built with HELD_CACHE): computed
//              statistics and the normalization in one launch over
//              nchw-like layouts, each channel's parts held on chip by
//              groups that wait for one another (see there);
//              bnorm_bwd_held: the backward the same way, src and
//              diff_dst held (both read once).
//  bnorm_stats_bands (+ _final): computed statistics over a dense
//              channels-last layout, before bnorm_fwd_dense: groups
//              reduce bands of rows for many channels at once, then one
//              group per channel merges the bands (see there);
//              bnorm_bwd_bands (+ _final) and bnorm_bwd_dense: the same
//              scheme for the backward sums and diff_src.
//  The unit kernels read VEC-wide vectors along the point axis when the
//  host found every tensor contiguous and aligned there (nchw, VEC 4);
//  i then counts vectors.
#include "ocl_held_parts.clh"
#include "ocl_types.clh"
#include "ocl_unit_loop.clh"
#include "ocl_vec_io.clh"

#define F_GLOBAL 1
#define F_SAVE 2
#define F_RELU 4

// The ReLU of the fused flags (slope 0) or of a ReLU post-op (its alpha).
#ifdef RELU_SLOPE
#define BN_RELU(y) ((y) > 0.f ? (y) : (y) * RELU_SLOPE)
#else
#define BN_RELU(y) ((y) > 0.f ? (y) : 0.f)
#endif

typedef struct {
    long off0, sc, so, si;
} bn_view_t;

inline long bn_off(const bn_view_t *v, long c, long o, long i) {
    return v->off0 + c * v->sc + o * v->so + i * v->si;
}

// A bands kernel's work-item: its channel vector cv (dimension 0), its
// lane among the group's row lanes (dimension 1), and the rows [r0, r1)
// of its group's band.
typedef struct {
    long cv, band, bands, r0, r1;
    int lc, lr, nlr;
    bool valid;
} bn_band_t;

inline bn_band_t bn_band_of(long rows, long channels, long band_rows) {
    bn_band_t b;
    b.cv = get_global_id(0);
    b.lc = get_local_id(0);
    b.lr = get_local_id(1);
    b.nlr = get_local_size(1);
    b.band = get_group_id(1);
    b.bands = get_num_groups(1);
    b.r0 = b.band * band_rows;
    b.r1 = min(rows, b.r0 + band_rows);
    b.valid = b.cv * VEC < channels;
    return b;
}

#if HELD_CACHE
// The held kernels (bnorm_fwd_held, bnorm_bwd_held): a lane holds each
// held tensor's vectors r + k * lanes of its part, k < HELD_CACHE in
// registers and the rest in HELD_LOCAL slots of local memory per tensor.
#if VEC == 1
#error "the held kernels read vectors"
#endif
#define BN_HELD (HELD_CACHE + HELD_LOCAL)

// Steps (image, vector w of the image's row of pv) by the lanes: di
// images and dw vectors, with one carry.
#define BN_STEP(img, w) \
    do { \
        w += dw; \
        img += di; \
        if (w >= pv) { \
            w -= pv; \
            ++img; \
        } \
    } while (0)

// Vector k of this lane's part into y (k known when compiling): from the
// registers x[k] or from the lane's slots (lane-interleaved, slot k -
// HELD_CACHE at slots[(k - HELD_CACHE) * l]).
#define BN_HELD_VEC(y, x, slots, k) \
    do { \
        if ((k) < HELD_CACHE) { \
            for (int j_ = 0; j_ < VEC; ++j_) \
                (y)[j_] = (x)[k][j_]; \
        } else { \
            VFN(vstore)((slots)[((k)-HELD_CACHE) * l], 0, y); \
        } \
    } while (0)

// Vector k of the lane's part from x[k] into its slot when it is not
// held in registers.
#define BN_HELD_KEEP(x, slots, k) \
    do { \
        if ((k) >= HELD_CACHE) \
            (slots)[((k)-HELD_CACHE) * l] = VFN(vload)(0, (x)[k]); \
    } while (0)

// The next part a group holds (its ticket `item`, channel c and part of
// it, first image and vectors; `valid` false past the last part, with c,
// part and vecs then 0).
typedef struct {
    long item, c;
    int part, first, vecs;
    bool valid;
} bn_part_t;

inline bn_part_t bn_next_part(__global int *sync, __local int *ticket,
        long channels, int images, int pv, int ipp, int parts) {
    bn_part_t p;
    p.item = held_next_ticket(sync, ticket);
    p.valid = p.item < channels * parts;
    p.c = p.valid ? p.item / parts : 0;
    p.part = p.valid ? (int)(p.item - p.c * parts) : 0;
    p.first = p.part * ipp;
    p.vecs = p.valid ? (min(images, p.first + ipp) - p.first) * pv : 0;
    return p;
}
#endif

#if IS_FWD
// Values of o the statistics loop loads at once per lane: one load in
// flight per lane left the pass latency-bound.
#define BN_ROWS 4

// Statistics of the first n of x's BN_ROWS * VEC values (the rest are
// repeated loads, ignored): every index is known at compile time.
inline stats_t bn_block_stats(const float *x, int n) {
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < BN_ROWS * VEC; ++j)
        sum += j < n ? x[j] : 0.f;
    stats_t v = {(float)n, sum / n, 0.f};
#pragma unroll
    for (int j = 0; j < BN_ROWS * VEC; ++j) {
        const float d = x[j] - v.mean;
        v.m2 += j < n ? d * d : 0.f;
    }
    return v;
}

// This lane's statistics of the chunk [o0, o1) x [i0, i1) of channel c.
// The lanes split the chunk as UL_FOR_EACH does: along a long inner part
// together, or spread over o when it is short (nhwc: one point per o),
// every per-th o each. Either way a lane loads BN_ROWS values of o at
// once, the o past the chunk repeating its last one.
inline stats_t bn_lane_stats(__global const DATA_T *src, const bn_view_t *sv,
        long c, long o0, long o1, long i0, long i1) {
    stats_t st = stats_zero();
    const int r = ul_lane(), lanes = ul_lanes();
    const bool wide = i1 - i0 >= lanes;
    const long ni = max(i1 - i0, 1L);
    const long per = wide ? 1 : lanes / ni;
    const long first_o = o0 + (wide ? 0 : r / ni);
    const long first_i = i0 + (wide ? r : r % ni);
    const long step_i = wide ? lanes : ni;
    if (first_o - o0 >= per) return st;
    for (long o = first_o; o < o1; o += BN_ROWS * per) {
        const int rows = (int)min((long)BN_ROWS, (o1 - o + per - 1) / per);
        for (long i = first_i; i < i1; i += step_i) {
            float x[BN_ROWS * VEC];
#pragma unroll
            for (int u = 0; u < BN_ROWS; ++u)
                VLOAD(DATA_DT, src,
                        bn_off(sv, c, o + min(u, rows - 1) * per, i * VEC),
                        x + u * VEC);
            st = stats_merge(st, bn_block_stats(x, rows * VEC));
        }
    }
    return st;
}

__kernel void bnorm_fwd(__global const DATA_T *src, bn_view_t sv,
        __global DST_T *dst, bn_view_t dv, __global const DST_T *src1,
        bn_view_t s1v, __global uchar *ws, bn_view_t wv,
        __global float *mean, long mean_off, __global float *var,
        long var_off, __global const float *scale,
        __global const float *shift, unit_space_t sp, float eps, int flags,
        int phase, __global float *partial, long partial_off,
        __local float *buf) {
    const long c = ul_unit();
    const bool valid = c < sp.units;
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    // Every work-item reaches the tree, whatever the phase (PoCL
    // mishandles barriers under run-time conditions, uniform or not).
    const bool given = phase == 2 || (flags & F_GLOBAL);
    stats_t st = stats_zero();
    if (valid && !given) st = bn_lane_stats(src, &sv, c, o0, o1, i0, i1);
    st = wg_stats(st, buf);
    if (phase == 1) {
        if (valid)
            ul_store_partial_stats(partial + partial_off, c, sp.units, st);
        return;
    }
    float m = st.mean, v = st.n > 0.f ? st.m2 / st.n : 0.f;
    if (given && valid) {
        m = mean[mean_off + c];
        v = var[var_off + c];
    } else if (valid && (flags & F_SAVE) && ul_lane() == 0) {
        mean[mean_off + c] = m;
        var[var_off + c] = v;
    }
    if (!valid) return;
    const float inv = 1.f / sqrt(v + eps);
    const float a = (scale ? scale[c] : 1.f) * inv;
    const float b = shift ? shift[c] : 0.f;
    UL_FOR_EACH(o0, o1, i0, i1, o, i, {
        float y[VEC];
        float y1[VEC];
        VLOAD(DATA_DT, src, bn_off(&sv, c, o, i * VEC), y);
        if (src1) VLOAD(DST_DT, src1, bn_off(&s1v, c, o, i * VEC), y1);
        for (int j = 0; j < VEC; ++j) {
            y[j] = a * (y[j] - m) + b;
            if (src1) y[j] += y1[j];
            if (flags & F_RELU) {
                if (ws) ws[bn_off(&wv, c, o, i * VEC + j)] = y[j] > 0.f;
                y[j] = BN_RELU(y[j]);
            }
        }
        VSTORE(DST_DT, dst, bn_off(&dv, c, o, i * VEC), y);
    });
}

#if HELD_CACHE
// Statistics and normalization in one launch, the data held on chip
// (nchw-like layouts read as VEC-wide vectors along the points): channel
// c is cut into `parts` parts of `ipp` images (the last may have fewer);
// a work-group holds one part, HELD_CACHE vectors a lane in registers and
// HELD_LOCAL more in the lane's own slots of local memory (as
// gnorm_fwd_cached holds a unit), computes the part's statistics,
// publishes them, waits until every part of the channel has, merges them
// (Chan) and normalizes what it holds, so src is read from memory once.
// Groups take parts in the order of a ticket counter, so a group waits
// only for parts that running groups hold or that no group has taken
// yet: with no more parts per channel than groups that run at once (the
// host keeps them within the compute units), some channel always
// completes. sync[0] counts tickets, and each part's three statistics
// are words of `partial` (ocl_held_parts.clh). Each group draws
// `trips` tickets (groups x trips >= channels x parts) whether or not
// parts remain, so its work-items all reach every barrier. Lane r holds
// the part's vectors r + k * lanes.
__kernel void bnorm_fwd_held(__global const DATA_T *src, bn_view_t sv,
        __global DST_T *dst, bn_view_t dv, __global const DST_T *src1,
        bn_view_t s1v, __global uchar *ws, bn_view_t wv,
        __global float *mean, long mean_off, __global float *var,
        long var_off, __global const float *scale,
        __global const float *shift, long channels, int images, int pv,
        int ipp, int parts, int trips, float eps, int flags,
        __global int *sync, long sync_off, __global float *partial,
        long partial_off, __local float *buf, __local VTYPE(float) *held,
        __local int *ticket) {
    sync += sync_off;
    const int r = ul_lane(), l = ul_lanes();
    const int di = l / pv, dw = l - di * pv;
    const int i0 = r / pv, w0 = r - i0 * pv;
    // The lane's vectors in local memory, lane-interleaved (a group's
    // accesses are consecutive 16-byte pieces); `held` is declared as
    // vectors so that the runtime aligns it for them.
    __local VTYPE(float) *mine = held + r;
    for (int t = 0; t < trips; ++t) {
        const bn_part_t pt = bn_next_part(
                sync, ticket, channels, images, pv, ipp, parts);
        const long item = pt.item, c = pt.c;
        const bool valid = pt.valid;
        const int part = pt.part, first = pt.first, vecs = pt.vecs;
        // Every load is issued before any of them is used (as in
        // gnorm_fwd_cached: a use in between serializes the loads).
        float x[BN_HELD][VEC];
        int img = first + i0, w = w0;
#pragma unroll
        for (int k = 0; k < BN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j)
                x[k][j] = 0.f;
            if (r + k * l < vecs)
                VLOAD(DATA_DT, src, bn_off(&sv, c, img, w * VEC), x[k]);
            BN_STEP(img, w);
        }
        float sum = 0.f;
#pragma unroll
        for (int k = 0; k < BN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j)
                sum += x[k][j];
            BN_HELD_KEEP(x, mine, k);
        }
        const float cnt = (float)vecs * VEC;
        const float tot = wg_sum(sum, buf);
        const float pm = vecs > 0 ? tot / cnt : 0.f;
        float sq = 0.f;
#pragma unroll
        for (int k = 0; k < BN_HELD; ++k)
            if (r + k * l < vecs) {
                float y[VEC];
                BN_HELD_VEC(y, x, mine, k);
                for (int j = 0; j < VEC; ++j)
                    sq += (y[j] - pm) * (y[j] - pm);
            }
        const float pq = wg_sum(sq, buf);
        __global int *words = (__global int *)(partial + partial_off);
        if (valid && r == 0) {
            held_publish(words + 3 * item, cnt);
            held_publish(words + 3 * item + 1, pm);
            held_publish(words + 3 * item + 2, pq);
        }
        // Lane j < parts waits for part j's words (the host keeps 3 parts
        // within the lanes), into local memory for every lane's merge.
        __local float *pb = ul_slice(buf);
        if (valid && r < parts) {
            volatile __global const int *q = words + 3 * (c * parts + r);
            float w[4][3];
            held_read_triples(q, 0, 1, w);
            for (int k = 0; k < 3; ++k)
                pb[3 * r + k] = w[0][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        stats_t st = stats_zero();
        for (int j = 0; j < parts && valid; ++j) {
            const stats_t b = {pb[3 * j], pb[3 * j + 1], pb[3 * j + 2]};
            st = stats_merge(st, b);
        }
        // The next part's tree reuses the buffer.
        barrier(CLK_LOCAL_MEM_FENCE);
        const float m = st.mean, v = st.n > 0.f ? st.m2 / st.n : 0.f;
        if (valid && part == 0 && r == 0 && (flags & F_SAVE)) {
            mean[mean_off + c] = m;
            var[var_off + c] = v;
        }
        const float inv = 1.f / sqrt(v + eps);
        const float a = (valid && scale ? scale[c] : 1.f) * inv;
        const float b = valid && shift ? shift[c] : 0.f;
        img = first + i0;
        w = w0;
#pragma unroll
        for (int k = 0; k < BN_HELD; ++k) {
            if (r + k * l < vecs) {
                float y[VEC];
                BN_HELD_VEC(y, x, mine, k);
                // The fused add and ReLU are compiled in (HELD_ADD,
                // HELD_RELU): run-time branches in this loop, even ones
                // never taken, cost a fifth of the kernel's speed on an
                // H100 (0.27 ms against 0.21 without them).
#if HELD_ADD
                float y1[VEC];
                VLOAD(DST_DT, src1, bn_off(&s1v, c, img, w * VEC), y1);
#endif
                for (int j = 0; j < VEC; ++j) {
                    y[j] = a * (y[j] - m) + b;
#if HELD_ADD
                    y[j] += y1[j];
#endif
#if HELD_RELU
                    if (ws)
                        ws[bn_off(&wv, c, img, w * VEC + j)] = y[j] > 0.f;
                    y[j] = BN_RELU(y[j]);
#endif
                }
                VSTORE(DST_DT, dst, bn_off(&dv, c, img, w * VEC), y);
            }
            BN_STEP(img, w);
        }
    }
}
#endif

// Forward with given statistics over tensors that share one dense plain
// layout (nchw, nhwc, ...): an elementwise kernel, VEC elements of one
// channel (cstride a multiple of VEC) or VEC channels (cstride 1) per
// work-item. Offsets are element indices from each tensor's origin.
__kernel void bnorm_fwd_dense(__global const DATA_T *src, long s_off,
        __global DST_T *dst, long d_off, __global const DST_T *src1,
        long s1_off, __global uchar *ws, long w_off,
        __global const float *mean, long mean_off, __global const float *var,
        long var_off, __global const float *scale,
        __global const float *shift, long vectors, long cstride,
        long channels, float eps, int flags, int reverse) {
    const long gid = get_global_id(0);
    if (gid >= vectors) return;
    // After a statistics pass that read the tensor front to back, its tail
    // may still sit in the device's cache: start there.
    const long v = reverse ? vectors - 1 - gid : gid;
    const long e = v * VEC;
#if IDX32
    const long c0 = (long)(((uint)e / (uint)cstride) % (uint)channels);
#else
    const long c0 = (e / cstride) % channels;
#endif
    float x[VEC];
    float y1[VEC];
    VLOAD(DATA_DT, src, s_off + e, x);
    if (src1) VLOAD(DST_DT, src1, s1_off + e, y1);
    for (int j = 0; j < VEC; ++j) {
        const long c = cstride == 1 ? c0 + j : c0;
        const float a
                = (scale ? scale[c] : 1.f) / sqrt(var[var_off + c] + eps);
        float y = a * (x[j] - mean[mean_off + c]) + (shift ? shift[c] : 0.f);
        if (src1) y += y1[j];
        if (flags & F_RELU) {
            if (ws) ws[w_off + e + j] = y > 0.f;
            y = BN_RELU(y);
        }
        x[j] = y;
    }
    VSTORE(DST_DT, dst, d_off + e, x);
}

// Merges the statistics of `lanes` work-items (a power of two) that share
// buf (3 * lanes floats); every one of them calls it, with its own lane.
inline stats_t bn_tree(stats_t v, __local float *buf, int lane, int lanes) {
    __local float *bn = buf, *bm = buf + lanes, *bq = buf + 2 * lanes;
    bn[lane] = v.n;
    bm[lane] = v.mean;
    bq[lane] = v.m2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lanes / 2; s > 0; s >>= 1) {
        if (lane < s) {
            stats_t a = {bn[lane], bm[lane], bq[lane]};
            stats_t b = {bn[lane + s], bm[lane + s], bq[lane + s]};
            a = stats_merge(a, b);
            bn[lane] = a.n;
            bm[lane] = a.mean;
            bq[lane] = a.m2;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    stats_t r = {bn[0], bm[0], bq[0]};
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

// Statistics of a dense channels-last tensor, read as [rows, channels]
// with the channels contiguous (nhwc and the like; the unit kernels read
// such a channel with a stride of C elements, one value per lane, and ran
// at a third of the copy bandwidth). A work-item owns VEC neighbouring
// channels (dimension 0: channel vectors, consecutive work-items reading
// consecutive vectors of a row, so a group's loads are coalesced) and
// walks the rows of its group's band with a stride of the group's row
// lanes (dimension 1), BN_ROWS rows loaded at once. Group g of dimension 1
// writes its band's statistics of channel c to partial[3 * (c * bands + g)]
// (from partial_off)
// for bnorm_stats_bands_final. buf holds 3 * local size floats.
__kernel void bnorm_stats_bands(__global const DATA_T *src, long s_off,
        long rows, long channels, long band_rows, __global float *partial,
        long partial_off, __local float *buf) {
    const bn_band_t w = bn_band_of(rows, channels, band_rows);
    const long cv = w.cv, band = w.band, bands = w.bands, r0 = w.r0,
               r1 = w.r1;
    const int lc = w.lc, lr = w.lr, nlr = w.nlr;
    const bool valid = w.valid;
    stats_t st[VEC];
    for (int j = 0; j < VEC; ++j)
        st[j] = stats_zero();
    if (valid) {
        for (long r = r0 + lr; r < r1; r += BN_ROWS * nlr) {
            const int n = (int)min((long)BN_ROWS, (r1 - r + nlr - 1) / nlr);
            float x[BN_ROWS * VEC];
#pragma unroll
            for (int u = 0; u < BN_ROWS; ++u)
                VLOAD(DATA_DT, src,
                        s_off + (r + min(u, n - 1) * nlr) * channels
                                + cv * VEC,
                        x + u * VEC);
#pragma unroll
            for (int j = 0; j < VEC; ++j) {
                float col[BN_ROWS];
#pragma unroll
                for (int u = 0; u < BN_ROWS; ++u)
                    col[u] = x[u * VEC + j];
                stats_t b = {(float)n, 0.f, 0.f};
                float sum = 0.f;
#pragma unroll
                for (int u = 0; u < BN_ROWS; ++u)
                    sum += u < n ? col[u] : 0.f;
                b.mean = sum / n;
#pragma unroll
                for (int u = 0; u < BN_ROWS; ++u) {
                    const float d = col[u] - b.mean;
                    b.m2 += u < n ? d * d : 0.f;
                }
                st[j] = stats_merge(st[j], b);
            }
        }
    }
    // The row lanes of one channel column merge in their own slice.
    __local float *col_buf = buf + 3 * nlr * lc;
    for (int j = 0; j < VEC; ++j) {
        const stats_t t = bn_tree(st[j], col_buf, lr, nlr);
        if (valid && lr == 0) {
            __global float *p
                    = partial + partial_off + 3 * ((cv * VEC + j) * bands + band);
            p[0] = t.n;
            p[1] = t.mean;
            p[2] = t.m2;
        }
    }
}

// One group per channel: its lanes merge the bands' statistics, strided,
// then as a tree. buf holds 3 * local size floats.
__kernel void bnorm_stats_bands_final(__global const float *partial,
        long partial_off, long bands, __global float *mean, long mean_off, __global float *var,
        long var_off, __local float *buf) {
    const long c = get_group_id(0);
    const int lane = get_local_id(0), lanes = get_local_size(0);
    stats_t s = stats_zero();
    for (long q = lane; q < bands; q += lanes) {
        __global const float *p = partial + partial_off + 3 * (c * bands + q);
        stats_t b = {p[0], p[1], p[2]};
        s = stats_merge(s, b);
    }
    s = bn_tree(s, buf, lane, lanes);
    if (lane == 0) {
        mean[mean_off + c] = s.mean;
        var[var_off + c] = s.n > 0.f ? s.m2 / s.n : 0.f;
    }
}

// One work-item per channel: merges the chunks' statistics.
__kernel void bnorm_stats_final(__global const float *partial,
        long partial_off, long units, long chunks, __global float *mean,
        long mean_off, __global float *var, long var_off) {
    const long c = get_global_id(0);
    if (c >= units) return;
    stats_t s = stats_zero();
    for (long q = 0; q < chunks; ++q) {
        __global const float *p = partial + partial_off + 3 * (q * units + c);
        stats_t b = {p[0], p[1], p[2]};
        s = stats_merge(s, b);
    }
    mean[mean_off + c] = s.mean;
    var[var_off + c] = s.n > 0.f ? s.m2 / s.n : 0.f;
}

#else
// The VEC gradients from element i of (c, o) on: diff_dst, zero where the
// workspace says the fused ReLU was off; and the VEC source values.
inline void bn_grad(__global const DD_T *dd, const bn_view_t *ddv,
        __global const uchar *ws, const bn_view_t *wv,
        __global const DATA_T *src, const bn_view_t *sv, long c, long o,
        long i, float *g, float *x) {
    VLOAD(DD_DT, dd, bn_off(ddv, c, o, i), g);
    VLOAD(DATA_DT, src, bn_off(sv, c, o, i), x);
    if (ws)
        for (int j = 0; j < VEC; ++j)
            if (ws[bn_off(wv, c, o, i + j)] == 0) g[j] = 0.f;
}

// sums: the two per-channel sums (sum g, sum g * (x - mean)) of phase 2,
// at sums[sums_off + 2 * c].
__kernel void bnorm_bwd(__global const DATA_T *src, bn_view_t sv,
        __global const DD_T *dd, bn_view_t ddv, __global DS_T *ds,
        bn_view_t dsv, __global DS_T *ds1, bn_view_t ds1v,
        __global const uchar *ws, bn_view_t wv, __global const float *mean,
        __global const float *var, __global const float *scale,
        __global float *dscale, __global float *dshift, unit_space_t sp,
        float eps, int flags, int phase, __global float *partial,
        long partial_off, long sums_off, __local float *buf) {
    const long c = ul_unit();
    const bool valid = c < sp.units;
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    float m = 0.f, inv = 0.f;
    if (valid) {
        m = mean[c];
        inv = 1.f / sqrt(var[c] + eps);
    }
    // Every work-item reaches the tree, whatever the phase (see bnorm_fwd).
    float2 acc = (float2)(0.f, 0.f);
    if (valid && phase != 2)
        UL_FOR_EACH(o0, o1, i0, i1, o, i, {
            float g[VEC];
            float x[VEC];
            bn_grad(dd, &ddv, ws, &wv, src, &sv, c, o, i * VEC, g, x);
            for (int j = 0; j < VEC; ++j) {
                acc.x += g[j];
                acc.y += g[j] * (x[j] - m);
            }
        });
    acc = wg_sum2(acc, buf);
    if (phase == 1) {
        if (valid && ul_lane() == 0) {
            __global float *p = partial + partial_off
                    + 2 * (ul_chunk_id() * sp.units + c);
            p[0] = acc.x;
            p[1] = acc.y;
        }
        return;
    }
    if (phase == 2 && valid) {
        acc = (float2)(partial[sums_off + 2 * c], partial[sums_off + 2 * c + 1]);
    } else if (valid && ul_lane() == 0) {
        if (dscale) dscale[c] = acc.y * inv;
        if (dshift) dshift[c] = acc.x;
    }
    if (!valid) return;
    const float cnt = (float)(sp.o * sp.i * VEC);
    const float sc = scale ? scale[c] : 1.f;
    const bool gs = flags & F_GLOBAL;
    const float ka = sc * inv;
    const float kb = gs ? 0.f : -sc * inv * inv * inv * acc.y / cnt;
    const float kc = gs ? 0.f : -sc * inv * acc.x / cnt;
    UL_FOR_EACH(o0, o1, i0, i1, o, i, {
        float g[VEC];
        float x[VEC];
        bn_grad(dd, &ddv, ws, &wv, src, &sv, c, o, i * VEC, g, x);
        if (ds1) VSTORE(DS_DT, ds1, bn_off(&ds1v, c, o, i * VEC), g);
        for (int j = 0; j < VEC; ++j)
            x[j] = ka * g[j] + kb * (x[j] - m) + kc;
        VSTORE(DS_DT, ds, bn_off(&dsv, c, o, i * VEC), x);
    });
}

#if HELD_CACHE
// Backward in one launch with src and diff_dst held on chip, as
// bnorm_fwd_held holds src (the same parts, tickets, trips and published
// words): a group holds both tensors' vectors of its part (HELD_CACHE of
// each a lane in registers, HELD_LOCAL of each in local memory: x's slots
// first, then g's), sums g (zero where the workspace says the ReLU was
// off; HELD_RELU) and g * (x - mean) over them, publishes the two sums,
// waits until every part of the channel has, adds them in part order and
// writes diff_src (and diff_src_1 = g; HELD_ADD) from what it holds. So
// src and diff_dst are read from memory once (bnorm_bwd reads them for
// the sums and again for diff_src). Part 0 writes diff scale / shift.
__kernel void bnorm_bwd_held(__global const DATA_T *src, bn_view_t sv,
        __global const DD_T *dd, bn_view_t ddv, __global DS_T *ds,
        bn_view_t dsv, __global DS_T *ds1, bn_view_t ds1v,
        __global const uchar *ws, bn_view_t wv, __global const float *mean,
        __global const float *var, __global const float *scale,
        __global float *dscale, __global float *dshift, long channels,
        int images, int pv, int ipp, int parts, int trips, float eps,
        int flags, __global int *sync, long sync_off,
        __global float *partial, long partial_off, __local float *buf,
        __local VTYPE(float) *held, __local int *ticket) {
    sync += sync_off;
    const int r = ul_lane(), l = ul_lanes();
    const int di = l / pv, dw = l - di * pv;
    const int i0 = r / pv, w0 = r - i0 * pv;
    __local VTYPE(float) *xs = held + r, *gs = held + HELD_LOCAL * l + r;
    __global int *words = (__global int *)(partial + partial_off);
    const float cnt = (float)images * pv * VEC;
    for (int t = 0; t < trips; ++t) {
        const bn_part_t pt = bn_next_part(
                sync, ticket, channels, images, pv, ipp, parts);
        const long item = pt.item, c = pt.c;
        const bool valid = pt.valid;
        const int part = pt.part, first = pt.first, vecs = pt.vecs;
        const float m = valid ? mean[c] : 0.f;
        // Every load is issued before any value is used.
        float x[BN_HELD][VEC], g[BN_HELD][VEC];
#if HELD_RELU
        uchar on[BN_HELD][VEC];
#endif
        int img = first + i0, w = w0;
#pragma unroll
        for (int k = 0; k < BN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j) {
                x[k][j] = g[k][j] = 0.f;
#if HELD_RELU
                on[k][j] = 0;
#endif
            }
            if (r + k * l < vecs) {
                VLOAD(DATA_DT, src, bn_off(&sv, c, img, w * VEC), x[k]);
                VLOAD(DD_DT, dd, bn_off(&ddv, c, img, w * VEC), g[k]);
#if HELD_RELU
                for (int j = 0; j < VEC; ++j)
                    on[k][j] = ws[bn_off(&wv, c, img, w * VEC + j)];
#endif
            }
            BN_STEP(img, w);
        }
        float2 acc = (float2)(0.f, 0.f);
#pragma unroll
        for (int k = 0; k < BN_HELD; ++k) {
            for (int j = 0; j < VEC; ++j) {
#if HELD_RELU
                if (on[k][j] == 0) g[k][j] = 0.f;
#endif
                acc.x += g[k][j];
                acc.y += g[k][j] * (x[k][j] - m);
            }
            BN_HELD_KEEP(x, xs, k);
            BN_HELD_KEEP(g, gs, k);
        }
        acc = wg_sum2(acc, buf);
        if (valid && r == 0) {
            held_publish(words + 2 * item, acc.x);
            held_publish(words + 2 * item + 1, acc.y);
        }
        // Lane j < parts waits for part j's sums (the host keeps the
        // parts within the lanes), into local memory for every lane.
        __local float *pb = ul_slice(buf);
        if (valid && r < parts) {
            float s[2];
            held_read_pair(words + 2 * (c * parts + r), s);
            pb[2 * r] = s[0];
            pb[2 * r + 1] = s[1];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        float sa = 0.f, sb = 0.f;
        for (int j = 0; j < parts && valid; ++j) {
            sa += pb[2 * j];
            sb += pb[2 * j + 1];
        }
        // The next part's tree reuses the buffer.
        barrier(CLK_LOCAL_MEM_FENCE);
        const float inv = valid ? 1.f / sqrt(var[c] + eps) : 0.f;
        if (valid && part == 0 && r == 0) {
            if (dscale) dscale[c] = sb * inv;
            if (dshift) dshift[c] = sa;
        }
        const float sc = valid && scale ? scale[c] : 1.f;
        const bool gl = flags & F_GLOBAL;
        const float ka = sc * inv;
        const float kb = gl ? 0.f : -sc * inv * inv * inv * sb / cnt;
        const float kc = gl ? 0.f : -sc * inv * sa / cnt;
        img = first + i0;
        w = w0;
#pragma unroll
        for (int k = 0; k < BN_HELD; ++k) {
            if (r + k * l < vecs) {
                float xv[VEC], gv[VEC];
                BN_HELD_VEC(xv, x, xs, k);
                BN_HELD_VEC(gv, g, gs, k);
#if HELD_ADD
                VSTORE(DS_DT, ds1, bn_off(&ds1v, c, img, w * VEC), gv);
#endif
                for (int j = 0; j < VEC; ++j)
                    xv[j] = ka * gv[j] + kb * (xv[j] - m) + kc;
                VSTORE(DS_DT, ds, bn_off(&dsv, c, img, w * VEC), xv);
            }
            BN_STEP(img, w);
        }
    }
}
#endif

#if VEC == 4
// Backward over a dense channels-last tensor ([rows, channels], channels
// contiguous), as the forward's bands read it (the unit kernel walks such
// a channel with a stride of C elements, one value a lane):
//  bnorm_bwd_bands: a work-item owns VEC neighbouring channels, the
//    group's row lanes walk its band of rows, BN_ROWS at once, summing
//    g (diff_dst, zero where the workspace says the ReLU was off) and
//    g * (x - mean); group g of dimension 1 writes its band's sums of
//    channel c to partial[2 * (c * bands + g)] (from partial_off);
//  bnorm_bwd_bands_final: one group per channel adds the bands' sums
//    into the sums region (sums_off, as bnorm_sums_final leaves it) and
//    writes diff scale / shift;
//  bnorm_bwd_dense: diff_src (and diff_src_1 = g) elementwise, VEC
//    channels a work-item, from the tensor's tail (the cache may hold
//    it after the sums).
#define BN_ROWS 4

// The sums of `lanes` work-items' pairs (a power of two) that share buf
// (2 * lanes floats); every one of them calls it, with its own lane.
inline float2 bn_sum2(float2 v, __local float *buf, int lane, int lanes) {
    buf[lane] = v.x;
    buf[lanes + lane] = v.y;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = lanes / 2; h > 0; h >>= 1) {
        if (lane < h) {
            buf[lane] += buf[lane + h];
            buf[lanes + lane] += buf[lanes + lane + h];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float2 r = (float2)(buf[0], buf[lanes]);
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

// g and x of VEC channels from element e on.
inline void bn_dense_grad(__global const DD_T *dd, long dd_off,
        __global const uchar *ws, long w_off, __global const DATA_T *src,
        long s_off, long e, float *g, float *x) {
    VLOAD(DD_DT, dd, dd_off + e, g);
    VLOAD(DATA_DT, src, s_off + e, x);
    if (ws)
        for (int j = 0; j < VEC; ++j)
            if (ws[w_off + e + j] == 0) g[j] = 0.f;
}

__kernel void bnorm_bwd_bands(__global const DATA_T *src, long s_off,
        __global const DD_T *dd, long dd_off, __global const uchar *ws,
        long w_off, __global const float *mean, long rows, long channels,
        long band_rows, __global float *partial, long partial_off,
        __local float *buf) {
    const bn_band_t w = bn_band_of(rows, channels, band_rows);
    const long cv = w.cv, band = w.band, bands = w.bands, r0 = w.r0,
               r1 = w.r1;
    const int lc = w.lc, lr = w.lr, nlr = w.nlr;
    const bool valid = w.valid;
    float m[VEC], sa[VEC], sb[VEC];
    for (int j = 0; j < VEC; ++j) {
        m[j] = valid ? mean[cv * VEC + j] : 0.f;
        sa[j] = sb[j] = 0.f;
    }
    if (valid)
        for (long r = r0 + lr; r < r1; r += BN_ROWS * nlr) {
            const int n = (int)min((long)BN_ROWS, (r1 - r + nlr - 1) / nlr);
            float g[BN_ROWS][VEC], x[BN_ROWS][VEC];
#pragma unroll
            for (int u = 0; u < BN_ROWS; ++u)
                bn_dense_grad(dd, dd_off, ws, w_off, src, s_off,
                        (r + min(u, n - 1) * nlr) * channels + cv * VEC, g[u],
                        x[u]);
#pragma unroll
            for (int u = 0; u < BN_ROWS; ++u)
                for (int j = 0; j < VEC; ++j) {
                    sa[j] += u < n ? g[u][j] : 0.f;
                    sb[j] += u < n ? g[u][j] * (x[u][j] - m[j]) : 0.f;
                }
        }
    // The row lanes of one channel column add in their own slice.
    __local float *col = buf + 2 * nlr * lc;
    for (int j = 0; j < VEC; ++j) {
        const float2 t = bn_sum2((float2)(sa[j], sb[j]), col, lr, nlr);
        if (valid && lr == 0) {
            __global float *p = partial + partial_off
                    + 2 * ((cv * VEC + j) * bands + band);
            p[0] = t.x;
            p[1] = t.y;
        }
    }
}

__kernel void bnorm_bwd_bands_final(__global float *partial,
        long partial_off, long bands, long sums_off,
        __global const float *var, float eps, __global float *dscale,
        __global float *dshift, __local float *buf) {
    const long c = get_group_id(0);
    const int lane = get_local_id(0), lanes = get_local_size(0);
    float a = 0.f, b = 0.f;
    for (long q = lane; q < bands; q += lanes) {
        a += partial[partial_off + 2 * (c * bands + q)];
        b += partial[partial_off + 2 * (c * bands + q) + 1];
    }
    const float2 t = bn_sum2((float2)(a, b), buf, lane, lanes);
    if (lane != 0) return;
    partial[sums_off + 2 * c] = t.x;
    partial[sums_off + 2 * c + 1] = t.y;
    if (dscale) dscale[c] = t.y / sqrt(var[c] + eps);
    if (dshift) dshift[c] = t.x;
}

__kernel void bnorm_bwd_dense(__global const DATA_T *src, long s_off,
        __global const DD_T *dd, long dd_off, __global DS_T *ds, long ds_off,
        __global DS_T *ds1, long ds1_off, __global const uchar *ws,
        long w_off, __global const float *mean, __global const float *var,
        __global const float *scale, __global const float *sums,
        long sums_off, long vectors, long channels, float count, float eps,
        int flags) {
    const long gid = get_global_id(0);
    if (gid >= vectors) return;
    const long e = (vectors - 1 - gid) * VEC;
    const long c0 = e % channels;
    float g[VEC], x[VEC];
    bn_dense_grad(dd, dd_off, ws, w_off, src, s_off, e, g, x);
    if (ds1) VSTORE(DS_DT, ds1, ds1_off + e, g);
    const bool gs = flags & F_GLOBAL;
    for (int j = 0; j < VEC; ++j) {
        const long c = c0 + j;
        const float inv = 1.f / sqrt(var[c] + eps);
        const float sc = scale ? scale[c] : 1.f;
        const float a = sums[sums_off + 2 * c], b = sums[sums_off + 2 * c + 1];
        const float kb = gs ? 0.f : -sc * inv * inv * inv * b / count;
        const float kc = gs ? 0.f : -sc * inv * a / count;
        x[j] = sc * inv * g[j] + kb * (x[j] - mean[c]) + kc;
    }
    VSTORE(DS_DT, ds, ds_off + e, x);
}
#endif

// One work-item per channel: adds the chunks' sums into the sums region
// and writes diff scale / shift.
__kernel void bnorm_sums_final(__global float *partial, long partial_off,
        long units, long chunks, long sums_off, __global const float *var,
        float eps, __global float *dscale, __global float *dshift) {
    const long c = get_global_id(0);
    if (c >= units) return;
    float a = 0.f, b = 0.f;
    for (long q = 0; q < chunks; ++q) {
        a += partial[partial_off + 2 * (q * units + c)];
        b += partial[partial_off + 2 * (q * units + c) + 1];
    }
    partial[sums_off + 2 * c] = a;
    partial[sums_off + 2 * c + 1] = b;
    if (dscale) dscale[c] = b / sqrt(var[c] + eps);
    if (dshift) dshift[c] = a;
}
#endif
