// Local response normalization on the gpu engine, across and within
// channels, forward (window terms kept in the workspace in training) and
// backward (from the workspace, or recomputing the window terms), any
// blocked layouts, f32 / bf16 / f16 (lrn.cl).
#pragma once

#include <vector>

#include "common/lrn_pd.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_lrn_t : public primitive_t {
    struct pd_t : public ocl_pd_t<lrn_pd_t, ocl_lrn_t> {
        using ocl_pd_t<lrn_pd_t, ocl_lrn_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return planes ? "ocl:lrn:planes"
                    : generic ? "ocl:lrn:any"
                              : "ocl:lrn:blocked";
        }

        bool generic = false;      // layout_t offsets
        bool int32 = false;        // 32-bit index arithmetic
        int64_t work = 0;          // work-items
        float alpha_s = 0;         // alpha over the window's nominal size
        std::vector<int64_t> conf; // lrn_conf_t of lrn.cl
        // Across channels over contiguous planes (lrn_fwd_planes and,
        // with a workspace, lrn_bwd_planes; they take no lrn_conf_t): VEC
        // points a work-item, channel blocks of `block`; the [N, C, S]
        // views of src, dst and the workspace (zero when absent), or of
        // src, diff_dst, diff_src and the workspace.
        bool planes = false;
        int vec = 1;
        int64_t points = 0, block = 0, blocks = 0;
        view3_t views[4] = {};

    private:
        void init_conf();
        void plan_planes(const device_info_t &dev);
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    status_t execute_planes(const exec_ctx_t &ctx) const;
    ocl_kernel_t kernel_;
    device_table_t conf_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
