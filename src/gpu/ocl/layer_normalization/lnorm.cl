// Layer normalization kernels. Tensors are [rows, C] views (view3_t, the
// third dim unused); mean and variance are addressed by row through
// their own view. LN_KERNEL picks what a program holds:
//  1 lnorm_fwd:   one unit per row: running statistics (Welford, merged
//                 across lanes) unless given, saved when asked, then
//                 dst = (x - mean) / sqrt(var + eps) * scale + shift;
//                 lnorm_fwd_rows (built with ROW_CACHE): the same over
//                 rows held in registers;
//  2 lnorm_bwd:   one unit per row: sums of g = diff_dst * scale and of
//                 g * (x - mean), then diff_src; lnorm_bwd_rows (built
//                 with ROW_CACHE): the same over rows held in registers,
//                 with the diff scale / shift sums of its lanes' channels
//                 (WITH_SS, added by lnorm_bwd_ss_final);
//  3 lnorm_bwd_ss (+ lnorm_bwd_ss_final): one unit per channel over the
//                 rows (chunks of rows write partial sums that the final
//                 kernel adds): diff_scale = sum diff_dst * xhat,
//                 diff_shift = sum diff_dst.
// flags: 1 use global statistics, 2 save statistics, 4 RMS (no mean).
// lnorm_fwd and lnorm_bwd_rows read VEC-wide vectors along C when the
// host found the tensors contiguous and aligned there (VEC 4; c then
// counts vectors). Values are FLT_T: double with f64 data (VEC 1 then);
// statistics, scale, shift and partial sums stay f32.
#include "ocl_types.clh"
#include "ocl_unit_loop.clh"
#include "ocl_vec_io.clh"

#define F_GLOBAL 1
#define F_SAVE 2
#define F_RMS 4

#if LN_KERNEL == 1
// dst = ((x - mean) / sqrt(var + eps) * scale + shift) * src_scale
// / dst_scale.
__kernel void lnorm_fwd(__global const SRC_T *src, view3_t sv,
        __global DST_T *dst, view3_t dv, __global float *mean,
        view3_t mv, __global float *var, view3_t vv, __global const float *scale,
        __global const float *shift, __global const SSC_T *src_scale,
        __global const DSC_T *dst_scale, unit_space_t sp, float eps,
        int flags, __local FLT_T *buf) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const bool rms = flags & F_RMS;
    const long sb = v3_off(&sv, u, 0, 0), db = v3_off(&dv, u, 0, 0),
               mo = v3_off(&mv, u, 0, 0), vo = v3_off(&vv, u, 0, 0);
    // Every work-item reaches the tree, statistics given or not (PoCL
    // mishandles barriers under run-time conditions, uniform or not).
    const bool given = flags & F_GLOBAL;
    stats_t st = stats_zero();
    if (valid && !given)
        UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
            FLT_T x[VEC];
            VLOAD(SRC_DT, src, sb + c * VEC * sv.s1, x);
            stats_add_n(&st, x, VEC);
        });
    st = wg_stats(st, buf);
    FLT_T m = st.mean, v = st.n > 0.f ? st.m2 / st.n : 0.f;
    if (rms) {
        v += m * m;
        m = 0.f;
    }
    if (given && valid) {
        m = rms ? 0.f : mean[mo];
        v = var[vo];
    } else if (valid && (flags & F_SAVE) && ul_lane() == 0) {
        if (!rms) mean[mo] = m;
        var[vo] = v;
    }
    if (!valid) return;
    const FLT_T inv = 1.f / sqrt(v + eps);
    const float ss = src_scale ? LOAD(SSC_DT, src_scale, 0) : 1.f;
    const float rds = dst_scale ? 1.f / LOAD(DSC_DT, dst_scale, 0) : 1.f;
    UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
        FLT_T y[VEC];
        VLOAD(SRC_DT, src, sb + c * VEC * sv.s1, y);
        for (int j = 0; j < VEC; ++j) {
            y[j] = (y[j] - m) * inv;
            if (scale) y[j] *= scale[c * VEC + j];
            if (shift) y[j] += shift[c * VEC + j];
            if (src_scale || dst_scale) y[j] = (float)y[j] * ss * rds;
        }
        VSTORE(DST_DT, dst, db + c * VEC * dv.s1, y);
    });
}

