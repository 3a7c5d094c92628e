// f32 backward convolution on the generated BRGEMM microkernel
// (cpu/jit/brgemm_kernel.*), channels-last activations like the forward
// one (brgemm_conv.hpp), 1D / 2D / 3D, any strides, dilation and padding,
// groups of 1, no attributes beyond the defaults.
//
// Backward data (brgconv_bwd_d:<isa>): a forward-like convolution over
// diff_dst. One kernel call computes up to 6 (4 on AVX2) diff_src points
// of one row by one panel of input channels (64 on AVX-512, 24 on AVX2)
// as a batch of products, one per kernel tap that reaches a diff_dst
// point for all of them: A the diff_dst points (output channels along
// K), B the tap's weights with input channels innermost. With a stride
// s along the width the row's points are taken in s phases (columns
// c, c + s, ...): within a phase consecutive points meet consecutive
// diff_dst points for every tap, and the taps are the same; rows along
// depth and height take their taps one by one. Weights are in panels of
// input channels (then output channels, then kd, kh, kw, then the
// panels), what `any` resolves to.
//
// Backward weights (brgconv_bwd_w:<isa>): per kernel tap, diff_w[ic][oc]
// is the sum over output points of src[point + tap][ic] *
// diff_dst[point][oc]. One kernel call computes 6 (4) input channels by
// one panel of output channels of one tap over a chunk of output points:
// A the chunk's source points transposed into channel rows (per width
// phase, so that a tap's points are consecutive), B diff_dst read in
// place (its rows are the points; output channels padded to the vector
// width are copied first), the batch the chunk's output rows. The bias
// gradient is the same kernel with a row of ones for A. diff_weights
// take the forward's panels (output channels innermost), what `any`
// resolves to. Chunks are split between work items by reduction group,
// each group summing into a buffer of its own that the end adds in
// order, so a primitive's result does not depend on which thread ran
// what.
#pragma once

#include <string>
#include <vector>

#include "common/convolution_pd.hpp"
#include "cpu/convolution/brgemm_conv_common.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

struct brgemm_conv_bwd_data_t : public primitive_t {
    // Diff_src columns [t0, t1) of one width phase (columns phase + t *
    // sw) whose taps are kw = kw0 + i * step, i < nkw.
    struct seg_t {
        dim_t t0, t1, kw0, nkw, step;
    };

    struct pd_t : public cpu_pd_t<convolution_pd_t, brgemm_conv_bwd_data_t> {
        using cpu_pd_t::cpu_pd_t;
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);

        const jit::brgemm_target_t *target = nullptr;
        jit::brgemm_config_t cfg; // a full tile
        brgconv::geo_t geo;       // 1x1 unit-stride unpadded: one row
        // bf16 diff_dst and weights (output channels of each tap in pairs
        // in the panels, padded with zeros), f32 or bf16 diff_src.
        bool bf16 = false;
        int panel = 0;            // input channels per panel
        dim_t nb_ic = 0;          // panels
        // Output channels in nk blocks of ocb (a block of a panel stays
        // in L2 while the points of a run use it).
        dim_t ocb = 0, nk = 1;
        bool panel_inner = false; // units walk panels innermost
        // Rows in groups of row_grp (n_hg per image plane; more than one
        // row where narrow runs of columns run down the rows).
        dim_t row_grp = 1, n_hg = 1;
        static dim_t narrow_w(int tm) { return (tm + 1) / 2; }
        dim_t iw_blk = 0, n_iwb = 1; // diff_src columns per work unit
        dim_t max_bs = 1;            // batch elements of a call at most
        std::vector<seg_t> segs;     // by phase, then column
        std::vector<dim_t> seg_at;   // phase r's are [seg_at[r], seg_at[r+1])
        std::vector<bool> m_used;    // tile heights some call uses

    private:
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

struct brgemm_conv_bwd_weights_t : public primitive_t {
    struct pd_t : public cpu_pd_t<convolution_pd_t, brgemm_conv_bwd_weights_t> {
        using cpu_pd_t::cpu_pd_t;
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);

        const jit::brgemm_target_t *target = nullptr;
        jit::brgemm_config_t cfg; // a full tile, B rows of ocp (copied: P)
        brgconv::geo_t geo;       // 1x1 unit-stride unpadded: one row
        int panel = 0;            // output channels per panel
        dim_t nb_oc = 0;          // panels
        dim_t ocp = 0;            // diff_dst row as B reads it (OC to a vector)
        // Chunks of diff_dst copied first into panels ([panel][point][P],
        // zero past OC): where OC is not whole vectors, and where its rows
        // are far apart (B then steps along one run of 64-byte rows).
        bool copy_dd = false;
        dim_t icb = 0, nicb = 1;  // input channels per work item
        // A read in place by columns (the kernel's a_kmajor) instead of
        // transposed per chunk: 1x1 kernels with a column step of a
        // kilobyte at most, and sources of a few channels.
        bool direct_a = false;
        // Direct A of all input channels in one block, kernel columns
        // adjacent (no dilation along w): a kernel row's columns are
        // further rows of A (row kw * IC + c), so a few channels (a first
        // layer's three) still fill the tiles.
        bool merge_kw = false;
        // Chunks of the reduction: rows (mb, od, oh) in blocks of
        // row_blk, columns in blocks of ow_blk.
        dim_t row_blk = 1, n_rowb = 0, ow_blk = 0, n_owb = 1;
        dim_t n_chunks() const { return n_rowb * n_owb; }
        // Width phases of the transposed source: the taps' phase index
        // and column shift (source column = (ow + shift) * sw + phase).
        std::vector<int> kw_phase;
        std::vector<dim_t> kw_shift;
        std::vector<dim_t> phases;
        dim_t lp = 0;        // transposed row length (columns)
        dim_t shift_lo = 0;  // the least shift: column 0 of a row
        dim_t max_slots = 0; // source rows a chunk transposes at most
        // Work items: reduction groups x panel groups x channel blocks,
        // for nthr threads (the per-thread scratchpad's count).
        dim_t nkg = 1, nocg = 1;
        int nthr = 1;
        size_t wei_elems = 0; // diff_weights, padding included
        // Scratchpad (floats): per thread, the transposed source and
        // the copied diff_dst; shared, the row of ones and the partial
        // sums of reduction groups past the first.
        size_t tr_elems = 0, dd_elems = 0, ones_elems = 0;
        std::vector<bool> m_used; // tile heights some call uses

    private:
        void plan_work();
        void split_channels();
        std::string name_;
    };

    // Source rows (n, id, ih) that output rows [r0, r1) reach through
    // the kernel's depth and height taps: key[(row - r0) * kd * kh + kd *
    // kh + kh] is the row's index in the sorted list `rows`, -1 outside
    // the source.
    static void source_rows(const brgconv::geo_t &g, dim_t r0, dim_t r1,
            std::vector<dim_t> &key, std::vector<dim_t> &rows);

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
