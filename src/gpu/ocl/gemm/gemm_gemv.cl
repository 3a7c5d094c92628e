// gemm/gemm_gemv.cl: the GEMM for a few rows of A (M <= GEMV_MAX_M) against
// B with unit stride along n (weights as K x N rows), on GPUs. Bound by
// reading B once: a work-group of LX x LY work-items takes LX * VEC
// consecutive columns; lane (lx, ly) loads VEC columns of every LY-th row
// of its K slice as one vector (neighbouring lanes read neighbouring
// bytes), multiplies them by the M values of A at that k, and the LY
// partial sums of each column meet in local memory. Split K: the host
// gives each slice (kchunk rows) work-groups of its own through the third
// dimension, their raw sums going to the workspace that gemm_reduce.cl
// adds up, as the other kernels do.
//
// With B_KCONTIG (unit stride along k instead) the lanes walk K: see the
// second kernel below.
//
// Defines: B_KCONTIG, LX, LY, VEC (values a work-item and step: 16 bytes
// of floating-point B), GEMV_MAX_M (rows of A held: M rounded up to a power of two), the types of gemm_types.clh and the epilogue's; with
// B_DECOMPRESS (gemm_common.clh) B holds integers (B_DT s8 / u8, or B_INT4
// with B_T uchar) turned into (q - zp) * scale as they are loaded.
#include "gemm/gemm_common.clh"

#define NCOLS (LX * VEC)
#define VEC_T CONCAT2(float, VEC)

#ifdef B_DECOMPRESS
// Integer B: element i of the weights (4-bit ones two to a byte, the lower
// index in the low nibble).
#ifdef B_INT4
#define gemv_b_int(b, i) int4_to_f32((b), (i), B_INT4)
#else
#define gemv_b_int(b, i) LOAD(B_DT, (b), (i))
#endif
#ifdef BQ_Z_INT4
#define BQ_ZP_AT(i) int4_to_f32(bq_zp, (i), BQ_Z_INT4)
#else
#define BQ_ZP_AT(i) LOAD(BQ_Z_DT, bq_zp, (i))
#endif

// The scales and zero points of VEC columns from n0 for row k (zero and
// one where absent; 0 past the matrix).
inline void gemv_qparams(int k, int n0, int x, const global BQ_S_T *bq_scale,
        const global BQ_Z_T *bq_zp, int4 g, long4 st, float *sc, float *zp) {
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        const int n = n0 + min(j, x - 1);
#ifdef WITH_BQ_SCALE
        sc[j] = LOAD(BQ_S_DT, bq_scale, (k / g.s0) * st.s0 + (n / g.s1) * st.s1);
#else
        sc[j] = 1.f;
#endif
#ifdef WITH_BQ_ZP
        zp[j] = BQ_ZP_AT((k / g.s2) * st.s2 + (n / g.s3) * st.s3);
#else
        zp[j] = 0.f;
#endif
    }
}
#endif

// VEC columns of B from element `i` (column n0), `x` of them inside the
// matrix (the others read as 0); f32 and 16-bit types through one vector
// load when all are inside.
inline VEC_T gemv_load_b(const global B_T *b, long i, int x) {
    float e[VEC];
#ifdef B_DECOMPRESS
#ifdef B_INT4
    if (x >= VEC && (i & 1) == 0) { // four whole bytes
        const int4 v = convert_int4(vload4(0, b + (i >> 1)));
        int4 lo = v & 0xf, hi = v >> 4;
        if (B_INT4) {
            lo = (lo ^ 8) - 8;
            hi = (hi ^ 8) - 8;
        }
        return convert_float8((int8)(lo.s0, hi.s0, lo.s1, hi.s1, lo.s2,
                hi.s2, lo.s3, hi.s3));
    }
#else
    if (x >= VEC) return convert_float8(vload8(0, b + i));
#endif
#pragma unroll
    for (int j = 0; j < VEC; j++)
        e[j] = j < x ? gemv_b_int(b, i + j) : 0.f;
    return CONCAT2(vload, VEC)(0, e);
#else
    const global B_T *p = b + i;
    if (x >= VEC) {
#if B_DT == DT_F32
        return CONCAT2(vload, VEC)(0, p);
#elif B_DT == DT_F16
        return CONCAT2(vload_half, VEC)(0, p);
#elif B_DT == DT_BF16
        return as_float8(convert_uint8(vload8(0, p)) << 16);
#endif
    }
#pragma unroll
    for (int j = 0; j < VEC; j++)
        e[j] = j < x ? B_LOAD1(p + j) : 0.f;
    return CONCAT2(vload, VEC)(0, e);
#endif
}

