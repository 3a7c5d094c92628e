// Integer GEMM on u8 x s8 quads. vpdpbusd multiplies unsigned bytes of A
// by signed bytes of B, so s8 A is packed as A' = A + 128 and u8 B as
// B' = B - 128 (sign-bit flips). With za = a_zp + (A s8 ? 128 : 0) and
// zb = b_zp - (B u8 ? 128 : 0):
//   sum_k (A - a_zp)(B - b_zp) = sum_k (A' - za)(B' - zb)
//     = sum_k A'B' - za * colsum_j(B') - zb * rowsum_i(A') + K za zb,
// all modulo 2^32, which is exact for any zero points. Column sums of B'
// are gathered while packing each B block (they sit after the block in
// the workspace); row sums of A' (needed only for zb != 0, i.e. weight
// zero points or u8 B) are read from A when a block of C is finished.
#include "cpu/gemm/gemm_s32c4.hpp"

#include <cstring>
#include <type_traits>

#include "cpu/gemm/gemm_loops.hpp"
#include "cpu/gemm/gemm_pack_c4.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {
using namespace loops;

uint32_t u32(int32_t v) { return (uint32_t)v; }

struct s32c4_ops_t {
    using packed_t = uint8_t;
    const gemm_s32_args_t &g;
    const s32c4_ukernel_desc_t &uk;
    const blocking_t &blk;
    bool flip_a, flip_b; // s8 A, u8 B
    int32_t za, zb;

    int32_t *c_at(dim_t i, dim_t j) const { return g.c + i * g.ldc + j; }
    int32_t *colsum(uint8_t *bp) const {
        return (int32_t *)(bp + align64((size_t)blk.kc * blk.nc));
    }
    const int8_t *packed_panel(dim_t j, dim_t pc) const {
        return (const int8_t *)g.b + j / uk.nr * g.b_packed_k * uk.nr + pc * uk.nr;
    }

