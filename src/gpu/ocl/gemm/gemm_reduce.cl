// gemm/gemm_reduce.cl: the second pass of a split-K GEMM: sums the nsplit
// partial products of a workspace laid out [slice][batch][m][n] (dense,
// raw accumulators) and applies the epilogue on the way to C. One
// work-item per element of C, n fastest (coalesced reads and writes).
#include "gemm/gemm_common.clh"

kernel void gemm_splitk_reduce(const global COMP_T *w, long w_ss, int nsplit,
        global C_T *c, long c_off, long c_sm, long c_sn, int M, int N,
        long nbatch, int4 bdims, long4 c_bs, GEMM_EPILOGUE_PARAMS) {
    const int n = get_global_id(0), m = get_global_id(1);
    if (n >= N || m >= M) return;
    for (long bi = get_global_id(2); bi < nbatch; bi += get_global_size(2)) {
        const global COMP_T *p = w + (bi * M + m) * N + n;
        COMP_T acc = 0;
        for (int s = 0; s < nsplit; s++)
            acc += p[s * w_ss];
        const int4 bc = gemm_batch_coords(bi, bdims);
        global C_T *pc = c + c_off + gemm_batch_off(bc, c_bs) + (long)m * c_sm
                + (long)n * c_sn;
        C_STORE1(pc, GEMM_OUT(acc, bc, m, n, pc));
    }
}
