// Winograd F(2x2, 3x3) convolution (wino_conv.hpp). Defines: SRC, DST,
// BIA (<NAME>_DT, <NAME>_T; weights have src's type), the post-op chain's,
// WITH_SUM.
#include "ocl_types.clh"
#if PO_COUNT > 0
#include "ocl_post_ops.clh"
#else
#define POST_OP_ARGS
#endif

// wino_conf (wino_conv.cpp), int64 values.
#define WC_N 0
#define WC_IC 1
#define WC_IH 2
#define WC_IW 3
#define WC_OC 4
#define WC_OH 5
#define WC_OW 6
#define WC_PT 7
#define WC_PL 8
#define WC_SRC 9    // 4 strides, offset
#define WC_WEI 14   // 4 strides, offset
#define WC_DST 19   // 4 strides, offset
#define WC_BIAS 24  // stride, offset

// U(oc, ic) = G g G^T with G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1]: 16
// floats per channel pair, at (oc * IC + ic) * 16.
__kernel void wino_weights(__global const SRC_T *wei, __global float *u,
        __global const long *c) {
    const long ic = get_global_id(0), oc = get_global_id(1);
    __global const long *ws = c + WC_WEI;
    float g[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            g[i][j] = LOAD(SRC_DT, wei,
                    ws[4] + oc * ws[0] + ic * ws[1] + i * ws[2] + j * ws[3]);
    float s[4][3];
    for (int j = 0; j < 3; ++j) {
        s[0][j] = g[0][j];
        s[1][j] = 0.5f * (g[0][j] + g[1][j] + g[2][j]);
        s[2][j] = 0.5f * (g[0][j] - g[1][j] + g[2][j]);
        s[3][j] = g[2][j];
    }
    __global float *out = u + (oc * c[WC_IC] + ic) * 16;
    for (int i = 0; i < 4; ++i) {
        out[i * 4 + 0] = s[i][0];
        out[i * 4 + 1] = 0.5f * (s[i][0] + s[i][1] + s[i][2]);
        out[i * 4 + 2] = 0.5f * (s[i][0] - s[i][1] + s[i][2]);
        out[i * 4 + 3] = s[i][2];
    }
}

// Work-item (tile, oc, n): outputs (2 th + i, 2 tw + j), i, j < 2, from
// the 4x4 input patch at (2 th - pad top, 2 tw - pad left) of every input
// channel (values outside the image are 0).
__kernel void wino_fwd(__global const SRC_T *src, __global const float *u,
        __global DST_T *dst, __global const BIA_T *bias,
        __global const long *c POST_OP_ARGS) {
    const long tile = get_global_id(0), oc = get_global_id(1),
               n = get_global_id(2);
    const long IC = c[WC_IC], IH = c[WC_IH], IW = c[WC_IW];
    const long OH = c[WC_OH], OW = c[WC_OW];
    const long tw_count = (OW + 1) / 2;
    const long th = tile / tw_count, tw = tile % tw_count;
    const long h0 = 2 * th - c[WC_PT], w0 = 2 * tw - c[WC_PL];
    __global const long *ss = c + WC_SRC;
    float m[16];
    for (int k = 0; k < 16; ++k)
        m[k] = 0.f;
    for (long ic = 0; ic < IC; ++ic) {
        const long base = ss[4] + n * ss[0] + ic * ss[1];
        float d[4][4];
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                const long h = h0 + i, w = w0 + j;
                d[i][j] = h >= 0 && h < IH && w >= 0 && w < IW
                        ? LOAD(SRC_DT, src, base + h * ss[2] + w * ss[3])
                        : 0.f;
            }
        // V = B^T d B, B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1].
        float t[4][4];
        for (int j = 0; j < 4; ++j) {
            t[0][j] = d[0][j] - d[2][j];
            t[1][j] = d[1][j] + d[2][j];
            t[2][j] = d[2][j] - d[1][j];
            t[3][j] = d[1][j] - d[3][j];
        }
        __global const float *uk = u + (oc * IC + ic) * 16;
        for (int i = 0; i < 4; ++i) {
            m[i * 4 + 0] += uk[i * 4 + 0] * (t[i][0] - t[i][2]);
            m[i * 4 + 1] += uk[i * 4 + 1] * (t[i][1] + t[i][2]);
            m[i * 4 + 2] += uk[i * 4 + 2] * (t[i][2] - t[i][1]);
            m[i * 4 + 3] += uk[i * 4 + 3] * (t[i][1] - t[i][3]);
        }
    }
    // Y = A^T M A, A^T = [1 1 1 0; 0 1 -1 -1].
    float r[2][4];
    for (int j = 0; j < 4; ++j) {
        r[0][j] = m[j] + m[4 + j] + m[8 + j];
        r[1][j] = m[4 + j] - m[8 + j] - m[12 + j];
    }
    __global const long *ds = c + WC_DST;
    const float b = bias ? LOAD(BIA_DT, bias, c[WC_BIAS + 1]
                                   + oc * c[WC_BIAS])
                         : 0.f;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            const long oh = 2 * th + i, ow = 2 * tw + j;
            if (oh >= OH || ow >= OW) continue;
            float y = (j == 0 ? r[i][0] + r[i][1] + r[i][2]
                              : r[i][1] - r[i][2] - r[i][3])
                    + b;
            const long off = ds[4] + n * ds[0] + oc * ds[1] + oh * ds[2]
                    + ow * ds[3];
#if PO_COUNT > 0
            long idx[6] = {n, oc, oh, ow, 0, 0};
            APPLY_POST_OPS_AT(y, dst, off, idx);
#endif
            STORE(DST_DT, dst, off, y);
        }
}
