// Reorder on the gpu engine: checks, plan, kernel build and execution,
// with the host <-> device copies of cross-engine reorders, and the gpu
// reorder list (the int8 RNN quantizing reorders first).
#include "gpu/ocl/reorder/reorder.hpp"

#include <algorithm>

#include "common/memory.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_types.hpp"
#include "gpu/ocl/ocl_utils.hpp"
#include "gpu/ocl/reorder/rnn_quant_reorder.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// Plain or blocked memory of a type the kernels convert (f8 and f64
// included).
bool md_ok(const memory_desc_t &md) {
    const data_type_t dt = md.data_type;
    return md.format_kind == dnnl_blocked && md.extra.flags == 0
            && !md_has_runtime_dims_or_strides(md)
            && (kernel_converts(dt) || dt == dnnl_f64);
}

const char *kernel_name(plan_kind_t k) {
    switch (k) {
        case plan_kind_t::linear: return "reorder_linear";
        case plan_kind_t::tiled: return "reorder_tiled";
        case plan_kind_t::generic: return "reorder_generic";
        case plan_kind_t::by_layout: return "reorder_by_layout";
        default: return nullptr;
    }
}

} // namespace

status_t check_reach(cl_mem buf, size_t need, const char *what) {
    size_t bytes = 0;
    OCL_CHECK(get_info(clGetMemObjectInfo, buf, CL_MEM_SIZE, bytes));
    if (bytes >= need) return dnnl_success;
    verbose_error("reorder", "gpu: the %s buffer holds %zu bytes, %zu needed",
            what, bytes, need);
    return dnnl_invalid_arguments;
}

status_t cross_engine_ends(const exec_ctx_t &ctx, bool to_gpu, cl_mem src,
        cl_mem dst, size_t host_offset, char *&host, cl_mem &dev) {
    host = static_cast<char *>(
            ctx.host_ptr(to_gpu ? DNNL_ARG_FROM : DNNL_ARG_TO));
    dev = to_gpu ? dst : src;
    if (!host || !dev) {
        verbose_error("reorder",
                "gpu: cross-engine reorder needs cpu memory on the %s side and "
                "gpu memory on the other",
                to_gpu ? "source" : "destination");
        return dnnl_invalid_arguments;
    }
    host += host_offset;
    return dnnl_success;
}

const char *ocl_reorder_t::pd_t::name() const {
    static const char *const same[] = {"ocl:reorder:empty", "ocl:reorder:copy",
            "ocl:reorder:linear", "ocl:reorder:tiled", "ocl:reorder:generic",
            "ocl:reorder:by_layout"};
    static const char *const cross[] = {"ocl:cross_engine:empty",
            "ocl:cross_engine:copy", "ocl:cross_engine:linear",
            "ocl:cross_engine:tiled", "ocl:cross_engine:generic",
            "ocl:cross_engine:by_layout"};
    const int k = direct ? 1 : (int)plan.kind;
    return xfer == xfer_t::none ? same[k] : cross[k];
}

