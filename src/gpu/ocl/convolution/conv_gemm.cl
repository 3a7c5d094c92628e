// Convolution as an implicit GEMM: C(m, nn) = sum_k A(m, k) * B(k, nn)
// where A and B are never materialised: each element is gathered from the
// activation and weight tensors through the index maps of the role
// (ROLE: conv_fwd.clh, conv_bwd_d.clh or conv_bwd_w.clh), one GEMM per
// group (and per K slice for bwd_w).
//
// Structure (the same as the tiled GEMM family): a work-group of
// NT = LX * LY work-items computes a BM x BN tile of C (BM = LY * TM,
// BN = LX * TN); each work-item keeps a TM x TN register tile of rows
// ty + i * LY and columns tx + j * LX. K advances KB at a time: the
// work-items gather the next A and B tiles from global memory into
// registers while the current ones, staged in local memory (two buffers,
// one barrier a step), are multiplied; the KB reduction indices of a step
// are split into convolution coordinates once per work-group (k_info,
// also in local memory). The epilogue applies bias, scales, the post-op
// chain and zero points, and converts.
//
// Defines: ROLE, LX, LY, TM, TN, KB, CONV_UNROLL; A_MFAST (work-items
// adjacent along m gather A, else along k: whichever is contiguous in
// memory), B_NFAST likewise (the geometry's c_mfast says the same for
// stores of C); those of conv_ctx.clh (data types, tensor forms, zero
// point, post-ops). Bias, scales and zero points of the output are
// arguments (conv_epilogue.clh).
#include "convolution/conv_ctx.clh"

#if ROLE == ROLE_FWD
#include "convolution/conv_fwd.clh"
#elif ROLE == ROLE_BWD_D
#include "convolution/conv_bwd_d.clh"
#else
#include "convolution/conv_bwd_w.clh"
#endif

// Loops over the register tile are unrolled on GPUs (the tiles must live
// in registers); CPU OpenCL devices (PoCL) vectorise across work-items
// instead and compile several times faster without it.
#if CONV_UNROLL
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif

#define NT (LX * LY)
#define BM (LY * TM)
#define BN (LX * TN)
// Local rows one longer than the tile: gathers along k do not all hit one
// bank.
#define LDA (BM + 1)
#define LDB (BN + 1)
#define MIN_(a, b) ((a) < (b) ? (a) : (b))

// Each work-item gathers A_NM rows x A_NK reduction indices of an A tile
// (rows am + i * A_TM, indices ak + j * A_TK), and B_NK x B_NN of a B tile.
#if A_MFAST
#define A_TM MIN_(NT, BM)
#define A_TK MIN_(NT / A_TM, KB)
#else
#define A_TK MIN_(NT, KB)
#define A_TM MIN_(NT / A_TK, BM)
#endif
#define A_NM (BM / A_TM)
#define A_NK (KB / A_TK)
#if B_NFAST
#define B_TN MIN_(NT, BN)
#define B_TK MIN_(NT / B_TN, KB)
#else
#define B_TK MIN_(NT, KB)
#define B_TN MIN_(NT / B_TK, BN)
#endif
#define B_NN (BN / B_TN)
#define B_NK (KB / B_TK)

// Global -> registers: the tiles of the step whose k_info is in kt[buf].
// Only gathering work-items read kt: the others' ak / bk run past KB
// (the 256 x 4 tile gathers B with 64 of its 256 work-items, and bk goes
// up to 63), and NVIDIA's devices fault on such a local read.
#define GATHER_TILES(buf)                                                      \
    do {                                                                       \
        if (a_on) {                                                            \
            UNROLL for (int j = 0; j < A_NK; ++j) {                            \
                const kinfo_t ki = kt[(buf)*KB + ak + j * A_TK];               \
                UNROLL for (int i = 0; i < A_NM; ++i) ra[i][j] =               \
                        a_val(&x, &ar[i], &ki);                                \
            }                                                                  \
        }                                                                      \
        if (b_on) {                                                            \
            UNROLL for (int j = 0; j < B_NK; ++j) {                            \
                const kinfo_t ki = kt[(buf)*KB + bk + j * B_TK];               \
                UNROLL for (int i = 0; i < B_NN; ++i) rb[j][i] =               \
                        b_val(&x, &bc[i], &ki);                                \
            }                                                                  \
        }                                                                      \
    } while (0)

// Registers -> local buffer `buf`.
#define STAGE_TILES(buf)                                                       \
    do {                                                                       \
        if (a_on) {                                                            \
            UNROLL for (int j = 0; j < A_NK; ++j)                              \
                    UNROLL for (int i = 0; i < A_NM; ++i)                      \
                            As[(buf)*KB * LDA + (ak + j * A_TK) * LDA + am     \
                                    + i * A_TM] = ra[i][j];                    \
        }                                                                      \
        if (b_on) {                                                            \
            UNROLL for (int j = 0; j < B_NK; ++j)                              \
                    UNROLL for (int i = 0; i < B_NN; ++i)                      \
                            Bs[(buf)*KB * LDB + (bk + j * B_TK) * LDB + bn     \
                                    + i * B_TN] = rb[j][i];                    \
        }                                                                      \
    } while (0)

