// gemm/gemm_tiled.cl: the work-group-tiled GEMM for GPUs. A work-group of
// (WG_N / TN) x (WG_M / TM) work-items computes a WG_M x WG_N block of C;
// each work-item holds a TM x TN register tile (rows and columns in chunks
// of 4 spread over the block, so local reads are 16-byte and
// conflict-free). K advances KB at a time through two local-memory
// buffers: while one is multiplied, the next A and B tiles travel from
// global memory into registers, then into the other buffer; one barrier a
// step (prefetching two steps ahead measured slower on an H100: more
// registers for nothing). A is kept k-major in local memory
// (transposed on the way in when A is k-contiguous), B n-major.
//
// Defines: WG_M, WG_N, TM, TN (multiples of 4), KB (multiple of 4),
// A_TRANS (0: A k-contiguous, a_sk == 1; 1: m-contiguous, a_sm == 1),
// B_TRANS (0: B n-contiguous, b_sn == 1; 1: k-contiguous, b_sk == 1),
// C_NCONTIG (c_sn == 1), the types of gemm_types.clh and the epilogue's.
// Tails in M and N clamp loads to the last row/column (those results are
// never stored); the last K step zero-fills. Two entries: gemm_tiled for any
// element-aligned data, gemm_tiled_aligned when every 4-vector of A, B
// and C the kernel touches is 16-byte aligned (the host checks offsets
// and strides).
#include "gemm/gemm_common.clh"

#ifndef LPAD
#define LPAD 4
#endif
#define LX (WG_N / TN)
#define LY (WG_M / TM)
#define NT (LX * LY)
#define RM (TM / 4)
#define RN (TN / 4)
#define LDA_L (WG_M + LPAD) // local row (one k) of the A tile
#define LDB_L (WG_N + LPAD)
#define A_VTOT (WG_M * KB / 4) // 4-vectors in an A tile
#define B_VTOT (WG_N * KB / 4)
#define A_VECS ((A_VTOT + NT - 1) / NT) // per work-item
#define B_VECS ((B_VTOT + NT - 1) / NT)

// Where each work-item's 4-vectors of A and B come from and go to.
typedef struct {
    const global A_T *pa[A_VECS];
    int la[A_VECS]; // local offset of the first element
    int ka[A_VECS]; // k of the vector (or of its first element) in the tile
    int xa[A_VECS]; // m-contiguous A: elements left in the row of M (>= 4: all)
    const global B_T *pb[B_VECS];
    int lb[B_VECS];
    int kb[B_VECS];
    int xb[B_VECS];
} gemm_tile_map_t;

inline void gemm_map_tiles(gemm_tile_map_t *mp, const global A_T *ab,
        const global B_T *bb, int t, int m0, int n0, int M, int N, long a_sm,
        long a_sk, long b_sk, long b_sn) {
#pragma unroll
    for (int i = 0; i < A_VECS; i++) {
        const int v = min(t + i * NT, A_VTOT - 1);
#if A_TRANS == 0
        const int row = v / (KB / 4), kc = (v % (KB / 4)) * 4;
        mp->pa[i] = ab + (long)min(m0 + row, M - 1) * a_sm + kc;
        mp->la[i] = kc * LDA_L + row;
        mp->ka[i] = kc;
        mp->xa[i] = 4;
#else
        const int kr = v / (WG_M / 4), mc = (v % (WG_M / 4)) * 4;
        mp->pa[i] = ab + (long)kr * a_sk + m0 + mc;
        mp->la[i] = kr * LDA_L + mc;
        mp->ka[i] = kr;
        mp->xa[i] = M - (m0 + mc);
#endif
    }
#pragma unroll
    for (int i = 0; i < B_VECS; i++) {
        const int v = min(t + i * NT, B_VTOT - 1);
#if B_TRANS == 0
        const int kr = v / (WG_N / 4), nc = (v % (WG_N / 4)) * 4;
        mp->pb[i] = bb + (long)kr * b_sk + n0 + nc;
        mp->lb[i] = kr * LDB_L + nc;
        mp->kb[i] = kr;
        mp->xb[i] = N - (n0 + nc);
#else
        const int col = v / (KB / 4), kc = (v % (KB / 4)) * 4;
        mp->pb[i] = bb + (long)min(n0 + col, N - 1) * b_sn + kc;
        mp->lb[i] = kc * LDB_L + col;
        mp->kb[i] = kc;
        mp->xb[i] = 4;
#endif
    }
}

// Four elements along the contiguous dimension with `x` of them inside
// the matrix (x >= 4: a vector load; else clamped to the last one).
#define GEMM_LOAD_CLAMPED(r, p, x, LOAD4, LOAD4_AL, LOAD1) \
    do { \
        if ((x) >= 4) { \
            (r) = aligned ? LOAD4_AL(p) : LOAD4(p); \
        } else { \
            (r).s0 = LOAD1((p) + min(0, (x)-1)); \
            (r).s1 = LOAD1((p) + min(1, (x)-1)); \
            (r).s2 = LOAD1((p) + min(2, (x)-1)); \
            (r).s3 = LOAD1((p) + min(3, (x)-1)); \
        } \
    } while (0)
