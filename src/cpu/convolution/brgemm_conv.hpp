// f32 and u8 x s8 forward convolution on the generated BRGEMM microkernel
// (cpu/jit/brgemm_kernel.*): channels-last source and destination, weights
// in panels of the kernel's width (output channels innermost in blocks of
// 64 on AVX-512, 24 on AVX2; then input channels, then the kernel's
// spatial taps; blocks of output channels outermost), what `any` weights
// resolve to. Each kernel call computes up to 6 (4) consecutive output
// points of one output row by one panel of output channels as a batch of
// products, one per kernel tap that lies inside the source for all of the
// points (taps in the padding are left out, so border points run in
// shorter batches of their own; in narrow images, down the column, a
// tile of rows per call); a 1x1 convolution with unit strides and no
// padding is one GEMM over all output points. Bias and post-ops
// (eltwise, sum, binary scalar / per channel / full) run in the kernel's
// epilogue. 1D, 2D and 3D, strides, dilation, groups of 1. u8 or s8
// sources with s8 weights (input channels a multiple of 4, kept in quads
// in the panels) into f32, s8 or u8 with scales and a source zero point
// run the vpdpbusd kernels. Named
// brgconv:<isa> (brgconv_1x1:<isa> for 1x1 kernels without padding), as
// oneDNN names its BRGEMM convolutions. Everything else is declined.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/convolution_pd.hpp"
#include "cpu/convolution/brgemm_conv_common.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/jit/brgemm_kernel.hpp"
#include "cpu/jit/brgemm_scales.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

struct brgemm_conv_fwd_t : public primitive_t {
    // Geometry as 3D; a 1x1 convolution with unit strides and no padding
    // is reshaped into a 1D one over all points of an image (od = oh = 1,
    // ow = spatial size).
    using geo_t = brgconv::geo_t;
    // A run [ow0, ow1) of output columns whose kernel columns inside the
    // source are the same: [kw0, kw1).
    struct seg_t {
        dim_t ow0, ow1, kw0, kw1;
    };

    struct pd_t : public cpu_pd_t<convolution_pd_t, brgemm_conv_fwd_t> {
        using cpu_pd_t::cpu_pd_t;
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);

        const jit::brgemm_target_t *target = nullptr;
        jit::brgemm_config_t cfg; // a full tile with bias and post-ops
        // u8 x s8: weights with input channels in quads, the sums scaled
        // (src, weights per output channel, dst: jit/brgemm_scales.hpp).
        bool int8 = false;
        // bf16 x bf16 (vdpbf16ps or AMX): weights with input channels in
        // pairs, f32 sums; dst f32 or bf16.
        bool bf16 = false;
        // With an s8 source (read as u8 + 128) or a source zero point,
        // each call's sums are corrected by the column sums of the taps
        // in its batch (taps in the padding contribute nothing).
        jit::brgemm_quant_t quant;
        geo_t geo;
        bool flat = false;     // 1x1, unit strides, no padding
        bool merge_kw = false; // a kernel row's taps as one K range
        // bf16 with an odd channel count (a first layer's 3): the panel
        // pads each tap's channels to a pair, so a kernel row's taps are
        // merged through a copy of the panels made per execution
        // ([panel][kd][kh][kw * ic rows in pairs][P], scratchpad of
        // merged_elems bf16), used by the runs with every kernel column.
        bool merge_pairs = false;
        dim_t merged_rows = 0; // kw * ic rounded up to a pair
        size_t merged_elems = 0;
        int panel = 0;   // output channels per panel
        dim_t nb_oc = 0; // panels
        // Input channels in nk blocks of icb (a block of a panel stays in
        // L2 while the points of a run use it); 1 block with a sum.
        dim_t icb = 0, nk = 1;
        dim_t ow_blk = 0, n_owb = 1; // output columns per work unit
        std::vector<seg_t> segs;
        // Border columns in columns of rows: the narrow runs of columns
        // whose kernel misses some taps (col_segs, indices into segs)
        // are computed, for the rows [oh_lo, oh_hi) that have every
        // kernel row, as tiles of rows (a call's M steps down the
        // column) instead of one-point tiles row by row, whose kernel
        // waits on the panel's loads (2D, one column block).
        std::vector<int> col_segs;
        dim_t oh_lo = 0, oh_hi = 0;
        bool col_mode() const { return !col_segs.empty(); }
        std::vector<bool> m_used; // tile heights some call uses
        // Per binary post-op: its index in the chain, broadcast, and for a
        // full operand the element strides of n, d, h, w (the channel
        // stride is 1) and whether its mini-batch is broadcast.
        struct binary_arg_t {
            int po_index;
            jit::brgemm_bcast_t bcast;
            dim_t sn, sd, sh, sw;
        };
        std::vector<binary_arg_t> binaries;
        // Input channels a panel row holds together (the kernel's k step).
        int kgroup() const { return int8 ? 4 : bf16 ? 2 : 1; }

    private:
        bool post_ops_ok();
        bool layouts_ok();
        void plan_work();
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    brgconv::kernel_set_t kernels_;
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
