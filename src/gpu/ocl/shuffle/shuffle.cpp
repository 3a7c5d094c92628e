// Shuffle on the gpu engine: checks, configuration, kernel specialisation
// and launch.
#include "gpu/ocl/shuffle/shuffle.hpp"

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_walk.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

status_t ocl_shuffle_t::pd_t::init(engine_t *) {
    if (!attr()->computes_as_default()) {
        const primitive_attr_t &a = *attr();
        if (!a.scales.empty() || !a.zero_points.empty()
                || !a.post_ops.entries.empty() || !a.rounding_modes.empty()) {
            verbose_check("shuffle", "gpu: attributes not supported");
            return dnnl_unimplemented;
        }
    }
    DNNL_CHECK(init_formats());
    const memory_desc_t &in = *in_md(), &out = *out_md();
    const size_t esz = data_type_size(in.data_type);
    if (in.data_type != out.data_type
            || (esz != 1 && esz != 2 && esz != 4 && esz != 8)) {
        verbose_check("shuffle", "gpu: one data type of 1, 2, 4 or 8 bytes");
        return dnnl_unimplemented;
    }
    // Beyond layout_max_ndims, the dims around the axis merged where both
    // tensors allow it.
    memory_desc_t kin = in, kout = out;
    memory_desc_t *kmds[] = {&kin, &kout};
    int map[max_ndims] = {};
    for (int d = 0; d < in.ndims; ++d) map[d] = d;
    if (in.ndims > layout_max_ndims
            && !fold_to_layout_dims(kmds, 2, 1u << axis(), map)) {
        verbose_check("shuffle",
                "gpu: more than %d dims that do not merge into fewer",
                layout_max_ndims);
        return dnnl_unimplemented;
    }
    if (!layout_supported(kin) || !layout_supported(kout)) {
        verbose_check("shuffle", "gpu: layout not supported");
        return dnnl_unimplemented;
    }
    init_conf(kin, kout, map[axis()]);
    return dnnl_success;
}

void ocl_shuffle_t::pd_t::init_conf(
        const memory_desc_t &in, const memory_desc_t &out, int axis) {
    generic = !fast_offsets_ok(in) || !fast_offsets_ok(out);
    int inner = 0;
    dim_t ext = 0, step = 0;
    walk_innermost(out, inner, ext, step);
    const int esz = (int)data_type_size(in.data_type);
    vec = generic || inner == axis || step != 1
                  ? 1
                  : pick_vec(16 / esz, [&](int v) {
                        return ext % v == 0 && lanes_contiguous(in, inner, v)
                               && lanes_contiguous(out, inner, v);
                    });
    walk_t walk;
    make_walk(out, walk, vec);
    work = layout::has_zero_dim(out) ? 0 : walk.volume;
    int32 = offsets_fit_int32(in) && offsets_fit_int32(out);
    const dim_t C = in.dims[axis];
    conf_t c;
    c.put(walk).put_tensor(in, generic).put_tensor(out, generic);
    for (int d = 0; d < walk_ndims; ++d) c.put(d < out.ndims ? out.dims[d] : 1);
    c.put(axis).put(C).put(is_fwd() ? group_size() : C / group_size());
    conf = c.values();
}

status_t ocl_shuffle_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    const size_t esz = data_type_size(pd->in_md()->data_type);
    opts.define("ELEM_T", std::string(esz == 1   ? "uchar"
                                      : esz == 2 ? "ushort"
                                      : esz == 4 ? "uint"
                                                 : "ulong"));
    opts.define("VEC", pd->vec);
    define_walk(opts, pd->generic, pd->int32);
    DNNL_CHECK(conf_.create(engine, pd->conf));
    return create_kernel(
            engine, "shuffle/shuffle.cl", opts, "shuffle_copy", kernel_);
}

status_t ocl_shuffle_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->work == 0) return dnnl_success;
    kernel_args_t args;
    args.mem(mem_of(ctx, pd->in_arg()))
            .mem(mem_of(ctx, pd->out_arg()))
            .mem(conf_.mem());
    return kernel_.enqueue(
            ctx, nd_range_t({(size_t)pd->work}, {(size_t)256}), args);
}

const impl_list_item_t *shuffle_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_shuffle_t::pd_t, shuffle_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
