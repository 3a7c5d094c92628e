// Recurrent primitives on the gpu engine: the element-wise part of each
// cell, forward and backward, and the block copies between user tensors
// and the f32 state buffers (src/common/rnn_plan.hpp). The GEMMs around the
// cells run on the GEMM kernels (gemm/). One work-item per (channel j,
// batch row n); gates of a row are G * DHC values in the cell's order
// (LSTM i, f, c~, o; GRU-like u, r, o). Every buffer comes with an offset
// in floats, since a cell's operands live at plan offsets of the workspace
// and the scratchpad. Shapes and data types are arguments: one program
// serves every RNN primitive of a device. int8 inference (rnn_int8.hpp)
// adds the weights' dequantization, quantized copies and the states'
// quantization grid, which the f32 problems pass as zeros.
#include "ocl_types.clh"

inline float rnn_logistic(float x) {
    const float e = exp(-fabs(x));
    const float q = 1.f / (1.f + e);
    return x >= 0.f ? q : e * q;
}

// Element i of a tensor of type dt (DT_* of ocl_types.clh). u8 / s8
// tensors are an int8 RNN's quantized data, q = (scale, shift): read back
// as (x - shift) / scale, written as saturate(round(v * scale + shift))
// with ties to even, as the CPU's tensor_t does.
inline float rnn_load(const global uchar *p, int dt, long i, float2 q) {
    switch (dt) {
    case DT_F16: return vload_half(i, (const global half *)p);
    case DT_BF16: return bf16_to_f32(((const global ushort *)p)[i]);
    case DT_S8: return ((float)((const global char *)p)[i] - q.s1) / q.s0;
    case DT_U8: return ((float)p[i] - q.s1) / q.s0;
    default: return ((const global float *)p)[i];
    }
}

inline void rnn_store(global uchar *p, int dt, long i, float v, float2 q) {
    switch (dt) {
    case DT_F16: vstore_half_rte(v, i, (global half *)p); break;
    case DT_BF16: ((global ushort *)p)[i] = f32_to_bf16(v); break;
    case DT_S8:
        ((global char *)p)[i] = convert_char_sat_rte(v * q.s0 + q.s1);
        break;
    case DT_U8: p[i] = convert_uchar_sat_rte(v * q.s0 + q.s1); break;
    default: ((global float *)p)[i] = v; break;
    }
}

// int8 RNN: v put back on the states' quantization grid g = (scale,
// shift, lo, hi), [lo, hi] the data type's range: the value an integer
// implementation would hold, dequantized (the CPU's state_quant_t).
// g.s0 == 0 (no data scale is 0) leaves v as it is: f32 problems.
inline float rnn_qgrid(float v, float4 g) {
    if (g.s0 == 0.f) return v;
    float x = rint(v * g.s0 + g.s1);
    x = x < g.s2 ? g.s2 : (x > g.s3 ? g.s3 : x);
    return (x - g.s1) / g.s0;
}

// dst[i0, i1, i2, i3] (+)= src[i0, i1, i2, i3] over a 4-d block, offsets
// and strides in elements of each side's type; src null writes zeros;
// q: the quantization of u8 / s8 sides (rnn_load).
__kernel void rnn_copy(const global uchar *src, int src_dt, long src_off,
        long4 ss, global uchar *dst, int dst_dt, long dst_off, long4 ds,
        long4 n, int accumulate, float2 q) {
    const long i3 = get_global_id(0), i2 = get_global_id(1);
    const long i01 = get_global_id(2);
    if (i3 >= n.s3 || i2 >= n.s2 || i01 >= n.s0 * n.s1) return;
    const long i0 = i01 / n.s1, i1 = i01 % n.s1;
    float v = 0.f;
    if (src)
        v = rnn_load(src, src_dt,
                src_off + i0 * ss.s0 + i1 * ss.s1 + i2 * ss.s2 + i3 * ss.s3, q);
    const long o = dst_off + i0 * ds.s0 + i1 * ds.s1 + i2 * ds.s2 + i3 * ds.s3;
    if (accumulate) v += rnn_load(dst, dst_dt, o, q);
    rnn_store(dst, dst_dt, o, v, q);
}

// int8 RNN: an N x H block of states put on the grid in place (an LSTM
// projection's output, the initial state).
__kernel void rnn_qgrid_rows(global float *p, long p_off, long ld, float4 g,
        int N, int H) {
    const int j = get_global_id(0), n = get_global_id(1);
    if (j >= H || n >= N) return;
    global float *x = p + p_off + n * ld + j;
    *x = rnn_qgrid(*x, g);
}

