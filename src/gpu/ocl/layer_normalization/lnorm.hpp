// Layer normalization on the gpu engine: forward training / inference
// (statistics computed or given, saved when training, RMS
// normalization), backward data and backward with diff scale / shift;
// f32 / bf16 / f16 data (forward also s8 / u8, with per-tensor src and
// dst scales), f32 statistics, scale and shift. Tensors are
// [rows, C] views; one unit (ocl_unit_loop.clh) per row for the forward
// and diff_src kernels, one per channel for diff scale / shift (rows
// split into chunks when there are few channels, their partial sums
// combined by a second kernel). On GPUs rows that fit the registers are
// read once ("ocl:lnorm:rows_held"), backward with diff scale / shift
// summed by the lanes that hold each channel; longer contiguous rows are
// read as vectors ("ocl:lnorm:rows_vec"). Layouts that do not merge into
// those views go through dense copies (ocl_staging.hpp).
#pragma once

#include "common/layer_normalization_pd.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_staging.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_lnorm_t : public primitive_t {
    struct pd_t : public ocl_pd_t<layer_normalization_pd_t, ocl_lnorm_t> {
        using ocl_pd_t<layer_normalization_pd_t, ocl_lnorm_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return row_cache ? "ocl:lnorm:rows_held"
                   : vec > 1 ? "ocl:lnorm:rows_vec"
                             : "ocl:lnorm:rows";
        }

        // Backward with diff scale / shift.
        bool with_diff_ss() const {
            return desc()->prop_kind == dnnl_backward
                   && (use_scale() || use_shift());
        }

        // Staging indices: data tensors (fwd: src, dst; bwd: src,
        // diff_dst, diff_src), then mean and variance (-1 when unused).
        staging_t staging;
        int mean_k = -1, var_k = -1;
        int64_t rows = 0, c = 0;
        // Elements per vector along C (1, or 4 when the tensors are
        // contiguous and aligned there on GPUs; backward only with rows
        // that fit the registers).
        int vec = 1;
        bool f64 = false; // a data tensor is f64: kernels compute in double
        // Rows held in registers (lnorm_fwd_rows, lnorm_bwd_rows): vectors
        // of each tensor a lane holds (0: not taken), the unit slots of a
        // group and, backward, the slots launched (they loop over the
        // rows). Forward holds one tensor, backward two.
        static constexpr int max_row_cache = 8, max_fwd_row_cache = 16,
                             bwd_slots_per_cu = 4;
        int row_cache = 0;
        size_t row_lu = 1;
        int64_t row_slots = 0;
        bool rows_inner = false; // rows kernels: units along dim 0
        bool single_lane = false;
        // Backward with diff scale / shift: one unit per channel.
        bool ss_units_inner = true, ss_single = false;
        int64_t ss_chunks = 1;
        size_t partial_off = 0; // scratchpad bytes of the partial sums
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    status_t add_partial_sums(const exec_ctx_t &ctx, cl_mem scratch,
            int64_t poff, int64_t chunks, cl_mem dscale, cl_mem dshift) const;
    ocl_kernel_t rows_, ss_, ss_final_;
    staging_kernels_t staging_;
    unit_geom_t geom_, ss_geom_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
