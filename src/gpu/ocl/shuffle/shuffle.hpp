// Shuffle on the gpu engine, forward and backward, any axis and group
// size, any blocked layouts (beyond 6 dims where the dims around the axis
// merge), every data type (raw element
// copies; shuffle.cl).
#pragma once

#include <vector>

#include "common/shuffle_pd.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_shuffle_t : public primitive_t {
    struct pd_t : public ocl_pd_t<shuffle_pd_t, ocl_shuffle_t> {
        using ocl_pd_t<shuffle_pd_t, ocl_shuffle_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return generic ? "ocl:shuffle:any" : "ocl:shuffle:blocked";
        }

        bool generic = false;      // layout_t offsets
        bool int32 = false;        // 32-bit index arithmetic
        int vec = 1;               // elements per work-item
        int64_t work = 0;          // work-items
        std::vector<int64_t> conf; // shuffle_conf_t of shuffle.cl

    private:
        // The configuration of the tensors as the kernel addresses them.
        void init_conf(const memory_desc_t &in, const memory_desc_t &out,
                int axis);
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t kernel_;
    device_table_t conf_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
