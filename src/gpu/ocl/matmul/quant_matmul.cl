// The quantization-grid matmul (quant_matmul.hpp): work-item (n, row)
// forms dst(row, n) = sum_k (src - szp) * ssc * (wei - wzp) * wsc, each
// zero point and scale looked up for its own position, then bias, the
// post-op chain, / dst scale, + dst zero point, rounded and saturated.
// Defines: SRC, WEI, DST, BIA and the six entries SSC, WSC, DSC (scales),
// SZP, WZP, DZP (zero points), each <NAME>_DT / <NAME>_T (null buffers
// for absent entries); the post-op chain's; WITH_SUM.
#include "ocl_types.clh"
#if PO_COUNT > 0
#include "ocl_post_ops.clh"
#else
#define POST_OP_ARGS
#endif

// quant_conf (quant_matmul.cpp), int64 values: nd, M, N, K, rows, dst
// dims[6], strides[6] of src, weights, dst and bias (0 where they
// broadcast), the four offsets, then per entry (SSC, WSC, DSC, SZP, WZP,
// DZP) groups[6] and multipliers[6].
#define QC_ND 0
#define QC_M 1
#define QC_N 2
#define QC_K 3
#define QC_ROWS 4
#define QC_DIMS 5
#define QC_STRIDES(t) (11 + 6 * (t))
#define QC_OFF(t) (35 + (t))
#define QC_ENTRY(i) (39 + 12 * (i))

// Value of entry i at a position of its tensor.
inline long q_at(__global const long *c, int i, const long *pos, int nd) {
    __global const long *g = c + QC_ENTRY(i), *mul = g + 6;
    long idx = 0;
    for (int d = 0; d < nd; ++d)
        idx += pos[d] / g[d] * mul[d];
    return idx;
}

inline long t_off(__global const long *c, int t, const long *pos, int nd) {
    __global const long *s = c + QC_STRIDES(t);
    long off = c[QC_OFF(t)];
    for (int d = 0; d < nd; ++d)
        off += pos[d] * s[d];
    return off;
}

__kernel void quant_matmul(__global const SRC_T *src,
        __global const WEI_T *wei, __global DST_T *dst,
        __global const BIA_T *bias, __global const SSC_T *ssc,
        __global const WSC_T *wsc, __global const DSC_T *dsc,
        __global const SZP_T *szp, __global const WZP_T *wzp,
        __global const DZP_T *dzp, __global const long *c POST_OP_ARGS) {
    const long n = get_global_id(0), row = get_global_id(1);
    const int nd = (int)c[QC_ND];
    const long M = c[QC_M], K = c[QC_K];
    if (n >= c[QC_N] || row >= c[QC_ROWS]) return;
    long pos[6] = {0, 0, 0, 0, 0, 0};
    long r = row / M;
    for (int d = nd - 3; d >= 0; --d) {
        pos[d] = r % c[QC_DIMS + d];
        r /= c[QC_DIMS + d];
    }
    pos[nd - 2] = row % M;
    pos[nd - 1] = n;
    // src at (batch, m, k), weights at (batch, k, n).
    long sp[6], wp[6];
    for (int d = 0; d < 6; ++d)
        sp[d] = wp[d] = pos[d];
    float acc = 0.f;
    for (long k = 0; k < K; ++k) {
        sp[nd - 1] = k;
        wp[nd - 2] = k;
        float s = LOAD(SRC_DT, src, t_off(c, 0, sp, nd));
        float w = LOAD(WEI_DT, wei, t_off(c, 1, wp, nd));
        if (szp) s -= LOAD(SZP_DT, szp, q_at(c, 3, sp, nd));
        if (wzp) w -= LOAD(WZP_DT, wzp, q_at(c, 4, wp, nd));
        if (ssc) s *= LOAD(SSC_DT, ssc, q_at(c, 0, sp, nd));
        if (wsc) w *= LOAD(WSC_DT, wsc, q_at(c, 1, wp, nd));
        acc += s * w;
    }
    if (bias) acc += LOAD(BIA_DT, bias, t_off(c, 3, pos, nd));
    const long doff = t_off(c, 2, pos, nd);
#if PO_COUNT > 0
    APPLY_POST_OPS_AT(acc, dst, doff, pos);
#endif
    if (dsc) acc /= LOAD(DSC_DT, dsc, q_at(c, 2, pos, nd));
    if (dzp) acc += LOAD(DZP_DT, dzp, q_at(c, 5, pos, nd));
    STORE(DST_DT, dst, doff, acc);
}
