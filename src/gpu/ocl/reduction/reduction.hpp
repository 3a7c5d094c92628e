// Reduction on the gpu engine: every algorithm (max, min, sum, mul, mean,
// the Lp norms with p and eps) over any set of dims, eltwise / sum /
// binary post-ops, the data types the kernels load (f32, bf16, f16, s8,
// u8, s32). One unit (ocl_unit_loop.clh) per dst element, reduced by
// the lanes of a work-group along the innermost reduced part, or by one
// lane each when neighbouring dst elements are adjacent in src; few
// units over long reductions are split into chunks combined by a second
// kernel. Blocked or padded tensors go through dense copies
// (ocl_staging.hpp).
#pragma once

#include "common/reduction_pd.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_staging.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"
#include "gpu/ocl/reduction/reduction_plan.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_reduction_t : public primitive_t {
    struct pd_t : public ocl_pd_t<reduction_pd_t, ocl_reduction_t> {
        using ocl_pd_t<reduction_pd_t, ocl_reduction_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return plan.units_inner ? "ocl:reduction:lanes"
                                    : "ocl:reduction:rows";
        }

        staging_t staging; // src, dst
        post_ops_conf_t post_ops;
        red_plan_t plan;
        data_type_t prev_dt = dnnl_f32; // dst as the sum post-op reads it
        bool binary_po = false;
        bool single_lane = false;
        int64_t chunks = 1;
        size_t partial_off = 0;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t main_, final_;
    staging_kernels_t staging_;
    unit_geom_t geom_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
