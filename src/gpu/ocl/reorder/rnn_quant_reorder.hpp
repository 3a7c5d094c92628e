// The int8 RNN quantizing reorders on the gpu engine (ocl:rnn_quant:data,
// ocl:rnn_quant:weights): the requests, refusals and arithmetic of the
// CPU's rnn_quant:* (common/rnn_quant_conf.hpp), run by rnn_quant.cl.
// Also between cpu and gpu memory, as the other gpu reorders
// (ocl:cross_engine:rnn_quant:*): the cpu side's elements pass through a
// scratchpad image; a cpu destination with gaps between its elements is
// copied into the image first, so the gaps come back unchanged.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <type_traits>

#include "common/reorder_pd.hpp"
#include "common/rnn_quant_conf.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// rnn_quant.cl's rq_shape_t, byte for byte.
struct rnn_quant_shape_t {
    int64_t dims[5] = {1, 1, 1, 1, 1};
    int64_t sstr[5] = {}, dstr[5] = {};
    int64_t s0 = 0, d0 = 0;
    int64_t sc3 = 0, sc4 = 0;
};

struct ocl_rnn_quant_reorder_t : public primitive_t {
    struct pd_t : public ocl_pd_t<reorder_pd_t, ocl_rnn_quant_reorder_t> {
        using ocl_pd_t<reorder_pd_t, ocl_rnn_quant_reorder_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override;

        rnn_quant_conf_t conf;
        // Which side lives on the cpu engine.
        enum class xfer_t { none, to_gpu, to_cpu };
        xfer_t xfer = xfer_t::none;
        rnn_quant_shape_t shape; // offsets: the cpu side's in its image
        int64_t n = 0;           // elements
        size_t src_reach = 0, dst_reach = 0;    // bytes the gpu buffers need
        size_t host_offset = 0, host_bytes = 0; // the cpu side's image
        bool prefill = false; // to_cpu: the image starts as the cpu dst
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    status_t quantize(cl_command_queue queue, cl_mem src, cl_mem dst) const;
    ocl_kernel_t kernel_;
    // The scales the kernel reads (the data scale, or the weights'
    // scales: one, or one per gate and channel), made once in init().
    std::shared_ptr<std::remove_pointer<cl_mem>::type> scales_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