// int8 RNN: the f32 copy of s8 weights, out[r][g * C + c] = w(r, g, c) /
// scale[g * C + c] (scale[0] for all when !per_col; scale from sc_off)
// over rows r of (l, d, k) in L x D x K; w's strides: rs for l, d, k, gs
// for g, cs for c.
__kernel void rnn_dequant_w(const global char *w, long w_off, long4 rs,
        long gs, long cs, int D, int K, int G, int C,
        const global float *scale, long sc_off, int per_col,
        global float *out, long out_off, long rows) {
    const int col = get_global_id(0);
    const long r = get_global_id(1);
    if (col >= G * C || r >= rows) return;
    const long l = r / ((long)D * K), d = r / K % D, k = r % K;
    const int g = col / C, c = col % C;
    const long o = w_off + l * rs.s0 + d * rs.s1 + k * rs.s2 + g * gs + c * cs;
    out[out_off + r * G * C + col]
            = (float)w[o] / scale[sc_off + (per_col ? col : 0)];
}

inline float rnn_act(int kind, float x, float alpha) {
    // 0: relu (alpha the negative slope), 1: tanh, else logistic.
    if (kind == 0) return x > 0.f ? x : alpha * x;
    if (kind == 1) return tanh(x);
    return rnn_logistic(x);
}

// Derivative from the activated value y.
inline float rnn_act_bwd(int kind, float y, float alpha) {
    if (kind == 0) return y > 0.f ? 1.f : alpha;
    if (kind == 1) return 1.f - y * y;
    return y * (1.f - y);
}

#define RNN_IDS \
    const int j = get_global_id(0), n = get_global_id(1); \
    if (j >= H || n >= N) return;

// Vanilla RNN: h = act(gates), kept activated in the gates.
__kernel void rnn_vanilla_fwd(global float *g, long g_off, long ldg,
        global float *h, long h_off, long ldo, int act, float alpha, int N,
        int H) {
    RNN_IDS
    const long gi = g_off + n * ldg + j;
    const float y = rnn_act(act, g[gi], alpha);
    g[gi] = y;
    h[h_off + n * ldo + j] = y;
}

// LSTM: i, f, o logistic (peephole terms when wp is given), c~ tanh,
// c = f c' + i c~, h = o tanh(c) (into ht when projecting), on the grid q
// for int8 (rnn_qgrid).
__kernel void rnn_lstm_fwd(global float *g, long g_off, long ldg,
        const global float *cp, long cp_off, global float *c, long c_off,
        global float *h, long h_off, long ldo, const global float *wp,
        long wp_off, float4 q, int N, int H) {
    RNN_IDS
    global float *gr = g + g_off + n * ldg + j;
    const float cprev = cp[cp_off + n * H + j];
    float xi = gr[0], xf = gr[H], xc = gr[2 * H], xo = gr[3 * H];
    if (wp) {
        xi += wp[wp_off + j] * cprev;
        xf += wp[wp_off + H + j] * cprev;
    }
    const float i = rnn_logistic(xi), f = rnn_logistic(xf), cc = tanh(xc);
    const float cn = f * cprev + i * cc;
    if (wp) xo += wp[wp_off + 2 * H + j] * cn;
    const float o = rnn_logistic(xo);
    gr[0] = i, gr[H] = f, gr[2 * H] = cc, gr[3 * H] = o;
    c[c_off + n * H + j] = cn;
    h[h_off + n * ldo + j] = rnn_qgrid(o * tanh(cn), q);
}

// GRU, first part: u, r logistic; rec = r * h' (on the grid q for int8:
// the recurrent GEMM's input).
__kernel void rnn_gru_fwd1(global float *g, long g_off, long ldg,
        const global float *hp, long hp_off, long ldh, global float *rec,
        long rec_off, float4 q, int N, int H) {
    RNN_IDS
    global float *gr = g + g_off + n * ldg + j;
    gr[0] = rnn_logistic(gr[0]);
    const float r = rnn_logistic(gr[H]);
    gr[H] = r;
    rec[rec_off + n * H + j] = rnn_qgrid(r * hp[hp_off + n * ldh + j], q);
}

// GRU (and AUGRU) second part: o tanh, h = u' h' + (1 - u') o with
// u' = (1 - att) u when att is given; h on the grid q for int8.
__kernel void rnn_gru_fwd2(global float *g, long g_off, long ldg,
        const global float *hp, long hp_off, long ldh, global float *h,
        long h_off, long ldo, const global float *att, long att_off,
        float4 q, int N, int H) {
    RNN_IDS
    global float *gr = g + g_off + n * ldg + j;
    const float keep = att ? 1.f - att[att_off + n] : 1.f;
    const float o = tanh(gr[2 * H]);
    const float u = keep * gr[0];
    gr[2 * H] = o;
    h[h_off + n * ldo + j]
            = rnn_qgrid(u * hp[hp_off + n * ldh + j] + (1.f - u) * o, q);
}

