// Reorder on the gpu engine: any two blocked layouts of the same dims,
// f32/f16/bf16/s8/u8/s32 conversions, scales and zero points with any
// masks, and the sum post-op; also between cpu and gpu memory (the
// descriptor's engine is the gpu one). A cross-engine reorder copies the
// cpu side's bytes to or from a gpu scratchpad and converts there; when the
// layouts and types are the same it copies straight into (or out of) the
// gpu buffer. Copies are queued on the stream without blocking: as in
// oneDNN, a gpu -> cpu result is in the cpu buffer once the stream has been
// waited on, and a cpu source must stay unchanged until then.
#pragma once

#include "common/reorder_pd.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/reorder/reorder_plan.hpp"
#include "gpu/ocl/reorder/reorder_quant.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// dnnl_invalid_arguments when `buf` holds fewer than `need` bytes (a
// user buffer smaller than its descriptor says), before any launch reads
// or writes past it.
status_t check_reach(cl_mem buf, size_t need, const char *what);
// The two ends of a cross-engine reorder: the cpu side's host pointer
// (advanced by host_offset bytes) and the gpu side's buffer, or
// dnnl_invalid_arguments with a verbose line when either is missing.
status_t cross_engine_ends(const exec_ctx_t &ctx, bool to_gpu, cl_mem src,
        cl_mem dst, size_t host_offset, char *&host, cl_mem &dev);

struct ocl_reorder_t : public primitive_t {
    struct pd_t : public ocl_pd_t<reorder_pd_t, ocl_reorder_t> {
        using ocl_pd_t<reorder_pd_t, ocl_reorder_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override;

        // Which side lives on the cpu engine.
        enum class xfer_t { none, to_gpu, to_cpu };
        xfer_t xfer = xfer_t::none;
        reorder_quant_t quant;
        // Over the gpu-side descriptors: the cpu side replaced by its
        // image in the scratchpad (offset0 moved to the scratchpad's start).
        reorder_plan_t plan;
        bool direct = false; // cross-engine, same bytes: one host copy
        bool prefill = false; // to_cpu: scratchpad starts as the cpu dst
        size_t host_offset = 0; // bytes: where the cpu side's data starts
        size_t host_bytes = 0; // bytes moved between host and device
        size_t gpu_offset = 0; // bytes: direct copies' gpu-side start
        int vec = 1; // linear kernel: elements a work-item
        // Bytes of a buffer the source and destination reach into
        // (checked against the gpu buffers before every launch).
        size_t src_reach = 0, dst_reach = 0;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    status_t convert(const exec_ctx_t &ctx, cl_command_queue queue, cl_mem src,
            cl_mem dst) const;
    ocl_kernel_t kernel_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
