// Concat on the gpu engine: per-source plans (nest or tables), kernels,
// launches, and the implementation list.
#include "gpu/ocl/concat/concat.hpp"

#include <algorithm>
#include <string>

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// dst restricted to [off, off + len) along `axis`, when that is again a
// blocked descriptor: the axis has at most one inner block, the slice
// starts on a block boundary and ends on one unless it is the last.
bool slice_of(const memory_desc_t &dst, int axis, dim_t off, dim_t len,
        memory_desc_t &slice) {
    const auto &b = dst.format_desc.blocking;
    dim_t blk = 1;
    int nblk = 0;
    for (int k = 0; k < b.inner_nblks; ++k)
        if (b.inner_idxs[k] == axis) {
            blk = b.inner_blks[k];
            ++nblk;
        }
    if (nblk > 1 || off % blk != 0) return false;
    if (len % blk != 0 && off + len != dst.dims[axis]) return false;
    slice = dst;
    slice.dims[axis] = len;
    slice.padded_dims[axis] = (len + blk - 1) / blk * blk;
    slice.offset0 += off / blk * b.strides[axis];
    return true;
}

data_type_t scale_dt(const concat_pd_t &pd, int i) {
    return pd.with_scale(i)
                   ? pd.attr()->scales.get(DNNL_ARG_MULTIPLE_SRC + i)->data_type
                   : dnnl_f32;
}

const char *raw_type(size_t bytes) {
    return bytes == 1 ? "uchar" : bytes == 2 ? "ushort" : "uint";
}

} // namespace

template <bool vec>
status_t ocl_concat_t<vec>::pd_t::init(engine_t *) {
    if (!this->attr()->post_ops.entries.empty()) return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    const int n = this->n_inputs();
    kernel_md.assign(1, *this->dst_md());
    for (int i = 0; i < n; ++i) kernel_md.push_back(*this->src_md(i));
    kernel_axis = this->axis();
    const memory_desc_t &dst = kernel_dst();
    size_t max_size = data_type_size(dst.data_type);
    for (int i = -1; i < n; ++i) {
        const memory_desc_t &md = i < 0 ? dst : kernel_src(i);
        if (!kernel_converts(md.data_type)
                || (i >= 0 && !kernel_supports(scale_dt(*this, i)))) {
            verbose_check("concat", "gpu: data type not supported");
            return dnnl_unimplemented;
        }
        max_size = std::max(max_size, data_type_size(md.data_type));
    }
    // The offset tables hold table_max_ndims dims: beyond, the dims
    // around the axis merged where every tensor allows it.
    if (dst.ndims > table_max_ndims) {
        std::vector<memory_desc_t *> kmds;
        for (auto &md : kernel_md) kmds.push_back(&md);
        int map[max_ndims] = {};
        if (!fold_to_layout_dims(
                    kmds.data(), (int)kmds.size(), 1u << kernel_axis, map)
                || dst.ndims > table_max_ndims) {
            verbose_check("concat",
                    "gpu: more than %d dims that do not merge into fewer",
                    table_max_ndims);
            return dnnl_unimplemented;
        }
        kernel_axis = map[kernel_axis];
    }
    const int axis = kernel_axis;
    plans.assign(n, plan_t());
    bool any_nest = false;
    for (int i = 0; i < n; ++i) {
        const memory_desc_t &src = kernel_src(i);
        plan_t &p = plans[i];
        if (md_nelems(src) == 0) continue;
        memory_desc_t slice;
        if (vec
                && slice_of(
                        dst, axis, this->axis_offset(i), src.dims[axis], slice)
                && build_nest(p.nest, src, {&src, &slice})
                && p.nest.nparts <= nest_max_parts) {
            p.by_nest = true;
            p.width = nest_vector_width(p.nest, (int)(16 / max_size));
            p.work = p.nest.volume() / p.width;
            any_nest = true;
        } else {
            p.space = make_table_space(src, false);
            p.work = table_space_volume(p.space);
        }
    }
    if (vec && !any_nest) return dnnl_unimplemented;
    zero_pad = layout::has_padding(dst) && md_nelems(dst) > 0;
    dst_space = make_table_space(dst, true);
    return dnnl_success;
}

