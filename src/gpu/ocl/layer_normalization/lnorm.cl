// Layer normalization kernels. Tensors are [rows, C] views (view3_t, the
// third dim unused); mean and variance are addressed by row through
// their own view. LN_KERNEL picks what a program holds:
//  1 lnorm_fwd:   one unit per row: running statistics (Welford, merged
//                 across lanes) unless given, saved when asked, then
//                 dst = (x - mean) / sqrt(var + eps) * scale + shift;
//  2 lnorm_bwd:   one unit per row: sums of g = diff_dst * scale and of
//                 g * (x - mean), then diff_src;
//  3 lnorm_bwd_ss (+ lnorm_bwd_ss_final): one unit per channel over the
//                 rows (chunks of rows write partial sums that the final
//                 kernel adds): diff_scale = sum diff_dst * xhat,
//                 diff_shift = sum diff_dst.
// flags: 1 use global statistics, 2 save statistics, 4 RMS (no mean).
// lnorm_fwd reads VEC-wide vectors along C when the host found both
// tensors contiguous and aligned there (VEC 4; c then counts vectors).
#include "ocl_types.clh"
#include "ocl_unit_loop.clh"
#include "ocl_vec_io.clh"

#define F_GLOBAL 1
#define F_SAVE 2
#define F_RMS 4

#if LN_KERNEL == 1
__kernel void lnorm_fwd(__global const SRC_T *src, view3_t sv,
        __global DST_T *dst, view3_t dv, __global float *mean,
        view3_t mv, __global float *var, view3_t vv, __global const float *scale,
        __global const float *shift, unit_space_t sp, float eps, int flags,
        __local float *buf) {
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
            float x[VEC];
            VLOAD(SRC_DT, src, sb + c * VEC * sv.s1, x);
            stats_add_n(&st, x, VEC);
        });
    st = wg_stats(st, buf);
    float m = st.mean, v = st.n > 0.f ? st.m2 / st.n : 0.f;
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
    const float inv = 1.f / sqrt(v + eps);
    UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
        float y[VEC];
        VLOAD(SRC_DT, src, sb + c * VEC * sv.s1, y);
        for (int j = 0; j < VEC; ++j) {
            y[j] = (y[j] - m) * inv;
            if (scale) y[j] *= scale[c * VEC + j];
            if (shift) y[j] += shift[c * VEC + j];
        }
        VSTORE(DST_DT, dst, db + c * VEC * dv.s1, y);
    });
}

#elif LN_KERNEL == 2
__kernel void lnorm_bwd(__global const SRC_T *src, view3_t sv,
        __global const DD_T *dd, view3_t ddv, __global DS_T *ds, view3_t dsv,
        __global const float *mean, view3_t mv, __global const float *var,
        view3_t vv,
        __global const float *scale, unit_space_t sp, float eps, int flags,
        __local float *buf) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    const bool rms = flags & F_RMS, gs = flags & F_GLOBAL;
    const long sb = v3_off(&sv, u, 0, 0), gb = v3_off(&ddv, u, 0, 0),
               db = v3_off(&dsv, u, 0, 0);
    const long mo = v3_off(&mv, u, 0, 0), vo = v3_off(&vv, u, 0, 0);
    float m = 0.f, inv = 0.f;
    float2 acc = (float2)(0.f, 0.f);
    if (valid) {
        m = rms ? 0.f : mean[mo];
        inv = 1.f / sqrt(var[vo] + eps);
        UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
            float g = LOAD(DD_DT, dd, gb + c * ddv.s1);
            if (scale) g *= scale[c];
            acc.x += g;
            acc.y += g * (LOAD(SRC_DT, src, sb + c * sv.s1) - m);
        });
    }
    acc = wg_sum2(acc, buf);
    if (!valid) return;
    const float k1 = (gs || rms) ? 0.f : acc.x / sp.i;
    const float k2 = gs ? 0.f : acc.y * inv * inv / sp.i;
    UL_FOR_EACH(0, 1, 0, sp.i, o, c, {
        float g = LOAD(DD_DT, dd, gb + c * ddv.s1);
        if (scale) g *= scale[c];
        const float x = LOAD(SRC_DT, src, sb + c * sv.s1);
        STORE(DS_DT, ds, db + c * dsv.s1, inv * (g - k1 - (x - m) * k2));
    });
}

#else
__kernel void lnorm_bwd_ss(__global const SRC_T *src, view3_t sv,
        __global const DD_T *dd, view3_t ddv, __global const float *mean,
        view3_t mv, __global const float *var, view3_t vv, unit_space_t sp, float eps,
        int flags, __global float *partial, long partial_off,
        __global float *dscale, __global float *dshift, __local float *buf) {
    const long c = ul_unit();
    const bool valid = c < sp.units;
    const bool rms = flags & F_RMS;
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    float2 acc = (float2)(0.f, 0.f);
    if (valid)
        UL_FOR_EACH(o0, o1, i0, i1, r, i, {
            const float m = rms ? 0.f : mean[v3_off(&mv, r, 0, 0)];
            const float inv = 1.f / sqrt(var[v3_off(&vv, r, 0, 0)] + eps);
            const float g = LOAD(DD_DT, dd, v3_off(&ddv, r, c, 0));
            const float x = LOAD(SRC_DT, src, v3_off(&sv, r, c, 0));
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

// One work-item per channel: the chunks' partial sums in order.
__kernel void lnorm_bwd_ss_final(__global const float *partial,
        long partial_off, long units, long chunks, __global float *dscale,
        __global float *dshift) {
    const long c = get_global_id(0);
    if (c >= units) return;
    float a = 0.f, b = 0.f;
    for (long q = 0; q < chunks; ++q) {
        a += partial[partial_off + 2 * (q * units + c)];
        b += partial[partial_off + 2 * (q * units + c) + 1];
    }
    if (dscale) dscale[c] = a;
    if (dshift) dshift[c] = b;
}
#endif