status_t ocl_reorder_t::pd_t::init(engine_t *engine) {
    const memory_desc_t &s = *src_md(), &d = *dst_md();
    if (!md_ok(s) || !md_ok(d) || s.ndims != d.ndims) {
        verbose_check("reorder",
                "gpu: layouts other than blocked, runtime dims, "
                "compensation or unsupported data types");
        return dnnl_unimplemented;
    }
    if (!f64_supported(engine, "reorder", {&s, &d})) return dnnl_unimplemented;
    const bool src_cpu = desc()->src_engine_kind == dnnl_cpu;
    const bool dst_cpu = desc()->dst_engine_kind == dnnl_cpu;
    if (src_cpu && dst_cpu) return dnnl_unimplemented;
    xfer = src_cpu ? xfer_t::to_gpu : dst_cpu ? xfer_t::to_cpu : xfer_t::none;

    DNNL_CHECK(quant.init(*attr(), s, d));
    const bool plain = s.data_type == d.data_type && !quant.any();
    const int qdims = quant.dims_mask();
    DNNL_CHECK(make_plan(s, d, qdims, plain, plan));
    if (plan.kind == plan_kind_t::empty) return dnnl_success;

    const size_t es = data_type_size(s.data_type);
    src_reach = (size_t)md_touched_elems(s, s.dims) * es;
    dst_reach = (size_t)md_touched_elems(d, d.padded_dims)
            * data_type_size(d.data_type);
    if (xfer != xfer_t::none && plan.kind == plan_kind_t::copy) {
        // Same layout and type: the bytes go straight between the buffers.
        direct = true;
        host_bytes = (size_t)plan.work * es;
        const int64_t h = xfer == xfer_t::to_gpu ? plan.args.s0 : plan.args.d0;
        const int64_t g = xfer == xfer_t::to_gpu ? plan.args.d0 : plan.args.s0;
        host_offset = (size_t)h * es;
        gpu_offset = (size_t)g * es;
        return dnnl_success;
    }
    if (xfer != xfer_t::none) {
        // The cpu side's elements from offset0 on, in a scratchpad.
        const memory_desc_t &h = xfer == xfer_t::to_gpu ? s : d;
        memory_desc_t image = h;
        image.offset0 = 0;
        const int64_t n = xfer == xfer_t::to_gpu
                ? md_touched_elems(h, h.dims) - h.offset0
                : md_touched_elems(h, h.padded_dims) - h.offset0;
        host_offset = (size_t)h.offset0 * data_type_size(h.data_type);
        host_bytes = (size_t)n * data_type_size(h.data_type);
        // A sum reads the old destination, and gaps between a strided
        // destination's elements must come back unchanged.
        prefill = xfer == xfer_t::to_cpu
                && (quant.with_sum || n != md_nelems(h, true));
        if (xfer == xfer_t::to_gpu)
            DNNL_CHECK(make_plan(image, d, qdims, plain, plan));
        else
            DNNL_CHECK(make_plan(s, image, qdims, plain, plan));
        book_scratchpad(host_bytes);
    }
    quant.map_masks(plan.dim_map, s.ndims);
    for (int i = 0; i < reorder_quant_t::count; ++i)
        plan.args.qmask[i] = quant.kernel_mask[i];
    // 16 bytes of the narrower type a work-item: fixed by the types alone,
    // so that every plan of one type pair shares a program.
    vec = (int)(16 / std::min(es, data_type_size(d.data_type)));
    return dnnl_success;
}

status_t ocl_reorder_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const char *name = pd->direct ? nullptr : kernel_name(pd->plan.kind);
    if (!name) return dnnl_success; // copies need no kernel
    kernel_options_t opts;
    define_raw_type(opts, "SRC", pd->src_md()->data_type);
    define_raw_type(opts, "DST", pd->dst_md()->data_type);
    opts.define("IDX_LONG", pd->plan.idx_long ? 1 : 0);
    opts.define("VEC", pd->vec);
    pd->quant.define(opts, device_info_of(engine).has_fp64);
    return create_kernel(engine, "reorder/reorder.cl", opts, name, kernel_);
}

status_t ocl_reorder_t::convert(const exec_ctx_t &ctx, cl_command_queue queue,
        cl_mem src, cl_mem dst) const {
    const pd_t *pd = pd_();
    const reorder_plan_t &p = pd->plan;
    if (!src || !dst) {
        verbose_error("reorder", "gpu: source or destination buffer missing");
        return dnnl_invalid_arguments;
    }
    if (p.kind == plan_kind_t::copy) {
        const size_t es = data_type_size(pd->src_md()->data_type);
        const size_t so = (size_t)p.args.s0 * es, dof = (size_t)p.args.d0 * es;
        const size_t bytes = (size_t)p.work * es;
        if (src == dst) {
            if (so == dof) return dnnl_success; // in place: nothing moves
            if (so < dof + bytes && dof < so + bytes) {
                verbose_error("reorder", "gpu: overlapping in-place copy");
                return dnnl_invalid_arguments;
            }
        }
        OCL_CHECK(clEnqueueCopyBuffer(
                queue, src, dst, so, dof, bytes, 0, nullptr, nullptr));
        return dnnl_success;
    }
    kernel_args_t args;
    args.mem(src).mem(dst);
    auto idx = [&](int64_t v) {
        if (p.idx_long)
            args.i64(v);
        else
            args.i32((int32_t)v);
    };
    const size_t lws = std::min<size_t>(256, kernel_.max_wg_size());
    nd_range_t range;
    switch (p.kind) {
        case plan_kind_t::linear: {
            const int v = pd->vec;
            idx(p.work);
            idx(p.args.s0);
            idx(p.args.d0);
            args.i32(p.args.s0 % v == 0 && p.args.d0 % v == 0);
            range = nd_range_t({(size_t)((p.work + v - 1) / v)}, {lws});
            break;
        }
        case plan_kind_t::tiled: {
            args.value(p.args).i32(p.tile_x_log2).i32(p.tile_y_log2);
            idx(p.tiles_x);
            idx(p.tiles_y);
            args.i32(p.has_pad);
            const size_t tile = ((size_t)1 << p.tile_x_log2)
                    * (((size_t)1 << p.tile_y_log2) + 1);
            args.local(tile * data_type_size(pd->src_md()->data_type));
            range = nd_range_t({(size_t)p.work * lws}, {lws});
            break;
        }
        case plan_kind_t::generic:
        case plan_kind_t::by_layout:
            args.value(p.args);
            if (p.kind == plan_kind_t::by_layout) args.value(p.src_layout);
            idx(p.work);
            args.i32(p.has_pad);
            range = nd_range_t({(size_t)p.work}, {lws});
            break;
        default: return dnnl_runtime_error;
    }
    DNNL_CHECK(pd->quant.set_args(args, ctx, *pd->src_md()));
    return kernel_.enqueue(queue, range, args);
}

