// Matmul with weight decompression on the gpu engine (see
// decompress_matmul.hpp).
#include "gpu/ocl/matmul/decompress_matmul.hpp"

#include "common/memory.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/gemm/gemm_kernel.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

constexpr int conf_ndims = 12; // MAX_NDIMS of decompress_weights.cl

void put_dims(std::vector<int64_t> &out, const dim_t *v, int n) {
    for (int d = 0; d < conf_ndims; ++d)
        out.push_back(d < n ? v[d] : 0);
}

} // namespace

status_t ocl_decompress_matmul_pd_t::init(engine_t *engine) {
    if (!as_ocl_engine(engine)) return dnnl_unimplemented;
    DNNL_CHECK(init_nested(engine, true));
    // The mask's descriptor for queries (the nested matmul writes it).
    if (attr_.dropout.on()) DNNL_CHECK(init_dropout_mask());
    const memory_desc_t &w = weights_md_;
    const int nd = w.ndims;
    cols = w.dims[nd - 1];
    rows = 1;
    for (int d = 0; d < nd - 1; ++d)
        rows *= w.dims[d];
    conf.clear();
    put_dims(conf, w.dims, nd);
    put_dims(conf, w.format_desc.blocking.strides, nd);
    conf.push_back(w.offset0);
    put_dims(conf, scale.group, nd);
    put_dims(conf, scale.stride, nd);
    put_dims(conf, zp.group, nd);
    put_dims(conf, zp.stride, nd);
    name_ = std::string("ocl:decompress:") + nested_pd->name();
    return dnnl_success;
}

status_t ocl_decompress_matmul_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<ocl_decompress_matmul_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(ocl_decompress_matmul_t));
    return dnnl_success;
}

status_t ocl_decompress_matmul_t::init(engine_t *engine) {
    DNNL_CHECK(nested_matmul_t::init(engine));
    const ocl_decompress_matmul_pd_t *pd = pd_();
    kernel_options_t opts;
    opts.define("NDIMS", pd->weights_md().ndims);
    define_int_type(opts, "Q", pd->weights_md().data_type);
    if (pd->scale.on) {
        opts.define("WITH_SCALE");
        define_data_type(opts, "S", pd->scale.dt);
    }
    if (pd->zp.on) {
        opts.define("WITH_ZP");
        define_int_type(opts, "Z", pd->zp.dt);
    }
    DNNL_CHECK(conf_.create(engine, pd->conf));
    return create_kernel(engine, "matmul/decompress_weights.cl", opts,
            "decompress_weights", kernel_);
}

status_t ocl_decompress_matmul_t::execute(const exec_ctx_t &ctx) const {
    const ocl_decompress_matmul_pd_t *pd = pd_();
    const int S = DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS;
    const int Z = DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS;
    cl_mem q = mem_of(ctx, DNNL_ARG_WEIGHTS);
    cl_mem sc = pd->scale.on ? mem_of(ctx, S) : nullptr;
    cl_mem zp = pd->zp.on ? mem_of(ctx, Z) : nullptr;
    cl_mem w = scratchpad_of(ctx);
    const dim_t count = pd->rows * pd->cols;
    if (count > 0) {
        if (!w || (pd->scale.on && !sc) || (pd->zp.on && !zp)) {
            verbose_error("matmul", "gpu: weight decompression is missing "
                                    "the scratchpad, scales or zero points");
            return dnnl_invalid_arguments;
        }
        DNNL_CHECK(check_buffer(q, pd->weights_md(), "matmul weights"));
        if (pd->scale.on)
            DNNL_CHECK(check_buffer(sc, pd->scale.count, pd->scale.dt,
                    "matmul weight scales"));
        if (pd->zp.on)
            DNNL_CHECK(check_buffer(zp, pd->zp.count, pd->zp.dt,
                    "matmul weight zero points"));
        kernel_args_t args;
        args.mem(q).mem(sc).mem(zp).mem(w).mem(conf_.mem()).i64(pd->rows);
        DNNL_CHECK(kernel_.enqueue(ctx,
                nd_range_t({(size_t)pd->cols, (size_t)pd->rows}, {64, 1}),
                args));
    }

    // The nested matmul on the f32 weights; the quantization arguments of
    // the weights stay here.
    engine_t *engine = ctx.stream()->engine();
    std::unique_ptr<memory_storage_t> storage;
    DNNL_CHECK(engine->create_memory_storage(
            storage, count > 0 ? (void *)w : nullptr, md_size(pd->f32_weights_md)));
    memory_t wei(engine, pd->f32_weights_md, std::move(storage));
    std::vector<exec_arg_t> args {{DNNL_ARG_WEIGHTS, &wei}};
    for (const exec_arg_t &a : ctx.args())
        if (a.arg != DNNL_ARG_WEIGHTS && a.arg != DNNL_ARG_SCRATCHPAD
                && a.arg != S && a.arg != Z)
            args.push_back(a);
    exec_ctx_t nctx(ctx.stream(), std::move(args));
    nctx.set_resources(ctx.resources());
    return nested_->execute(nctx);
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
