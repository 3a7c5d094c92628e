// Softmax and logsoftmax on the gpu engine, forward (src / dst scales,
// eltwise and binary post-ops) and backward, any axis, the data types of
// the CPU side. Each tensor is seen as [outer, axis, inner]; a softmax
// (one unit of ocl_unit_loop.clh) is reduced by the lanes of a
// work-group: along the axis when it is contiguous ("ocl:softmax:rows"),
// or with neighbouring units in neighbouring work-items when inner is
// ("ocl:softmax:lanes"); contiguous rows that fit the lanes' registers are
// read once, as vectors ("ocl:softmax:rows_vec", GPUs; forward and
// backward). Tensors whose layouts do not merge into those
// three dims (blocked ones) go through dense copies (ocl_staging.hpp).
#pragma once

#include "common/softmax_pd.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_staging.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_softmax_t : public primitive_t {
    struct pd_t : public ocl_pd_t<softmax_pd_t, ocl_softmax_t> {
        using ocl_pd_t<softmax_pd_t, ocl_softmax_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return units_inner ? "ocl:softmax:lanes"
                   : row_cache ? "ocl:softmax:rows_vec"
                               : "ocl:softmax:rows";
        }

        staging_t staging; // fwd: src, dst; bwd: dst, diff_dst, diff_src
        post_ops_conf_t post_ops;
        bool units_inner = false;
        bool single_lane = false; // see single_lane_units()
        bool binary_po = false;
        int64_t outer = 0, axis_len = 0, inner = 0;
        // Contiguous rows kept in registers: vectors of row_vec elements,
        // row_cache of them per lane (0: not taken; backward holds that
        // many of dst and of diff_dst).
        static constexpr int row_vec = 4, max_row_cache = 16;
        int row_cache = 0;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t kernel_;
    staging_kernels_t staging_;
    unit_geom_t geom_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