template <bool vec>
status_t ocl_concat_t<vec>::init(engine_t *engine) {
    const pd_t *pd = pd_();
    const memory_desc_t &dst = pd->kernel_dst();
    std::vector<int64_t> tabs;
    for (int i = 0; i < pd->n_inputs(); ++i) {
        const auto &p = pd->plans[i];
        const memory_desc_t &src = pd->kernel_src(i);
        const bool raw = src.data_type == dst.data_type && !pd->with_scale(i);
        kernel_options_t opts;
        opts.define("RAW", raw ? 1 : 0);
        opts.define(
                "ELEM_T", std::string(raw_type(data_type_size(src.data_type))));
        define_data_type(opts, "SRC", src.data_type);
        define_data_type(opts, "DST", dst.data_type);
        define_data_type(opts, "SC", scale_dt(*pd, i));
        opts.define("WITH_SCALE", pd->with_scale(i) ? 1 : 0);
        opts.define("VEC", p.by_nest ? p.width : 1);
        opts.define("NEST_INT32", p.by_nest && nest_fits_int32(p.nest) ? 1 : 0);
        tab_start_.push_back((int64_t)tabs.size());
        if (p.work > 0 && !p.by_nest) {
            append_offset_table(tabs, src, p.space);
            append_offset_table(
                    tabs, dst, p.space, pd->kernel_axis, pd->axis_offset(i));
        }
        ocl_kernel_t k;
        if (p.work > 0)
            DNNL_CHECK(create_kernel(engine, "concat/concat.cl", opts,
                    p.by_nest ? "concat_vec" : "concat_any", k));
        kernels_.push_back(k);
    }
    zero_pad_start_ = (int64_t)tabs.size();
    if (pd->zero_pad) {
        append_offset_table(tabs, dst, pd->dst_space);
        kernel_options_t opts;
        opts.define("RAW", 0);
        opts.define("ELEM_T", std::string("uint"));
        define_data_type(opts, "SRC", dst.data_type);
        define_data_type(opts, "DST", dst.data_type);
        define_data_type(opts, "SC", dnnl_f32);
        opts.define("WITH_SCALE", 0);
        opts.define("VEC", 1);
        opts.define("NEST_INT32", 0);
        DNNL_CHECK(create_kernel(engine, "concat/concat.cl", opts,
                "concat_zero_pad", zero_pad_));
    }
    if (!tabs.empty()) DNNL_CHECK(tables_.create(engine, tabs));
    return dnnl_success;
}

template <bool vec>
status_t ocl_concat_t<vec>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const int n = pd->n_inputs();
    if (md_nelems(*pd->dst_md()) == 0) return dnnl_success;
    cl_mem dst = mem_of(ctx, DNNL_ARG_DST);
    if (!dst) {
        verbose_error("concat", "destination has no gpu buffer");
        return dnnl_invalid_arguments;
    }
    // Every argument is checked before the first launch.
    std::vector<cl_mem> src(n, nullptr), scale(n, nullptr);
    for (int i = 0; i < n; ++i) {
        if (pd->plans[i].work == 0) continue;
        src[i] = mem_of(ctx, DNNL_ARG_MULTIPLE_SRC + i);
        if (pd->with_scale(i))
            scale[i] = mem_of(
                    ctx, DNNL_ARG_ATTR_SCALES | (DNNL_ARG_MULTIPLE_SRC + i));
        if (!src[i] || (pd->with_scale(i) && !scale[i])) {
            verbose_error(
                    "concat", "source %d or its scale has no gpu buffer", i);
            return dnnl_invalid_arguments;
        }
    }
    for (int i = 0; i < n; ++i) {
        const auto &p = pd->plans[i];
        if (p.work == 0) continue;
        kernel_args_t args;
        args.mem(src[i]).mem(dst);
        if (p.by_nest)
            args.value(make_nest_args<2>(p.nest, {0, 1}));
        else
            args.mem(tables_.mem()).i64(tab_start_[i]).value(p.space);
        args.mem(scale[i]);
        const size_t lws = std::min<size_t>(256, kernels_[i].max_wg_size());
        DNNL_CHECK(kernels_[i].enqueue(
                ctx, nd_range_t({(size_t)p.work}, {lws}), args));
    }
    if (pd->zero_pad) {
        kernel_args_t args;
        args.mem(dst)
                .mem(tables_.mem())
                .i64(zero_pad_start_)
                .value(pd->dst_space);
        const size_t lws = std::min<size_t>(256, zero_pad_.max_wg_size());
        DNNL_CHECK(zero_pad_.enqueue(ctx,
                nd_range_t({(size_t)table_space_volume(pd->dst_space)}, {lws}),
                args));
    }
    return dnnl_success;
}

template struct ocl_concat_t<true>;
template struct ocl_concat_t<false>;

const impl_list_item_t *concat_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_concat_t<true>::pd_t, concat_desc_t>},
            {create_pd<ocl_concat_t<false>::pd_t, concat_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
