// Batch normalization on the gpu engine: forward training / inference
// (statistics computed or given; fused ReLU and add + ReLU with the
// workspace the backward pass masks with; a ReLU post-op), backward data
// and backward with diff scale / shift; f32 / bf16 / f16 data, and s8
// forward with given statistics. A unit
// (ocl_unit_loop.clh) is one channel over N x spatial; channels with few
// siblings are split into chunks whose partial statistics (Chan merge)
// or sums a second kernel combines before a third applies them, so long
// reductions fill the device without atomics. Layouts that do not merge
// into [N, C, spatial] views go through dense copies (ocl_staging.hpp).
#pragma once

#include "common/batch_normalization_pd.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_staging.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Twin of bn_view_t in bnorm.cl.
struct bn_view_t {
    int64_t off0, sc, so, si;
};

struct ocl_bnorm_t : public primitive_t {
    struct pd_t : public ocl_pd_t<batch_normalization_pd_t, ocl_bnorm_t> {
        using ocl_pd_t<batch_normalization_pd_t, ocl_bnorm_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            if (dense && global_stats()) return "ocl:bnorm:dense";
            if (held_parts > 0) return "ocl:bnorm:held";
            if (bands > 0) return "ocl:bnorm:bands+dense";
            if (dense)
                return units_inner ? "ocl:bnorm:lanes+dense"
                       : vec > 1   ? "ocl:bnorm:rows_vec+dense"
                                   : "ocl:bnorm:rows+dense";
            return units_inner ? "ocl:bnorm:lanes"
                   : vec > 1   ? "ocl:bnorm:rows_vec"
                               : "ocl:bnorm:rows";
        }
        // Work-groups per compute unit the statistics pass aims at: with
        // few, a last partial wave of groups left most of the device idle.
        static constexpr int groups_per_cu = 32;
        static constexpr int dense_vec = 4;

        // Staging indices of the tensors (-1: not used).
        enum { src, dst, src1, ws, diff_dst, diff_src, diff_src1, count };
        int k[count] = {-1, -1, -1, -1, -1, -1, -1};
        staging_t staging;
        int64_t n = 0, c = 0, sp = 0;
        bool units_inner = false; // channels in neighbouring work-items
        bool merge_n = false;     // o runs over (image, point) together
        bool single_lane = false;
        int64_t chunks = 1;
        // Forward: elements per vector along the points (1, or 4 when
        // every tensor is contiguous and aligned there).
        int vec = 1;
        // Forward over one dense plain layout shared by every tensor:
        // normalization by the elementwise bnorm_fwd_dense, dense_vec
        // elements per work-item (after the statistics kernels when they
        // are computed); cstride is the channel dim's stride.
        bool dense = false;
        bool idx32 = false;
        int64_t cstride = 0;
        // Computed statistics over a dense channels-last layout
        // (bnorm_stats_bands): row bands of band_rows rows, groups of
        // band_lanes[0] channel vectors x band_lanes[1] row lanes; bands
        // is 0 when the unit kernels compute the statistics.
        int64_t bands = 0, band_rows = 0;
        size_t band_lanes[2] = {1, 1};
        int64_t points() const { return sp / vec; }
        size_t partial_off = 0, stats_off = 0;
        // Computed statistics and the normalization in one launch
        // (bnorm_fwd_held), or the backward sums and diff_src in one
        // (bnorm_bwd_held), over the vector rows' layouts: channels cut
        // into held_parts parts of held_images images (0: not used), a
        // part held by a group of held_lanes lanes, held_cache vectors
        // of each held tensor a lane in registers and held_local in local
        // memory; the ticket counter at sync_off in the scratchpad and
        // held_words() published words a part at partial_off.
        static constexpr int max_held_cache = 16;
        // On NVIDIA the held kernel is built with 128 registers a lane
        // (two groups a multiprocessor, cap_registers_on_nvidia) and holds
        // this many vectors a lane in them (more spill).
        static constexpr int nvidia_held_cache = 8;
        // Local memory a group may take for held vectors, its tree and
        // ticket: what NVIDIA's driver gives a group (devices that report
        // less keep to theirs).
        static constexpr size_t max_held_local = 48 * 1024;
        int64_t held_parts = 0, held_images = 0;
        size_t held_lanes = 0;
        // A ReLU post-op (oneDNN's one post-op for batch normalization:
        // forward, alpha 0 in training) is applied where the fused ReLU
        // is, with relu_slope for negative values; no workspace.
        bool relu_post_op = false;
        float relu_slope = 0.f;
        bool relu_in_kernel() const { return any_relu() || relu_post_op; }
        int held_cache = 0, held_local = 0;
        // A part's statistics (count, mean, squared deviations) or sums
        // (of g and of g * (x - mean)).
        int64_t held_words() const { return is_fwd() ? 3 : 2; }
        size_t sync_off = 0;

    private:
        void init_dense();
        void init_bands(const device_info_t &dev);
        void plan_held(const device_info_t &dev);
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    // The view of staging entry `k` (zero for an unused one).
    bn_view_t view(int k, int64_t off0) const;
    status_t execute_fwd(const exec_ctx_t &ctx) const;
    status_t execute_bwd(const exec_ctx_t &ctx) const;
    nd_range_t bands_range() const;
    status_t launch_held(
            const exec_ctx_t &ctx, kernel_args_t &a, int flags) const;
    status_t execute_held(const exec_ctx_t &ctx, const tensor_buf_t *b,
            cl_mem mean, int64_t moff, cl_mem var, int64_t voff, cl_mem scale,
            cl_mem shift) const;
    ocl_kernel_t main_, final_, dense_, bands_, bands_final_;
    ocl_kernel_t held_, held_reset_;
    size_t held_groups_ = 0; // groups of the held kernel's range
    staging_kernels_t staging_;
    unit_geom_t geom_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
