// Reorder kernels of the gpu engine. A tensor is walked through the
// factors of a plan (reorder_plan.hpp): every factor has an extent, one
// stride in the source and one in the destination, and (when the kernel
// needs logical positions: padding, per-dim scales or zero points) the dim
// and logical step it stands for. Factor 0 is innermost in the destination.
//   reorder_linear:    one contiguous run in both tensors, VEC elements a
//                      work-item, vector loads and stores when aligned.
//   reorder_tiled:     a transpose: factor 0 contiguous in the destination,
//                      factor 1 in the source; a work-group moves a tile
//                      through local memory so reads and writes coalesce.
//   reorder_generic:   one destination element a work-item.
//   reorder_by_layout: the same, the source offset from its layout_t
//                      (blocks of the two layouts that do not nest).
// Destination positions in padding are written as zeros; positions past
// the destination's padded dims (a source block running over) are skipped.
#include "ocl_layout.clh"
#include "reorder/reorder_cvt.clh"

#if IDX_LONG
#define IDX_T long
#else
#define IDX_T int
#endif

#define PLAN_MAX_FACTORS 12
#define PLAN_MAX_DIMS 6

typedef struct {
    long nf, ndims, s0, d0;
    long ext[PLAN_MAX_FACTORS], sstr[PLAN_MAX_FACTORS], dstr[PLAN_MAX_FACTORS];
    long lm[PLAN_MAX_FACTORS];
    long dims[PLAN_MAX_DIMS], dpad[PLAN_MAX_DIMS];
    int dim[PLAN_MAX_FACTORS];
    int qmask[4]; // src scale, dst scale, src zp, dst zp
} plan_t;

// Quantization arrays (buffer and element offset each), then beta.
#if WITH_SS
#define SS_ARG , __global const SS_RAW *ss, long ss_off
#define SS_FWD , ss, ss_off
#else
#define SS_ARG
#define SS_FWD
#endif
#if WITH_DS
#define DS_ARG , __global const DS_RAW *ds, long ds_off
#define DS_FWD , ds, ds_off
#else
#define DS_ARG
#define DS_FWD
#endif
#if WITH_SZ
#define SZ_ARG , __global const SZ_RAW *sz, long sz_off
#define SZ_FWD , sz, sz_off
#else
#define SZ_ARG
#define SZ_FWD
#endif
#if WITH_DZ
#define DZ_ARG , __global const DZ_RAW *dz, long dz_off
#define DZ_FWD , dz, dz_off
#else
#define DZ_ARG
#define DZ_FWD
#endif
#if WITH_SUM
#define SUM_ARG , float beta
#define SUM_FWD , beta
#else
#define SUM_ARG
#define SUM_FWD
#endif
#define QUANT_ARGS SS_ARG DS_ARG SZ_ARG DZ_ARG SUM_ARG
#define QUANT_FWD SS_FWD DS_FWD SZ_FWD DZ_FWD SUM_FWD

// Loops over positions run over all PLAN_MAX_DIMS entries, unrolled, so
// that idx[] is indexed by constants and stays in registers.

// Row-major index over the tracked dims in `mask`.
inline IDX_T qindex(int mask, const IDX_T *idx, const plan_t *p) {
    IDX_T q = 0;
#pragma unroll
    for (int d = 0; d < PLAN_MAX_DIMS; ++d)
        if (d < p->ndims && ((mask >> d) & 1))
            q = q * (IDX_T)p->dims[d] + idx[d];
    return q;
}

// Logical positions are needed for padding and per-dim quantization.
inline bool needs_pos(const plan_t *p, int has_pad) {
    return has_pad || (p->qmask[0] | p->qmask[1] | p->qmask[2] | p->qmask[3]);
}

// idx[dim] += v.
inline void pos_add(IDX_T *idx, int dim, IDX_T v) {
#pragma unroll
    for (int d = 0; d < PLAN_MAX_DIMS; ++d)
        if (dim == d) idx[d] += v;
}

// The quantization values at position idx; p null: per-tensor values.
inline qv_t load_qv(const IDX_T *idx, const plan_t *p QUANT_ARGS) {
    qv_t q = {1.f, 1.f, 0.f, 0, 0};
#define QIDX(k) (p ? qindex(p->qmask[k], idx, p) : 0)
#if WITH_SS
    q.ss = LOAD_SCALE(SS_DT, ss, ss_off + QIDX(0));
#endif
#if WITH_DS
    q.ds = LOAD_SCALE(DS_DT, ds, ds_off + QIDX(1));
#endif
#if WITH_SZ
    q.sz = LOAD_ZP(sz, sz_off + QIDX(2));
#endif
#if WITH_DZ
    q.dz = LOAD_ZP(dz, dz_off + QIDX(3));
#endif
#undef QIDX
#if WITH_SUM
    q.beta = beta;
#endif
    return q;
}