#if ROW_CACHE
// Forward over contiguous rows read as VEC-wide vectors (sp.i counts
// them), the row held in registers (ROW_CACHE vectors per lane) from the
// load to the store, so src is read from memory once. Statistics from
// the held values in two exact passes (the mean, then the squared
// deviations from it); lane r holds vectors r + k * lanes.
__kernel void lnorm_fwd_rows(__global const SRC_T *src, view3_t sv,
        __global DST_T *dst, view3_t dv, __global float *mean,
        view3_t mv, __global float *var, view3_t vv, __global const float *scale,
        __global const float *shift, __global const SSC_T *src_scale,
        __global const DSC_T *dst_scale, unit_space_t sp, float eps,
        int flags, __local float *buf) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const bool rms = flags & F_RMS, given = flags & F_GLOBAL;
    const int r = ul_lane(), l = ul_lanes();
    const long row = valid ? u : 0;
    const long sb = v3_off(&sv, row, 0, 0), db = v3_off(&dv, row, 0, 0);
    const float n = (float)(sp.i * VEC);
    // Missing vectors are 0 and add nothing to either sum.
    float x[ROW_CACHE][VEC];
    float s = 0.f;
    VLOAD_HELD_ROW(SRC_DT, src, sb, sp.i, valid, x, ROW_CACHE, 0.f);
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k)
        for (int j = 0; j < VEC; ++j)
            s += x[k][j];
    // Every work-item reaches both trees (see lnorm_fwd).
    const float total = wg_sum(s, buf);
    const float m = rms ? 0.f : total / n;
    float q = 0.f;
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k) {
        const long v = r + (long)k * l;
        if (v >= sp.i) break;
        for (int j = 0; j < VEC; ++j)
            q += (x[k][j] - m) * (x[k][j] - m);
    }
    const float vr = wg_sum(q, buf) / n;
    if (!valid) return;
    float mu = m, va = vr;
    if (given) {
        mu = rms ? 0.f : mean[v3_off(&mv, u, 0, 0)];
        va = var[v3_off(&vv, u, 0, 0)];
    } else if ((flags & F_SAVE) && r == 0) {
        if (!rms) mean[v3_off(&mv, u, 0, 0)] = mu;
        var[v3_off(&vv, u, 0, 0)] = va;
    }
    const float inv = 1.f / sqrt(va + eps);
    const float ss = src_scale ? LOAD(SSC_DT, src_scale, 0) : 1.f;
    const float rds = dst_scale ? 1.f / LOAD(DSC_DT, dst_scale, 0) : 1.f;
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k) {
        const long v = r + (long)k * l;
        if (v >= sp.i) break;
        float y[VEC];
        for (int j = 0; j < VEC; ++j) {
            y[j] = (x[k][j] - mu) * inv;
            if (scale) y[j] *= scale[v * VEC + j];
            if (shift) y[j] += shift[v * VEC + j];
            if (src_scale || dst_scale) y[j] *= ss * rds;
        }
        VSTORE(DST_DT, dst, db + v * VEC, y);
    }
}
#endif

#elif LN_KERNEL == 2
__kernel void lnorm_bwd(__global const SRC_T *src, view3_t sv,
        __global const DD_T *dd, view3_t ddv, __global DS_T *ds, view3_t dsv,
        __global const float *mean, view3_t mv, __global const float *var,
        view3_t vv,
        __global const float *scale, unit_space_t sp, float eps, int flags,
        __local FLT_T *buf) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const bool rms = flags & F_RMS, gs = flags & F_GLOBAL;
    const long sb = v3_off(&sv, u, 0, 0), gb = v3_off(&ddv, u, 0, 0),
               db = v3_off(&dsv, u, 0, 0);
    const long mo = v3_off(&mv, u, 0, 0), vo = v3_off(&vv, u, 0, 0);
    FLT_T m = 0.f, inv = 0.f;
    FLT2_T acc = (FLT2_T)(0.f, 0.f);
    if (valid) {
        m = rms ? 0.f : mean[mo];
        inv = 1.f / sqrt((FLT_T)var[vo] + eps);
        UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
            FLT_T g = LOAD(DD_DT, dd, gb + c * ddv.s1);
            if (scale) g *= scale[c];
            acc.x += g;
            acc.y += g * (LOAD(SRC_DT, src, sb + c * sv.s1) - m);
        });
    }
    acc = wg_sum2(acc, buf);
    if (!valid) return;
    const FLT_T k1 = (gs || rms) ? 0.f : acc.x / sp.i;
    const FLT_T k2 = gs ? 0.f : acc.y * inv * inv / sp.i;
    UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
        FLT_T g = LOAD(DD_DT, dd, gb + c * ddv.s1);
        if (scale) g *= scale[c];
        const FLT_T x = LOAD(SRC_DT, src, sb + c * sv.s1);
        STORE(DS_DT, ds, db + c * dsv.s1, inv * (g - k1 - (x - m) * k2));
    });
}

