inline float2 tree(float s, float q, __local float *ls, __local float *lq) {
    int l = get_local_id(0), L = get_local_size(0);
    ls[l] = s; lq[l] = q;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = L / 2; h > 0; h >>= 1) {
        if (l < h) { ls[l] += ls[l + h]; lq[l] += lq[l + h]; }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float2 r = (float2)(ls[0], lq[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
inline void block_of(int b, int K, int lag, int *stats, int *slab) {
    if (b < lag) { *stats = 1; *slab = b; return; }
    int r = b - lag, p = r / 2;
    if (lag + p < K) { *stats = r % 2 == 0; *slab = *stats ? lag + p : p; return; }
    int first = lag + 2 * (K - lag);
    *stats = 0; *slab = (K - lag) + (b - first);
}
// Units of P contiguous parts, part j of unit u at  u * us + j * ps, each
// part len floats (multiple of 4). Slabs of `per` units. Per-unit
// readiness: the last stats item of a unit merges the unit.
__kernel void ticket(__global const float *a, __global float *b,
        __global float *part, __global float *fin, __global int *ctr,
        int units, int P, long us, long ps, int len, int per, int lag) {
    __local int tk, last;
    __local float ls[256], lq[256];
    int l = get_local_id(0), L = get_local_size(0);
    int K = units / per, items = per * P;
    __global int *ticket = ctr, *done = ctr + 1, *ready = ctr + 1 + units;
    if (l == 0) tk = atomic_inc(ticket);
    barrier(CLK_LOCAL_MEM_FENCE);
    int t = tk, blk = t / items, j = t % items, stats, slab;
    block_of(blk, K, lag, &stats, &slab);
    int u = slab * per + j / P, p = j % P;
    long off = u * us + p * ps;
    __global const float4 *src = (__global const float4 *)(a + off);
    __global float4 *dst = (__global float4 *)(b + off);
    int n4 = len / 4;
    if (stats) {
        float s = 0, q = 0;
        int i = l;
        for (; i + 3 * L < n4; i += 4 * L) {
            float4 x0 = src[i], x1 = src[i + L], x2 = src[i + 2 * L], x3 = src[i + 3 * L];
            float4 sv = x0 + x1 + x2 + x3;
            float4 qv = x0 * x0 + x1 * x1 + x2 * x2 + x3 * x3;
            s += sv.x + sv.y + sv.z + sv.w; q += qv.x + qv.y + qv.z + qv.w;
        }
        for (; i < n4; i += L) { float4 x = src[i]; s += x.x + x.y + x.z + x.w; q += dot(x, x); }
        float2 r = tree(s, q, ls, lq);
        if (l == 0) { part[((long)u * P + p) * 2] = r.x; part[((long)u * P + p) * 2 + 1] = r.y; }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (l == 0) last = atomic_inc(&done[u]) == P - 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!last) return;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        volatile __global float *vp = part;
        s = 0; q = 0;
        for (int jj = l; jj < P; jj += L) { s += vp[((long)u * P + jj) * 2]; q += vp[((long)u * P + jj) * 2 + 1]; }
        r = tree(s, q, ls, lq);
        if (l == 0) {
            float cnt = (float)P * len, m = r.x / cnt;
            fin[2 * u] = m; fin[2 * u + 1] = rsqrt(r.y / cnt - m * m + 1e-5f);
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_xchg(&ready[u], 1);
        }
        return;
    }
    if (l == 0) { while (atomic_add(&ready[u], 0) == 0) ; }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    volatile __global float *f = fin;
    float m = f[2 * u], rs = f[2 * u + 1];
    int i = l;
    for (; i + 3 * L < n4; i += 4 * L) {
        float4 x0 = src[i], x1 = src[i + L], x2 = src[i + 2 * L], x3 = src[i + 3 * L];
        dst[i] = (x0 - m) * rs; dst[i + L] = (x1 - m) * rs; dst[i + 2 * L] = (x2 - m) * rs; dst[i + 3 * L] = (x3 - m) * rs;
    }
    for (; i < n4; i += L) dst[i] = (src[i] - m) * rs;
}
__kernel void copy4(__global const float4 *a, __global float4 *b) { size_t i = get_global_id(0); b[i] = a[i]; }
