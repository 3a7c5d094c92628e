// Group normalization on the gpu engine: forward training / inference
// (statistics computed or given; src / dst scales of 8-bit data; eltwise
// and binary post-ops), backward data and backward with diff scale /
// shift; f32 / bf16 / f16 / s8 / u8 forward, floating-point backward.
// Tensors are [N, C, spatial] views; a unit (ocl_unit_loop.clh) is one
// (n, group). Units with few siblings are split into chunks: partial
// statistics merged by a second kernel, then the normalization applied by
// chunks. Backward sums per (n, channel) first, derives diff scale /
// shift and per-unit sums from them, then writes diff_src. On GPUs long
// units are held on chip (src read once): a unit a group, or, over
// channels-last images, parts of images whose groups wait for one
// another. Layouts that
// do not merge into the views go through dense copies (ocl_staging.hpp).
#pragma once

#include "common/group_normalization_pd.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_staging.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Twin of gn_view_t in gnorm.cl.
struct gn_view_t {
    int64_t off0, sn, sg, so, si;
};

struct ocl_gnorm_t : public primitive_t {
    struct pd_t : public ocl_pd_t<group_normalization_pd_t, ocl_gnorm_t> {
        using ocl_pd_t<group_normalization_pd_t, ocl_gnorm_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return image_parts   ? "ocl:gnorm:image_parts_held"
                   : cache_local ? "ocl:gnorm:units_held"
                   : cache       ? "ocl:gnorm:units_cached"
                   : vec > 1     ? "ocl:gnorm:units_vec"
                                 : "ocl:gnorm:units";
        }
        // Forward with the unit held on chip (gnorm_fwd_cached): `cache`
        // vectors of 4 per lane in registers (0: not used) and
        // `cache_local` more in local memory, lanes as cache_geom() plans
        // them.
        static constexpr int max_cache = 16;
        // Local memory a group may take for held vectors and its tree: what
        // NVIDIA's driver gives a group (devices that report less keep to
        // theirs).
        static constexpr size_t max_held_local = 48 * 1024;
        int cache = 0, cache_local = 0;
        int64_t cache_vecs() const { return cpg * sp / 4; }
        unit_geom_t cache_geom(const device_info_t &dev, size_t max_wg) const;
        void plan_cache(const device_info_t &dev);
        // Whether `geom`'s lanes hold a unit with this split, and the
        // unit's channel coefficients (two a channel) fit the tree's
        // buffer of a float a lane.
        bool cache_fits(const unit_geom_t &geom) const {
            return (cache + cache_local) * (int64_t)geom.lr >= cache_vecs()
                   && 2 * cpg <= (int64_t)geom.lr;
        }
        // Forward over channels-last images cut into parts of part_points
        // points, each held on chip by a group of parts_lanes lanes
        // (gnorm_fwd_parts; `cache` + `cache_local` vectors a lane):
        // image_parts parts an image, 0 when not used.
        int64_t image_parts = 0, part_points = 0;
        size_t parts_lanes = 0;
        size_t sync_off = 0, words_off = 0; // scratchpad regions
        void plan_parts(const device_info_t &dev);
        // The most statistics words (4 bytes each) the parts may take:
        // 64 MiB of scratchpad.
        static constexpr int64_t max_parts_words = int64_t(16) << 20;
        // Forward: elements per vector when every unit is read as runs of
        // aligned vectors: nchw, one run of cpg x sp (space [1, cpg * sp /
        // vec]); nhwc, a run of cpg channels per point ([sp, cpg / vec]).
        int vec = 1;
        // Backward sums per (n, c): units (channel vectors of VEC when
        // the vectors run along channels) and the points each walks (in
        // vectors when they run along the points).
        int64_t nc_units() const { return n * c / (ch_inner ? vec : 1); }
        int64_t nc_points() const { return ch_inner ? sp : sp / vec; }
        int64_t fwd_o() const { return ch_inner ? sp : vec > 1 ? 1 : cpg; }
        int64_t fwd_i() const {
            return ch_inner ? cpg / vec : vec > 1 ? cpg * sp / vec : sp;
        }

        // fwd: src, dst; bwd: src, diff_dst, diff_src.
        staging_t staging;
        post_ops_conf_t post_ops;
        int64_t n = 0, c = 0, sp = 0, g = 0, cpg = 0;
        bool ch_inner = false;    // a unit's inner part is its channels
        bool single_lane = false; // units of (n, group)
        int64_t chunks = 1;       // fwd statistics
        size_t partial_off = 0, stats_off = 0; // fwd scratchpad regions
        // Backward sums per (n, c).
        bool nc_units_inner = false, nc_single = false;
        int64_t nc_chunks = 1;
        size_t ab_off = 0, us_off = 0;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    status_t execute_fwd(const exec_ctx_t &ctx) const;
    status_t execute_bwd(const exec_ctx_t &ctx) const;
    status_t execute_parts(const exec_ctx_t &ctx, const tensor_buf_t &src,
            const tensor_buf_t &dst, cl_mem mean, cl_mem var, cl_mem scale,
            cl_mem shift, cl_mem ssc, cl_mem dsc) const;
    gn_view_t unit_view(int k, int64_t off0) const;
    ocl_kernel_t fwd_, stats_final_; // fwd (fwd_: the cached kernel if any)
    ocl_kernel_t parts_reset_;       // with gnorm_fwd_parts as fwd_
    size_t parts_groups_ = 0;        // groups of gnorm_fwd_parts' range
    ocl_kernel_t nc_, nc_final_, dss_, unit_, apply_; // bwd
    staging_kernels_t staging_;
    unit_geom_t geom_, nc_geom_;
    // Unit slots the held kernel's range has when the units it loops over
    // are long (gnorm_fwd_cached with local memory).
    size_t held_slots_ = 0;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
