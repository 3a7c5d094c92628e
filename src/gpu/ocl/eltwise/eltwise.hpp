// Eltwise on the gpu engine, forward (with fused binary post-ops) and
// backward, every algorithm and data type the CPU side takes, any blocked
// layouts (one dense layout shared by all tensors takes the linear path).
#pragma once

#include <string>

#include "common/eltwise_pd.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_eltwise_t : public primitive_t {
    struct pd_t : public ocl_pd_t<eltwise_pd_t, ocl_eltwise_t> {
        using ocl_pd_t<eltwise_pd_t, ocl_eltwise_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return dense ? "ocl:eltwise:dense" : "ocl:eltwise:any";
        }

        bool dense = false; // one dense layout: linear offsets
        dim_t work = 0; // elements: the output's padded volume
        int vec = 1; // elements a work-item on the dense forward path
        post_ops_conf_t post_ops;
        // The tensors as the kernels address them (src or data, dst or
        // diff_dst, dst or diff_src): the descriptors, or beyond
        // layout_max_ndims their fold (fold_to_layout_dims).
        memory_desc_t kernel_md[3];
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t kernel_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
