// gemm/gemm_direct.cl: the GEMM without local memory, for CPU devices
// (PoCL), small or skinny shapes and any strides. Each work-item computes
// TM rows x TN consecutive columns of C, reading A and B straight from
// global memory: one TN-wide vector of B per k (a vector load when B is
// n-contiguous, B_NCONTIG), broadcast against TM scalars of A. No
// barriers, so CPU runtimes run work-items as plain loops.
//
// Defines: TM (1 or more), TN (2, 4, 8 or 16), B_NCONTIG (b_sn == 1),
// the types of gemm_types.clh and the epilogue's. Any a_sm/a_sk/c_sm/c_sn.
#include "gemm/gemm_common.clh"

#define COMPN_T CONCAT2(COMP_T, TN)
#define VLOADN CONCAT2(vload, TN)
#define VSTOREN CONCAT2(vstore, TN)

// TN elements of B's row starting at p (column n0; `x` columns left in
// the row of N, clamped so no load leaves the row).
inline COMPN_T gemm_load_b_row(const global B_T *p, long b_sn, int x,
        int b_zp) {
    COMP_T e[TN];
#ifdef B_NCONTIG
    if (x >= TN) {
#if B_DT == DT_F32
        return VLOADN(0, p);
#else
#pragma unroll
        for (int j = 0; j < TN; j++)
            e[j] = B_LOAD1(p + j);
        return VLOADN(0, e);
#endif
    }
#endif
#pragma unroll
    for (int j = 0; j < TN; j++)
        e[j] = B_LOAD1(p + min(j, x - 1) * b_sn);
    return VLOADN(0, e);
}

kernel void gemm_direct(GEMM_PARAMS) {
    const int n0 = get_global_id(0) * TN, m0 = get_global_id(1) * TM;
    if (n0 >= N || m0 >= M) return;
    const int xn = N - n0;
    const int a_zp = GEMM_A_ZP, b_zp = GEMM_B_ZP;

    for (long g = get_global_id(2); g < nbatch * nsplit;
            g += get_global_size(2)) {
        const gemm_unit_t u = gemm_unit(g, nsplit, kchunk, K, bdims);
        const int s = u.s, kbeg = u.kbeg, klen = u.kend - u.kbeg;
        const int4 bc = u.bc;
        const global A_T *ab
                = a + a_off + gemm_batch_off(bc, a_bs) + (long)kbeg * a_sk;
        const global B_T *pb = b + b_off + gemm_batch_off(bc, b_bs)
                + (long)kbeg * b_sk + (long)n0 * b_sn;
        global C_T *cb = c + c_off + gemm_batch_off(bc, c_bs) + s * c_ss;

        const global A_T *pa[TM];
#pragma unroll
        for (int i = 0; i < TM; i++)
            pa[i] = ab + (long)min(m0 + i, M - 1) * a_sm;

        COMPN_T acc[TM];
#pragma unroll
        for (int i = 0; i < TM; i++)
            acc[i] = 0;

        for (int k = 0; k < klen; k++) {
            const COMPN_T bv = gemm_load_b_row(pb, b_sn, xn, b_zp);
            pb += b_sk;
#pragma unroll
            for (int i = 0; i < TM; i++) {
                const COMP_T av = A_LOAD1(pa[i]);
                pa[i] += a_sk;
                acc[i] = MAC(acc[i], (COMPN_T)av, bv);
            }
        }

#pragma unroll
        for (int i = 0; i < TM; i++) {
            const int m = m0 + i;
            if (m >= M) break;
            COMP_T r[TN];
            VSTOREN(acc[i], 0, r);
            global C_T *pc = cb + (long)m * c_sm + (long)n0 * c_sn;
#pragma unroll
            for (int j = 0; j < TN; j++)
                if (j < xn)
                    C_STORE1(pc + j * c_sn,
                            GEMM_OUT(r[j], bc, m, n0 + j, pc + j * c_sn));
        }
    }
}