// 1: skip (past the padded dims), 2: padding (write zero), 0: an element.
inline int pad_state(const IDX_T *idx, const plan_t *p) {
    int r = 0;
#pragma unroll
    for (int d = 0; d < PLAN_MAX_DIMS; ++d) {
        if (d >= p->ndims) break;
        if (idx[d] >= p->dpad[d]) return 1;
        if (idx[d] >= p->dims[d]) r = 2;
    }
    return r;
}

// Converts s into dst[o] (reading the old value for a sum).
inline void put(__global DST_RAW *dst, IDX_T o, SRC_RAW s, qv_t q) {
    DST_RAW old = 0;
#if WITH_SUM
    if (q.beta != 0.f) old = dst[o];
#endif
    dst[o] = CVT(s, old, q);
}

#define SRC_VEC CONCAT2(SRC_RAW, VEC)
#define DST_VEC CONCAT2(DST_RAW, VEC)
#define VLOAD CONCAT2(vload, VEC)
#define VSTORE CONCAT2(vstore, VEC)

__kernel void reorder_linear(__global const SRC_RAW *src,
        __global DST_RAW *dst, IDX_T n, IDX_T s0, IDX_T d0,
        int aligned QUANT_ARGS) {
    const IDX_T i = (IDX_T)get_global_id(0) * VEC;
    if (i >= n) return;
    const IDX_T idx[PLAN_MAX_DIMS] = {0, 0, 0, 0, 0, 0};
    const plan_t *per_tensor = 0;
    const qv_t q = load_qv(idx, per_tensor QUANT_FWD);
    if (aligned && i + VEC <= n) {
        // s0 and d0 are multiples of VEC: whole vectors.
        SRC_RAW a[VEC];
        DST_RAW b[VEC];
        VSTORE(*(__global const SRC_VEC *)(src + s0 + i), 0, a);
#if WITH_SUM
        VSTORE(*(__global const DST_VEC *)(dst + d0 + i), 0, b);
#endif
#pragma unroll
        for (int k = 0; k < VEC; ++k)
            b[k] = CVT(a[k], b[k], q);
        *(__global DST_VEC *)(dst + d0 + i) = VLOAD(0, b);
        return;
    }
    for (IDX_T k = i; k < i + VEC && k < n; ++k)
        put(dst, d0 + k, src[s0 + k], q);
}

__kernel void reorder_generic(__global const SRC_RAW *src,
        __global DST_RAW *dst, plan_t p, IDX_T work, int has_pad QUANT_ARGS) {
    IDX_T g = (IDX_T)get_global_id(0);
    if (g >= work) return;
    IDX_T so = (IDX_T)p.s0, o = (IDX_T)p.d0;
    IDX_T idx[PLAN_MAX_DIMS] = {0, 0, 0, 0, 0, 0};
    const bool by_pos = needs_pos(&p, has_pad);
    for (int f = 0; f < p.nf; ++f) {
        const IDX_T e = (IDX_T)p.ext[f];
        const IDX_T k = g % e;
        g /= e;
        so += k * (IDX_T)p.sstr[f];
        o += k * (IDX_T)p.dstr[f];
        if (by_pos) pos_add(idx, p.dim[f], k * (IDX_T)p.lm[f]);
    }
    if (has_pad) {
        const int st = pad_state(idx, &p);
        if (st == 1) return;
        if (st == 2) {
            dst[o] = 0;
            return;
        }
    }
    put(dst, o, src[so], load_qv(idx, &p QUANT_FWD));
}

