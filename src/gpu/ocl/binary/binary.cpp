// Binary on the gpu engine: checks, kernel specialisation, launch, and the
// implementation list.
#include "gpu/ocl/binary/binary.hpp"

#include <algorithm>

#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

data_type_t scale_dt(const binary_pd_t &pd, int i) {
    return pd.with_scale(i)
                   ? pd.attr()->scales.get(DNNL_ARG_SRC_0 + i)->data_type
                   : dnnl_f32;
}

bool has_binary_post_op(const post_ops_t &po) {
    for (const auto &e : po.entries)
        if (e.kind == post_op_kind_t::binary) return true;
    return false;
}

} // namespace

template <bool vec>
status_t ocl_binary_t<vec>::pd_t::init(engine_t *) {
    if (!this->attr_ok()) {
        verbose_check("binary", "gpu: unsupported attributes");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(this->init_formats());
    std::vector<const memory_desc_t *> tensors = {this->dst_md()};
    for (int i = 0; i < this->n_srcs(); ++i) tensors.push_back(this->src_md(i));
    size_t max_size = 1;
    for (const memory_desc_t *md : tensors) {
        if (!kernel_converts(md->data_type)) {
            verbose_check("binary", "gpu: data type not supported");
            return dnnl_unimplemented;
        }
        // The nest merges dims that stay contiguous together; the offset
        // tables hold at most table_max_ndims.
        if (!vec && md->ndims > table_max_ndims) {
            verbose_check("binary",
                    "gpu: more than %d dims that do not merge into fewer",
                    table_max_ndims);
            return dnnl_unimplemented;
        }
        max_size = std::max(max_size, data_type_size(md->data_type));
    }
    for (int i = 0; i < 2; ++i)
        if (!kernel_supports(scale_dt(*this, i))) {
            verbose_check("binary", "gpu: scale data type not supported");
            return dnnl_unimplemented;
        }
    const post_ops_t &po = this->attr()->post_ops;
    DNNL_CHECK(post_ops.init(po, *this->dst_md(), "binary"));
    prev_dt = this->dst_md()->data_type;
    for (const auto &e : po.entries)
        if (e.kind == post_op_kind_t::sum && e.sum_dt != dnnl_data_type_undef)
            prev_dt = e.sum_dt;
    if (!kernel_converts(prev_dt)) return dnnl_unimplemented;

    if (vec) {
        // Declining here hands the problem to the offset-table entry.
        if (layout::has_padding(*this->dst_md()) || has_binary_post_op(po)
                || !build_nest(nest, *this->dst_md(), tensors)
                || nest.nparts > nest_max_parts)
            return dnnl_unimplemented;
        width = nest_vector_width(nest, (int)(16 / max_size));
    } else {
        space = make_table_space(*this->dst_md(), true);
    }
    return dnnl_success;
}

template <bool vec>
status_t ocl_binary_t<vec>::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    opts.define("NEST", vec ? 1 : 0);
    opts.define("ALG", (int64_t)pd->alg());
    opts.define("IS_SELECT", pd->is_ternary() ? 1 : 0);
    define_data_type(opts, "SRC0", pd->src_md(0)->data_type);
    define_data_type(opts, "SRC1", pd->src_md(1)->data_type);
    define_data_type(opts, "DST", pd->dst_md()->data_type);
    define_data_type(opts, "PREV", pd->prev_dt);
    opts.define("WITH_SUM", pd->post_ops.has_sum() ? 1 : 0);
    for (int i = 0; i < 2; ++i) {
        const std::string n = "SC" + std::to_string(i);
        define_data_type(opts, n.c_str(), scale_dt(*pd, i));
        opts.define(("WITH_SCALE" + std::to_string(i)).c_str(),
                pd->with_scale(i) ? 1 : 0);
    }
    pd->post_ops.define(opts);
    if (vec) {
        const nest_t &n = pd->nest;
        opts.define("VEC", pd->width);
        opts.define("NEST_INT32", nest_fits_int32(n) ? 1 : 0);
        for (int t = 1; t < n.ntensors(); ++t)
            opts.define(("CONTIG_" + std::to_string(t)).c_str(),
                    n.inner_stride(t) != 0 ? 1 : 0);
        if (n.ntensors() < 4) opts.define("CONTIG_3", 0);
    } else {
        opts.define("VEC", 1);
        std::vector<int64_t> tabs;
        append_offset_table(tabs, *pd->dst_md(), pd->space);
        for (int i = 0; i < pd->n_srcs(); ++i)
            append_offset_table(tabs, *pd->src_md(i), pd->space);
        DNNL_CHECK(tables_.create(engine, tabs));
    }
    return create_kernel(engine, "binary/binary.cl", opts,
            vec ? "binary_vec" : "binary_any", kernel_);
}

template <bool vec>
status_t ocl_binary_t<vec>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const dim_t work =
            vec ? pd->nest.volume() / pd->width : table_space_volume(pd->space);
    if (work == 0) return dnnl_success;
    cl_mem src[3] = {nullptr, nullptr, nullptr}, scale[2] = {nullptr, nullptr};
    for (int i = 0; i < pd->n_srcs(); ++i)
        if (!(src[i] = mem_of(ctx, DNNL_ARG_SRC_0 + i))) {
            verbose_error("binary", "source %d has no gpu buffer", i);
            return dnnl_invalid_arguments;
        }
    for (int i = 0; i < 2; ++i)
        if (pd->with_scale(i)
                && !(scale[i] = mem_of(ctx,
                             DNNL_ARG_ATTR_SCALES | (DNNL_ARG_SRC_0 + i)))) {
            verbose_error("binary", "scale of source %d has no gpu buffer", i);
            return dnnl_invalid_arguments;
        }
    cl_mem dst = mem_of(ctx, DNNL_ARG_DST);
    if (!dst) {
        verbose_error("binary", "destination has no gpu buffer");
        return dnnl_invalid_arguments;
    }
    kernel_args_t args;
    args.mem(src[0]).mem(src[1]).mem(src[2]).mem(dst);
    if (vec) {
        std::vector<int> slots;
        for (int t = 0; t < pd->nest.ntensors(); ++t) slots.push_back(t);
        args.value(make_nest_args<4>(pd->nest, slots));
    } else {
        args.mem(tables_.mem()).value(pd->space);
    }
    args.mem(scale[0]).mem(scale[1]);
    pd->post_ops.set_args(args, ctx);
    const size_t lws = std::min<size_t>(256, kernel_.max_wg_size());
    return kernel_.enqueue(ctx, nd_range_t({(size_t)work}, {lws}), args);
}

template struct ocl_binary_t<true>;
template struct ocl_binary_t<false>;

const impl_list_item_t *binary_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_binary_t<true>::pd_t, binary_desc_t>},
            {create_pd<ocl_binary_t<false>::pd_t, binary_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