#if ROW_CACHE
// Backward over contiguous rows read as VEC-wide vectors (sp.i counts
// them), src and diff_dst of a row held in registers (ROW_CACHE vectors
// of each per lane) between the row's sums and diff_src, so each is read
// once. Lane r holds vectors r + k * lanes of every row, so its channels
// never change: scale is loaded once, and with diff scale / shift
// (WITH_SS) each lane sums its channels' terms over the rows its slot
// takes. Slots loop over the rows (the host may launch fewer slots than
// rows; every work-item makes the same trips and reaches every tree);
// slot q's sums are chunk q of the partial sums lnorm_bwd_ss_final adds.
__kernel void lnorm_bwd_rows(__global const SRC_T *src, view3_t sv,
        __global const DD_T *dd, view3_t ddv, __global DS_T *ds, view3_t dsv,
        __global const float *mean, view3_t mv, __global const float *var,
        view3_t vv, __global const float *scale, unit_space_t sp, float eps,
        int flags, __local float *buf, __global float *partial,
        long partial_off) {
    const int r = ul_lane(), l = ul_lanes();
    const bool rms = flags & F_RMS, gs = flags & F_GLOBAL;
    const long slots = get_global_size(UL_DIM_U);
    const long trips = (sp.units + slots - 1) / slots;
    const int nv = (int)sp.i;
    float sc[ROW_CACHE][VEC];
#if WITH_SS
    float dsc[ROW_CACHE][VEC], dsh[ROW_CACHE][VEC];
#endif
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k)
        for (int j = 0; j < VEC; ++j) {
            const int v = r + k * l;
            sc[k][j] = scale && v < nv ? scale[v * VEC + j] : 1.f;
#if WITH_SS
            dsc[k][j] = dsh[k][j] = 0.f;
#endif
        }
    for (long t = 0; t < trips; ++t) {
        const long u = ul_unit() + t * slots;
        const bool valid = u < sp.units;
        const long row = valid ? u : 0;
        const long sb = v3_off(&sv, row, 0, 0), gb = v3_off(&ddv, row, 0, 0),
                   db = v3_off(&dsv, row, 0, 0);
        // Every load is issued before any is used.
        float x[ROW_CACHE][VEC], g[ROW_CACHE][VEC];
#pragma unroll
        for (int k = 0; k < ROW_CACHE; ++k) {
            for (int j = 0; j < VEC; ++j)
                x[k][j] = g[k][j] = 0.f;
            if (valid && r + k * l < nv) {
                VLOAD(SRC_DT, src, sb + (long)(r + k * l) * VEC, x[k]);
                VLOAD(DD_DT, dd, gb + (long)(r + k * l) * VEC, g[k]);
            }
        }
        // Invalid rows load nothing and add nothing (x = g = 0, inv = 0).
        const float m = valid && !rms ? mean[v3_off(&mv, row, 0, 0)] : 0.f;
        const float inv
                = valid ? 1.f / sqrt(var[v3_off(&vv, row, 0, 0)] + eps) : 0.f;
        float2 acc = (float2)(0.f, 0.f);
#pragma unroll
        for (int k = 0; k < ROW_CACHE; ++k)
            for (int j = 0; j < VEC; ++j) {
                const float gw = g[k][j] * sc[k][j];
                acc.x += gw;
                acc.y += gw * (x[k][j] - m);
            }
        acc = wg_sum2(acc, buf);
        const float k1 = (gs || rms) ? 0.f : acc.x / (nv * VEC);
        const float k2 = gs ? 0.f : acc.y * inv * inv / (nv * VEC);
#pragma unroll
        for (int k = 0; k < ROW_CACHE; ++k) {
            if (!valid || r + k * l >= nv) continue;
            float y[VEC];
            for (int j = 0; j < VEC; ++j) {
                const float xh = x[k][j] - m;
                y[j] = inv * (g[k][j] * sc[k][j] - k1 - xh * k2);
#if WITH_SS
                dsc[k][j] += g[k][j] * xh * inv;
                dsh[k][j] += g[k][j];
#endif
            }
            VSTORE(DS_DT, ds, db + (long)(r + k * l) * VEC, y);
        }
    }