status_t ocl_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->plan.kind == plan_kind_t::empty) return dnnl_success;
    ocl_stream_t *stream = as_ocl_stream(ctx.stream());
    if (!stream) {
        verbose_error("reorder", "gpu: not an OpenCL stream");
        return dnnl_invalid_arguments;
    }
    cl_command_queue q = stream->queue();
    using xfer_t = pd_t::xfer_t;
    const cl_mem src = mem_of(ctx, DNNL_ARG_FROM), dst = mem_of(ctx, DNNL_ARG_TO);
    if (src) DNNL_CHECK(check_reach(src, pd->src_reach, "source"));
    if (dst) DNNL_CHECK(check_reach(dst, pd->dst_reach, "destination"));
    if (pd->xfer == xfer_t::none) return convert(ctx, q, src, dst);

    // One side is cpu memory: its host pointer and the gpu side's buffer.
    const bool to_gpu = pd->xfer == xfer_t::to_gpu;
    char *host = nullptr;
    cl_mem dev = nullptr;
    DNNL_CHECK(cross_engine_ends(
            ctx, to_gpu, src, dst, pd->host_offset, host, dev));
    // Copies to the gpu do not block: the in-order queue runs them before
    // the conversion. Copies to the cpu block, so that the host memory is
    // complete when the execution returns: a runtime may read the host
    // side of a later non-blocking write before the queue reaches it
    // (NVIDIA's did: an f64 gpu -> cpu -> gpu chain without a wait
    // carried stale values on an H200, and passes with this).
    if (pd->direct) {
        if (to_gpu)
            OCL_CHECK(clEnqueueWriteBuffer(q, dev, CL_FALSE, pd->gpu_offset,
                    pd->host_bytes, host, 0, nullptr, nullptr));
        else
            OCL_CHECK(clEnqueueReadBuffer(q, dev, CL_TRUE, pd->gpu_offset,
                    pd->host_bytes, host, 0, nullptr, nullptr));
        return dnnl_success;
    }
    const cl_mem image = scratchpad_of(ctx);
    if (!image) return dnnl_runtime_error;
    if (to_gpu || pd->prefill)
        OCL_CHECK(clEnqueueWriteBuffer(q, image, CL_FALSE, 0, pd->host_bytes,
                host, 0, nullptr, nullptr));
    if (to_gpu) return convert(ctx, q, image, dev);
    DNNL_CHECK(convert(ctx, q, dev, image));
    OCL_CHECK(clEnqueueReadBuffer(q, image, CL_TRUE, 0, pd->host_bytes, host,
            0, nullptr, nullptr));
    return dnnl_success;
}

const impl_list_item_t *reorder_impl_list() {
    static const impl_list_item_t list[] = {
            // Only requests with RNN quantization parameters.
            {create_pd<ocl_rnn_quant_reorder_t::pd_t, reorder_desc_t>},
            {create_pd<ocl_reorder_t::pd_t, reorder_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
