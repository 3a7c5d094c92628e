// Resampling on the gpu engine, nearest and linear, forward (fused
// eltwise / sum / binary post-ops) and backward, 1D to 3D, any blocked
// layouts (channel vectors where every tensor keeps channels contiguous):
// resampling.cl, with per-primitive tables of taps and output ranges.
#pragma once

#include <vector>

#include "common/resampling_pd.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_resampling_t : public primitive_t {
    struct pd_t : public ocl_pd_t<resampling_pd_t, ocl_resampling_t> {
        using ocl_pd_t<resampling_pd_t, ocl_resampling_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return generic ? "ocl:resampling:any" : "ocl:resampling:blocked";
        }

        bool generic = false;      // layout_t offsets
        bool int32 = false;        // 32-bit index arithmetic
        bool out_dense = false;    // written tensor dense in its walk order
        int vec = 1;               // channels per work-item
        int64_t work = 0;          // work-items
        std::vector<int64_t> conf; // rs_conf_t of resampling.cl
        std::vector<int64_t> tab;  // taps and output ranges per dim
        post_ops_conf_t post_ops;

    private:
        status_t check_data_types() const;
        void init_conf();
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t kernel_;
    device_table_t conf_, tab_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