    void pack_a(dim_t ic, dim_t pc, dim_t mc, dim_t kc, uint8_t *buf) const {
        pack_a_c4((const uint8_t *)g.a + ic * g.a_rs + pc * g.a_cs, g.a_rs,
                g.a_cs, flip_a, mc, kc, uk.mr, buf);
    }
    // Packs the B block (unless pre-packed) and adds its column sums of B'
    // for rows [pc, pc + kc) to the block's running sums.
    void pack_b(dim_t pc, dim_t jc, dim_t kc, dim_t nc, uint8_t *buf) const {
        if (!g.b_packed)
            pack_b_c4((const uint8_t *)g.b + pc * g.b_rs + jc * g.b_cs, g.b_rs,
                    g.b_cs, flip_b, kc, nc, uk.nr, buf);
        if (za == 0) return;
        int32_t *cs = colsum(buf);
        if (pc == 0) std::memset(cs, 0, nc * sizeof(int32_t));
        const int NR = uk.nr;
        const dim_t kq = (kc + 3) / 4, kfull = kc / 4;
        for (dim_t jr = 0; jr < nc; jr += NR) {
            const dim_t nr = std::min<dim_t>(NR, nc - jr);
            const int8_t *o = g.b_packed ? packed_panel(jc + jr, pc)
                                         : (const int8_t *)buf + jr * kq * 4;
            int32_t *s = cs + jr;
            for (dim_t q = 0; q < kfull; ++q) {
                const int8_t *oq = o + q * NR * 4;
                for (dim_t j = 0; j < nr; ++j)
                    s[j] += oq[4 * j] + oq[4 * j + 1] + oq[4 * j + 2] + oq[4 * j + 3];
            }
            for (dim_t t = 0; t < kc - 4 * kfull; ++t)
                for (dim_t j = 0; j < nr; ++j)
                    s[j] += o[(kfull * NR + j) * 4 + t];
        }
    }
    const uint8_t *b_at(const uint8_t *bp, dim_t pc, dim_t jc, dim_t jr, dim_t pk) const {
        if (!g.b_packed) return bp + jr * pk;
        return (const uint8_t *)packed_panel(jc + jr, pc);
    }
    void kernel(dim_t kc, const uint8_t *a, const uint8_t *b, dim_t i, dim_t j,
            dim_t m, dim_t n, bool first, const uint8_t *) const {
        uk.fn[m - 1]((kc + 3) / 4, a, (const int8_t *)b, c_at(i, j), g.ldc, n,
                first ? g.accumulate : true);
    }
    void zero_k(dim_t i0, dim_t j0, dim_t m, dim_t n) const {
        if (g.accumulate) return;
        for (dim_t i = 0; i < m; ++i)
            std::fill_n(c_at(i0 + i, j0), n, 0);
    }
    // Row sum of A' over all of K for row i.
    uint32_t rowsum(dim_t i) const {
        const uint8_t *r = (const uint8_t *)g.a + i * g.a_rs;
        const uint8_t fb = flip_a ? 0x80 : 0;
        uint32_t s = 0;
        if (g.a_cs == 1)
            for (dim_t k = 0; k < g.K; ++k)
                s += (uint8_t)(r[k] ^ fb);
        else
            for (dim_t k = 0; k < g.K; ++k)
                s += (uint8_t)(r[k * g.a_cs] ^ fb);
        return s;
    }
    // Compensation, bias and the post hook on a finished block of C.
    void finish(dim_t i0, dim_t j0, dim_t m, dim_t n, uint8_t *bp) const {
        const bool per_row = g.bias_kind == bias_kind_t::per_row;
        const bool per_col = g.bias_kind == bias_kind_t::per_col;
        const int32_t *cs = (za != 0 && g.K > 0) ? colsum(bp) : nullptr;
        const uint32_t kzz = u32(za) * u32(zb) * (uint32_t)g.K;
        for (dim_t i = 0; i < m; ++i) {
            uint32_t row = kzz;
            if (zb != 0 && g.K > 0) row -= u32(zb) * rowsum(i0 + i);
            if (per_row) row += u32(g.bias[i0 + i]);
            uint32_t *c = (uint32_t *)c_at(i0 + i, j0);
            if (cs && per_col)
                for (dim_t j = 0; j < n; ++j)
                    c[j] += row - u32(za) * u32(cs[j]) + u32(g.bias[j0 + j]);
            else if (cs)
                for (dim_t j = 0; j < n; ++j)
                    c[j] += row - u32(za) * u32(cs[j]);
            else if (per_col)
                for (dim_t j = 0; j < n; ++j)
                    c[j] += row + u32(g.bias[j0 + j]);
            else if (row != 0)
                for (dim_t j = 0; j < n; ++j)
                    c[j] += row;
        }
        if (g.post) g.post(i0, j0, m, n, c_at(i0, j0), g.ldc);
    }
};

blocking_t c4_blocking(const s32c4_ukernel_desc_t &uk, dim_t M, dim_t N, dim_t K) {
    blocking_t b = make_blocking(uk, M, N, K, 4);
    b.b_extra = (size_t)b.nc * sizeof(int32_t);
    return b;
}

} // namespace

size_t s32c4_workspace_size(dim_t M, dim_t N, dim_t K, int nthr) {
    const s32c4_ukernel_desc_t *uk = select_s32c4_ukernel();
    if (!uk) return 0;
    return workspace_bytes(c4_blocking(*uk, M, N, K), 1, nthr);
}

status_t run_s32c4(const gemm_s32_args_t &g, int nthr) {
    const s32c4_ukernel_desc_t *uk = select_s32c4_ukernel();
    if (!uk) return dnnl_unimplemented;
    if (g.b_packed && (g.b_dt != dnnl_s8 || g.b_packed_k < g.K || g.b_packed_k % 4))
        return dnnl_invalid_arguments;
    const blocking_t b = c4_blocking(*uk, g.M, g.N, g.K);
    workspace_t ws(g.workspace, workspace_bytes(b, 1, nthr));
    if (!ws.get()) return dnnl_out_of_memory;
    const bool flip_a = g.a_dt == dnnl_s8, flip_b = g.b_dt == dnnl_u8;
    const int32_t za = (int32_t)(u32(g.a_zp) + (flip_a ? 128u : 0u));
    const int32_t zb = (int32_t)(u32(g.b_zp) - (flip_b ? 128u : 0u));
    run_gemm(s32c4_ops_t {g, *uk, b, flip_a, flip_b, za, zb}, b, g.M, g.N, g.K,
            nthr, ws.get());
    return dnnl_success;
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