// Linear-before-reset GRU (and AUGRU): rec holds U h' of the three gates;
// u, r logistic of gates + U h', grid = U_o h' + b', o = tanh(gates_o +
// r grid), h as for GRU.
__kernel void rnn_lbr_fwd(global float *g, long g_off, long ldg,
        const global float *rec, long rec_off, const global float *hp,
        long hp_off, long ldh, const global float *bx, long bx_off,
        global float *grid, long grid_off, global float *h, long h_off,
        long ldo, const global float *att, long att_off, int N, int H) {
    RNN_IDS
    global float *gr = g + g_off + n * ldg + j;
    const global float *rc = rec + rec_off + n * 3 * H + j;
    const float keep = att ? 1.f - att[att_off + n] : 1.f;
    const float u = rnn_logistic(gr[0] + rc[0]);
    const float r = rnn_logistic(gr[H] + rc[H]);
    const float gd = rc[2 * H] + bx[bx_off + j];
    const float o = tanh(gr[2 * H] + r * gd);
    gr[0] = u, gr[H] = r, gr[2 * H] = o;
    grid[grid_off + n * H + j] = gd;
    const float uu = keep * u;
    h[h_off + n * ldo + j] = uu * hp[hp_off + n * ldh + j] + (1.f - uu) * o;
}

// Backward cells read the activated gates of the forward pass and write
// dg, the diff of the pre-activation gates, and dhp, the element-wise part
// of the diff of the previous h (the recurrent GEMM adds the rest).

__kernel void rnn_vanilla_bwd(const global float *g, long g_off, long ldg,
        global float *dg, long dg_off, const global float *dh, long dh_off,
        long lddh, int act, float alpha, int N, int H) {
    RNN_IDS
    dg[dg_off + n * ldg + j] = dh[dh_off + n * lddh + j]
            * rnn_act_bwd(act, g[g_off + n * ldg + j], alpha);
}

// LSTM: dc (from the next step) and dh give the gates' diffs and dcp, the
// diff of c'.
__kernel void rnn_lstm_bwd(const global float *g, long g_off, long ldg,
        global float *dg, long dg_off, const global float *dh, long dh_off,
        long lddh, const global float *cp, long cp_off, const global float *c,
        long c_off, const global float *dc, long dc_off, global float *dcp,
        long dcp_off, const global float *wp, long wp_off, int N, int H) {
    RNN_IDS
    const global float *gr = g + g_off + n * ldg + j;
    global float *dgr = dg + dg_off + n * ldg + j;
    const float i = gr[0], f = gr[H], cc = gr[2 * H], o = gr[3 * H];
    const float d = dh[dh_off + n * lddh + j];
    const float tc = tanh(c[c_off + n * H + j]);
    const float dgo = d * tc * o * (1.f - o);
    float dcc = dc[dc_off + n * H + j] + d * o * (1.f - tc * tc);
    if (wp) dcc += dgo * wp[wp_off + 2 * H + j];
    const float cprev = cp[cp_off + n * H + j];
    const float dgi = dcc * cc * i * (1.f - i);
    const float dgf = dcc * cprev * f * (1.f - f);
    const float dgc = dcc * i * (1.f - cc * cc);
    float dprev = dcc * f;
    if (wp) dprev += dgi * wp[wp_off + j] + dgf * wp[wp_off + H + j];
    dcp[dcp_off + n * H + j] = dprev;
    dgr[0] = dgi, dgr[H] = dgf, dgr[2 * H] = dgc, dgr[3 * H] = dgo;
}

// GRU (and AUGRU), first part: dg_u, dg_o, dhp = dh u'.
__kernel void rnn_gru_bwd1(const global float *g, long g_off, long ldg,
        global float *dg, long dg_off, const global float *dh, long dh_off,
        long lddh, const global float *hp, long hp_off, long ldh,
        global float *dhp, long dhp_off, const global float *att,
        long att_off, int N, int H) {
    RNN_IDS
    const global float *gr = g + g_off + n * ldg + j;
    global float *dgr = dg + dg_off + n * ldg + j;
    const float keep = att ? 1.f - att[att_off + n] : 1.f;
    const float u = gr[0], o = gr[2 * H], d = dh[dh_off + n * lddh + j];
    const float uu = keep * u;
    const float du = d * (hp[hp_off + n * ldh + j] - o) * keep;
    dgr[0] = du * u * (1.f - u);
    dgr[2 * H] = d * (1.f - uu) * (1.f - o * o);
    dhp[dhp_off + n * ldh + j] = d * uu;
}