// Four consecutive k values starting at k with `kleft` left in K.
#define GEMM_LOAD_KTAIL(r, p, k, kleft, LOAD1) \
    do { \
        (r).s0 = (k) + 0 < (kleft) ? LOAD1((p) + 0) : 0; \
        (r).s1 = (k) + 1 < (kleft) ? LOAD1((p) + 1) : 0; \
        (r).s2 = (k) + 2 < (kleft) ? LOAD1((p) + 2) : 0; \
        (r).s3 = (k) + 3 < (kleft) ? LOAD1((p) + 3) : 0; \
    } while (0)

// Global -> registers: the next K step's vectors (kleft values of K left),
// advancing the map's pointers.
inline void gemm_load_tiles(gemm_tile_map_t *mp, COMP4_T *ra, COMP4_T *rb,
        int kleft, long a_sk, long b_sk, int a_zp, int b_zp,
        const bool aligned) {
    const bool kfull = kleft >= KB;
#pragma unroll
    for (int i = 0; i < A_VECS; i++) {
        const global A_T *p = mp->pa[i];
#if A_TRANS == 0
        if (kfull)
            ra[i] = aligned ? A_LOAD4_ALIGNED(p) : A_LOAD4(p);
        else
            GEMM_LOAD_KTAIL(ra[i], p, mp->ka[i], kleft, A_LOAD1);
        mp->pa[i] += KB;
#else
        if (kfull || mp->ka[i] < kleft)
            GEMM_LOAD_CLAMPED(ra[i], p, mp->xa[i], A_LOAD4, A_LOAD4_ALIGNED,
                    A_LOAD1);
        else
            ra[i] = 0;
        mp->pa[i] += (long)KB * a_sk;
#endif
    }
#pragma unroll
    for (int i = 0; i < B_VECS; i++) {
        const global B_T *p = mp->pb[i];
#if B_TRANS == 0
        if (kfull || mp->kb[i] < kleft)
            GEMM_LOAD_CLAMPED(rb[i], p, mp->xb[i], B_LOAD4, B_LOAD4_ALIGNED,
                    B_LOAD1);
        else
            rb[i] = 0;
        mp->pb[i] += (long)KB * b_sk;
#else
        if (kfull)
            rb[i] = aligned ? B_LOAD4_ALIGNED(p) : B_LOAD4(p);
        else
            GEMM_LOAD_KTAIL(rb[i], p, mp->kb[i], kleft, B_LOAD1);
        mp->pb[i] += KB;
#endif
    }
}

// Registers -> a local buffer.
inline void gemm_store_tiles(const gemm_tile_map_t *mp, const COMP4_T *ra,
        const COMP4_T *rb, local COMP_T *An, local COMP_T *Bn, int t) {
#pragma unroll
    for (int i = 0; i < A_VECS; i++) {
        if (A_VTOT % NT == 0 || t + i * NT < A_VTOT) {
#if A_TRANS == 0
            An[mp->la[i] + 0 * LDA_L] = ra[i].s0;
            An[mp->la[i] + 1 * LDA_L] = ra[i].s1;
            An[mp->la[i] + 2 * LDA_L] = ra[i].s2;
            An[mp->la[i] + 3 * LDA_L] = ra[i].s3;
#else
            *(local COMP4_T *)(An + mp->la[i]) = ra[i];
#endif
        }
    }
#pragma unroll
    for (int i = 0; i < B_VECS; i++) {
        if (B_VTOT % NT == 0 || t + i * NT < B_VTOT) {
#if B_TRANS == 0
            *(local COMP4_T *)(Bn + mp->lb[i]) = rb[i];
#else
            Bn[mp->lb[i] + 0 * LDB_L] = rb[i].s0;
            Bn[mp->lb[i] + 1 * LDB_L] = rb[i].s1;
            Bn[mp->lb[i] + 2 * LDB_L] = rb[i].s2;
            Bn[mp->lb[i] + 3 * LDB_L] = rb[i].s3;
#endif
        }
    }
}

