// Binary on the gpu engine: every algorithm (select included), broadcast
// of any source over any dims, any blocked layouts, the data types the
// kernels load (f32, f16, bf16, s8, u8, s32) mixed freely, src0/src1
// scales, eltwise/sum/binary post-ops, in-place.
//  - ocl_binary_t<true>  ("ocl:binary:vec"): tensors linear in dst's loop
//    nest, dst without padding, no binary post-op: vectorised, offsets
//    from the nest (one division per merged part and work-item);
//  - ocl_binary_t<false> ("ocl:binary:any"): any layouts through per-dim
//    offset tables, dst's padding zeroed; the last entry of the list.
#pragma once

#include "common/binary_pd.hpp"
#include "gpu/ocl/ocl_nest.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

template <bool vec>
struct ocl_binary_t : public primitive_t {
    struct pd_t : public ocl_pd_t<binary_pd_t, ocl_binary_t> {
        using ocl_pd_t<binary_pd_t, ocl_binary_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return vec ? "ocl:binary:vec" : "ocl:binary:any";
        }

        post_ops_conf_t post_ops;
        data_type_t prev_dt = dnnl_f32; // dst as the sum post-op reads it
        nest_t nest;                    // vec
        int width = 1;                  // vec: elements per work-item
        table_space_t space = {};       // any: dst's padded dims
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t kernel_;
    device_table_t tables_; // any
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
