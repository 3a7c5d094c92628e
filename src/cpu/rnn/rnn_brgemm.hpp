// The recurrent primitives' weight GEMMs on the generated BRGEMM kernels
// (cpu/jit/brgemm_kernel.*):
//   C (M x N, row stride ldc) = A (M x K) W (+ C when beta is 1)
//                               (+ bias per column),
// A with unit column stride (states, gates' diffs), W in the GEMM core's
// packed panels of nr columns (what `any` weights resolve to, or what the
// execution packs plain weights into). Weights packed in K segments (the
// backward's W^T, one segment per gate) are a batch of one element per
// segment, which the kernel reduces in registers.
//
// The kernel of each tile shape (rows, columns, beta, bias) comes from
// the kernel cache once and stays with the primitive, so the per-step
// GEMMs of a sequence look nothing up in the global cache.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/c_types.hpp"
#include "cpu/jit/brgemm_kernel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

struct mat_t;

class rnn_brgemm_t {
public:
    // Rows of the tile over panels of nr columns on the BRGEMM target the
    // ISA dispatch picks (12 x 2 vectors on AVX-512); 0 when there is no
    // target or its tile would be too short to pay (the GEMM core runs
    // every GEMM then).
    static int tile_rows(int nr);
    // The implementation name's part for such panels: the full tile's
    // kernel name (f32_brgemm_12x32__avx512_core).
    static std::string kernel_name(int nr);

    // Readies the GEMMs for panels of nr columns (tile_rows(nr) > 0) and
    // fetches the full-tile kernels; false when the kernels could not be
    // had (the GEMM core runs every GEMM then).
    bool init(int nr);

    // A row stride of at least k floats whose rows fall in different L1
    // sets (k rounded up, plus 16 where the rounded stride is a multiple
    // of 1 KB).
    static dim_t padded_ld(dim_t k);

    // C = A B + beta C (+ bias): false (nothing done) when the operands
    // are not for these kernels: B not packed in nr-column panels, A with
    // a non-unit column stride, beta other than 0 or 1. An A whose row
    // stride would put the tile's rows in one L1 set (a multiple of 1 KB:
    // states 1024 wide) is first copied into `abuf` (M x padded_ld(K)
    // floats at least; `abuf_elems`).
    bool run(dim_t M, dim_t N, dim_t K, const mat_t &a, const mat_t &b,
            float *c, dim_t ldc, float beta, const float *bias, float *abuf,
            size_t abuf_elems) const;


private:
    const jit::brgemm_kernel_t *kernel(int m, int n, int beta, bool bias) const;

    const jit::brgemm_target_t *target_ = nullptr;
    int nr_ = 0, tile_m_ = 0;
    struct entry_t {
        int m, n, beta;
        bool bias;
        std::shared_ptr<const jit::brgemm_kernel_t> k;
    };
    // Kernels fetched so far, fetched on first use by any executing
    // thread (shapes differ per GEMM of a cell: tails of M and N).
    mutable std::mutex mu_;
    mutable std::vector<entry_t> kernels_;
};

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