// GRU, second part (drec = d(r * h') = dg_o U_o^T): dg_r, dhp += drec r.
__kernel void rnn_gru_bwd2(const global float *g, long g_off, long ldg,
        global float *dg, long dg_off, const global float *hp, long hp_off,
        long ldh, const global float *drec, long drec_off, global float *dhp,
        long dhp_off, int N, int H) {
    RNN_IDS
    const float r = g[g_off + n * ldg + H + j];
    const float dr = drec[drec_off + n * H + j];
    dg[dg_off + n * ldg + H + j] = dr * hp[hp_off + n * ldh + j] * r * (1.f - r);
    dhp[dhp_off + n * ldh + j] += dr * r;
}

// Linear-before-reset GRU (and AUGRU): the gates' diffs, the diffs of U h'
// (dgrid, three gates) and dhp = dh u'.
__kernel void rnn_lbr_bwd(const global float *g, long g_off, long ldg,
        global float *dg, long dg_off, global float *dgrid, long dgrid_off,
        const global float *dh, long dh_off, long lddh,
        const global float *hp, long hp_off, long ldh,
        const global float *grid, long grid_off, global float *dhp,
        long dhp_off, const global float *att, long att_off, int N, int H) {
    RNN_IDS
    const global float *gr = g + g_off + n * ldg + j;
    global float *dgr = dg + dg_off + n * ldg + j;
    global float *dgd = dgrid + dgrid_off + n * 3 * H + j;
    const float keep = att ? 1.f - att[att_off + n] : 1.f;
    const float u = gr[0], r = gr[H], o = gr[2 * H];
    const float d = dh[dh_off + n * lddh + j];
    const float uu = keep * u;
    const float dgo = d * (1.f - uu) * (1.f - o * o);
    const float dgu = d * (hp[hp_off + n * ldh + j] - o) * keep * u * (1.f - u);
    const float dgr_ = dgo * grid[grid_off + n * H + j] * r * (1.f - r);
    dgr[0] = dgu, dgr[H] = dgr_, dgr[2 * H] = dgo;
    dgd[0] = dgu, dgd[H] = dgr_, dgd[2 * H] = dgo * r;
    dhp[dhp_off + n * ldh + j] = d * uu;
}

// AUGRU: datt[n] = -sum_j dh (h' - o) u, one work-item per row.
__kernel void rnn_augru_att_bwd(const global float *g, long g_off, long ldg,
        const global float *dh, long dh_off, long lddh,
        const global float *hp, long hp_off, long ldh, global float *datt,
        long datt_off, int N, int H) {
    const int n = get_global_id(0);
    if (n >= N) return;
    float s = 0.f;
    for (int j = 0; j < H; ++j) {
        s += dh[dh_off + n * lddh + j]
                * (hp[hp_off + n * ldh + j] - g[g_off + n * ldg + 2 * H + j])
                * g[g_off + n * ldg + j];
    }
    datt[datt_off + n] = -s;
}

// out[j] = sum over rows of a[r * ld + j], one work-item per column.
__kernel void rnn_col_sums(const global float *a, long a_off, long ld,
        long rows, int cols, global float *out, long out_off) {
    const int j = get_global_id(0);
    if (j >= cols) return;
    float s = 0.f;
    for (long r = 0; r < rows; ++r)
        s += a[a_off + r * ld + j];
    out[out_off + j] = s;
}

// Peephole diffs over all iterations: [i, f, o] x DHC, from the gates'
// diffs and the cell states (c' of time t in slot t + shift, c in t + 1).
__kernel void rnn_peephole_bwd(const global float *dg, long dg_off, long ldg,
        const global float *c, long c_off, int shift, int T, int N, int H,
        global float *out, long out_off) {
    const int j = get_global_id(0);
    if (j >= H) return;
    float si = 0.f, sf = 0.f, so = 0.f;
    for (int t = 0; t < T; ++t)
        for (int n = 0; n < N; ++n) {
            const global float *d = dg + dg_off + ((long)t * N + n) * ldg + j;
            const float cp = c[c_off + ((long)(t + shift) * N + n) * H + j];
            const float cn = c[c_off + ((long)(t + 1) * N + n) * H + j];
            si += d[0] * cp;
            sf += d[H] * cp;
            so += d[3 * H] * cn;
        }
    out[out_off + j] = si;
    out[out_off + H + j] = sf;
    out[out_off + 2 * H + j] = so;
}

// out[r, j] = a[r, j] * b[r, j] over rows x H (GRU: r * h' for the o
// gate's weight diff).
__kernel void rnn_mul_rows(const global float *a, long a_off, long lda,
        const global float *b, long b_off, long ldb, global float *out,
        long out_off, long ldo, int N, int H) {
    RNN_IDS
    out[out_off + (long)n * ldo + j]
            = a[a_off + (long)n * lda + j] * b[b_off + (long)n * ldb + j];
}
