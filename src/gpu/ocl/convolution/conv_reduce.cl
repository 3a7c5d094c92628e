// The reductions that finish a backward-weights pass:
//   conv_wei_reduce  (WEI_REDUCE): sums the K slices of conv_gemm's FLT_T
//       (f32, double for f64 data) workspace
//       ws[split][g][(ic, kernel point)][oc] into diff_weights
//       (any layout and data type), one work-item per weight;
//   conv_bias_reduce (BIAS_REDUCE): diff_bias[c] = the sum of an
//       activation tensor X (diff_dst for convolution, the deconvolution's
//       diff_dst otherwise) over images and spatial points, one work-group
//       of BIAS_WG work-items per channel, summing in a fixed order (the
//       result does not depend on timing).
// Defines: WEI_DT/WEI_T, WEI_GENERIC (as for conv_gemm.cl); X_DT/X_T,
// X_GENERIC, BIA_DT/BIA_T, BIAS_WG.
#include "convolution/conv_addr.clh"
#include "convolution/conv_index.clh"

#if WEI_REDUCE
// Weight i in logical order (g, oc, ic, kd, kh, kw).
kernel void conv_wei_reduce(const global FLT_T *ws, global WEI_T *wei,
        WEI_DESC_T wei_d, conv_geom_t p) {
    const long i = get_global_id(0);
    const long ksp = (long)p.kd * p.kh * p.kw;
    if (i >= (long)p.g * p.ocg * p.icg * ksp) return;
    long r = i;
    const int kw = r % p.kw;
    r /= p.kw;
    const int kh = r % p.kh;
    r /= p.kh;
    const int kd = r % p.kd;
    r /= p.kd;
    const int ic = r % p.icg;
    r /= p.icg;
    const int oc = r % p.ocg;
    const int g = r / p.ocg;
    // The row of (ic, kd, kh, kw) in conv_gemm's bwd_w GEMM.
    const long m = p.ic_inner
            ? (((long)kd * p.kh + kh) * p.kw + kw) * p.icg + ic
            : (((long)ic * p.kd + kd) * p.kh + kh) * p.kw + kw;
    FLT_T sum = 0;
    const long slice = (long)p.g * p.M * p.N;
    const global FLT_T *q = ws + ((long)g * p.M + m) * p.N + oc;
    for (int s = 0; s < p.nsplit; ++s)
        sum += q[s * slice];
    STORE(WEI_DT, wei, WEI_OFF(&wei_d, p.with_groups, g, oc, ic, kd, kh, kw), sum);
}
#endif

#if BIAS_REDUCE
#define X_DESC_T CONV_DESC(X_GENERIC)
#define X_OFF CONV_ACT_OFF(X_GENERIC)

__attribute__((reqd_work_group_size(BIAS_WG, 1, 1))) kernel void
conv_bias_reduce(const global X_T *x, X_DESC_T x_d, global BIA_T *bias,
        long bias_off, long bias_stride, int mb, int d, int h, int w) {
    local FLT_T part[BIAS_WG];
    const int c = get_group_id(0), t = get_local_id(0);
    const long n_points = (long)mb * d * h * w;
    FLT_T sum = 0;
    for (long i = t; i < n_points; i += BIAS_WG) {
        const conv_point_t q = conv_point_split(i, d, h, w);
        sum += LOAD(X_DT, x, X_OFF(&x_d, q.n, c, q.d, q.h, q.w));
    }
    part[t] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = BIAS_WG / 2; step > 0; step /= 2) {
        if (t < step) part[t] += part[t + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0) STORE(BIA_DT, bias, bias_off + c * bias_stride, part[0]);
}
#endif