#if WITH_SS
    const long c = (long)nv * VEC;
    __global float *p = partial + partial_off + 2 * ul_unit() * c;
#pragma unroll
    for (int k = 0; k < ROW_CACHE; ++k)
        if (r + k * l < nv)
            for (int j = 0; j < VEC; ++j) {
                const long ch = (long)(r + k * l) * VEC + j;
                p[2 * ch] = dsc[k][j];
                p[2 * ch + 1] = dsh[k][j];
            }
#endif
}
#endif

#else
__kernel void lnorm_bwd_ss(__global const SRC_T *src, view3_t sv,
        __global const DD_T *dd, view3_t ddv, __global const float *mean,
        view3_t mv, __global const float *var, view3_t vv, unit_space_t sp, float eps,
        int flags, __global float *partial, long partial_off,
        __global float *dscale, __global float *dshift, __local FLT_T *buf) {
    const long c = ul_unit();
    const bool valid = c < sp.units;
    const bool rms = flags & F_RMS;
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    FLT2_T acc = (FLT2_T)(0.f, 0.f);
    if (valid)
        UL_FOR_EACH(o0, o1, i0, i1, r, i, {
            const FLT_T m = rms ? 0.f : mean[v3_off(&mv, r, 0, 0)];
            const FLT_T inv
                    = 1.f / sqrt((FLT_T)var[v3_off(&vv, r, 0, 0)] + eps);
            const FLT_T g = LOAD(DD_DT, dd, v3_off(&ddv, r, c, 0));
            const FLT_T x = LOAD(SRC_DT, src, v3_off(&sv, r, c, 0));
            acc.x += g * (x - m) * inv;
            acc.y += g;
        });
    acc = wg_sum2(acc, buf);
    if (!valid || ul_lane() != 0) return;
    if (ul_chunks(&sp) == 1) {
        if (dscale) dscale[c] = acc.x;
        if (dshift) dshift[c] = acc.y;
    } else {
        __global float *p
                = partial + partial_off + 2 * (ul_chunk_id() * sp.units + c);
        p[0] = acc.x;
        p[1] = acc.y;
    }
}

// Channels along dimension 0, the chunks' partial sums split over the
// lanes of dimension 1 (chunk q to lane q % lanes, in order), whose sums
// the lane-0 work-item adds in lane order: many chunks (one per slot of
// lnorm_bwd_rows) are read by many work-items at once.
__kernel void lnorm_bwd_ss_final(__global const float *partial,
        long partial_off, long units, long chunks, __global float *dscale,
        __global float *dshift, __local float *buf) {
    const long c = get_global_id(0);
    const int q0 = get_local_id(1), nq = get_local_size(1);
    __local float *mine = buf + 2 * (get_local_id(0) * nq);
    float a = 0.f, b = 0.f;
    if (c < units)
        for (long q = q0; q < chunks; q += nq) {
            a += partial[partial_off + 2 * (q * units + c)];
            b += partial[partial_off + 2 * (q * units + c) + 1];
        }
    mine[2 * q0] = a;
    mine[2 * q0 + 1] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (c >= units || q0 != 0) return;
    for (int q = 1; q < nq; ++q) {
        a += mine[2 * q];
        b += mine[2 * q + 1];
    }
    if (dscale) dscale[c] = a;
    if (dshift) dshift[c] = b;
}
#endif
