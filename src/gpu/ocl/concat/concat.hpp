// Concat on the gpu engine: any axis, any number of sources, any blocked
// layouts (different per source), zero-sized sources, per-source scales,
// dst of another data type. Each source is copied into its slice of dst
// by one launch, then dst's padding is zeroed.
//  - ocl_concat_t<true>  ("ocl:concat:vec"): a source linear with its
//    slice (same blocking, slices starting on block boundaries) moves by
//    vectors, bit-exact when types match and no scale applies; other
//    sources take offset tables. Declines when no source is linear.
//  - ocl_concat_t<false> ("ocl:concat:any"): offset tables for all.
#pragma once

#include <vector>

#include "common/concat_pd.hpp"
#include "gpu/ocl/ocl_nest.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

template <bool vec>
struct ocl_concat_t : public primitive_t {
    struct pd_t : public ocl_pd_t<concat_pd_t, ocl_concat_t> {
        using ocl_pd_t<concat_pd_t, ocl_concat_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return vec ? "ocl:concat:vec" : "ocl:concat:any";
        }

        // How one source moves.
        struct plan_t {
            bool by_nest = false;
            nest_t nest; // source 0, slice 1
            int width = 1;
            table_space_t space = {}; // tables: the source's dims
            dim_t work = 0;           // work-items (0: nothing to copy)
        };
        std::vector<plan_t> plans;
        table_space_t dst_space = {}; // dst's padded dims
        bool zero_pad = false;
        // dst and the sources as the kernels address them (beyond
        // table_max_ndims, their fold around the axis), and the axis there.
        std::vector<memory_desc_t> kernel_md;
        int kernel_axis = 0;
        const memory_desc_t &kernel_dst() const { return kernel_md[0]; }
        const memory_desc_t &kernel_src(int i) const {
            return kernel_md[i + 1];
        }
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    std::vector<ocl_kernel_t> kernels_; // per source
    std::vector<int64_t> tab_start_;    // per source, into tables_
    ocl_kernel_t zero_pad_;
    int64_t zero_pad_start_ = 0;
    device_table_t tables_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