// acc += the A tile x the B tile in local memory.
inline void gemm_multiply_tiles(COMP_T acc[TM][TN], const local COMP_T *Ac,
        const local COMP_T *Bc, int tx, int ty) {
#pragma unroll
    for (int kk = 0; kk < KB; kk++) {
        COMP_T av[TM], bv[TN];
#pragma unroll
        for (int r = 0; r < RM; r++) {
            const COMP4_T x = *(const local COMP4_T *)(Ac + kk * LDA_L
                    + r * (LY * 4) + ty * 4);
            av[4 * r + 0] = x.s0;
            av[4 * r + 1] = x.s1;
            av[4 * r + 2] = x.s2;
            av[4 * r + 3] = x.s3;
        }
#pragma unroll
        for (int r = 0; r < RN; r++) {
            const COMP4_T x = *(const local COMP4_T *)(Bc + kk * LDB_L
                    + r * (LX * 4) + tx * 4);
            bv[4 * r + 0] = x.s0;
            bv[4 * r + 1] = x.s1;
            bv[4 * r + 2] = x.s2;
            bv[4 * r + 3] = x.s3;
        }
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
                acc[i][j] = MAC(acc[i][j], av[i], bv[j]);
    }
}

inline void gemm_tiled_body(GEMM_PARAMS, local COMP_T *As, local COMP_T *Bs,
        const bool aligned) {
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int t = ty * LX + tx;
    const int m0 = get_group_id(1) * WG_M, n0 = get_group_id(0) * WG_N;
    const int a_zp = GEMM_A_ZP, b_zp = GEMM_B_ZP;

    for (long g = get_group_id(2); g < nbatch * nsplit;
            g += get_num_groups(2)) {
        const long bi = g / nsplit;
        const int s = g % nsplit;
        const int kbeg = s * kchunk;
        const int klen = min(K - kbeg, kchunk);
        const int nk = (klen + KB - 1) / KB;

        const int4 bc = gemm_batch_coords(bi, bdims);
        const global A_T *ab
                = a + a_off + gemm_batch_off(bc, a_bs) + (long)kbeg * a_sk;
        const global B_T *bb
                = b + b_off + gemm_batch_off(bc, b_bs) + (long)kbeg * b_sk;
        global C_T *cb = c + c_off + gemm_batch_off(bc, c_bs) + s * c_ss;

        gemm_tile_map_t mp;
        gemm_map_tiles(&mp, ab, bb, t, m0, n0, M, N, a_sm, a_sk, b_sk, b_sn);

        COMP_T acc[TM][TN];
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
                acc[i][j] = 0;

        // Step kt loads tile kt into registers, multiplies tile kt - 1 and
        // stores tile kt to local memory.
        COMP4_T ra[A_VECS], rb[B_VECS];
        for (int kt = 0; kt <= nk; kt++) {
            if (kt < nk)
                gemm_load_tiles(&mp, ra, rb, klen - kt * KB, a_sk, b_sk,
                        a_zp, b_zp, aligned);
            if (kt > 0)
                gemm_multiply_tiles(acc, As + ((kt - 1) & 1) * (KB * LDA_L),
                        Bs + ((kt - 1) & 1) * (KB * LDB_L), tx, ty);
            if (kt < nk)
                gemm_store_tiles(&mp, ra, rb, As + (kt & 1) * (KB * LDA_L),
                        Bs + (kt & 1) * (KB * LDB_L), t);
            barrier(CLK_LOCAL_MEM_FENCE);
        }

        // Epilogue: each 4-column chunk of a row is stored as one vector
        // where C allows it.
#pragma unroll
        for (int i = 0; i < TM; i++) {
            const int m = m0 + (i / 4) * (LY * 4) + ty * 4 + (i % 4);
            if (m >= M) continue;
            global C_T *pc = cb + (long)m * c_sm;
#pragma unroll
            for (int r = 0; r < RN; r++) {
                const int n = n0 + r * (LX * 4) + tx * 4;
                GEMM_OUT_T v[4];
#pragma unroll
                for (int j = 0; j < 4; j++)
                    v[j] = n + j < N ? GEMM_OUT(acc[i][4 * r + j], bc, m,
                                   n + j, pc + (long)(n + j) * c_sn)
                                     : 0;
#if defined(C_NCONTIG) && (C_DT == DT_F32 || defined(GEMM_RAW_OUT))
                if (n + 4 <= N) {
                    if (aligned)
                        *(global GEMM_OUT4_T *)(pc + n) = vload4(0, v);
                    else
                        vstore4(vload4(0, v), 0, pc + n);
                    continue;
                }
#endif
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (n + j < N) C_STORE1(pc + (long)(n + j) * c_sn, v[j]);
            }
        }
    }
}

__attribute__((reqd_work_group_size(LX, LY, 1))) kernel void gemm_tiled(
        GEMM_PARAMS) {
    local COMP4_T As[2 * KB * LDA_L / 4], Bs[2 * KB * LDB_L / 4];
    gemm_tiled_body(GEMM_ARGS, (local COMP_T *)As, (local COMP_T *)Bs, false);
}

__attribute__((reqd_work_group_size(LX, LY, 1))) kernel void
gemm_tiled_aligned(GEMM_PARAMS) {
    local COMP4_T As[2 * KB * LDA_L / 4], Bs[2 * KB * LDB_L / 4];
    gemm_tiled_body(GEMM_ARGS, (local COMP_T *)As, (local COMP_T *)Bs, true);
}
