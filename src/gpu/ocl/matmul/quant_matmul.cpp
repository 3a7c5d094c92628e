// The quantization-grid matmul on the gpu engine (quant_matmul.hpp): which
// requests it takes, the configuration table its kernel reads, the launch.
#include "gpu/ocl/matmul/quant_matmul.hpp"

#include "common/matmul_quant_grid.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

constexpr int kdims = 6; // the kernel's dims (and the post-op chain's)

// The quantization entries in the table's order (quant_matmul.cl).
struct entry_ref_t {
    bool scale;
    int arg;
};
constexpr entry_ref_t entries[] = {{true, DNNL_ARG_SRC},
        {true, DNNL_ARG_WEIGHTS}, {true, DNNL_ARG_DST}, {false, DNNL_ARG_SRC},
        {false, DNNL_ARG_WEIGHTS}, {false, DNNL_ARG_DST}};
constexpr const char *entry_names[] = {
        "SSC", "WSC", "DSC", "SZP", "WZP", "DZP"};

const quant_entry_t *entry_of(const primitive_attr_t &a, const entry_ref_t &r) {
    return r.scale ? a.scales.get(r.arg) : a.zero_points.get(r.arg);
}

status_t refuse(const char *why) {
    verbose_check("matmul", "ocl:ref_quant: %s", why);
    return dnnl_unimplemented;
}

// Strides of a tensor over the dst's dims, 0 where it broadcasts.
void put_strides(std::vector<int64_t> &c, const memory_desc_t &md) {
    for (int d = 0; d < kdims; ++d)
        c.push_back(d < md.ndims && md.dims[d] > 1
                            ? md.format_desc.blocking.strides[d]
                            : 0);
}

} // namespace

status_t ocl_quant_matmul_t::pd_t::init(engine_t *) {
    DNNL_CHECK(check_matmul_quant_grid(*this, "ocl:ref_quant"));
    if (dst_md_.ndims > kdims) return refuse("more than six dims");
    if (with_bias() && !kernel_supports(bias_md_.data_type))
        return refuse("bias data type");
    DNNL_CHECK(init_formats());
    for (const entry_ref_t &r : entries)
        if (const quant_entry_t *e = entry_of(attr_, r))
            if (e->is_on_host) return refuse("host-scalar scales");
    DNNL_CHECK(post_ops.init(attr_.post_ops, dst_md_, "matmul"));

    const int nd = dst_md_.ndims;
    rows = 1;
    for (int d = 0; d < nd - 1; ++d) rows *= dst_md_.dims[d];
    // quant_conf (quant_matmul.cl): nd, M, N, K, rows, dst dims, strides
    // of src, weights, dst and bias, their offsets, then per entry its
    // groups and multipliers.
    conf.clear();
    conf.push_back(nd);
    conf.push_back(dst_md_.dims[nd - 2]);
    conf.push_back(dst_md_.dims[nd - 1]);
    conf.push_back(src_md_.dims[nd - 1]);
    conf.push_back(rows);
    for (int d = 0; d < kdims; ++d)
        conf.push_back(d < nd ? dst_md_.dims[d] : 1);
    put_strides(conf, src_md_);
    put_strides(conf, weights_md_);
    put_strides(conf, dst_md_);
    put_strides(conf, bias_md_);
    for (const memory_desc_t *md :
            {&src_md_, &weights_md_, &dst_md_, &bias_md_})
        conf.push_back(md == &bias_md_ && !with_bias() ? 0 : md->offset0);
    const memory_desc_t *on[] = {
            &src_md_, &weights_md_, &dst_md_, &src_md_, &weights_md_, &dst_md_};
    for (int i = 0; i < 6; ++i) {
        quant_index_t q;
        if (const quant_entry_t *e = entry_of(attr_, entries[i]))
            q.init(*e, *on[i]);
        for (int d = 0; d < kdims; ++d)
            conf.push_back(q.group[d] > 0 ? q.group[d] : 1);
        for (int d = 0; d < kdims; ++d) conf.push_back(q.mul[d]);
    }
    return dnnl_success;
}

status_t ocl_quant_matmul_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t o;
    define_data_type(o, "SRC", pd->src_md().data_type);
    define_data_type(o, "WEI", pd->weights_md().data_type);
    define_data_type(o, "DST", pd->dst_md().data_type);
    define_data_type(
            o, "BIA", pd->with_bias() ? pd->bias_md().data_type : dnnl_f32);
    const primitive_attr_t &a = *pd->attr();
    for (int i = 0; i < 6; ++i) {
        const quant_entry_t *e = entry_of(a, entries[i]);
        define_data_type(o, entry_names[i], e ? e->data_type : dnnl_f32);
    }
    pd->post_ops.define(o);
    if (pd->post_ops.has_sum()) o.define("WITH_SUM");
    DNNL_CHECK(conf_.create(engine, pd->conf));
    return create_kernel(
            engine, "matmul/quant_matmul.cl", o, "quant_matmul", kernel_);
}

status_t ocl_quant_matmul_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const int nd = pd->dst_md().ndims;
    const int64_t N = pd->dst_md().dims[nd - 1];
    const int64_t K = pd->src_md().dims[nd - 1];
    if (pd->rows * N == 0) return dnnl_success;
    const cl_mem src = mem_of(ctx, DNNL_ARG_SRC),
                 wei = mem_of(ctx, DNNL_ARG_WEIGHTS),
                 dst = mem_of(ctx, DNNL_ARG_DST),
                 bias = pd->with_bias() ? mem_of(ctx, DNNL_ARG_BIAS) : nullptr;
    if (!dst || (K > 0 && (!src || !wei)) || (pd->with_bias() && !bias)) {
        verbose_error("matmul", "ocl:ref_quant: a tensor has no gpu buffer");
        return dnnl_invalid_arguments;
    }
    kernel_args_t args;
    args.mem(src).mem(wei).mem(dst).mem(bias);
    const primitive_attr_t &a = *pd->attr();
    for (const entry_ref_t &r : entries) {
        cl_mem m = nullptr;
        if (entry_of(a, r)) {
            const int arg =
                    (r.scale ? DNNL_ARG_ATTR_SCALES : DNNL_ARG_ATTR_ZERO_POINTS)
                    | r.arg;
            m = mem_of(ctx, arg);
            if (!m) {
                verbose_error("matmul",
                        "ocl:ref_quant: a scale or zero point argument is "
                        "missing");
                return dnnl_invalid_arguments;
            }
        }
        args.mem(m);
    }
    args.mem(conf_.mem());
    pd->post_ops.set_args(args, ctx);
    const size_t lx = 64;
    const size_t gx = (size_t)((N + (int64_t)lx - 1) / (int64_t)lx) * lx;
    return kernel_.enqueue(
            ctx, nd_range_t({gx, (size_t)pd->rows}, {lx, 1}), args);
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