// acc += the A tile x the B tile staged in local memory.
inline void conv_multiply(COMP_T acc[TM][TN], const local COMP_T *Ac,
        const local COMP_T *Bc, int tx, int ty) {
    UNROLL
    for (int kk = 0; kk < KB; ++kk) {
        COMP_T av[TM], bv[TN];
        UNROLL
        for (int i = 0; i < TM; ++i) av[i] = Ac[kk * LDA + ty + i * LY];
        UNROLL
        for (int j = 0; j < TN; ++j) bv[j] = Bc[kk * LDB + tx + j * LX];
        UNROLL
        for (int i = 0; i < TM; ++i) {
            UNROLL
            for (int j = 0; j < TN; ++j)
                acc[i][j] += av[i] * bv[j];
        }
    }
}

__attribute__((reqd_work_group_size(NT, 1, 1))) kernel void conv_gemm(
        CONV_PARAMS) {
    local COMP_T As[2 * KB * LDA], Bs[2 * KB * LDB];
    local kinfo_t kt[2 * KB];
    conv_ctx_t x;
    conv_epi_t e;
    CONV_CTX_INIT(x, e);

    const int t = get_local_id(0);
    const int ty = p.c_mfast ? t % LY : t / LX;
    const int tx = p.c_mfast ? t / LY : t % LX;
#if A_MFAST
    const int am = t % A_TM, ak = t / A_TM;
#else
    const int ak = t % A_TK, am = t / A_TK;
#endif
#if B_NFAST
    const int bn = t % B_TN, bk = t / B_TN;
#else
    const int bk = t % B_TK, bn = t / B_TK;
#endif
    const bool a_on = t < A_TM * A_TK, b_on = t < B_TN * B_TK;
    const int m0 = get_group_id(0) * BM, n0 = get_group_id(1) * BN;

    // Rows of A and columns of B do not depend on the group or K slice.
    a_row_t ar[A_NM];
    UNROLL
    for (int i = 0; i < A_NM; ++i) ar[i] = a_row(&x, m0 + am + i * A_TM);
    b_col_t bc[B_NN];
    UNROLL
    for (int i = 0; i < B_NN; ++i) bc[i] = b_col(&x, n0 + bn + i * B_TN);

    for (int bt = get_group_id(2); bt < p.g * p.nsplit;
            bt += get_num_groups(2)) {
        x.g = bt / p.nsplit;
        const int split = bt % p.nsplit;
        const int kbeg = split * p.kchunk;
        const int kend = min(p.K, kbeg + p.kchunk);
        const int nk = kend > kbeg ? (kend - kbeg + KB - 1) / KB : 0;

        COMP_T acc[TM][TN];
        UNROLL
        for (int i = 0; i < TM; ++i) {
            UNROLL
            for (int j = 0; j < TN; ++j)
                acc[i][j] = 0;
        }
        COMP_T ra[A_NM][A_NK], rb[B_NK][B_NN];

        if (t < KB) kt[t] = k_info(&x, kbeg + t, kend);
        barrier(CLK_LOCAL_MEM_FENCE);
        // Step s gathers tile s (its reduction indices were split during
        // step s - 1), multiplies tile s - 1 while those loads are in
        // flight, then stages tile s; one barrier a step.
        for (int s = 0; s <= nk; ++s) {
            const int cur = s & 1;
            if (s < nk) GATHER_TILES(cur);
            if (s > 0)
                conv_multiply(acc, As + (cur ^ 1) * KB * LDA,
                        Bs + (cur ^ 1) * KB * LDB, tx, ty);
            if (s < nk) {
                STAGE_TILES(cur);
                if (t < KB && s + 1 < nk)
                    kt[(cur ^ 1) * KB + t] =
                            k_info(&x, kbeg + (s + 1) * KB + t, kend);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        UNROLL
        for (int i = 0; i < TM; ++i) {
            const int m = m0 + ty + i * LY;
            if (m >= p.M) continue;
            const c_row_t cr = c_row(&x, m);
            UNROLL
            for (int j = 0; j < TN; ++j) {
                const int nn = n0 + tx + j * LX;
                if (nn >= p.N) continue;
#if ROLE == ROLE_BWD_W
                ws[(((long)split * p.g + x.g) * p.M + cr) * p.N + nn] =
                        acc[i][j];
#else
                long c, idx[LAYOUT_MAX_NDIMS];
                const long off = c_out(&x, &cr, nn, &c, idx);
                CONV_STORE_OUT(e, OUT_DT, OUT_PTR(x), off, acc[i][j], c, idx);
#endif
            }
        }
    }
}
