// Sum on the gpu engine: checks, batches of sources, launches, and the
// implementation list.
#include "gpu/ocl/sum/sum.hpp"

#include <algorithm>
#include <string>

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

template <bool vec>
status_t ocl_sum_t<vec>::pd_t::init(engine_t *) {
    if (!this->attr()->post_ops.entries.empty()
            || !this->attr()->scales.empty())
        return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    const int n = this->n_inputs();
    std::vector<const memory_desc_t *> tensors = {this->dst_md()};
    for (int i = 0; i < n; ++i) tensors.push_back(this->src_md(i));
    size_t max_size = 4; // the accumulator
    for (const memory_desc_t *md : tensors) {
        if (!kernel_converts(md->data_type)) {
            verbose_check("sum", "gpu: data type not supported");
            return dnnl_unimplemented;
        }
        // The nest merges dims that stay contiguous together; the offset
        // tables hold at most table_max_ndims.
        if (!vec && md->ndims > table_max_ndims) {
            verbose_check("sum",
                    "gpu: more than %d dims that do not merge into fewer",
                    table_max_ndims);
            return dnnl_unimplemented;
        }
        max_size = std::max(max_size, data_type_size(md->data_type));
    }
    dim_t acc_elems = 0;
    if (vec) {
        if (layout::has_padding(*this->dst_md())
                || !build_nest(nest, *this->dst_md(), tensors)
                || nest.nparts > nest_max_parts)
            return dnnl_unimplemented;
        nest.add_dense_tensor();
        width = nest_vector_width(nest, (int)(16 / max_size));
        acc_elems = nest.volume();
    } else {
        space = make_table_space(*this->dst_md(), true);
        acc_elems = table_space_volume(space);
    }
    if (n_batches() > 1) this->book_scratchpad(acc_elems * sizeof(float));
    return dnnl_success;
}

template <bool vec>
status_t ocl_sum_t<vec>::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const int n = pd->n_inputs();
    // One program per batch: the batches' data types may differ (the
    // kernel cache gives equal batches one program).
    for (int b = 0; b < pd->n_batches(); ++b) {
        const int first = b * sum_batch, cnt = std::min(sum_batch, n - first);
        kernel_options_t opts;
        opts.define("NEST", vec ? 1 : 0);
        opts.define("NSRC", cnt);
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        for (int k = 0; k < sum_batch; ++k)
            define_data_type(opts, ("SRC" + std::to_string(k)).c_str(),
                    k < cnt ? pd->src_md(first + k)->data_type : dnnl_f32);
        opts.define("VEC", vec ? pd->width : 1);
        if (vec) opts.define("NEST_INT32", nest_fits_int32(pd->nest) ? 1 : 0);
        ocl_kernel_t k;
        DNNL_CHECK(create_kernel(
                engine, "sum/sum.cl", opts, vec ? "sum_vec" : "sum_any", k));
        kernels_.push_back(k);
    }
    if (!vec) {
        std::vector<int64_t> tabs;
        append_offset_table(tabs, *pd->dst_md(), pd->space);
        for (int i = 0; i < n; ++i)
            append_offset_table(tabs, *pd->src_md(i), pd->space);
        DNNL_CHECK(tables_.create(engine, tabs));
    }
    return dnnl_success;
}

template <bool vec>
status_t ocl_sum_t<vec>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const int n = pd->n_inputs();
    const dim_t work =
            vec ? pd->nest.volume() / pd->width : table_space_volume(pd->space);
    if (work == 0) return dnnl_success;
    cl_mem dst = mem_of(ctx, DNNL_ARG_DST);
    std::vector<cl_mem> src(n);
    for (int i = 0; i < n; ++i)
        if (!(src[i] = mem_of(ctx, DNNL_ARG_MULTIPLE_SRC + i))) {
            verbose_error("sum", "source %d has no gpu buffer", i);
            return dnnl_invalid_arguments;
        }
    cl_mem acc = pd->n_batches() > 1 ? scratchpad_of(ctx) : nullptr;
    if (!dst || (pd->n_batches() > 1 && !acc)) {
        verbose_error("sum", "destination or scratchpad has no gpu buffer");
        return dnnl_invalid_arguments;
    }
    const size_t lws = std::min<size_t>(256, kernels_[0].max_wg_size());
    for (int b = 0; b < pd->n_batches(); ++b) {
        const int first = b * sum_batch, cnt = std::min(sum_batch, n - first);
        kernel_args_t args;
        args.mem(dst).mem(acc);
        for (int k = 0; k < sum_batch; ++k)
            args.mem(k < cnt ? src[first + k] : nullptr);
        if (vec) {
            std::vector<int> slots = {0, n + 1};
            for (int k = 0; k < cnt; ++k) slots.push_back(1 + first + k);
            args.value(make_nest_args<2 + sum_batch>(pd->nest, slots));
        } else {
            args.mem(tables_.mem()).value(pd->space).i64(first);
        }
        struct {
            float s[sum_batch];
        } scales = {};
        for (int k = 0; k < cnt; ++k) scales.s[k] = pd->scale(first + k);
        args.value(scales)
                .i32(b > 0 ? 1 : 0)
                .i32(b + 1 < pd->n_batches() ? 1 : 0);
        DNNL_CHECK(kernels_[b].enqueue(
                ctx, nd_range_t({(size_t)work}, {lws}), args));
    }
    return dnnl_success;
}

template struct ocl_sum_t<true>;
template struct ocl_sum_t<false>;

const impl_list_item_t *sum_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_sum_t<true>::pd_t, sum_desc_t>},
            {create_pd<ocl_sum_t<false>::pd_t, sum_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