#if !B_KCONTIG
__attribute__((reqd_work_group_size(LX, LY, 1))) kernel void gemm_gemv(
        GEMM_PARAMS) {
    local float red[LY][NCOLS];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int n0 = get_group_id(0) * NCOLS + lx * VEC;
    const int xn = N - n0;
    const int a_zp = GEMM_A_ZP, b_zp = GEMM_B_ZP;

    for (long g = get_global_id(2); g < nbatch * nsplit;
            g += get_global_size(2)) {
        const gemm_unit_t u = gemm_unit(g, nsplit, kchunk, K, bdims);
        const int s = u.s, kbeg = u.kbeg, kend = u.kend;
        const int4 bc = u.bc;
        const global A_T *ab = a + a_off + gemm_batch_off(bc, a_bs);
        const long bb = b_off + gemm_batch_off(bc, b_bs) + (long)n0;
        global C_T *cb = c + c_off + gemm_batch_off(bc, c_bs) + s * c_ss;

        VEC_T acc[GEMV_MAX_M];
#pragma unroll
        for (int m = 0; m < GEMV_MAX_M; m++)
            acc[m] = 0;
        if (xn > 0) {
#ifdef B_DECOMPRESS
            // Scales and zero points change once a group of rows: loaded
            // again only from row q_next on.
            int q_next = 0;
            VEC_T qs = 1, qzs = 0; // scale, -zero point * scale
#endif
            // (Loading several rows before using any ran slower on an
            // H200: 28 -> 34 us for 1x4096 by 4096x4096 f16.)
            for (int k = kbeg + ly; k < kend; k += LY) {
                const VEC_T bv = gemv_load_b(b, bb + (long)k * b_sk, xn);
#ifdef B_DECOMPRESS
                if (k >= q_next) {
                    float sc[VEC], zp[VEC];
                    gemv_qparams(k, n0, xn, bq_scale, bq_zp, bq_groups,
                            bq_strides, sc, zp);
                    qs = CONCAT2(vload, VEC)(0, sc);
                    qzs = -CONCAT2(vload, VEC)(0, zp) * qs;
                    q_next = min((k / bq_groups.s0 + 1) * bq_groups.s0,
                            (k / bq_groups.s2 + 1) * bq_groups.s2);
                }
                const VEC_T w = fma(bv, qs, qzs); // (q - zp) * scale
#else
                const VEC_T w = bv;
#endif
#pragma unroll
                for (int m = 0; m < GEMV_MAX_M; m++)
                    if (m < M)
                        acc[m] = fma((VEC_T)(float)A_LOAD1(
                                             ab + (long)m * a_sm + (long)k * a_sk),
                                w, acc[m]);
            }
        }

        // The LY partial sums of each column, one row of A at a time.
#pragma unroll
        for (int m = 0; m < GEMV_MAX_M; m++) {
            if (m >= M) break;
            CONCAT2(vstore, VEC)(acc[m], 0, &red[ly][lx * VEC]);
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int col = ly * LX + lx; col < NCOLS; col += LX * LY) {
                float sum = 0.f;
#pragma unroll
                for (int r = 0; r < LY; r++)
                    sum += red[r][col];
                const int n = get_group_id(0) * NCOLS + col;
                if (n < N) {
                    global C_T *pc = cb + (long)m * c_sm + (long)n * c_sn;
                    C_STORE1(pc, GEMM_OUT(sum, bc, m, n, pc));
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}

#else // B_KCONTIG

#ifdef B_DECOMPRESS
// The scale and zero point of weights element (k, n) (one and zero where
// absent).
inline void gemv_qparam(int k, int n, const global BQ_S_T *bq_scale,
        const global BQ_Z_T *bq_zp, int4 g, long4 st, float *sc, float *zp) {
#ifdef WITH_BQ_SCALE
    *sc = LOAD(BQ_S_DT, bq_scale, (k / g.s0) * st.s0 + (n / g.s1) * st.s1);
#else
    *sc = 1.f;
#endif
#ifdef WITH_BQ_ZP
    *zp = BQ_ZP_AT((k / g.s2) * st.s2 + (n / g.s3) * st.s3);
#else
    *zp = 0.f;
#endif
}
#endif

inline float gemv_hsum(VEC_T v) {
#if VEC == 4
    return (v.s0 + v.s1) + (v.s2 + v.s3);
#else
    return ((v.s0 + v.s1) + (v.s2 + v.s3)) + ((v.s4 + v.s5) + (v.s6 + v.s7));
#endif
}

// B with unit stride along k (transposed weights, an inner product's): a
// warp-wide row of LX lanes walks one column's K slice, VEC consecutive
// values a lane and step (16 bytes of floating-point B), against the same
// values of each row of A; the LX partial sums meet in local memory. A
// work-group takes LY columns.
__attribute__((reqd_work_group_size(LX, LY, 1))) kernel void gemm_gemv(
        GEMM_PARAMS) {
    local float red[LY][LX];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int n = get_global_id(1);
    const int a_zp = GEMM_A_ZP, b_zp = GEMM_B_ZP;

    for (long g = get_global_id(2); g < nbatch * nsplit;
            g += get_global_size(2)) {
        const gemm_unit_t u = gemm_unit(g, nsplit, kchunk, K, bdims);
        const int s = u.s, kbeg = u.kbeg, kend = u.kend;
        const int4 bc = u.bc;
        const global A_T *ab = a + a_off + gemm_batch_off(bc, a_bs);
        const long bcol = b_off + gemm_batch_off(bc, b_bs) + (long)n * b_sn;
        global C_T *cb = c + c_off + gemm_batch_off(bc, c_bs) + s * c_ss;

        float acc[GEMV_MAX_M];
#pragma unroll
        for (int m = 0; m < GEMV_MAX_M; m++)
            acc[m] = 0.f;
        if (n < N) {
#ifdef B_DECOMPRESS
            // Rows [q_beg, q_end) share one scale and zero point.
            int q_beg = 0, q_end = 0;
            float qs = 1.f, qzs = 0.f;
#endif
            for (int k = kbeg + lx * VEC; k < kend; k += LX * VEC) {
                const int x = kend - k;
                VEC_T w = gemv_load_b(b, bcol + k, x);
#ifdef B_DECOMPRESS
                if (!(k >= q_beg && k + VEC <= q_end)) {
                    const int gs = bq_groups.s0, gz = bq_groups.s2;
                    const int b0 = max(k / gs * gs, k / gz * gz);
                    const int e0 = min((k / gs + 1) * gs, (k / gz + 1) * gz);
                    float sc, zp;
                    gemv_qparam(k, n, bq_scale, bq_zp, bq_groups, bq_strides,
                            &sc, &zp);
                    q_beg = b0, q_end = e0;
                    qs = sc, qzs = -zp * sc;
                }
                if (k + VEC <= q_end) {
                    w = fma(w, (VEC_T)qs, (VEC_T)qzs);
                } else { // the step crosses a group boundary
                    float e[VEC];
                    CONCAT2(vstore, VEC)(w, 0, e);
#pragma unroll
                    for (int j = 0; j < VEC; j++) {
                        float sc, zp;
                        gemv_qparam(min(k + j, K - 1), n, bq_scale, bq_zp,
                                bq_groups, bq_strides, &sc, &zp);
                        e[j] = (e[j] - zp) * sc;
                    }
                    w = CONCAT2(vload, VEC)(0, e);
                }
#endif
#pragma unroll
                for (int m = 0; m < GEMV_MAX_M; m++) {
                    if (m < M) {
                        float av[VEC];
#pragma unroll
                        for (int j = 0; j < VEC; j++)
                            av[j] = j < x ? (float)A_LOAD1(ab + (long)m * a_sm
                                                    + (long)(k + j) * a_sk)
                                          : 0.f;
                        acc[m] += gemv_hsum(CONCAT2(vload, VEC)(0, av) * w);
                    }
                }
            }
        }

#pragma unroll
        for (int m = 0; m < GEMV_MAX_M; m++) {
            if (m >= M) break;
            red[ly][lx] = acc[m];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lx == 0 && n < N) {
                float sum = 0.f;
                for (int r = 0; r < LX; r++)
                    sum += red[ly][r];
                global C_T *pc = cb + (long)m * c_sm + (long)n * c_sn;
                C_STORE1(pc, GEMM_OUT(sum, bc, m, n, pc));
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}
#endif
