// The gpu int8 RNN quantizing reorders: the shared checks, the kernel's
// view of the tensors, the scales' buffer, and execution with the cpu
// side's image for cross-engine requests (see rnn_quant_reorder.hpp).
#include "gpu/ocl/reorder/rnn_quant_reorder.hpp"

#include <algorithm>
#include <vector>

#include "common/memory.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_types.hpp"
#include "gpu/ocl/ocl_utils.hpp"
#include "gpu/ocl/reorder/reorder.hpp"
#include "gpu/ocl/reorder/reorder_plan.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

const char *ocl_rnn_quant_reorder_t::pd_t::name() const {
    if (xfer == xfer_t::none)
        return conf.weights ? "ocl:rnn_quant:weights" : "ocl:rnn_quant:data";
    return conf.weights ? "ocl:cross_engine:rnn_quant:weights"
                        : "ocl:cross_engine:rnn_quant:data";
}

status_t ocl_rnn_quant_reorder_t::pd_t::init(engine_t *) {
    DNNL_CHECK(init_rnn_quant_conf(*attr(), *src_md(), *dst_md(), conf));
    const memory_desc_t &s = *src_md(), &d = *dst_md();
    const bool src_cpu = desc()->src_engine_kind == dnnl_cpu;
    const bool dst_cpu = desc()->dst_engine_kind == dnnl_cpu;
    if (src_cpu && dst_cpu) return dnnl_unimplemented;
    xfer = src_cpu ? xfer_t::to_gpu : dst_cpu ? xfer_t::to_cpu : xfer_t::none;

    // Five dims, leading unit dims added; the same ndims on both sides
    // (the API checks equal dims).
    const int nd = s.ndims, lead = 5 - nd;
    for (int k = lead; k < 5; ++k) {
        shape.dims[k] = s.dims[k - lead];
        shape.sstr[k] = s.format_desc.blocking.strides[k - lead];
        shape.dstr[k] = d.format_desc.blocking.strides[k - lead];
    }
    shape.s0 = s.offset0;
    shape.d0 = d.offset0;
    // Weights scales per (gate, channel): dims 3 and 4 of 5-D weights,
    // the last dim (4 here) of projection weights.
    if (conf.per_channel()) {
        shape.sc3 = nd == 5 ? shape.dims[4] : 0;
        shape.sc4 = 1;
    }
    n = md_nelems(s);
    if (n == 0) return dnnl_success;

    const size_t ses = data_type_size(s.data_type);
    const size_t des = data_type_size(d.data_type);
    src_reach = (size_t)md_touched_elems(s, s.dims) * ses;
    dst_reach = (size_t)md_touched_elems(d, d.dims) * des;
    if (xfer == xfer_t::none) return dnnl_success;
    // The cpu side's elements from offset0 on, in a scratchpad.
    const bool to_gpu = xfer == xfer_t::to_gpu;
    const memory_desc_t &h = to_gpu ? s : d;
    const int64_t elems = md_touched_elems(h, h.dims) - h.offset0;
    const size_t es = to_gpu ? ses : des;
    host_offset = (size_t)h.offset0 * es;
    host_bytes = (size_t)elems * es;
    (to_gpu ? shape.s0 : shape.d0) = 0;
    // Gaps between a strided destination's elements come back unchanged.
    prefill = !to_gpu && elems != n;
    book_scratchpad(host_bytes);
    return dnnl_success;
}

status_t ocl_rnn_quant_reorder_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e) return dnnl_invalid_arguments;
    const rnn_quant_conf_t &c = pd->conf;
    std::vector<float> v = c.scales;
    if (!c.weights) v = {c.data_scale};
    if (v.empty()) v = {1.f}; // weights without scales
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(e->context(),
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(float),
            v.data(), &err);
    if (err != CL_SUCCESS) return check_cl(err, "clCreateBuffer");
    scales_.reset(m, [](cl_mem x) { clReleaseMemObject(x); });

    kernel_options_t opts;
    define_data_type(opts, "SRC", pd->src_md()->data_type);
    define_data_type(opts, "DST", pd->dst_md()->data_type);
    return create_kernel(
            engine, "reorder/rnn_quant.cl", opts, "rnn_quant", kernel_);
}

status_t ocl_rnn_quant_reorder_t::quantize(
        cl_command_queue queue, cl_mem src, cl_mem dst) const {
    const pd_t *pd = pd_();
    const rnn_quant_conf_t &c = pd->conf;
    kernel_args_t args;
    args.mem(src).mem(dst).value(pd->shape).i64(pd->n);
    args.mem(scales_.get()).f32(c.data_shift).i32(c.weights ? 0 : 1);
    const size_t lws = std::min<size_t>(256, kernel_.max_wg_size());
    return kernel_.enqueue(queue, nd_range_t({(size_t)pd->n}, {lws}), args);
}

status_t ocl_rnn_quant_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->n == 0) return dnnl_success;
    ocl_stream_t *stream = as_ocl_stream(ctx.stream());
    if (!stream) {
        verbose_error("reorder", "gpu: not an OpenCL stream");
        return dnnl_invalid_arguments;
    }
    cl_command_queue q = stream->queue();
    using xfer_t = pd_t::xfer_t;
    const cl_mem src = mem_of(ctx, DNNL_ARG_FROM),
                 dst = mem_of(ctx, DNNL_ARG_TO);
    if (src) DNNL_CHECK(check_reach(src, pd->src_reach, "source"));
    if (dst) DNNL_CHECK(check_reach(dst, pd->dst_reach, "destination"));
    if (pd->xfer == xfer_t::none) {
        if (!src || !dst) {
            verbose_error(
                    "reorder", "gpu: source or destination buffer missing");
            return dnnl_invalid_arguments;
        }
        return quantize(q, src, dst);
    }

    // One side is cpu memory: its host pointer and the gpu side's buffer.
    const bool to_gpu = pd->xfer == xfer_t::to_gpu;
    char *host = nullptr;
    cl_mem dev = nullptr;
    DNNL_CHECK(cross_engine_ends(
            ctx, to_gpu, src, dst, pd->host_offset, host, dev));
    const cl_mem image = scratchpad_of(ctx);
    if (!image) return dnnl_runtime_error;
    // Not blocking: the in-order queue orders the copies and the kernel,
    // and the stream's wait covers all (as for the other gpu reorders).
    if (to_gpu || pd->prefill)
        OCL_CHECK(clEnqueueWriteBuffer(q, image, CL_FALSE, 0, pd->host_bytes,
                host, 0, nullptr, nullptr));
    if (to_gpu) return quantize(q, image, dev);
    DNNL_CHECK(quantize(q, dev, image));
    OCL_CHECK(clEnqueueReadBuffer(
            q, image, CL_FALSE, 0, pd->host_bytes, host, 0, nullptr, nullptr));
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
