// PReLU on the gpu engine: forward, and backward with diff_weights reduced
// over the broadcast dims by a local-memory tree (two passes when several
// work-groups share one weight), weights broadcast over any dims, any
// blocked layouts up to 6 dims (prelu.cl).
#pragma once

#include <vector>

#include "common/prelu_pd.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_prelu_t : public primitive_t {
    struct pd_t : public ocl_pd_t<prelu_pd_t, ocl_prelu_t> {
        using ocl_pd_t<prelu_pd_t, ocl_prelu_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return generic  ? "ocl:prelu:any"
                   : planes ? "ocl:prelu:planes"
                            : "ocl:prelu:blocked";
        }

        bool generic = false;      // layout_t offsets
        bool int32 = false;        // 32-bit index arithmetic
        int vec = 1;               // elements per work-item (data kernels)
        bool w_lanes = false;      // weights vary along the vector lanes
        bool lane_pad = false;     // lanes may fall in block padding
        int64_t work = 0;          // work-items of the data kernel
        std::vector<int64_t> conf; // prelu_conf_t of prelu.cl
        // Backward diff_weights.
        std::vector<int64_t> dw_conf; // prelu_dw_conf_t of prelu.cl
        int64_t dw_count = 0;         // diff_weights positions (padded)
        bool dw_serial = false;       // one work-item per weight, no tree
        int64_t dw_groups = 1;        // work-groups per weight (tree)
        int64_t dw_lws = 1;           // tree work-group size (a power of 2)
        // Backward with per-channel weights over contiguous aligned planes
        // (prelu_bwd_planes): [N, C, S] views of src, diff_dst and
        // diff_src ({off0 (filled at execution), sn, sc}), chunks of
        // images a channel, the images of a chunk.
        bool planes = false;
        int64_t plane_views[3][3] = {};
        int64_t plane_chunks = 1, plane_ipc = 1;
        // The descriptors as the kernels address them: src, weights, dst
        // and the gradients, or beyond layout_max_ndims their fold
        // (fold_to_layout_dims); zero descriptors where absent.
        memory_desc_t k_src_ {}, k_weights_ {}, k_dst_ {}, k_diff_src_ {},
                k_diff_weights_ {}, k_diff_dst_ {};

    private:
        status_t check_data_types() const;
        void init_data_conf();
        void init_dw_conf(engine_t *engine);
        void init_planes(engine_t *engine);
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    status_t execute_dw(const exec_ctx_t &ctx) const;
    status_t execute_planes(const exec_ctx_t &ctx) const;
    // Forward: prelu_fwd. Backward: prelu_bwd_data, prelu_dw_tree,
    // prelu_dw_final, prelu_dw_serial; or prelu_bwd_planes,
    // prelu_planes_final.
    std::vector<ocl_kernel_t> kernels_;
    device_table_t conf_, dw_conf_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
