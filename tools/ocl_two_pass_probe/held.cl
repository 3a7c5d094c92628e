// Group normalization with the unit held on chip (held.c builds this with
// -D options): each lane keeps REGS float4 of the unit in registers and
// LOC more in its own slots of local memory, so src is read once.
// NHWC 0: a unit is one run of `vecs` float4; 1: runs of `runv` float4,
// `so4` apart. TREE 0: reductions as a log2(L) tree; 1: two levels (two
// barriers). NOSTATS 1 skips the reductions (the floor of this pattern).
// Groups loop over units (one unit per group when launched with as many
// groups as units).

__kernel void copy4(__global const float4 *a, __global float4 *b) {
    const size_t i = get_global_id(0);
    b[i] = a[i];
}

inline float red_sum(float v, __local float *red) {
    const int r = get_local_id(0), L = get_local_size(0);
    red[r] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
#if TREE == 0
    for (int s = L / 2; s > 0; s >>= 1) {
        if (r < s) red[r] += red[r + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float res = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return res;
#elif TREE == 1
    const int parts = L / 16;
    if (r < parts) {
        float s = 0.f;
        for (int j = 0; j < 16; ++j)
            s += red[r + j * parts];
        red[L + r] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.f;
    for (int j = 0; j < parts; ++j)
        s += red[L + j];
    return s;
#else
    return 0.f;
#endif
}

// Chan's merge of (count, mean, m2) over a tree; red holds 3 L floats.
inline float2 red_stats(float n, float mean, float m2, __local float *red) {
    const int r = get_local_id(0), L = get_local_size(0);
    __local float *bn = red, *bm = red + L, *bq = red + 2 * L;
    bn[r] = n;
    bm[r] = mean;
    bq[r] = m2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = L / 2; s > 0; s >>= 1) {
        if (r < s) {
            const float nb = bn[r + s];
            if (nb > 0.f) {
                const float na = bn[r], nn = na + nb;
                const float d = bm[r + s] - bm[r], f = nb / nn;
                bm[r] += d * f;
                bq[r] += bq[r + s] + d * d * na * f;
                bn[r] = nn;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float2 res = (float2)(bm[0], bq[0] / bn[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    return res;
}

__kernel void held(__global const float4 *src, __global float4 *dst, int vecs,
        int runv, long so4, long sn4, long sg4, int groups, int units,
        int cpg, int hw4, __global const float *scale,
        __global const float *shift, __global float *mean,
        __global float *var, __local float4 *lds, __local float *red) {
    const int r = get_local_id(0), L = get_local_size(0);
    const int dp = L / runv, dw = L - dp * runv;
    for (int u = get_group_id(0); u < units; u += get_num_groups(0)) {
        const int n = u / groups, g = u - n * groups;
        const long base = n * sn4 + g * sg4;
        float4 x[REGS];
        int p = r / runv, w = r - p * runv;
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < REGS + LOC; ++k) {
            float4 t = (float4)(0.f);
            if (r + k * L < vecs) t = src[base + p * so4 + w];
            if (k < REGS)
                x[k] = t;
            else
                lds[(k - REGS) * L + r] = t;
            s += t.x + t.y + t.z + t.w;
            w += dw;
            p += dp;
            if (w >= runv) {
                w -= runv;
                ++p;
            }
        }
#if NOSTATS
        const float m = 0.5f, inv = 2.f;
#elif TREE == 2
        // The lane's own exact statistics, then one merge tree.
        const int mine = (vecs - r + L - 1) / L;
        const float cnt = (float)min(mine, REGS + LOC) * 4;
        const float lm = cnt > 0.f ? s / cnt : 0.f;
        float lq = 0.f;
#pragma unroll
        for (int k = 0; k < REGS + LOC; ++k) {
            if (r + k * L < vecs) {
                const float4 d
                        = (k < REGS ? x[k] : lds[(k - REGS) * L + r]) - lm;
                lq += dot(d, d);
            }
        }
        const float2 mv = red_stats(cnt, lm, lq, red);
        const float m = mv.x, va = mv.y;
        if (r == 0) {
            mean[u] = m;
            var[u] = va;
        }
        const float inv = rsqrt(va + 1e-5f);
#else
        const float m = red_sum(s, red) / (vecs * 4);
        float q = 0.f;
#pragma unroll
        for (int k = 0; k < REGS + LOC; ++k) {
            if (r + k * L < vecs) {
                const float4 d
                        = (k < REGS ? x[k] : lds[(k - REGS) * L + r]) - m;
                q += dot(d, d);
            }
        }
        const float va = red_sum(q, red) / (vecs * 4);
        if (r == 0) {
            mean[u] = m;
            var[u] = va;
        }
        const float inv = rsqrt(va + 1e-5f);
#endif
        p = r / runv;
        w = r - p * runv;
#pragma unroll
        for (int k = 0; k < REGS + LOC; ++k) {
            const int v = r + k * L;
            if (v < vecs) {
                const float4 t = k < REGS ? x[k] : lds[(k - REGS) * L + r];
                float4 a, b;
                if (NHWC) {
                    const int c = g * cpg + 4 * w;
                    a = vload4(0, scale + c);
                    b = vload4(0, shift + c);
                } else {
                    const int c = g * cpg + v / hw4;
                    a = (float4)(scale[c]);
                    b = (float4)(shift[c]);
                }
                dst[base + p * so4 + w] = (t - m) * inv * a + b;
            }
            w += dw;
            p += dp;
            if (w >= runv) {
                w -= runv;
                ++p;
            }
        }
    }
}

// Batch normalization (nchw, N x C x S4 float4) with each part of a
// channel (ipp images) held on chip by one group, the parts of a channel
// merged across groups: a group publishes its part's statistics, counts
// the channel's arrivals (sync[1 + c]) and waits until all P parts of the
// channel are in, then normalizes what it holds. Counters are never
// reset: each run adds P arrivals per channel, so a group's own arrival
// (old value) tells the run's target, a multiple of P. TICKETS 1: groups
// take parts in the order of a counter (sync[0], draws per run = groups x
// trips), so a group only waits for parts taken by running groups or not
// yet taken; 0: group g takes parts g, g + groups, ... (all groups must
// run at once). SPIN 0: wait with atomics, 1: with volatile loads.
// Every work-item reaches every barrier (trips draws per group).
__kernel void bn_held(__global const float4 *src, __global float4 *dst,
        int C, int S4, int P, int ipp, int trips, __global int *sync,
        __global float *partial, __global float *mean, __global float *var,
        __local float4 *lds, __local float *red, __local int *tk) {
    const int r = get_local_id(0), L = get_local_size(0);
    const int items = C * P, vecs = ipp * S4;
    const int di = L / S4, dw = L - di * S4;
    const int draws = get_num_groups(0) * trips;
    for (int it = 0; it < trips; ++it) {
#if TICKETS
        if (r == 0) tk[0] = atomic_inc(sync) % draws;
        barrier(CLK_LOCAL_MEM_FENCE);
        const int t = tk[0];
#else
        const int t = get_group_id(0) + it * get_num_groups(0);
#endif
        const bool valid = t < items;
        const int c = valid ? t / P : 0, part = valid ? t - c * P : 0;
        float4 x[REGS];
        float s = 0.f;
        int img = r / S4, w = r - img * S4;
#pragma unroll
        for (int k = 0; k < REGS + LOC; ++k) {
            float4 v = (float4)(0.f);
            if (valid && r + k * L < vecs)
                v = src[((long)(part * ipp + img) * C + c) * S4 + w];
            if (k < REGS)
                x[k] = v;
            else
                lds[(k - REGS) * L + r] = v;
            s += v.x + v.y + v.z + v.w;
            w += dw;
            img += di;
            if (w >= S4) {
                w -= S4;
                ++img;
            }
        }
        const float cnt = (float)vecs * 4;
        const float pm = red_sum(s, red) / cnt;
        float q = 0.f;
#pragma unroll
        for (int k = 0; k < REGS + LOC; ++k)
            if (valid && r + k * L < vecs) {
                const float4 d
                        = (k < REGS ? x[k] : lds[(k - REGS) * L + r]) - pm;
                q += dot(d, d);
            }
        const float pq = red_sum(q, red);
        if (valid && r == 0) {
            partial[3 * t] = cnt;
            partial[3 * t + 1] = pm;
            partial[3 * t + 2] = pq;
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            const int old = atomic_inc(sync + 1 + c);
            const int target = old - old % P + P;
#if SPIN
            volatile __global int *vc = sync + 1 + c;
            while (*vc - target < 0)
                ;
#else
            while (atomic_add(sync + 1 + c, 0) - target < 0)
                ;
#endif
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        float an = 0.f, am = 0.f, aq = 0.f;
        if (valid) {
            volatile __global const float *pp = partial + 3 * c * P;
            for (int j = 0; j < P; ++j) {
                const float bn = pp[3 * j], bm = pp[3 * j + 1],
                            bq = pp[3 * j + 2];
                const float nn = an + bn, d = bm - am, f = bn / nn;
                am += d * f;
                aq += bq + d * d * an * f;
                an = nn;
            }
        }
        const float va = aq / an, inv = rsqrt(va + 1e-5f);
        if (valid && part == 0 && r == 0) {
            mean[c] = am;
            var[c] = va;
        }
        img = r / S4;
        w = r - img * S4;
#pragma unroll
        for (int k = 0; k < REGS + LOC; ++k) {
            if (valid && r + k * L < vecs) {
                const float4 v = k < REGS ? x[k] : lds[(k - REGS) * L + r];
                dst[((long)(part * ipp + img) * C + c) * S4 + w]
                        = (v - am) * inv;
            }
            w += dw;
            img += di;
            if (w >= S4) {
                w -= S4;
                ++img;
            }
        }
    }
}
