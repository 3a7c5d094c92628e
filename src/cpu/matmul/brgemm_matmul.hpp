// f32, bf16 and int8 matmul on the generated BRGEMM microkernel
// (cpu/jit/brgemm_kernel.*): f32 x f32 -> f32 on AVX-512 / AVX2, bf16 x
// bf16 -> f32 or bf16 on avx512_core_bf16, u8 / s8 x s8 -> f32 / s8 / u8
// with src / weight / dst scales and src / dst zero points (u8 x s8 ->
// s32 with none of them: the raw sums) on avx512_core_vnni; plain row-major src and dst,
// weights either `any` (2D: resolved to the kernel's packed panels, for
// bf16 with k in pairs, read in place) or plain (packed per execution
// into the scratchpad), any batch dims with broadcast, bias per column
// (f32, or bf16 for bf16 sources), post-ops eltwise / sum / binary
// (scalar, per column, full) fused into the kernel's epilogue; f32 with
// fpmath_mode bf16 on the bf16 kernels (inputs rounded). No runtime
// dims, no weights zero points (those go to the GEMM implementation
// behind it). Named brg_matmul:<isa>.
#pragma once

#include <memory>
#include <string>

#include "common/matmul_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/jit/brgemm_kernel.hpp"
#include "cpu/jit/brgemm_scales.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct brgemm_matmul_t : public primitive_t {
    struct pd_t : public cpu_pd_t<matmul_pd_t, brgemm_matmul_t> {
        pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : cpu_pd_t(d, attr) {}
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);

        const jit::brgemm_target_t *target = nullptr;
        bool wei_packed = false; // weights already in panels (from `any`)
        int panel = 0;           // columns per B panel (tile_nv vectors)
        // Rows of a B panel as stored: bf16 panels hold k in pairs, K
        // padded to even.
        dim_t k_rows = 0;
        // Panels per work unit: a unit runs one M tile over `group`
        // adjacent panels (its A rows stay in L1 for all of them), and
        // plain weights are packed a group at a time (longer runs of each
        // weight row per page touched).
        dim_t group = 1;
        // The kernel configuration of a full tile (bias and post-ops);
        // tails derive from it.
        jit::brgemm_config_t cfg;
        // Per binary post-op: its index in the chain and, for a full
        // operand, its element strides.
        struct binary_arg_t {
            int po_index;
            jit::brgemm_bcast_t bcast;
            dims_t strides;
        };
        std::vector<binary_arg_t> binaries;
        // Rows of dst the units walk: M, or batch x M where the batches
        // fold into M (weights without batch dims, source and dst rows
        // evenly strided, full binary operands too): one matrix of that
        // many rows, whose M tiles no longer stop at each batch's end.
        dim_t rows = 0;
        bool folded = false;
        size_t pack_bytes = 0; // per thread, a group's K block of panels
        // K blocking: nk blocks of kc rows (the last may be shorter; even
        // for bf16), so that a block of a B panel stays in L2 while every
        // M tile of the panel uses it; 1 block with a sum post-op (it
        // reads dst).
        dim_t kc = 0, nk = 1;
        // A bf16 dst in K blocks: the blocks before the last sum into a
        // per-thread f32 buffer of run_tiles M tiles of the group
        // (acc_bytes), which the last block's kernels add before the
        // epilogue; runs of tiles on one group are cut to run_tiles.
        size_t acc_bytes = 0;
        dim_t run_tiles = 0;
        // fpmath_mode bf16 on f32: the source rounded to bf16 into the
        // scratchpad (cvt_bytes, after the threads' buffers) before the
        // bf16 kernels run; the weights rounded while packed.
        bool cvt_src = false;
        size_t cvt_bytes = 0;
        // int8: k per panel row (4; bf16 2, f32 1), the quantization
        // (jit/brgemm_scales.hpp), and the combined per-column scales'
        // bytes (after the rounded source).
        dim_t kstep = 1;
        jit::brgemm_quant_t quant;
        size_t scale_bytes = 0;
        // int8 with an s8 source (read as u8 + 128) or a source zero
        // point: the per-column corrections (comp_bytes, after the
        // scales), from the weights' column sums per execution.
        size_t comp_bytes = 0;

    private:
        bool post_ops_ok();
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    // Phase of a K block: the only one (beta 0, epilogue), the first
    // (beta 0), a middle one (beta 1), the last (beta 1, epilogue).
    enum phase_t { only, first, middle, last, n_phases };
    // [phase][m tail][n tail]: the full-tile kernels and their tails.
    std::shared_ptr<const jit::brgemm_kernel_t> kernels_[n_phases][2][2];
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
