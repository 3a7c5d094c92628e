// Sum on the gpu engine: dst = sum_i scale_i * src_i for any number of
// sources, any blocked layouts (different per tensor), the data types the
// kernels load; sources may alias dst.
//  - ocl_sum_t<true>  ("ocl:sum:vec"): tensors linear in dst's loop nest,
//    dst without padding: vectorised;
//  - ocl_sum_t<false> ("ocl:sum:any"): offset tables, dst's padding zeroed.
// Up to 8 sources per launch; more go in batches through an f32
// accumulator in the scratchpad.
#pragma once

#include <vector>

#include "common/sum_pd.hpp"
#include "gpu/ocl/ocl_nest.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

constexpr int sum_batch = 8; // sources per launch

template <bool vec>
struct ocl_sum_t : public primitive_t {
    struct pd_t : public ocl_pd_t<sum_pd_t, ocl_sum_t> {
        using ocl_pd_t<sum_pd_t, ocl_sum_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return vec ? "ocl:sum:vec" : "ocl:sum:any";
        }
        int n_batches() const {
            return (this->n_inputs() + sum_batch - 1) / sum_batch;
        }

        // vec: tensors 0 dst, 1 .. n sources, n + 1 the accumulator.
        nest_t nest;
        int width = 1;
        table_space_t space = {}; // any: dst's padded dims
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    std::vector<ocl_kernel_t> kernels_; // per batch
    device_table_t tables_;             // any
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