__kernel void reorder_by_layout(__global const SRC_RAW *src,
        __global DST_RAW *dst, plan_t p, layout_t sl, IDX_T work,
        int has_pad QUANT_ARGS) {
    IDX_T g = (IDX_T)get_global_id(0);
    if (g >= work) return;
    IDX_T o = (IDX_T)p.d0;
    IDX_T idx[PLAN_MAX_DIMS] = {0, 0, 0, 0, 0, 0};
    for (int f = 0; f < p.nf; ++f) {
        const IDX_T e = (IDX_T)p.ext[f];
        const IDX_T k = g % e;
        g /= e;
        o += k * (IDX_T)p.dstr[f];
        pos_add(idx, p.dim[f], k * (IDX_T)p.lm[f]);
    }
    if (has_pad) {
        const int st = pad_state(idx, &p);
        if (st == 1) return;
        if (st == 2) {
            dst[o] = 0;
            return;
        }
    }
    long lidx[LAYOUT_MAX_NDIMS];
    for (int d = 0; d < LAYOUT_MAX_NDIMS; ++d)
        lidx[d] = idx[d];
    put(dst, o, src[layout_off(&sl, lidx)], load_qv(idx, &p QUANT_FWD));
}

// A work-group moves one (1 << lx) x (1 << ly) tile of factors 0 (x) and 1
// (y) at one position of the other factors. The tile is stored x-major
// with one element of padding per row, so that both phases read and write
// local memory without bank conflicts.
__kernel void reorder_tiled(__global const SRC_RAW *src,
        __global DST_RAW *dst, plan_t p, int lx, int ly, IDX_T ntx,
        IDX_T nty, int has_pad, __local SRC_RAW *tile QUANT_ARGS) {
    IDX_T g = (IDX_T)get_group_id(0);
    const IDX_T bx = g % ntx;
    g /= ntx;
    const IDX_T by = g % nty;
    g /= nty;
    IDX_T so = (IDX_T)p.s0, o = (IDX_T)p.d0;
    IDX_T base[PLAN_MAX_DIMS] = {0, 0, 0, 0, 0, 0};
    const bool by_pos = needs_pos(&p, has_pad);
    for (int f = 2; f < p.nf; ++f) {
        const IDX_T e = (IDX_T)p.ext[f];
        const IDX_T k = g % e;
        g /= e;
        so += k * (IDX_T)p.sstr[f];
        o += k * (IDX_T)p.dstr[f];
        if (by_pos) pos_add(base, p.dim[f], k * (IDX_T)p.lm[f]);
    }
    const int tx = 1 << lx, ty = 1 << ly, row = ty + 1;
    const IDX_T x0 = bx << lx, y0 = by << ly;
    const IDX_T ex = (IDX_T)p.ext[0], ey = (IDX_T)p.ext[1];
    const IDX_T sx = (IDX_T)p.sstr[0], dy = (IDX_T)p.dstr[1];
    const int lid = get_local_id(0), nl = get_local_size(0);

    // Read: consecutive work-items take consecutive y (source-contiguous).
    // Unrolled so that a work-item's loads are in flight together.
#pragma unroll 8
    for (int e = lid; e < tx * ty; e += nl) {
        const int x = e >> ly, y = e & (ty - 1);
        const IDX_T X = x0 + x, Y = y0 + y;
        if (X >= ex || Y >= ey) continue;
        if (has_pad) {
            IDX_T idx[PLAN_MAX_DIMS];
            for (int d = 0; d < PLAN_MAX_DIMS; ++d)
                idx[d] = base[d];
            pos_add(idx, p.dim[0], X * (IDX_T)p.lm[0]);
            pos_add(idx, p.dim[1], Y * (IDX_T)p.lm[1]);
            if (pad_state(idx, &p) != 0) continue;
        }
        tile[x * row + y] = src[so + X * sx + Y];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Write: consecutive work-items take consecutive x (destination-
    // contiguous).
#pragma unroll 8
    for (int e = lid; e < tx * ty; e += nl) {
        const int x = e & (tx - 1), y = e >> lx;
        const IDX_T X = x0 + x, Y = y0 + y;
        if (X >= ex || Y >= ey) continue;
        const IDX_T at = o + X + Y * dy;
        IDX_T idx[PLAN_MAX_DIMS];
        if (by_pos) {
            for (int d = 0; d < PLAN_MAX_DIMS; ++d)
                idx[d] = base[d];
            pos_add(idx, p.dim[0], X * (IDX_T)p.lm[0]);
            pos_add(idx, p.dim[1], Y * (IDX_T)p.lm[1]);
        }
        if (has_pad) {
            const int st = pad_state(idx, &p);
            if (st == 1) continue;
            if (st == 2) {
                dst[at] = 0;
                continue;
            }
        }
        put(dst, at, tile[x * row + y], load_qv(idx, &p QUANT_FWD));
    }
}
